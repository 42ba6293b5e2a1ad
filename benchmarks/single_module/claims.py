"""The claims of the Single Module Task beyond its success rates, which
`benchmarks.claims` computes for every task judged by success
(`benchmarks.static_arithmetic.success`): `range_grid FILES`, the successes per unit,
operation and input size (rows) and range of Mistry's table 3 (columns),
blank where every seed succeeded, of the files' rows (those matching the
claim's FIELD=VALUE filters, if it has any); `aggregate_table TABLE
FILES`, each file's successes beside a published success rate over all
its configurations (TABLE, relative to `benchmarks/`: a row per unit with
its `module`, `input_size`, `operation`, `runs` and `success_rate`), with
Wilson's 95 % interval, Fisher's exact test against the published
count (the rate times its runs) and the verdict on a difference;
`variant_alike FILE EARLIER UNIT`, how many rows of a variant's FILE
(`inalu_keep_adam`) are alike with those of its UNIT (`inalu`) in the file
EARLIER ("897 of 900"); `sweeps_alike FILE OTHERS... FIELD=VALUE ...`,
how many of FILE's configurations have the same number of solved runs
in the matching rows of OTHERS ("205 of 207"), and `runs_alike FILE
FIELD OTHERS... FIELD=VALUE ...`, how many of FILE's solved runs have
the same FIELD, to the bit, as the same run in those rows ("1 779 of
2 021"): two sweeps of one protocol compared (made with two
generators), a variant's rows counted as its unit's (the NPUs made
before c840692, stored as `npu_constrained_straight_through`);
`inside_every_range FILES FIELD=VALUE ...`, the units and operations
whose published rate lies inside our interval in every range ("nau on
add and sub; nmu on mul")."""

import collections
import csv
import json
import os

from benchmarks.core import claim_rows
from benchmarks.core import stats
from benchmarks.core.claim_rows import Claim
from benchmarks.core.claim_rows import files_rows
from benchmarks.core.claim_rows import matching
from benchmarks.core.rows import values_agree
from benchmarks.data.arithmetic_task import SINGLE_MODULE_RANGES
from benchmarks.single_module.modules import MODULES
from benchmarks.single_module.modules import OPERATIONS
from benchmarks.static_arithmetic import success


def range_grid(*arguments):
    """Successes per (unit, operation, inputs) and Mistry's table 3 range,
    blank where every seed succeeded."""
    rows = files_rows(arguments)
    ranges = [interpolation.to_text() for interpolation, _ in SINGLE_MODULE_RANGES]
    grid = {}
    for s in success.summarize(rows):
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


def _published_rates(table):
    """{(module, input size, operation): (unit, runs, rate)} of TABLE."""
    with open(os.path.join(claim_rows.ROOT, table), encoding="utf-8") as handle:
        return {
            (row["module"], int(row["input_size"]), row["operation"]): (
                row["unit"],
                int(row["runs"]),
                float(row["success_rate"]),
            )
            for row in csv.DictReader(handle)
        }


def _aggregate_line(path, published, verdicts):
    rows = matching(path, [])
    keys = {(row["module"], row["input_size"], row["operation"]) for row in rows}
    if len(keys) != 1 or next(iter(keys)) not in published:
        raise ValueError(f"{path} is not the runs of one unit the table publishes.")
    (key,) = keys
    (module, _, operation), (unit, runs, rate) = key, published[key]
    solved = sum(row["solved"] for row in rows)
    _, low, high = stats.wilson_interval(solved, len(rows))
    p = stats.fisher_exact_p(solved, len(rows), round(rate * runs), runs)
    steps = rows[0].get("steps")
    found = claim_rows.verdict_of(
        verdicts, "single_module", module, operation, "all", steps
    )
    verdict = found[0] if found else "**no verdict**" if p < 0.05 else ""
    return (
        f"| {unit} | {solved} of {len(rows)} | {solved / len(rows):.1%} "
        f"({100 * low:.1f}-{high:.1%}) | {rate:.1%} of {runs} | {p:.2g} "
        f"| {verdict} |"
    ).replace("%", " %")


def aggregate_table(table, *paths):
    """Each file's successes beside TABLE's published rate of its unit,
    and the verdict on a difference at p < 0.05 (`results/verdicts.csv`,
    interpolation range `all`)."""
    published, verdicts = _published_rates(table), claim_rows.verdicts()
    lines = [
        "| unit | solved | success (95 % interval) | published | Fisher p | verdict |",
        "|---|---:|---:|---:|---:|---|",
    ]
    lines += [_aggregate_line(path, published, verdicts) for path in paths]
    return "\n".join(lines)


#: The fields that name a row's unit and run rather than its results.
_NOT_RESULTS = frozenset(
    ("config", "module", "commit", "dirty", "device", "versions", "wall_seconds")
)


def _unit_of_variant(module):
    """The survey's unit of a module's name: itself, or the longest unit
    that names it as a variant (`npu` of `npu_constrained_straight_through`)."""
    if module in MODULES:
        return module
    units = [unit for unit in MODULES if module.startswith(f"{unit}_")]
    if not units:
        raise ValueError(f"{module!r} is no unit of the survey nor a variant of one.")
    return max(units, key=len)


def _configuration(row, module):
    """A row's configuration with `module` for its module and no
    generator."""
    return {**row["config"], "module": module, "generator": None}


def _run_key(row, module):
    """A row's `_configuration` and its seed: the same run made otherwise."""
    return json.dumps([_configuration(row, module), row["seed"]], sort_keys=True)


def _as_unit(row):
    """A row's run with its unit's name left out."""
    return _run_key(row, None)


def _as_run(row):
    """A row's run named by its unit: the same run of another sweep of the
    protocol, a variant's as its unit's."""
    return _run_key(row, _unit_of_variant(row["module"]))


def variant_alike(path, earlier, unit):
    """How many rows of a variant's file (a unit run otherwise, e.g.
    `inalu_keep_adam`) are alike with the row of `unit` of the same
    configuration and seed in the file `earlier`: every field equal but
    the unit's name, the commit, the machine and the wall time ("897 of
    900")."""
    before = {_as_unit(row): row for row in matching(earlier, [f"module={unit}"])}
    rows = [row for row in claim_rows.rows(path) if _as_unit(row) in before]
    if not rows:
        raise ValueError(f"No row of {path} is a run of {unit} in {earlier}.")
    alike = sum(
        all(
            values_agree(row[field], before[_as_unit(row)].get(field))
            for field in row.keys() - _NOT_RESULTS
        )
        for row in rows
    )
    return f"{claim_rows.spaced(alike)} of {claim_rows.spaced(len(rows))}"


def _runs_of(arguments):
    """{run: row} of the rows of a claim's files that its filters select."""
    runs = {}
    for row in files_rows(arguments):
        if _as_run(row) in runs:
            raise ValueError(f"Two rows are the run {_as_run(row)}.")
        runs[_as_run(row)] = row
    return runs


def _solved_per_configuration(runs):
    """{configuration, a variant's as its unit's: solved runs} of `_runs_of`."""
    counts = collections.Counter()
    for row in runs.values():
        configuration = _configuration(row, _unit_of_variant(row["module"]))
        counts[json.dumps(configuration, sort_keys=True)] += row["solved"]
    return counts


def sweeps_alike(path, *others):
    """How many of FILE's configurations have the same number of solved
    runs in the matching rows of OTHERS ("205 of 207")."""
    own = _solved_per_configuration(_runs_of([path]))
    theirs = _solved_per_configuration(_runs_of(others))
    missing = own.keys() - theirs.keys()
    if missing:
        raise ValueError(f"The other rows have no run of {min(missing)}.")
    same = sum(solved == theirs[key] for key, solved in own.items())
    return f"{claim_rows.spaced(same)} of {claim_rows.spaced(len(own))}"


def runs_alike(path, field, *others):
    """How many of FILE's solved runs have the same FIELD, to the bit (NaN
    alike with NaN), as the same run in the matching rows of OTHERS."""
    theirs = _runs_of(others)
    solved = [(run, row) for run, row in _runs_of([path]).items() if row["solved"]]
    missing = [run for run, _ in solved if run not in theirs]
    if missing:
        raise ValueError(f"The other rows have no run {missing[0]}.")
    alike = sum(
        values_agree(claim_rows.field(row, field), claim_rows.field(theirs[run], field))
        for run, row in solved
    )
    return f"{claim_rows.spaced(alike)} of {claim_rows.spaced(len(solved))}"


def inside_every_range(*arguments):
    """The units and operations whose every configuration of the matching
    rows has the published success rate inside our 95 % interval: "nau on
    add and sub; nmu on mul"."""
    from benchmarks import registry

    published = registry.published()
    verdicts = collections.defaultdict(list)
    for summary in success.summarize(files_rows(arguments)):
        key = (summary.key.unit, summary.key.operation)
        verdicts[key].append(success.rate_inside(summary, published))
    reproduced = collections.defaultdict(list)
    for (unit, operation), found in verdicts.items():
        if found and all(found):
            reproduced[unit].append(operation)
    if not reproduced:
        raise ValueError("No unit and operation is inside in every range.")
    order = {unit: number for number, unit in enumerate(MODULES)}
    return "; ".join(
        f"{unit} on {_listed(sorted(operations, key=OPERATIONS.index))}"
        for unit, operations in sorted(reproduced.items(), key=lambda i: order[i[0]])
    )


def _listed(words):
    """ "add", "add and sub", "add, sub and div"."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


CLAIMS = {
    "inside_every_range": Claim(inside_every_range),
    "range_grid": Claim(range_grid, table=True),
    "aggregate_table": Claim(aggregate_table, table=True),
    "variant_alike": Claim(variant_alike),
    "sweeps_alike": Claim(sweeps_alike),
    "runs_alike": Claim(runs_alike),
}
