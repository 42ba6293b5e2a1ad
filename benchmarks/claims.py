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
`FIELD!=VALUE` any other, `FIELD>=NUMBER` and `FIELD<=NUMBER` a number at
or above and at or below the bound, `mae.1-2<=10` an entry's). The claims
over the rows of any task (`CLAIMS`) are these; each task folder declares
those of its own rows in its `claims` module
(`benchmarks/<folder>/claims.py` lists them: Trask's `score`, the NRU's
`converged`, ...; the speed measurements' in
`benchmarks/speed/claims.py`), found through `benchmarks.registry`:

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
  `outside_sparsity_joint_means FILES`: our means and the paper's of
  those ("7.2·10⁻⁹-5.0·10⁻⁵ against 1.0·10⁻¹⁶-2.1·10⁻⁵");
- `success FILE FIELD=VALUE ...`: the success rate of the rows whose fields
  match ("28 %"); `solved FILES FIELD=VALUE ...`: "7 of 25"; `runs FILE
  FIELD=VALUE ...`: how many rows match ("5 175");
- `summary FILES`: the table of every configuration's success, solved-at
  and sparsity error beside the paper's (`benchmarks.report`'s columns);
- `differences FILES`: the table rows of every configuration whose success
  differs from the paper's at p < 0.05, with the verdict of its experiment
  from `benchmarks/results/verdicts.csv` ("no verdict" where none is
  recorded, so a new difference cannot pass unnoticed);
- `mean FILE FIELD FIELD=VALUE ...`, `median ...`, `maximum ...`,
  `range ...` ("0.86-0.94"): of a
  numeric field (`test_mse.1000`: the entry "1000" of a field, `series.3`
  the fourth value of a list) of
  the matching rows ("0.66", "2.8·10⁻⁴"); `percent_range ...`: the range of
  a fraction in percent ("87-96"); `field_ratio FILE FIELD BY
  FIELD=VALUE ...`: the range of FIELD over BY ("1.5-29"); `below FILE FIELD BOUND
  FIELD=VALUE ...`: how many are below the bound ("27 of 100"); `at_best
  FILE FIELD BY FIELD=VALUE ...`: FIELD of the matching row of lowest BY
  (the test MAE of the run chosen by validation MAE);
- `paper TABLE COLUMN SPEC FIELD=VALUE ...`: a number quoted from a
  paper, read from a task's published table (a CSV, relative to
  `benchmarks/`): COLUMN of the rows matching the filters, one value or
  "low-high", formatted by SPEC (".0%": "40 %"; `-`: as `mean` writes);
- `changed FILE EARLIER FIELD FIELD=VALUE ...`: how many matching rows
  of FILE differ in FIELD from the row of the same configuration and seed
  in EARLIER ("0 of 450": identical);
- `value FILE FIELD SPEC FIELD=VALUE ...`: FIELD of the one matching row
  in a Python format spec ("3.25" for `.2f`, "33.8 %" for `.1%`);
- `provenance_table`: the files the pages use (named by a claim or, by
  file name, in the text) whose rows do not all name a clean commit, with
  how many name none and the commit stated for them in
  `results/stated_commits.csv` (rows made before rows recorded their
  commit: the commit the run's log or page names);
- `hours FILE FIELD=VALUE ...` (the runs' wall time summed) and `minutes
  FILE FIELD=VALUE ...` (their wall times, "4-7.5");
- `reproductions RECORD FIELD=VALUE ...`: the table of a record of
  `python -m benchmarks.reproduce --record` (rows file, line, the commits
  it was made and re-run at, verdict, the fields that differ);
  `reruns_alike RECORD COMMIT OTHER`: how many rows re-run at both
  commits came out alike ("3 of 3").

`--check` of every page also fails if a page uses (by a claim, or by its
file name in the text) a row made with uncommitted changes (`dirty`) or a
file whose rows name no commit and have none stated, and on a result
number typed outside a claim ("97 of 100", "12 minutes", "3.4x",
"2.98·10⁵"; see `benchmarks.typed_results`); `--typed` lists every
such number. `--check PAGE.md ...` checks the named pages' claims and
typed numbers (the repository's README, whose figures are claims too).
"""

import argparse
import csv
import functools
import glob
import json
import os
import re
import sys

from benchmarks import registry
from benchmarks import typed_results
from benchmarks.core import claim_rows
from benchmarks.core import success
from benchmarks.core.claim_rows import Claim
from benchmarks.core.claim_rows import field as field_of
from benchmarks.core.claim_rows import field_values
from benchmarks.core.claim_rows import files_rows
from benchmarks.core.claim_rows import matching
from benchmarks.core.claim_rows import pretty
from benchmarks.core.claim_rows import selected
from benchmarks.core.claim_rows import spaced
from benchmarks.core.claim_rows import span
from benchmarks.core.rows import row_key
from benchmarks.core.rows import values_agree


def pages():
    """Every results page: the index, each task folder's RESULTS.md and the
    docs site's page on the benchmarks."""
    index = os.path.join(claim_rows.ROOT, "results", "README.md")
    docs = os.path.join(os.path.dirname(claim_rows.ROOT), "docs", "benchmarks.md")
    found = [
        index,
        *sorted(glob.glob(os.path.join(claim_rows.ROOT, "*", "RESULTS.md"))),
    ]
    return found + [docs] if os.path.exists(docs) else found


CLAIM = re.compile(r"<!--= (?P<claim>.*?) -->(?P<value>.*?)<!--/-->", re.DOTALL)


def _summaries(arguments):
    """The configurations of the files' rows (those matching the claim's
    FIELD=VALUE filters, if it has any), and the published values."""
    return success.summarize(files_rows(arguments)), registry.published()


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
    rows = matching(path, filters)
    found = success.pooled_test(success.summarize(rows), registry.published())
    if found is None:
        raise ValueError(f"No configuration of {path} matching {filters} is published.")
    ours, theirs, runs, p = found
    return f"{ours} of {spaced(runs)} against the survey's {theirs} (p = {p:.2g})"


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
        for row in matching(path, filters)
    ]
    summaries, published = success.summarize(rows), registry.published()
    _, total = success.agreement(summaries, published)
    return f"{len(success.flagged(summaries, published))} of {total}"


def fisher(path, *filters):
    summaries = success.summarize(matching(path, filters))
    if len(summaries) != 1:
        raise ValueError(
            f"A Fisher claim needs one configuration; {' '.join(filters)} "
            f"matches {len(summaries)} in {path}."
        )
    return f"{success.fisher_test(summaries[0], registry.published()):.2g}"


def summary(*paths):
    return success.compact_markdown(*_summaries(paths))


def mean(path, field, *filters):
    values = field_values(path, field, filters)
    return pretty(sum(values) / len(values))


def median(path, field, *filters):
    values = sorted(field_values(path, field, filters))
    middle = len(values) // 2
    if len(values) % 2:
        return pretty(values[middle])
    return pretty((values[middle - 1] + values[middle]) / 2)


def value_range(path, field, *filters):
    """ "low-high" of a field over the matching rows."""
    return span(field_values(path, field, filters))


def percent_range(path, field, *filters):
    """ "low-high" of a fraction field over the matching rows, in percent
    ("87-96")."""
    return span([100 * v for v in field_values(path, field, filters)])


def field_ratio(path, numerator, denominator, *filters):
    """ "low-high" of one field over another in the matching rows (an MSE
    over its threshold: "1.5-29")."""
    rows = matching(path, filters)
    return span([field_of(row, numerator) / field_of(row, denominator) for row in rows])


def maximum(path, field, *filters):
    return pretty(max(field_values(path, field, filters)))


def value(path, field, spec, *filters):
    """`field` of the one matching row, formatted by the format spec
    `spec` (".2f": "3.25"; ".1%": "33.8 %")."""
    rows = matching(path, filters)
    if len(rows) != 1:
        raise ValueError(
            f"A value claim needs one row; {' '.join(filters)} matches "
            f"{len(rows)} in {path}."
        )
    return format(field_of(rows[0], field), spec).replace("%", " %")


def _published_number(table, column, cell):
    """A published cell as (bound, number): bound "<" or ">" where the paper
    prints only a bound ("<0.0001"), else ""."""
    bound = cell[0] if cell[0] in "<>" else ""
    try:
        return bound, float(cell[len(bound) :])
    except ValueError:
        raise ValueError(f"{table}: a {column} of {cell!r} is not a number.") from None


def paper(table, column, spec, *filters):
    """COLUMN of the published TABLE's rows (a CSV of a task's `published/`
    folder, relative to `benchmarks/`) that the filters select (`_selected`):
    one value, or "low-high" over several; formatted by the Python format
    spec SPEC (".0%": "40 %"), or as the pages write numbers for `-`. Cells
    the paper prints as a bound ("<0.0001") are quoted as one ("< 1.0·10⁻⁴")
    when every selected cell is the same bound."""
    with open(claim_rows.file_path(table), encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    cells = [row[column] for row in selected(rows, filters)]
    found = [_published_number(table, column, cell) for cell in cells if cell]
    if not found:
        raise ValueError(
            f"No row of {table} with a {column} matches {' '.join(filters)}."
        )
    bounds = {bound for bound, _ in found}
    if bounds != {""} and len(set(found)) > 1:
        raise ValueError(
            f"{table}'s {column} of the rows matching {' '.join(filters)} "
            "mixes a bound with other cells; quote them in separate claims."
        )
    values = [number for _, number in found]
    if spec == "-":
        text = span(values)
    else:
        low, high = (
            format(v, spec).replace("%", " %") for v in (min(values), max(values))
        )
        text = low if low == high else f"{low}-{high}"
    return f"{found[0][0]} {text}" if found[0][0] else text


def changed(path, earlier, field, *filters):
    """How many of the matching rows of `path` differ in `field` from the
    row of the same configuration and seed in the file `earlier` ("25 of
    225"; "0 of 450": bit-identical in that field, NaN alike with NaN)."""
    before = {row_key(row): row for row in claim_rows.rows(earlier)}
    rows = [row for row in matching(path, filters) if row_key(row) in before]
    if not rows:
        raise ValueError(f"No row of {path} matching {filters} is in {earlier}.")
    differing = sum(
        not values_agree(field_of(row, field), field_of(before[row_key(row)], field))
        for row in rows
    )
    return f"{spaced(differing)} of {spaced(len(rows))}"


def at_best(path, field, by, *filters):
    """`field` of the matching row with the lowest `by` (e.g. the test MAE
    of the run chosen by validation MAE)."""
    best = min(matching(path, filters), key=lambda row: field_of(row, by))
    return pretty(field_of(best, field))


def below(path, field, bound, *filters):
    values = field_values(path, field, filters)
    return f"{sum(value < float(bound) for value in values)} of {len(values)}"


def _outside(paths, name, field, joint=False):
    summaries, published = _summaries(paths)
    found, total = success.count_outside(summaries, published, name, field, joint)
    return f"{found} of {total}"


def outside_solved_at_joint(*paths):
    return _outside(paths, "solved_at_mean", "solved_at", joint=True)


def outside_sparsity_joint(*paths):
    return _outside(paths, "sparsity_error_mean", "sparsity", joint=True)


def outside_sparsity_joint_means(*paths):
    """ "A-B against C-D": our sparsity means and the paper's of the
    configurations `outside_sparsity_joint` counts."""
    summaries, published = _summaries(paths)
    differing, _ = success.compared_means(
        summaries, published, "sparsity_error_mean", "sparsity", joint=True
    )
    if not differing:
        raise ValueError(f"No sparsity mean of {' '.join(paths)} differs so.")
    ours, theirs = zip(*differing)
    return f"{span(ours)} against {span(theirs)}"


def outside_solved_at(*paths):
    return _outside(paths, "solved_at_mean", "solved_at")


def outside_sparsity(*paths):
    return _outside(paths, "sparsity_error_mean", "sparsity")


def _percent(fraction):
    return f"{fraction:.0%}".replace("%", " %")


def success_rate(path, *filters):
    rows = matching(path, filters)
    return _percent(sum(row["solved"] for row in rows) / len(rows))


def runs(path, *filters):
    """How many rows match ("5 175")."""
    return spaced(len(matching(path, filters)))


def solved(*arguments):
    rows = files_rows(arguments)
    return f"{spaced(sum(row['solved'] for row in rows))} of {spaced(len(rows))}"


def _verdict_of(key, verdicts):
    found = claim_rows.verdict_of(
        verdicts, key.task, key.unit, key.operation, key.interpolation, key.steps
    )
    return found or ("**no verdict**", "")


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
        configuration += f", {spaced(key.steps)} steps"
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
    verdicts = claim_rows.verdicts()
    rows = [
        _difference_row(s, published, verdicts)
        for s in success.flagged(summaries, published)
    ]
    return "\n".join([DIFFERENCES_HEADER, *rows])


def hours(path, *filters):
    """The matching runs' wall time summed, in hours ("10.2")."""
    seconds = [row["wall_seconds"] for row in matching(path, filters)]
    return f"{sum(seconds) / 3600:.3g}"


def minutes(path, *filters):
    """The matching runs' wall times, in minutes: "4-7.5" from the
    quickest to the slowest."""
    return span([row["wall_seconds"] / 60 for row in matching(path, filters)])


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
    for full in glob.glob(
        os.path.join(claim_rows.ROOT, "**", "*.jsonl"), recursive=True
    ):
        if re.search(rf"\b{re.escape(os.path.basename(full))}\b", text):
            files.add(os.path.relpath(full, claim_rows.ROOT))
    return sorted(files)


def stated_commits():
    """{file: (commit, where it is stated)} from `stated_commits.csv` beside
    the rows: the commits of files whose rows predate the `commit` field."""
    path = os.path.join(claim_rows.ROOT, "results", "stated_commits.csv")
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
        rows = claim_rows.rows(path)
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


def _recorded_at(path, commit):
    """{(file, line): the record's line} of the re-runs at `commit` (a
    prefix) in a record of `python -m benchmarks.reproduce --record`."""
    found = {
        (row["file"], row["line"]): row
        for row in claim_rows.rows(path)
        if row["commit"].startswith(commit)
    }
    if not found:
        raise ValueError(f"No re-run of {path} was made at commit {commit}.")
    return found


def reruns_alike(path, commit, other):
    """How many rows re-run at both commits (prefixes) of a reproduction
    record came out alike, field for field ("3 of 3")."""
    first, second = _recorded_at(path, commit), _recorded_at(path, other)
    both = first.keys() & second.keys()
    if not both:
        raise ValueError(f"No row of {path} was re-run at {commit} and {other}.")
    alike = sum(first[key]["differences"] == second[key]["differences"] for key in both)
    return f"{alike} of {len(both)}"


def _stored_commit(record):
    """The commit the re-run row was made at, read from its rows file."""
    rows_file = os.path.join(os.path.dirname(claim_rows.ROOT), record["file"])
    with open(rows_file, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if number == record["line"]:
                return json.loads(line).get("commit")
    raise ValueError(f"{record['file']} has no line {record['line']}.")


def _stated(file):
    """The commit `stated_commits.csv` states for a rows file's rows."""
    commit, _ = stated_commits().get(file, ("", ""))
    return f"{commit[:7]} (stated)" if commit else "none named"


def reproductions(path, *filters):
    """The table of a reproduction record's matching re-runs: the rows
    file and line, the commits the row was made and re-run at, the
    verdict and the fields that differ."""
    lines = [
        "| rows file | line | made at | re-run at | verdict | fields that differ |",
        "|---|---:|---|---|---|---|",
    ]
    for record in matching(path, filters):
        file = record["file"].removeprefix("benchmarks/")
        made = (_stored_commit(record) or "")[:7] or _stated(file)
        fields = ", ".join(f"`{field}`" for field in record["differences"]) or "—"
        lines.append(
            f"| `{file}` | {record['line']} | {made} | {record['commit'][:7]} "
            f"| {record['verdict']} | {fields} |"
        )
    return "\n".join(lines)


#: The claims over the rows of any task; each task folder declares its
#: own beside them (`benchmarks.registry.claims`).
CLAIMS = {
    "inside": Claim(inside),
    "flagged": Claim(flagged),
    "outside_solved_at": Claim(outside_solved_at),
    "outside_sparsity": Claim(outside_sparsity),
    "outside_solved_at_joint": Claim(outside_solved_at_joint),
    "outside_sparsity_joint": Claim(outside_sparsity_joint),
    "outside_sparsity_joint_means": Claim(outside_sparsity_joint_means),
    "unflagged": Claim(unflagged),
    "outside_unflagged": Claim(outside_unflagged),
    "outside_unflagged_table": Claim(outside_unflagged_table, table=True),
    "pooled": Claim(pooled),
    "fisher": Claim(fisher),
    "flagged_as": Claim(flagged_as),
    "success": Claim(success_rate),
    "solved": Claim(solved),
    "runs": Claim(runs),
    "differences": Claim(differences, table=True),
    "summary": Claim(summary, table=True),
    "mean": Claim(mean),
    "median": Claim(median),
    "maximum": Claim(maximum),
    "range": Claim(value_range),
    "percent_range": Claim(percent_range),
    "field_ratio": Claim(field_ratio),
    "below": Claim(below),
    "at_best": Claim(at_best),
    "changed": Claim(changed),
    "value": Claim(value),
    "paper": Claim(paper),
    "hours": Claim(hours),
    "minutes": Claim(minutes),
    "provenance_table": Claim(provenance_table, table=True),
    "reproductions": Claim(reproductions, table=True),
    "reruns_alike": Claim(reruns_alike),
}


@functools.cache
def known_claims():
    """{name: Claim}: `CLAIMS` and those the task folders declare."""
    declared = registry.claims()
    shared = CLAIMS.keys() & declared.keys()
    if shared:
        raise ValueError(f"A folder declares a claim of every task: {sorted(shared)}.")
    return {**CLAIMS, **declared}


def evaluate(claim):
    """The text of one claim (`NAME ARGUMENT ...`)."""
    name, *arguments = claim.split()
    known = known_claims()
    if name not in known:
        raise ValueError(f"Unknown claim {name!r}; known: {sorted(known)}.")
    value = known[name].compute(*arguments)
    return f"\n{value}\n" if known[name].table else value


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


def _typed_results():
    """The result numbers typed outside claims on the pages
    (`benchmarks.typed_results`)."""
    return typed_results.problems(pages(), os.path.dirname(claim_rows.ROOT))


def _list_typed(paths):
    """Prints every result number typed outside a claim on the pages."""
    for problem in typed_results.problems(paths, os.getcwd()):
        print(problem)
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
        problems += [f"typed: {problem}" for problem in _typed_results()]
    elif args.check:
        typed = typed_results.problems(args.pages, os.getcwd())
        problems = [f"typed: {problem}" for problem in typed]
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
