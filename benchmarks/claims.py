"""The numbers of the results pages, regenerated from the committed rows.

    python -m benchmarks.claims [--check | --typed] [PAGE.md ...]

A number on a results page (`benchmarks/results/README.md`, each task's
`benchmarks/<task>/RESULTS.md` and `docs/benchmarks.md`; all of them by
default) that comes from result rows or is quoted from a paper is
written as a claim: an HTML comment naming how to compute it, then the
value, then a closing comment (both comments are invisible once rendered):

    in <!--= inside single_module/paper_threefry2x32.jsonl -->176 of 207<!--/-->
    configurations

This command recomputes every claim from the rows (paths relative to
`benchmarks/`) and writes the values in place; `--check` writes
nothing, lists the claims whose text differs from the rows and exits 1 if
there is one. A claim is `NAME ARGUMENT ...` (a row filter `FIELD=VALUE`
matches rows whose field has that value, `FIELD=A|B` either,
`FIELD!=VALUE` any other); the names
(`CLAIMS`):

- `inside FILES`: how many published success rates lie in our 95 %
  interval ("176 of 207"; every claim over FILES takes FIELD=VALUE
  filters after them too); `flagged FILES`: how many differ at p < 0.05 (Fisher);
  `unflagged FILES`: how many do not; `outside_unflagged FILES`: how
  many lie outside our 95 % interval without differing so
  (`outside_unflagged_table FILES`: their table); `pooled FILE
  FIELD=VALUE ...`: the matching rows' successes against the survey's,
  pooled over configurations (Cochran-Mantel-Haenszel); `fisher FILE
  FIELD=VALUE ...`: the p-value of the one configuration the rows
  matching the filters make;
  `flagged_as FILE SUFFIX FIELD=VALUE ...`: "6 of 36" configurations of
  the matching Single Module rows that differ, a variant's unit compared
  with the paper's unit of its name without SUFFIX (`-`: none);
- `outside_solved_at FILES`, `outside_sparsity FILES`: published means of
  "solved at" / the sparsity error outside our 95 % interval (by more than
  their printed precision); `outside_solved_at_joint`,
  `outside_sparsity_joint`: those that differ from ours by more than both
  estimates' uncertainty (the paper's interval counted too);
- `success FILE FIELD=VALUE ...`: the success rate of the rows whose fields
  match ("28 %"); `solved FILE FIELD=VALUE ...`: "7 of 25"; `runs FILE
  FIELD=VALUE ...`: how many rows match ("5 175");
- `summary FILES`: the table of every configuration's success, solved-at
  and sparsity error beside the paper's (`benchmarks.report`'s columns);
  `gates FILES`: Madsen figure 9 as a table, runs (solved) by where the
  second layer's gate ends; `varied FILES FIELD=VALUE ...`: Madsen
  figures 3, 7 and 8 as a table, the × task's statistics by the one
  parameter a row varies, of the files' matching rows;
- `program_table FILE`: the program-evaluation table of a file's runs
  (MAE and accuracy per operand digits, mean ± 2σ);
- `range_grid FILES`: successes per unit, operation and input size (rows)
  and range of Mistry's table 3 (columns), blank where every seed succeeded;
- `differences FILES`: the table rows of every configuration whose success
  differs from the paper's at p < 0.05, with the verdict of its experiment
  from `benchmarks/results/verdicts.csv` ("no verdict" where none is
  recorded, so a new difference cannot pass unnoticed);
- `identity_outside FILE FIELD=VALUE ...`: how many of Trask's table 5
  means lie outside our interval (t-test, p < 0.05);
- `mean FILE FIELD FIELD=VALUE ...`, `median ...`, `maximum ...`,
  `range ...` ("0.86-0.94"): of a
  numeric field (`test_mse.1000`: the entry "1000" of a field, `series.3`
  the fourth value of a list) of
  the matching rows ("0.66", "2.8·10⁻⁴"); `percent_range ...`: the range of
  a fraction in percent ("87-96"); `below FILE FIELD BOUND
  FIELD=VALUE ...`: how many are below the bound ("27 of 100"); `at_best
  FILE FIELD BY FIELD=VALUE ...`: FIELD of the matching row of lowest BY
  (the test MAE of the run chosen by validation MAE);
- `paper TABLE COLUMN SPEC FIELD=VALUE ...`: a number quoted from a
  paper, read from a task's published table (a CSV, relative to
  `benchmarks/`): COLUMN of the rows matching the filters, one value or
  "low-high", formatted by SPEC (".0%": "40 %"; `-`: as `mean` writes);
- `percent_error FILE FIELD=VALUE ...`: Trask's table 5 "% error" of an
  identity file's matching rows, per activation ("98.5-99.1");
- `largest_change FILE EARLIER FIELD=VALUE ...`: the largest change, in
  percent, of an activation's mean error from EARLIER's ("2.9");
- `changed FILE EARLIER FIELD FIELD=VALUE ...`: how many matching rows
  of FILE differ in FIELD from the row of the same configuration and seed
  in EARLIER ("0 of 450": identical);
- `value FILE FIELD SPEC FIELD=VALUE ...`: FIELD of the one matching row
  in a Python format spec ("3.25" for `.2f`, "33.8 %" for `.1%`);
- `score FILE interpolation|extrapolation FIELD=VALUE ...`: Trask's score
  (table 7's against the model untrained, table 9's against the untrained
  LSTMs), median over seeds, of the matching configuration, or the range
  over several ("26.3-40.1"); `seeds_below FILE interpolation|extrapolation
  BOUND FIELD=VALUE ...`: how many matching runs, each scored on its own,
  score below BOUND ("2 of 3"); `raw_mse FILE interpolation|extrapolation
  FIELD=VALUE ...`: the raw MSE of tables 6 and 12, median over seeds (a
  diverged run infinite), likewise;
- `converged FILE FIELD=VALUE ...` ("2 of 3"), `converged_at ...` (the
  steps, "16 000, 21 000") and `best_range ...` (the best validation
  cross-entropies, "0.004-0.007") of the NRU paper's synthetic tasks;
- `converged_median FILE FIELD=VALUE ...` (the median step, "18 500"),
  `converged_ratio FILE model=A model=B` (A's steps over B's in the seeds
  where both converged, "1.1-1.6"), `at_step FILE STEP FIELD=VALUE ...`
  (one run's validation cross-entropy at an evaluated step), `hours
  FILE FIELD=VALUE ...` (the runs' wall time summed) and `minutes FILE
  FIELD=VALUE ...` (their wall times, "4-7.5");
- `ratio_to_solved FILE LENGTHS FIELD=VALUE ...`: a matched model's
  median test MSE over the solved accumulator's, its range over the
  sequence lengths ("8,10-14") of a sequential MNIST file and the models;
- `provenance_table`: the files the pages use (named by a claim or, by
  file name, in the text) whose rows do not all name a clean commit, with
  how many name none and the commit stated for them in
  `results/stated_commits.csv` (rows made before rows recorded their
  commit: the commit the run's log or page names);
- `table_one FILES`: the NRU paper's table 1 (top 1 and top 2 per model)
  from result files of one task each (`benchmarks.nru.rankings`);
- `speed_table FILE FIELD=VALUE ...`: each unit's training speed per
  backend and setting relative to Dense's (`benchmarks.speed.backend_speed`).

`--check` of every page also fails if a page uses (by a claim, or by its
file name in the text) a row made with uncommitted changes (`dirty`) or a
file whose rows name no commit and have none stated, and on a result
number typed outside a claim ("97 of 100", "12 minutes", "3.4x",
"2.98·10⁵"; see `benchmarks.typed_results`) beyond those
`results/typed_results.csv` still lists; `--typed` lists every such
number.
"""

import argparse
import collections
import csv
import functools
import glob
import math
import os
import re
import statistics
import sys

from benchmarks import registry
from benchmarks import typed_results
from benchmarks.arithmetic.gates import gate_table
from benchmarks.arithmetic.varied_parameters import varied_table
from benchmarks.core import success
from benchmarks.core.rows import read_rows
from benchmarks.core.rows import row_key
from benchmarks.data.arithmetic_task import SINGLE_MODULE_RANGES
from benchmarks.identity import report as identity
from benchmarks.language import programs_report as programs
from benchmarks.nru import rankings
from benchmarks.nru import synthetic_report as nru
from benchmarks.recurrent import report as trask_recurrent
from benchmarks.speed import backend_table

#: The directory the claims' paths are relative to: `benchmarks/`.
ROOT = os.path.dirname(os.path.abspath(__file__))
#: The verdicts on the configurations that differ from the papers.
VERDICTS = os.path.join(ROOT, "results", "verdicts.csv")


def pages():
    """Every results page: the index, each task folder's RESULTS.md and the
    docs site's page on the benchmarks."""
    index = os.path.join(ROOT, "results", "README.md")
    docs = os.path.join(os.path.dirname(ROOT), "docs", "benchmarks.md")
    found = [index, *sorted(glob.glob(os.path.join(ROOT, "*", "RESULTS.md")))]
    return found + [docs] if os.path.exists(docs) else found


CLAIM = re.compile(r"<!--= (?P<claim>.*?) -->(?P<value>.*?)<!--/-->", re.DOTALL)


def _rows(path):
    full = os.path.join(ROOT, path)
    if not os.path.exists(full):
        raise ValueError(f"A claim names {path!r}, which is not in {ROOT}.")
    return _read(full)


@functools.cache
def _read(full_path):
    return tuple(read_rows([full_path]))


def _all_rows(paths):
    return [row for path in paths for row in _rows(path)]


def _selected(rows, filters):
    """The rows whose fields equal every `FIELD=VALUE` filter (`FIELD=A|B`:
    either value; `FIELD!=VALUE`: any other value)."""
    wanted = {field: value.split("|") for field, value in map(_filter, filters)}
    return [
        row
        for row in rows
        if all(
            (str(row.get(field.rstrip("!"))) in values) != field.endswith("!")
            for field, values in wanted.items()
        )
    ]


def _matching(path, filters):
    """The rows of `path` that the filters select (`_selected`)."""
    rows = _selected(_rows(path), filters)
    if not rows:
        raise ValueError(f"No row of {path} matches {' '.join(filters)}.")
    return rows


def _filter(text):
    if "=" not in text:
        raise ValueError(f"A row filter is FIELD=VALUE, not {text!r}.")
    return text.split("=", 1)


def _paths_and_filters(arguments):
    """A claim's result files and its FIELD=VALUE filters."""
    paths = [argument for argument in arguments if "=" not in argument]
    return paths, [argument for argument in arguments if "=" in argument]


def _summaries(arguments):
    """The configurations of the files' rows (those matching the claim's
    FIELD=VALUE filters, if it has any), and the published values."""
    paths, filters = _paths_and_filters(arguments)
    rows = [row for path in paths for row in _matching(path, filters)]
    return success.summarize(rows), registry.published()


def inside(*paths):
    found, total = success.agreement(*_summaries(paths))
    return f"{found} of {total}"


def flagged(*paths):
    return str(len(success.flagged(*_summaries(paths))))


def unflagged(*paths):
    summaries, published = _summaries(paths)
    _, total = success.agreement(summaries, published)
    return str(total - len(success.flagged(summaries, published)))


def pooled(path, *filters):
    """The matching Single Module rows' successes against the survey's,
    pooled over their configurations (Cochran-Mantel-Haenszel): "16 of
    900 against the survey's 34 (p = 0.0095)"."""
    rows = _matching(path, filters)
    found = success.pooled_test(success.summarize(rows), registry.published())
    if found is None:
        raise ValueError(f"No configuration of {path} matching {filters} is published.")
    ours, theirs, runs, p = found
    return f"{ours} of {_spaced(runs)} against the survey's {theirs} (p = {p:.2g})"


def _outside_unflagged(summaries, published):
    """The configurations whose published rate lies outside our 95 %
    interval without differing significantly (p >= 0.05)."""
    flagged = {id(s) for s in success.flagged(summaries, published)}
    return [
        s
        for s in summaries
        if id(s) not in flagged and success.rate_inside(s, published) is False
    ]


def outside_unflagged(*paths):
    """How many published rates lie outside our 95 % interval without
    differing significantly (p >= 0.05)."""
    return str(len(_outside_unflagged(*_summaries(paths))))


def outside_unflagged_table(*paths):
    """The table of the configurations `outside_unflagged` counts."""
    summaries, published = _summaries(paths)
    rows = [
        "| ".join(_comparison_cells(s, published)) + "|"
        for s in _outside_unflagged(summaries, published)
    ]
    return "\n".join([OUTSIDE_HEADER, *rows])


def flagged_as(path, suffix, *filters):
    """Of the matching rows' configurations with a published rate, how many
    differ at p < 0.05, each row's unit read without `suffix` (a variant
    `npu_constrained` compared with the paper's `npu`; `-` for no suffix)."""
    suffix = "" if suffix == "-" else suffix
    rows = [
        {**row, "module": row["module"].removesuffix(suffix)}
        for row in _matching(path, filters)
    ]
    summaries, published = success.summarize(rows), registry.published()
    _, total = success.agreement(summaries, published)
    return f"{len(success.flagged(summaries, published))} of {total}"


def fisher(path, *filters):
    summaries = success.summarize(_matching(path, filters))
    if len(summaries) != 1:
        raise ValueError(
            f"A Fisher claim needs one configuration; {' '.join(filters)} "
            f"matches {len(summaries)} in {path}."
        )
    return f"{success.fisher_test(summaries[0], registry.published()):.2g}"


def summary(*paths):
    return success.compact_markdown(*_summaries(paths))


def varied(*arguments):
    paths, filters = _paths_and_filters(arguments)
    table = varied_table([row for path in paths for row in _matching(path, filters)])
    return f"\n{table}\n" if table else ""


def gates(*paths):
    table = gate_table(_all_rows(paths), success.unit_of, success.SYMBOLS)
    return f"\n{table}\n" if table else ""


def range_grid(*paths):
    """Successes per (unit, operation, inputs) and Mistry's table 3 range,
    blank where every seed succeeded."""
    ranges = [interpolation.to_text() for interpolation, _ in SINGLE_MODULE_RANGES]
    grid = {}
    for s in success.summarize(_all_rows(paths)):
        key = s.key
        row = (key.unit, success.SYMBOLS.get(key.operation, key.operation))
        cells = grid.setdefault((*row, key.input_size), {})
        cells[key.interpolation] = "" if s.solved == s.seeds else str(s.solved)
    lines = [
        "| unit, operation, inputs | "
        + " | ".join(success.range_label(text) for text in ranges)
        + " |",
        "|---|" + "---:|" * len(ranges),
    ]
    for (unit, symbol, inputs), cells in grid.items():
        values = " | ".join(cells.get(text, "—") for text in ranges)
        lines.append(f"| {unit}, {symbol}, {inputs} | {values} |")
    return "\n".join(lines)


_SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _pretty(value):
    """A number as the README writes it: 0.66, 26.2, 1 234, 2.8·10⁻⁴ (two
    significant digits, three from 10 to 100, whole numbers from 100)."""
    if value == 0:
        return "0"
    if 100 <= abs(value) < 1e6:
        return _spaced(round(value))
    if 10 <= abs(value) < 100:
        return f"{value:.3g}"
    if 1e-3 <= abs(value) < 10:
        return f"{value:.2g}"
    mantissa, exponent = f"{value:.1e}".split("e")
    return f"{mantissa}·10{str(int(exponent)).translate(_SUPERSCRIPTS)}"


def _field(row, name):
    """A row's field; `test_mse.1000` is the entry "1000" of `test_mse`,
    `loss_series.3` the fourth value of a list."""
    value = row
    for key in name.split("."):
        if isinstance(value, list) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        elif isinstance(value, dict) and key in value:
            value = value[key]
        else:
            raise ValueError(f"A row has no field {name!r}.")
    return value


def _field_values(path, field, filters):
    values = [_field(row, field) for row in _matching(path, filters)]
    missing = sum(value is None for value in values)
    if missing:
        raise ValueError(
            f"{field} is empty in {missing} of the {len(values)} rows of {path} "
            f"matching {' '.join(filters)}; filter them out (e.g. solved=True)."
        )
    return values


def mean(path, field, *filters):
    values = _field_values(path, field, filters)
    return _pretty(sum(values) / len(values))


def median(path, field, *filters):
    values = sorted(_field_values(path, field, filters))
    middle = len(values) // 2
    if len(values) % 2:
        return _pretty(values[middle])
    return _pretty((values[middle - 1] + values[middle]) / 2)


def value_range(path, field, *filters):
    """ "low-high" of a field over the matching rows."""
    return _span(_field_values(path, field, filters))


def percent_range(path, field, *filters):
    """ "low-high" of a fraction field over the matching rows, in percent
    ("87-96")."""
    return _span([100 * v for v in _field_values(path, field, filters)])


def maximum(path, field, *filters):
    return _pretty(max(_field_values(path, field, filters)))


def value(path, field, spec, *filters):
    """`field` of the one matching row, formatted by the format spec
    `spec` (".2f": "3.25"; ".1%": "33.8 %")."""
    rows = _matching(path, filters)
    if len(rows) != 1:
        raise ValueError(
            f"A value claim needs one row; {' '.join(filters)} matches "
            f"{len(rows)} in {path}."
        )
    return format(_field(rows[0], field), spec).replace("%", " %")


def _published_number(table, column, cell):
    try:
        return float(cell)
    except ValueError:
        raise ValueError(f"{table}: a {column} of {cell!r} is not a number.") from None


def paper(table, column, spec, *filters):
    """COLUMN of the published TABLE's rows (a CSV of a task's `published/`
    folder, relative to `benchmarks/`) that the filters select (`_selected`):
    one value, or "low-high" over several; formatted by the Python format
    spec SPEC (".0%": "40 %"), or as the pages write numbers for `-`."""
    path = os.path.join(ROOT, table)
    if not os.path.exists(path):
        raise ValueError(f"A claim names {table!r}, which is not in {ROOT}.")
    with open(path, encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    cells = [row[column] for row in _selected(rows, filters)]
    values = [_published_number(table, column, cell) for cell in cells if cell]
    if not values:
        raise ValueError(
            f"No row of {table} with a {column} matches {' '.join(filters)}."
        )
    if spec == "-":
        return _span(values)
    low, high = (format(v, spec).replace("%", " %") for v in (min(values), max(values)))
    return low if low == high else f"{low}-{high}"


def changed(path, earlier, field, *filters):
    """How many of the matching rows of `path` differ in `field` from the
    row of the same configuration and seed in the file `earlier` ("25 of
    225"; "0 of 450": bit-identical in that field)."""
    before = {row_key(row): row for row in _rows(earlier)}
    rows = [row for row in _matching(path, filters) if row_key(row) in before]
    if not rows:
        raise ValueError(f"No row of {path} matching {filters} is in {earlier}.")
    differing = sum(
        _field(row, field) != _field(before[row_key(row)], field) for row in rows
    )
    return f"{_spaced(differing)} of {_spaced(len(rows))}"


def at_best(path, field, by, *filters):
    """`field` of the matching row with the lowest `by` (e.g. the test MAE
    of the run chosen by validation MAE)."""
    best = min(_matching(path, filters), key=lambda row: _field(row, by))
    return _pretty(_field(best, field))


def below(path, field, bound, *filters):
    values = _field_values(path, field, filters)
    return f"{sum(value < float(bound) for value in values)} of {len(values)}"


def _scores(path, test, filters, per_seed=False):
    """Trask's scores (tables 7 and 9) of the configurations the matching
    rows make (of each seed's run, `per_seed`), each as its report computes
    it: the static task's against the same model untrained, the recurrent
    task's against the untrained LSTMs of the file's experiment."""
    groups = collections.defaultdict(list)
    for row in _matching(path, filters):
        experiment = trask_recurrent.experiment_of(row)
        seed = row["seed"] if per_seed else None
        groups[success.unit_of(row), row["operation"], experiment, seed].append(row)
    if _rows(path)[0]["task"] != "recurrent_trask":
        return [success.relative_score(members, test) for members in groups.values()]
    random = {}
    for row in _rows(path):
        random.setdefault(trask_recurrent.experiment_of(row), []).append(row)
    random = {
        key: trask_recurrent.random_lstm_mse(rows) for key, rows in random.items()
    }
    return [
        trask_recurrent.score(members, test, random[experiment][operation, test])
        for (_, operation, experiment, _), members in groups.items()
    ]


def seeds_below(path, test, bound, *filters):
    """How many of the matching runs score below `bound` on the `test`
    set, each run scored on its own ("2 of 3")."""
    scores = _scores(path, test, filters, per_seed=True)
    return f"{sum(score < float(bound) for score in scores)} of {len(scores)}"


def score(path, test, *filters):
    """The score on the `test` set of the configuration the filters match
    ("0.03"), or the range of several ("26.3-40.1"); "∞" for diverged."""
    return _span(_scores(path, test, filters))


def raw_mse(path, test, *filters):
    """The median MSE over seeds on the `test` set of the configuration the
    filters match ("0.0067"), or the range of several; "∞" for diverged."""
    groups = collections.defaultdict(list)
    for row in _matching(path, filters):
        groups[success.unit_of(row), row["operation"]].append(row)
    return _span([success.raw_mse(members, test) for members in groups.values()])


def _span(values):
    """ "low-high" of numbers as the README writes them, or one number
    where both print alike; "∞" for an infinite one."""
    low, high = (
        _pretty(v) if math.isfinite(v) else "∞" for v in (min(values), max(values))
    )
    return low if low == high else f"{low}-{high}"


def program_table(path):
    """The table of a file of program-evaluation runs (one task, one length)."""
    found = programs.experiments(_rows(path))
    if len(found) != 1:
        raise ValueError(f"{path} holds {len(found)} program experiments, not 1.")
    return "\n".join(programs.program_table(next(iter(found.values()))))


def _outside(paths, name, field, joint=False):
    summaries, published = _summaries(paths)
    found, total = success.count_outside(summaries, published, name, field, joint)
    return f"{found} of {total}"


def outside_solved_at_joint(*paths):
    return _outside(paths, "solved_at_mean", "solved_at", joint=True)


def outside_sparsity_joint(*paths):
    return _outside(paths, "sparsity_error_mean", "sparsity", joint=True)


def outside_solved_at(*paths):
    return _outside(paths, "solved_at_mean", "solved_at")


def outside_sparsity(*paths):
    return _outside(paths, "sparsity_error_mean", "sparsity")


def _percent(fraction):
    return f"{fraction:.0%}".replace("%", " %")


def success_rate(path, *filters):
    rows = _matching(path, filters)
    return _percent(sum(row["solved"] for row in rows) / len(rows))


def runs(path, *filters):
    """How many rows match ("5 175")."""
    return _spaced(len(_matching(path, filters)))


def solved(path, *filters):
    rows = _matching(path, filters)
    return f"{_spaced(sum(row['solved'] for row in rows))} of {_spaced(len(rows))}"


def load_verdicts():
    """{(task, unit, operation, interpolation range, steps): (verdict,
    experiment)} from `verdicts.csv` beside the rows; an empty `steps`
    matches every length of run."""
    with open(VERDICTS, encoding="utf-8") as handle:
        return {
            (
                row["task"],
                row["unit"],
                row["operation"],
                row["interpolation_range"],
                row["steps"],
            ): (row["verdict"], row["experiment"])
            for row in csv.DictReader(handle)
        }


def _verdict_of(key, verdicts):
    for steps in (str(key.steps), ""):
        found = verdicts.get(
            (key.task, key.unit, key.operation, key.interpolation, steps)
        )
        if found:
            return found
    return "**no verdict**", ""


def _comparison_cells(summary, published):
    """The cells of a configuration beside the paper's rate: "| table",
    configuration, ours, the paper's, Fisher's p (each cell's text after
    "| ")."""
    key, paper = summary.key, success.published_for(published, summary)
    configuration = (
        f"{key.unit} {success.SYMBOLS.get(key.operation, key.operation)}, "
        f"{success.range_label(key.interpolation)}"
    )
    if key.task != "single_module":
        configuration += f", {_spaced(key.steps)} steps"
    p = success.fisher_test(summary, published)
    return [
        f"| {paper['table']} ",
        f"{configuration} ",
        f"{summary.solved} of {summary.seeds} ",
        f"{_percent(float(paper['success_rate']))} ",
        f"{p:.2g} ",
    ]


def _difference_row(summary, published, verdicts):
    verdict, experiment = _verdict_of(summary.key, verdicts)
    experiment = f"`{experiment}`" if experiment else ""
    cells = [*_comparison_cells(summary, published), f"{verdict} ", f"{experiment} "]
    return "| ".join(cells) + "|"


COMPARISON_HEADER = "| paper, table | configuration | ours | paper | p (Fisher) "
DIFFERENCES_HEADER = (
    COMPARISON_HEADER + "| verdict | experiment |\n|---|---|---:|---:|---:|---|---|"
)
OUTSIDE_HEADER = COMPARISON_HEADER + "|\n|---|---|---:|---:|---:|"


def differences(*paths):
    summaries, published = _summaries(paths)
    verdicts = load_verdicts()
    rows = [
        _difference_row(s, published, verdicts)
        for s in success.flagged(summaries, published)
    ]
    return "\n".join([DIFFERENCES_HEADER, *rows])


def identity_outside(path, *filters):
    flags = identity.outside_published(_matching(path, filters))
    return f"{sum(flags.values())} of {len(flags)}"


def percent_error(path, *filters):
    """Table 5's "% error" of the matching rows' mean absolute error, per
    activation: one value, or "low-high" over several ("98.5-99.1")."""
    return _span(list(identity.percent_errors(_matching(path, filters)).values()))


def largest_change(path, earlier, *filters):
    """The largest change, in percent, of an activation's mean absolute
    error in the matching rows of an identity file from its mean in the
    file `earlier` ("2.9")."""
    now = identity.percent_errors(_matching(path, filters))
    before = identity.percent_errors(_matching(earlier, filters))
    return _pretty(max(abs(now[key] / before[key] - 1) * 100 for key in now))


def _spaced(number):
    return f"{number:,}".replace(",", " ")


def converged(path, *filters):
    rows = _matching(path, filters)
    reached = [nru.converged_at(row) for row in rows]
    return f"{sum(step is not None for step in reached)} of {len(rows)}"


def converged_at(path, *filters):
    reached = sorted(
        step
        for step in map(nru.converged_at, _matching(path, filters))
        if step is not None
    )
    return ", ".join(map(_spaced, reached)) or "—"


def best_range(path, *filters):
    values = [row["best_cross_entropy"] for row in _matching(path, filters)]
    low, high = f"{min(values):.2g}", f"{max(values):.2g}"
    return low if low == high else f"{low}-{high}"


def converged_median(path, *filters):
    """The median step at which the matching runs converged ("18 500")."""
    reached = [
        step
        for step in map(nru.converged_at, _matching(path, filters))
        if step is not None
    ]
    if not reached:
        raise ValueError(f"No run of {path} matching {' '.join(filters)} converged.")
    return _spaced(round(statistics.median(reached)))


def converged_ratio(path, slower, faster):
    """The range over seeds of the ratio of the steps at which the model
    `slower` and the model `faster` (`model=NAME`) converged, in the seeds
    where both did ("1.1-1.6")."""
    steps = [
        {row["seed"]: nru.converged_at(row) for row in _matching(path, [model])}
        for model in (slower, faster)
    ]
    ratios = [
        steps[0][seed] / steps[1][seed]
        for seed in steps[0].keys() & steps[1].keys()
        if steps[0][seed] and steps[1][seed]
    ]
    if not ratios:
        raise ValueError(f"No seed of {path} where {slower} and {faster} converged.")
    low, high = f"{min(ratios):.2g}", f"{max(ratios):.2g}"
    return low if low == high else f"{low}-{high}"


def at_step(path, step, *filters):
    """The validation cross-entropy of the one matching run at an
    evaluated step ("1.1·10⁻⁴")."""
    rows = _matching(path, filters)
    if len(rows) != 1:
        raise ValueError(
            f"at_step needs one row; {' '.join(filters)} matches {len(rows)}."
        )
    series = dict(
        zip(rows[0]["evaluation_steps"], rows[0]["validation_cross_entropy_series"])
    )
    if int(step) not in series:
        raise ValueError(f"Step {step} was not evaluated in {path}.")
    return _pretty(series[int(step)])


def hours(path, *filters):
    """The matching runs' wall time summed, in hours ("10.2")."""
    seconds = [row["wall_seconds"] for row in _matching(path, filters)]
    return f"{sum(seconds) / 3600:.3g}"


def minutes(path, *filters):
    """The matching runs' wall times, in minutes: "4-7.5" from the
    quickest to the slowest."""
    return _span([row["wall_seconds"] / 60 for row in _matching(path, filters)])


def _lengths(spec):
    """ "1-7,9,15-20" -> [1, ..., 7, 9, 15, ..., 20]."""
    lengths = []
    for part in spec.split(","):
        low, _, high = part.partition("-")
        lengths += range(int(low), int(high or low) + 1)
    return lengths


def ratio_to_solved(path, lengths, *filters):
    """The range, over the sequence `lengths` ("8,10-14") and the models
    matched, of a model's median test MSE over its matching runs divided by
    the solved accumulator's (`model=solved`) of the same file
    ("1.6-2.4")."""

    def medians(rows):
        return {
            length: statistics.median(row["test_mse"][str(length)] for row in rows)
            for length in _lengths(lengths)
        }

    models = collections.defaultdict(list)
    for row in _matching(path, filters):
        models[row["model"]].append(row)
    solved = medians(_matching(path, ["model=solved"]))
    return _span(
        [
            ours[length] / solved[length]
            for ours in map(medians, models.values())
            for length in ours
        ]
    )


def _used_files():
    """Every result file a results page uses: those its claims name and
    those its text names (by file name) among the rows files under
    `benchmarks/`."""
    files, text = set(), ""
    for page in pages():
        with open(page, encoding="utf-8") as handle:
            text += handle.read()
    for match in CLAIM.finditer(text):
        files.update(
            word for word in match["claim"].split()[1:] if word.endswith(".jsonl")
        )
    for full in glob.glob(os.path.join(ROOT, "**", "*.jsonl"), recursive=True):
        if re.search(rf"\b{re.escape(os.path.basename(full))}\b", text):
            files.add(os.path.relpath(full, ROOT))
    return sorted(files)


def stated_commits():
    """{file: (commit, where it is stated)} from `stated_commits.csv` beside
    the rows: the commits of files whose rows predate the `commit` field."""
    path = os.path.join(ROOT, "results", "stated_commits.csv")
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as handle:
        return {
            row["file"]: (row["commit"], row["source"])
            for row in csv.DictReader(handle)
        }


def _provenance():
    """[(file, rows, dirty rows, rows naming no commit)] of every used
    file whose rows do not all name a clean commit."""
    found = []
    for path in _used_files():
        rows = _rows(path)
        dirty = sum(bool(row.get("dirty")) for row in rows)
        unnamed = sum(not row.get("commit") for row in rows)
        if dirty or unnamed:
            found.append((path, len(rows), dirty, unnamed))
    return found


def provenance_table():
    """The files the pages use whose rows do not all name a clean
    commit (rows made before rows recorded their commit), with the commit
    stated for them."""
    stated = stated_commits()
    lines = [
        "| file | rows | dirty | no commit | commit stated |",
        "|---|---:|---:|---:|---|",
    ]
    for path, rows, dirty, unnamed in _provenance():
        commit, source = stated.get(path, ("", "none"))
        named = f"`{commit[:7]}` ({source})" if commit else source
        lines.append(f"| `{path}` | {rows} | {dirty} | {unnamed} | {named} |")
    return "\n".join(lines)


def provenance_problems():
    """Why the claims' rows are not all from known clean commits: one line
    per file with dirty rows or rows without a commit, stated or recorded."""
    stated = stated_commits()
    problems = []
    for path, _, dirty, unnamed in _provenance():
        if dirty:
            problems.append(f"{path}: rows made with uncommitted changes: {dirty}")
        if unnamed and path not in stated:
            problems.append(
                f"{path}: rows naming no commit: {unnamed}, "
                "and results/stated_commits.csv states none"
            )
    return problems


def speed_table(path, *filters):
    """Each unit's training speed per backend and setting, relative to
    Dense's (`benchmarks.speed.backend_speed`), of the matching rows."""
    return "\n".join(backend_table.speed_table(_matching(path, filters)))


def table_one(*paths):
    """The NRU paper's table 1 from result files, one task each."""
    return rankings.table_one([_rows(path) for path in paths])


CLAIMS = {
    "inside": inside,
    "flagged": flagged,
    "outside_solved_at": outside_solved_at,
    "outside_sparsity": outside_sparsity,
    "outside_solved_at_joint": outside_solved_at_joint,
    "outside_sparsity_joint": outside_sparsity_joint,
    "unflagged": unflagged,
    "outside_unflagged": outside_unflagged,
    "outside_unflagged_table": outside_unflagged_table,
    "pooled": pooled,
    "fisher": fisher,
    "flagged_as": flagged_as,
    "success": success_rate,
    "solved": solved,
    "runs": runs,
    "differences": differences,
    "summary": summary,
    "gates": gates,
    "varied": varied,
    "range_grid": range_grid,
    "program_table": program_table,
    "identity_outside": identity_outside,
    "percent_error": percent_error,
    "largest_change": largest_change,
    "mean": mean,
    "median": median,
    "maximum": maximum,
    "range": value_range,
    "percent_range": percent_range,
    "below": below,
    "at_best": at_best,
    "changed": changed,
    "value": value,
    "paper": paper,
    "score": score,
    "seeds_below": seeds_below,
    "raw_mse": raw_mse,
    "converged": converged,
    "converged_at": converged_at,
    "best_range": best_range,
    "table_one": table_one,
    "converged_median": converged_median,
    "converged_ratio": converged_ratio,
    "at_step": at_step,
    "hours": hours,
    "minutes": minutes,
    "ratio_to_solved": ratio_to_solved,
    "provenance_table": provenance_table,
    "speed_table": speed_table,
}


#: The claims that make whole tables (written on lines of their own).
TABLES = (
    "differences",
    "outside_unflagged_table",
    "summary",
    "range_grid",
    "program_table",
    "table_one",
    "provenance_table",
    "speed_table",
)


def evaluate(claim):
    """The text of one claim (`NAME ARGUMENT ...`)."""
    name, *arguments = claim.split()
    if name not in CLAIMS:
        raise ValueError(f"Unknown claim {name!r}; known: {sorted(CLAIMS)}.")
    value = CLAIMS[name](*arguments)
    return f"\n{value}\n" if name in TABLES else value


def regenerate(text):
    """(`text` with every claim recomputed, [(claim, old, new)] that changed)."""
    changed = []

    def replace(match):
        claim, old = match["claim"], match["value"]
        new = evaluate(claim)
        if new != old:
            changed.append((claim, old, new))
        return f"<!--= {claim} -->{new}<!--/-->"

    return CLAIM.sub(replace, text), changed


def _unlisted_typed_results():
    """The result numbers typed outside claims beyond those that
    `results/typed_results.csv` lists (`benchmarks.typed_results`)."""
    listed = typed_results.read_listed(
        os.path.join(ROOT, "results", "typed_results.csv")
    )
    return typed_results.unlisted(pages(), listed, os.path.dirname(ROOT))


def _list_typed(paths):
    """Prints every result number typed outside a claim on the pages."""
    for page in paths:
        with open(page, encoding="utf-8") as handle:
            for line, kind, text in typed_results.typed_results(handle.read()):
                print(f"{os.path.relpath(page)}:{line}: {text!r} ({kind})")
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.claims", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "pages", nargs="*", help="results pages (default: every one of them)"
    )
    parser.add_argument(
        "--check", action="store_true", help="list stale claims, write nothing"
    )
    parser.add_argument(
        "--typed",
        action="store_true",
        help="list the result numbers typed outside claims, write nothing",
    )
    args = parser.parse_args(argv)
    if args.typed:
        return _list_typed(args.pages or pages())
    stale = False
    for page in args.pages or pages():
        with open(page, encoding="utf-8") as handle:
            try:
                text, changed = regenerate(handle.read())
            except ValueError as error:
                parser.error(f"{page}: {error}")
        for claim, old, new in changed:
            print(f"{page}: {claim}: {old.strip()!r} -> {new.strip()!r}")
        stale |= bool(changed)
        if changed and not args.check:
            with open(page, "w", encoding="utf-8") as handle:
                handle.write(text)
    problems = []
    if args.check and not args.pages:
        problems = [f"provenance: {problem}" for problem in provenance_problems()]
        problems += [f"typed: {problem}" for problem in _unlisted_typed_results()]
    for problem in problems:
        print(problem)
    return 1 if args.check and (stale or problems) else 0


def _quietly_when_the_reader_stops(run):
    """`run()`'s status, or 0 when the reader of its output stopped reading
    (`--typed | head`): no traceback, and nothing more written."""
    try:
        status = run()
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return status


if __name__ == "__main__":
    sys.exit(_quietly_when_the_reader_stops(main))
