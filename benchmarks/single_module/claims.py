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
`held_table TABLE FILES`, per unit and operation the runs solved by the
benchmark's rule and by a rule held over steps (`held_solved_at`, the
DMU's own), the latter beside TABLE's self-reported rate as
`aggregate_table` compares;
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
`verdicts_alike FILE OTHERS...`, how many of FILE's runs are judged as
the same run in OTHERS; `sweeps_differing FILE OTHERS...`, how many of
FILE's configurations differ from OTHERS' at p < 0.05 (Fisher);
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


def _compared(solved, runs, published, verdict_key, verdicts):
    """The cells of `solved` of `runs` beside a published `(runs, rate)`:
    the success with Wilson's 95 % interval, the published rate, Fisher's
    exact p against its count, and the verdict recorded for `verdict_key`
    (`claim_rows.verdict_of`'s arguments), or "**no verdict**" at
    p < 0.05."""
    _, low, high = stats.wilson_interval(solved, runs)
    success = f"{solved / runs:.1%} ({100 * low:.1f}-{high:.1%})"
    if published is None:
        return [success, "—", "—", ""]
    published_runs, rate = published
    p = stats.fisher_exact_p(solved, runs, round(rate * published_runs), published_runs)
    found = claim_rows.verdict_of(verdicts, *verdict_key)
    verdict = found[0] if found else "**no verdict**" if p < 0.05 else ""
    return [success, f"{rate:.1%} of {published_runs}", f"{p:.2g}", verdict]


def _aggregate_line(path, published, verdicts):
    rows = matching(path, [])
    keys = {(row["module"], row["input_size"], row["operation"]) for row in rows}
    if len(keys) != 1 or next(iter(keys)) not in published:
        raise ValueError(f"{path} is not the runs of one unit the table publishes.")
    (key,) = keys
    (module, _, operation), (unit, runs, rate) = key, published[key]
    solved = sum(row["solved"] for row in rows)
    verdict_key = ("single_module", module, operation, "all", rows[0].get("steps"))
    cells = _compared(solved, len(rows), (runs, rate), verdict_key, verdicts)
    line = f"| {unit} | {solved} of {len(rows)} | " + " | ".join(cells) + " |"
    return line.replace("%", " %")


def held_table(table, *paths):
    """Per unit and operation of the files' rows: the runs solved by the
    benchmark's rule and by the rule held over steps (`held_solved_at`
    set: the DMU's own, `--held-threshold`), the latter with Wilson's 95 %
    interval beside TABLE's self-reported rate where it has the unit,
    Fisher's exact p and the verdict on a difference at p < 0.05."""
    published, verdicts = _published_rates(table), claim_rows.verdicts()
    groups = collections.defaultdict(list)
    for row in files_rows(paths):
        groups[(row["module"], row["input_size"], row["operation"])].append(row)
    lines = [
        "| unit | operation | benchmark's rule | held rule | success (95 % interval)"
        " | self-reported | Fisher p | verdict |",
        "|---|---|---:|---:|---:|---:|---:|---|",
    ]
    for key in sorted(groups, key=lambda k: (k[0], OPERATIONS.index(k[2]))):
        rows = groups[key]
        module, _, operation = key
        solved = sum(row["solved"] for row in rows)
        held = sum(row["held_solved_at"] is not None for row in rows)
        found = published.get(key)
        rate = found and found[1:]
        verdict_key = ("single_module", module, operation, "all", rows[0]["steps"])
        cells = _compared(held, len(rows), rate, verdict_key, verdicts)
        symbol = success.SYMBOLS.get(operation, operation)
        line = (
            f"| {module.split(':')[-1]} | {symbol} | {solved} of {len(rows)} | "
            f"{held} of {len(rows)} | " + " | ".join(cells) + " |"
        )
        lines.append(line.replace("%", " %"))
    return "\n".join(lines)


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


def verdicts_alike(path, *others):
    """How many of FILE's runs are judged as the same run in the matching
    rows of OTHERS (solved or not: "5 168 of 5 175")."""
    theirs = _runs_of(others)
    own = _runs_of([path])
    missing = own.keys() - theirs.keys()
    if missing:
        raise ValueError(f"The other rows have no run {min(missing)}.")
    alike = sum(row["solved"] == theirs[run]["solved"] for run, row in own.items())
    return f"{claim_rows.spaced(alike)} of {claim_rows.spaced(len(own))}"


def sweeps_differing(path, *others):
    """How many of FILE's configurations have a success count that differs
    from the matching rows of OTHERS at p < 0.05 (Fisher's exact test of
    the two counts): "0 of 207"."""
    own, theirs = _runs_of([path]), _runs_of(others)
    counts = collections.defaultdict(lambda: [0, 0, 0, 0])
    for rows, offset in ((own, 0), (theirs, 2)):
        for row in rows.values():
            key = json.dumps(_configuration(row, row["module"]), sort_keys=True)
            counts[key][offset] += row["solved"]
            counts[key][offset + 1] += 1
    configurations = {
        json.dumps(_configuration(row, row["module"]), sort_keys=True)
        for row in own.values()
    }
    differing = sum(stats.fisher_exact_p(*counts[key]) < 0.05 for key in configurations)
    return f"{differing} of {claim_rows.spaced(len(configurations))}"


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
    "held_table": Claim(held_table, table=True),
    "variant_alike": Claim(variant_alike),
    "sweeps_alike": Claim(sweeps_alike),
    "sweeps_differing": Claim(sweeps_differing),
    "verdicts_alike": Claim(verdicts_alike),
    "runs_alike": Claim(runs_alike),
}


CURRY2025_DMU = "single_module/published/curry2025_dmu_self_reported.csv"
DMU_ADD = "single_module/results/since_survey/dmu_add.jsonl"
DMU_DIV = "single_module/results/since_survey/dmu_div.jsonl"
DMU_MUL = "single_module/results/since_survey/dmu_mul.jsonl"
DMU_SUB = "single_module/results/since_survey/dmu_sub.jsonl"
DMU_ORACLE_MUL_10000_STEPS = (
    "single_module/results/fidelity/dmu_oracle_mul_10000_steps.jsonl"
)
DMU_ORACLE_MUL_GATE = "single_module/results/fidelity/dmu_oracle_mul_gate.jsonl"
DMU_LEARNED_SHARED_DRAWS = (
    "single_module/results/fidelity/dmu_learned_shared_draws.jsonl"
)
INDEPENDENT_DRAWS = (
    "single_module/results/fidelity/single_module_independent_draws.jsonl"
)
DMU_SAME = "benchmarks.single_module.since_survey:dmu_oracle_same"
DMU_OPPOSITE = "benchmarks.single_module.since_survey:dmu_oracle_opposite"
FUNCTION_PAPER = "arithmetic/results/function/paper.jsonl"
PAPER_ONE_AT_A_TIME = "single_module/results/fidelity/paper_one_at_a_time_f4e637c.jsonl"
PAPER_POPULATION = "single_module/results/paper_population.jsonl"
#: The same sweep as JAX populations on the CPU (benchmarks.speed.jax_population).
PAPER_JAX_POPULATION = "single_module/results/paper_jax_population_cpu.jsonl"
#: TensorFlow's engine from JAX's initial draws (benchmarks.speed.initial_draws).
TENSORFLOW_FROM_JAX_DRAWS = (
    "single_module/results/fidelity/tensorflow_from_jax_draws.jsonl"
)
#: Its NPU runs at 7cc0cff, before |w|'s derivative at 0 was JAX's own (1).
JAX_NPU_ABS_AT_ZERO = (
    "single_module/results/fidelity/jax_npu_abs_derivative_7cc0cff.jsonl"
)
INPUT_SIZE_10 = "single_module/results/input_size_10.jsonl"
INPUT_SIZE_100 = "single_module/results/input_size_100.jsonl"
MCFC_ADD = "single_module/results/since_survey/mcfc_add.jsonl"
MISTRY2021_DIVISION_ABSTRACT = (
    "single_module/published/mistry2021_division_abstract.csv"
)
MISTRY2022_SINGLE_MODULE = "single_module/published/mistry2022_single_module.csv"
MODIFIED_REALNPU_DIV_IN2 = (
    "single_module/results/since_survey/modified_realnpu_div_in2.jsonl"
)
MODIFIED_REALNPU_DIV_IN10 = (
    "single_module/results/since_survey/modified_realnpu_div_in10.jsonl"
)
MULMCFC_INALU_SIGN_MUL = (
    "single_module/results/since_survey/mulmcfc_inalu_sign_mul.jsonl"
)
MULMCFC_MUL = "single_module/results/since_survey/mulmcfc_mul.jsonl"
MULMCFC_REAL_NPU_SIGN_MUL = (
    "single_module/results/since_survey/mulmcfc_real_npu_sign_mul.jsonl"
)
NMRU_DIV_IN2 = "single_module/results/since_survey/nmru_div_in2.jsonl"
NMRU_DIV_IN10 = "single_module/results/since_survey/nmru_div_in10.jsonl"
PAPER = "single_module/results/paper.jsonl"
PAPER_THREEFRY2X32 = "single_module/results/paper_threefry2x32.jsonl"
PAPER_TORCH_ADAM = "single_module/results/paper_torch_adam.jsonl"
REALNPU_DIV_IN2 = "single_module/results/since_survey/realnpu_div_in2.jsonl"
REALNPU_DIV_IN10 = "single_module/results/since_survey/realnpu_div_in10.jsonl"
RECIPROCAL_DIV_IN2 = "single_module/results/since_survey/reciprocal_div_in2.jsonl"
RECIPROCAL_DIV_IN10 = "single_module/results/since_survey/reciprocal_div_in10.jsonl"
SINGLE_MODULE_ADAM_1E_8 = "single_module/results/fidelity/single_module_adam_1e-8.jsonl"
SINGLE_MODULE_INALU_KEEP_ADAM = (
    "single_module/results/fidelity/single_module_inalu_keep_adam.jsonl"
)
SINGLE_MODULE_INALU_LATE_SWITCH = (
    "single_module/results/fidelity/single_module_inalu_late_switch.jsonl"
)
SINGLE_MODULE_NPU_CONSTRAINED = (
    "single_module/results/fidelity/single_module_npu_constrained.jsonl"
)
SINGLE_MODULE_NPU_CONSTRAINED_STRAIGHT_THROUGH = (
    "single_module/results/fidelity/"
    "single_module_npu_constrained_straight_through.jsonl"
)
SINGLE_MODULE_NPU_CONSTRAINED_STRAIGHT_THROUGH_LR_1E_3 = (
    "single_module/results/fidelity/"
    "single_module_npu_constrained_straight_through_lr_1e-3.jsonl"
)
SINGLE_MODULE_NPU_STRAIGHT_THROUGH = (
    "single_module/results/fidelity/single_module_npu_straight_through.jsonl"
)
SINGLE_MODULE_TORCH_ADAM = (
    "single_module/results/fidelity/single_module_torch_adam.jsonl"
)
SINGLE_MODULE_WARMUP_PER_CALL = (
    "single_module/results/fidelity/single_module_warmup_per_call.jsonl"
)
SNMU_MUL = "single_module/results/since_survey/snmu_mul.jsonl"
TABLE2_500K_STEPS = "arithmetic/results/table2_500k_steps.jsonl"
TABLE2_NMU_PAPER = "arithmetic/results/table2_nmu_paper.jsonl"
TABLE2_PAPER = "arithmetic/results/table2_paper.jsonl"
TABLE5_PAPER = "arithmetic/results/table5_paper.jsonl"
TABLE6_PAPER = "arithmetic/results/table6_paper.jsonl"

#: The named claims of the pages over the rows of the Single Module Task (a page's
#: `<!--=sm.NAME-->` stands for the expression; `benchmarks.claims`).
NAMED = {
    "sm.aggregate.pubdiv": (
        f"aggregate_table {MISTRY2021_DIVISION_ABSTRACT} {NMRU_DIV_IN10} "
        f"{MODIFIED_REALNPU_DIV_IN10} {REALNPU_DIV_IN10}"
    ),
    "sm.at.nmu.-0.2,-0.1.1": (
        f"changed {PAPER_THREEFRY2X32} {SINGLE_MODULE_WARMUP_PER_CALL} solved_at "
        "module=nmu interpolation_range=-0.2,-0.1"
    ),
    "sm.at.nmu.-0.2,-0.1.2": (
        f"range {PAPER_THREEFRY2X32} solved_at module=nmu interpolation_range=-0.2,-0.1"
    ),
    "sm.at.npu.div.1,2": (
        f"mean {PAPER_THREEFRY2X32} solved_at module=npu operation=div "
        "interpolation_range=1,2 solved=True"
    ),
    "sm.at.npu.mul.1,2": (
        f"mean {PAPER_THREEFRY2X32} solved_at module=npu operation=mul "
        "interpolation_range=1,2 solved=True"
    ),
    "sm.c9f2a64": (
        f"solved {PAPER_THREEFRY2X32} {SINGLE_MODULE_INALU_LATE_SWITCH} "
        f"{SINGLE_MODULE_NPU_CONSTRAINED_STRAIGHT_THROUGH} "
        f"{SINGLE_MODULE_WARMUP_PER_CALL} "
        "commit=c9f2a64c01cb885291338ace796dba6750e2b1e3"
    ),
    "sm.changed.at.inalu": (
        f"changed {PAPER_THREEFRY2X32} {SINGLE_MODULE_WARMUP_PER_CALL} solved_at "
        "module=inalu"
    ),
    "sm.changed.at.nau": (
        f"changed {PAPER_THREEFRY2X32} {SINGLE_MODULE_WARMUP_PER_CALL} solved_at "
        "module=nau"
    ),
    "sm.changed.at.nmu": (
        f"changed {PAPER_THREEFRY2X32} {SINGLE_MODULE_WARMUP_PER_CALL} solved_at "
        "module=nmu"
    ),
    "sm.changed.xmse.nau": (
        f"changed {PAPER_THREEFRY2X32} {SINGLE_MODULE_WARMUP_PER_CALL} "
        "extrapolation_mse module=nau"
    ),
    "sm.differences.1": f"differences {PAPER_THREEFRY2X32}",
    "sm.pop.alike": f"verdicts_alike {PAPER_POPULATION} {PAPER_THREEFRY2X32}",
    "sm.pop.alike.one": f"verdicts_alike {PAPER_POPULATION} {PAPER_ONE_AT_A_TIME}",
    "sm.pop.counts": f"sweeps_alike {PAPER_POPULATION} {PAPER_THREEFRY2X32}",
    "sm.pop.differing": f"sweeps_differing {PAPER_POPULATION} {PAPER_THREEFRY2X32}",
    "sm.pop.differing.one": (
        f"sweeps_differing {PAPER_POPULATION} {PAPER_ONE_AT_A_TIME}"
    ),
    "sm.pop.xmse.one": (
        f"runs_alike {PAPER_POPULATION} extrapolation_mse {PAPER_ONE_AT_A_TIME}"
    ),
    "sm.jax.solved": f"solved {PAPER_JAX_POPULATION}",
    "sm.pop.solved": f"solved {PAPER_POPULATION}",
    "sm.draws.alike": (
        f"verdicts_alike {TENSORFLOW_FROM_JAX_DRAWS} {PAPER_JAX_POPULATION}"
    ),
    "sm.draws.nac": (
        f"solved {TENSORFLOW_FROM_JAX_DRAWS} module=nac operation=add "
        "interpolation_range=1,2"
    ),
    "sm.pop.nac": (
        f"solved {PAPER_POPULATION} module=nac operation=add interpolation_range=1,2"
    ),
    "sm.draws.inalu": (
        f"solved {TENSORFLOW_FROM_JAX_DRAWS} module=inalu operation=sub "
        "interpolation_range=1.1,1.2"
    ),
    "sm.pop.inalu": (
        f"solved {PAPER_POPULATION} module=inalu operation=sub "
        "interpolation_range=1.1,1.2"
    ),
    "sm.jax.npu.before": (
        f"solved {JAX_NPU_ABS_AT_ZERO} operation=mul interpolation_range=10,20"
    ),
    "sm.jax.npu.after": (
        f"solved {PAPER_JAX_POPULATION} module=npu operation=mul "
        "interpolation_range=10,20"
    ),
    "sm.pop.npu": (
        f"solved {PAPER_POPULATION} module=npu operation=mul interpolation_range=10,20"
    ),
    "sm.jax.counts": f"sweeps_alike {PAPER_JAX_POPULATION} {PAPER_THREEFRY2X32}",
    "sm.jax.differing": (
        f"sweeps_differing {PAPER_JAX_POPULATION} {PAPER_THREEFRY2X32}"
    ),
    "sm.jax.differing.pop": (
        f"sweeps_differing {PAPER_JAX_POPULATION} {PAPER_POPULATION}"
    ),
    "sm.one.alike": f"verdicts_alike {PAPER_ONE_AT_A_TIME} {PAPER_THREEFRY2X32}",
    "sm.one.differing": (
        f"sweeps_differing {PAPER_ONE_AT_A_TIME} {PAPER_THREEFRY2X32}"
    ),
    "sm.dmu": f"held_table {CURRY2025_DMU} {DMU_ADD} {DMU_SUB} {DMU_MUL} {DMU_DIV}",
    "sm.dmu.add": f"solved {DMU_ADD} module={DMU_SAME}",
    "sm.dmu.div": f"solved {DMU_DIV} module={DMU_OPPOSITE}",
    "sm.dmu.learned": (
        f"solved {DMU_ADD} {DMU_SUB} {DMU_MUL} {DMU_DIV} "
        "module=benchmarks.single_module.since_survey:dmu"
    ),
    "sm.dmu.learned.shared": (
        f"solved {DMU_LEARNED_SHARED_DRAWS} "
        "module=benchmarks.single_module.since_survey:dmu"
    ),
    "sm.independent.runs": f"runs {INDEPENDENT_DRAWS}",
    "sm.independent.changed": (
        f"changed {INDEPENDENT_DRAWS} {PAPER_POPULATION} extrapolation_mse"
    ),
    "sm.dmu.learned.1,2": (
        f"solved {DMU_ADD} {DMU_SUB} {DMU_MUL} {DMU_DIV} "
        "module=benchmarks.single_module.since_survey:dmu interpolation_range=1,2"
    ),
    "sm.dmu.long": f"solved {DMU_ORACLE_MUL_10000_STEPS}",
    "sm.dmu.gate.solved": f"solved {DMU_ORACLE_MUL_GATE}",
    "sm.dmu.gate.trapped": f"range {DMU_ORACLE_MUL_GATE} share_below_trap solved=False",
    "sm.dmu.gate.free": f"range {DMU_ORACLE_MUL_GATE} share_below_trap solved=True",
    "sm.dmu.gate.low": f"range {DMU_ORACLE_MUL_GATE} trap_gate.0",
    "sm.dmu.gate.high": f"range {DMU_ORACLE_MUL_GATE} trap_gate.1",
    "sm.dmu.mul": f"solved {DMU_MUL} module={DMU_SAME}",
    "sm.dmu.mul.-20,-10": (
        f"solved {DMU_MUL} module={DMU_SAME} interpolation_range=-20,-10"
    ),
    "sm.dmu.mul.best": (
        f"maximum {DMU_MUL} best_step module={DMU_SAME} "
        "interpolation_range=-20,-10 solved=False"
    ),
    "sm.dmu.mul.ratio": (
        f"field_ratio {DMU_MUL} extrapolation_mse initial_extrapolation_mse "
        f"module={DMU_SAME} solved=False"
    ),
    "sm.dmu.sub": f"solved {DMU_SUB} module={DMU_OPPOSITE}",
    "sm.differences.2": (
        f"differences {PAPER_THREEFRY2X32} {FUNCTION_PAPER} {TABLE2_500K_STEPS} "
        f"{TABLE2_NMU_PAPER} {TABLE2_PAPER} {TABLE5_PAPER} {TABLE6_PAPER}"
    ),
    "sm.eps8.nac.add.1,2": (
        f"solved {SINGLE_MODULE_ADAM_1E_8} module=nac operation=add "
        "interpolation_range=1,2"
    ),
    "sm.everywhere": f"inside_every_range {PAPER_THREEFRY2X32}",
    "sm.field": (
        f"rate_table {PAPER_THREEFRY2X32} {MCFC_ADD} {MODIFIED_REALNPU_DIV_IN10} "
        f"{MULMCFC_INALU_SIGN_MUL} {MULMCFC_MUL} {MULMCFC_REAL_NPU_SIGN_MUL} "
        f"{NMRU_DIV_IN10} {REALNPU_DIV_IN10} {RECIPROCAL_DIV_IN10} {SNMU_MUL} "
        f"{NMRU_DIV_IN2} {MODIFIED_REALNPU_DIV_IN2} {REALNPU_DIV_IN2} "
        f"{RECIPROCAL_DIV_IN2}"
    ),
    "sm.flagged": f"flagged {PAPER_THREEFRY2X32}",
    "sm.flagged.keras": f"flagged {PAPER}",
    "sm.flagged.tf3f": f"flagged {PAPER_TORCH_ADAM}",
    "sm.grid.in2": (
        f"range_grid {NMRU_DIV_IN2} {MODIFIED_REALNPU_DIV_IN2} {REALNPU_DIV_IN2} "
        f"{RECIPROCAL_DIV_IN2}"
    ),
    "sm.grid.dmu": f"range_grid {DMU_ADD} {DMU_SUB} {DMU_MUL} {DMU_DIV}",
    "sm.grid.in10": f"range_grid {INPUT_SIZE_10} {INPUT_SIZE_100}",
    "sm.grid.nmru": (
        f"range_grid {NMRU_DIV_IN10} {MODIFIED_REALNPU_DIV_IN10} {REALNPU_DIV_IN10} "
        f"{RECIPROCAL_DIV_IN10}"
    ),
    "sm.in2.modnpu": f"solved {MODIFIED_REALNPU_DIV_IN2}",
    "sm.in2.modnpu.-2,2": f"solved {MODIFIED_REALNPU_DIV_IN2} interpolation_range=-2,2",
    "sm.in2.nmru": f"solved {NMRU_DIV_IN2}",
    "sm.in2.reciprocal": f"solved {RECIPROCAL_DIV_IN2}",
    "sm.in2.reciprocal.negative": (
        f"solved {RECIPROCAL_DIV_IN2} "
        "interpolation_range=-20,-10|-2,-1|-1.2,-1.1|-0.2,-0.1|-2,2"
    ),
    "sm.in2.rnpu": f"solved {REALNPU_DIV_IN2}",
    "sm.in2.rnpu.-2,2": f"solved {REALNPU_DIV_IN2} interpolation_range=-2,2",
    "sm.in10.inalu.10,20": (
        f"success {INPUT_SIZE_10} module=inalu interpolation_range=10,20"
    ),
    "sm.inalu": f"solved {PAPER_THREEFRY2X32} module=inalu",
    "sm.inalu.-20,-10": (
        f"success {INPUT_SIZE_10} module=inalu interpolation_range=-20,-10"
    ),
    "sm.inalu.add": f"solved {PAPER_THREEFRY2X32} module=inalu operation=add",
    "sm.inalu.mul.-2,-1.1": (
        f"fisher {SINGLE_MODULE_INALU_LATE_SWITCH} module=inalu operation=mul "
        "interpolation_range=-2,-1"
    ),
    "sm.inalu.mul.-2,-1.2": (
        f"fisher {PAPER_THREEFRY2X32} module=inalu operation=mul "
        "interpolation_range=-2,-1"
    ),
    "sm.inalu.mul.-2,-1.3": (
        f"solved {SINGLE_MODULE_INALU_LATE_SWITCH} module=inalu operation=mul "
        "interpolation_range=-2,-1"
    ),
    "sm.inalu.mul.-2,-1.4": (
        f"solved {PAPER_THREEFRY2X32} module=inalu operation=mul "
        "interpolation_range=-2,-1"
    ),
    "sm.inalu.sub.1": (
        f"solved {SINGLE_MODULE_INALU_LATE_SWITCH} module=inalu operation=sub "
        "interpolation_range=-1.2,-1.1"
    ),
    "sm.inalu.sub.2": (
        f"solved {SINGLE_MODULE_INALU_LATE_SWITCH} module=inalu operation=sub "
        "interpolation_range=1.1,1.2"
    ),
    "sm.inalu.sub.3": (
        f"solved {PAPER_THREEFRY2X32} module=inalu operation=sub "
        "interpolation_range=-1.2,-1.1"
    ),
    "sm.inalu.sub.4": (
        f"solved {PAPER_THREEFRY2X32} module=inalu operation=sub "
        "interpolation_range=1.1,1.2"
    ),
    "sm.inside": f"inside {PAPER_THREEFRY2X32}",
    "sm.inside.inalu": f"inside {PAPER_THREEFRY2X32} module=inalu",
    "sm.inside.keras": f"inside {PAPER}",
    "sm.inside.nmu+nau": f"inside {PAPER_THREEFRY2X32} module=nmu|nau",
    "sm.inside.tf3f": f"inside {PAPER_TORCH_ADAM}",
    "sm.keep_adam.inalu": (
        f"variant_alike {SINGLE_MODULE_INALU_KEEP_ADAM} "
        f"{SINGLE_MODULE_WARMUP_PER_CALL} inalu"
    ),
    "sm.late": f"solved {SINGLE_MODULE_INALU_LATE_SWITCH}",
    "sm.max.at.nau": f"maximum {PAPER_THREEFRY2X32} solved_at module=nau",
    "sm.mcfc": f"solved {MCFC_ADD}",
    "sm.mm_inalu": f"solved {MULMCFC_INALU_SIGN_MUL}",
    "sm.mm_inalu.-2,2": f"solved {MULMCFC_INALU_SIGN_MUL} interpolation_range=-2,2",
    "sm.mm_npu": f"solved {MULMCFC_REAL_NPU_SIGN_MUL}",
    "sm.mm_npu.-2,2": f"solved {MULMCFC_REAL_NPU_SIGN_MUL} interpolation_range=-2,2",
    "sm.modnpu.-2,2": f"solved {MODIFIED_REALNPU_DIV_IN10} interpolation_range=-2,2",
    "sm.mulmcfc": f"solved {MULMCFC_MUL}",
    "sm.nac.add.1,2.1": (
        f"solved {SINGLE_MODULE_TORCH_ADAM} module=nac operation=add "
        "interpolation_range=1,2"
    ),
    "sm.nac.add.1,2.2": (
        f"solved {PAPER} module=nac operation=add interpolation_range=1,2"
    ),
    "sm.nac.add.10,20.1": (
        f"solved {SINGLE_MODULE_ADAM_1E_8} module=nac operation=add "
        "interpolation_range=10,20"
    ),
    "sm.nac.add.10,20.2": (
        f"solved {SINGLE_MODULE_TORCH_ADAM} module=nac operation=add "
        "interpolation_range=10,20"
    ),
    "sm.nac.add.10,20.3": (
        f"solved {PAPER} module=nac operation=add interpolation_range=10,20"
    ),
    "sm.nac.add.10,20.4": (
        f"solved {PAPER_TORCH_ADAM} module=nac operation=add interpolation_range=10,20"
    ),
    "sm.nac.add.-2,-1.1": (
        f"solved {SINGLE_MODULE_ADAM_1E_8} module=nac operation=add "
        "interpolation_range=-2,-1"
    ),
    "sm.nac.add.-2,-1.2": (
        f"solved {SINGLE_MODULE_TORCH_ADAM} module=nac operation=add "
        "interpolation_range=-2,-1"
    ),
    "sm.nac.add.-2,-1.3": (
        f"solved {PAPER} module=nac operation=add interpolation_range=-2,-1"
    ),
    "sm.nac.add.-2,-1.4": (
        f"solved {PAPER_TORCH_ADAM} module=nac operation=add interpolation_range=-2,-1"
    ),
    "sm.nac.add.-20,-10.1": (
        f"solved {SINGLE_MODULE_ADAM_1E_8} module=nac operation=add "
        "interpolation_range=-20,-10"
    ),
    "sm.nac.add.-20,-10.2": (
        f"solved {SINGLE_MODULE_TORCH_ADAM} module=nac operation=add "
        "interpolation_range=-20,-10"
    ),
    "sm.nac.add.-20,-10.3": (
        f"solved {PAPER} module=nac operation=add interpolation_range=-20,-10"
    ),
    "sm.nac.add.-20,-10.4": (
        f"solved {PAPER_TORCH_ADAM} module=nac operation=add "
        "interpolation_range=-20,-10"
    ),
    "sm.nac.sub.10,20.1": (
        f"solved {SINGLE_MODULE_ADAM_1E_8} module=nac operation=sub "
        "interpolation_range=10,20"
    ),
    "sm.nac.sub.10,20.2": (
        f"solved {SINGLE_MODULE_TORCH_ADAM} module=nac operation=sub "
        "interpolation_range=10,20"
    ),
    "sm.nac.sub.10,20.3": (
        f"solved {PAPER} module=nac operation=sub interpolation_range=10,20"
    ),
    "sm.nac.sub.10,20.4": (
        f"solved {PAPER_TORCH_ADAM} module=nac operation=sub interpolation_range=10,20"
    ),
    "sm.nac.sub.-2,2.1": (
        f"solved {SINGLE_MODULE_ADAM_1E_8} module=nac operation=sub "
        "interpolation_range=-2,2"
    ),
    "sm.nac.sub.-2,2.2": (
        f"solved {SINGLE_MODULE_TORCH_ADAM} module=nac operation=sub "
        "interpolation_range=-2,2"
    ),
    "sm.nac.sub.-2,2.3": (
        f"solved {PAPER} module=nac operation=sub interpolation_range=-2,2"
    ),
    "sm.nac.sub.-2,2.4": (
        f"solved {PAPER_TORCH_ADAM} module=nac operation=sub interpolation_range=-2,2"
    ),
    "sm.nac.sub.-20,-10.1": (
        f"solved {SINGLE_MODULE_ADAM_1E_8} module=nac operation=sub "
        "interpolation_range=-20,-10"
    ),
    "sm.nac.sub.-20,-10.2": (
        f"solved {SINGLE_MODULE_TORCH_ADAM} module=nac operation=sub "
        "interpolation_range=-20,-10"
    ),
    "sm.nac.sub.-20,-10.3": (
        f"solved {PAPER} module=nac operation=sub interpolation_range=-20,-10"
    ),
    "sm.nac.sub.-20,-10.4": (
        f"solved {PAPER_TORCH_ADAM} module=nac operation=sub "
        "interpolation_range=-20,-10"
    ),
    "sm.nac_mul.div": (f"pooled {PAPER_THREEFRY2X32} module=nac_mul operation=div"),
    "sm.nac_mul.mul": (f"pooled {PAPER_THREEFRY2X32} module=nac_mul operation=mul"),
    "sm.nalu.add.1,2.1": (
        f"solved {SINGLE_MODULE_ADAM_1E_8} module=nalu operation=add "
        "interpolation_range=1,2"
    ),
    "sm.nalu.add.1,2.2": (
        f"solved {SINGLE_MODULE_TORCH_ADAM} module=nalu operation=add "
        "interpolation_range=1,2"
    ),
    "sm.nalu.add.1,2.3": (
        f"solved {PAPER} module=nalu operation=add interpolation_range=1,2"
    ),
    "sm.nalu.add.1,2.4": (
        f"solved {PAPER_TORCH_ADAM} module=nalu operation=add interpolation_range=1,2"
    ),
    "sm.nalu.add.1.1,1.2.1": (
        f"solved {SINGLE_MODULE_ADAM_1E_8} module=nalu operation=add "
        "interpolation_range=1.1,1.2"
    ),
    "sm.nalu.add.1.1,1.2.2": (
        f"solved {SINGLE_MODULE_TORCH_ADAM} module=nalu operation=add "
        "interpolation_range=1.1,1.2"
    ),
    "sm.nalu.add.1.1,1.2.3": (
        f"solved {PAPER} module=nalu operation=add interpolation_range=1.1,1.2"
    ),
    "sm.nalu.add.1.1,1.2.4": (
        f"solved {PAPER_TORCH_ADAM} module=nalu operation=add "
        "interpolation_range=1.1,1.2"
    ),
    "sm.nalu.add.-2,-1.1": (
        f"solved {SINGLE_MODULE_ADAM_1E_8} module=nalu operation=add "
        "interpolation_range=-2,-1"
    ),
    "sm.nalu.add.-2,-1.2": (
        f"solved {SINGLE_MODULE_TORCH_ADAM} module=nalu operation=add "
        "interpolation_range=-2,-1"
    ),
    "sm.nalu.add.-2,-1.3": (
        f"solved {PAPER} module=nalu operation=add interpolation_range=-2,-1"
    ),
    "sm.nalu.add.-2,-1.4": (
        f"solved {PAPER_TORCH_ADAM} module=nalu operation=add interpolation_range=-2,-1"
    ),
    "sm.nau.add+sub": (
        f"solved {INPUT_SIZE_10} module=nau operation=add|sub "
        "interpolation_range=1.1,1.2"
    ),
    "sm.nau.add.1": (
        f"solved {INPUT_SIZE_10} module=nau operation=add interpolation_range=-1.2,-1.1"
    ),
    "sm.nau.add.2": f"solved {PAPER_THREEFRY2X32} module=nau operation=add",
    "sm.nau.sub.1": (
        f"solved {INPUT_SIZE_10} module=nau operation=sub interpolation_range=-1.2,-1.1"
    ),
    "sm.nau.sub.1.1,1.2": (
        f"solved {INPUT_SIZE_100} module=nau operation=sub interpolation_range=1.1,1.2"
    ),
    "sm.nau.sub.2": (
        f"solved {INPUT_SIZE_100} module=nau operation=sub "
        "interpolation_range=-1.2,-1.1"
    ),
    "sm.nmru.-1.2,-1.1.1": (
        f"below {NMRU_DIV_IN10} best_step 50001 interpolation_range=-1.2,-1.1 "
        "solved=False"
    ),
    "sm.nmru.-1.2,-1.1.2": (
        f"below {NMRU_DIV_IN10} interpolation_mse 1e-4 interpolation_range=-1.2,-1.1 "
        "solved=False"
    ),
    "sm.nmru.-2,2": f"solved {NMRU_DIV_IN10} interpolation_range=-2,2",
    "sm.nmu": f"solved {PAPER_THREEFRY2X32} module=nmu",
    "sm.nmu+6.mul+add": (
        f"range_grid {SNMU_MUL} {MCFC_ADD} {MULMCFC_MUL} {MULMCFC_INALU_SIGN_MUL} "
        f"{MULMCFC_REAL_NPU_SIGN_MUL} {PAPER_THREEFRY2X32} "
        "module=nmu|nau|keras_nalm.layers.nmu:StochasticNMU|"
        "keras_nalm.layers.mcfc:MCFC|keras_nalm.layers.mcfc:MulMCFC|"
        "benchmarks.single_module.since_survey:mul_mcfc_inalu_sign|"
        "benchmarks.single_module.since_survey:mul_mcfc_real_npu_sign "
        "operation=mul|add"
    ),
    "sm.nmu.-0.2,-0.1": (
        f"range {SINGLE_MODULE_WARMUP_PER_CALL} solved_at module=nmu "
        "interpolation_range=-0.2,-0.1"
    ),
    "sm.nmu.mul": f"solved {PAPER_THREEFRY2X32} module=nmu operation=mul",
    "sm.npu+realnpu.1": f"flagged {PAPER_THREEFRY2X32} module=npu|realnpu",
    "sm.npu+realnpu.2": f"flagged_as {PAPER_THREEFRY2X32} - module=npu|realnpu",
    "sm.npu+realnpu.3": f"unflagged {PAPER_THREEFRY2X32} module=npu|realnpu",
    "sm.npu.div.1.1,1.2.1": (
        f"solved {PAPER} module=npu operation=div interpolation_range=1.1,1.2"
    ),
    "sm.npu.div.1.1,1.2.2": (
        f"solved {PAPER_THREEFRY2X32} module=npu operation=div "
        "interpolation_range=1.1,1.2"
    ),
    "sm.npu.mul.1.1,1.2.1": (
        f"fisher {PAPER} module=npu operation=mul interpolation_range=1.1,1.2"
    ),
    "sm.npu.mul.1.1,1.2.2": (
        f"solved {PAPER} module=npu operation=mul interpolation_range=1.1,1.2"
    ),
    "sm.npu.mul.1.1,1.2.3": (
        f"solved {PAPER_THREEFRY2X32} module=npu operation=mul "
        "interpolation_range=1.1,1.2"
    ),
    "sm.npu_c": (f"flagged_as {SINGLE_MODULE_NPU_CONSTRAINED} _constrained"),
    "sm.npu_constrai.mul": (
        f"mean {SINGLE_MODULE_NPU_CONSTRAINED_STRAIGHT_THROUGH} solved_at "
        "module=npu_constrained_straight_through operation=mul "
        "interpolation_range=1,2 solved=True"
    ),
    "sm.npu_cst": (
        f"flagged_as {SINGLE_MODULE_NPU_CONSTRAINED_STRAIGHT_THROUGH} "
        "_constrained_straight_through"
    ),
    "sm.npu_lr": (
        f"flagged_as {SINGLE_MODULE_NPU_CONSTRAINED_STRAIGHT_THROUGH_LR_1E_3} "
        "_constrained_straight_through_lr_1e-3"
    ),
    "sm.npu_st": (f"flagged_as {SINGLE_MODULE_NPU_STRAIGHT_THROUGH} _straight_through"),
    "sm.npu_straight.mul": (
        f"solved {SINGLE_MODULE_NPU_STRAIGHT_THROUGH} module=npu_straight_through "
        "operation=mul interpolation_range=1,2"
    ),
    "sm.operations": f"operations_table {PAPER_THREEFRY2X32}",
    "sm.osa": f"outside_solved_at {PAPER_THREEFRY2X32}",
    "sm.osa.inalu": f"outside_solved_at {PAPER_THREEFRY2X32} module=inalu",
    "sm.osaj": f"outside_solved_at_joint {PAPER_THREEFRY2X32}",
    "sm.osj": f"outside_sparsity_joint {PAPER_THREEFRY2X32}",
    "sm.osj.inalu": f"outside_sparsity_joint {PAPER_THREEFRY2X32} module=inalu",
    "sm.osj.npu+realnpu": (
        f"outside_sparsity_joint {PAPER_THREEFRY2X32} module=npu|realnpu"
    ),
    "sm.osj_means": f"outside_sparsity_joint_means {PAPER_THREEFRY2X32}",
    "sm.osj_means.nau": f"outside_sparsity_joint_means {PAPER_THREEFRY2X32} module=nau",
    "sm.ou": f"outside_unflagged {PAPER_THREEFRY2X32}",
    "sm.ou_table": f"outside_unflagged_table {PAPER_THREEFRY2X32}",
    "sm.outside_sparsity": f"outside_sparsity {PAPER_THREEFRY2X32}",
    "sm.per_call.inalu.1": f"inside {SINGLE_MODULE_WARMUP_PER_CALL} module=inalu",
    "sm.per_call.inalu.2": (
        f"outside_solved_at {SINGLE_MODULE_WARMUP_PER_CALL} module=inalu"
    ),
    "sm.per_call.inalu.3": f"solved {SINGLE_MODULE_WARMUP_PER_CALL} module=inalu",
    "sm.per_call.nmu": f"solved {SINGLE_MODULE_WARMUP_PER_CALL} module=nmu",
    "sm.per_call.nmu+nau": (f"inside {SINGLE_MODULE_WARMUP_PER_CALL} module=nmu|nau"),
    "sm.pooled.gnalu": f"pooled {PAPER_THREEFRY2X32} module=gnalu",
    "sm.pooled.inalu.mul": f"pooled {PAPER_THREEFRY2X32} module=inalu operation=mul",
    "sm.pooled.nac": f"pooled {PAPER_THREEFRY2X32} module=nac",
    "sm.pooled.nalu": f"pooled {PAPER_THREEFRY2X32} module=nalu",
    "sm.pub.inalu.mul": (
        f"paper {MISTRY2022_SINGLE_MODULE} success_rate .0% module=inalu operation=mul "
        "interpolation_range=U[-2,-1)"
    ),
    "sm.pub.inalu.sub.1": (
        f"paper {MISTRY2022_SINGLE_MODULE} success_rate .0% module=inalu operation=sub "
        "interpolation_range=U[-1.2,-1.1)"
    ),
    "sm.pub.inalu.sub.2": (
        f"paper {MISTRY2022_SINGLE_MODULE} success_rate .0% module=inalu operation=sub "
        "interpolation_range=U[1.1,1.2)"
    ),
    "sm.pub.nac.add.1": (
        f"paper {MISTRY2022_SINGLE_MODULE} success_rate .0% module=nac operation=add "
        "interpolation_range=U[-2,-1)"
    ),
    "sm.pub.nac.add.2": (
        f"paper {MISTRY2022_SINGLE_MODULE} success_rate .0% module=nac operation=add "
        "interpolation_range=U[-20,-10)"
    ),
    "sm.pub.nac.add.3": (
        f"paper {MISTRY2022_SINGLE_MODULE} success_rate .0% module=nac operation=add "
        "interpolation_range=U[10,20)"
    ),
    "sm.pub.nac.add.U1,2": (
        f"paper {MISTRY2022_SINGLE_MODULE} success_rate .0% module=nac operation=add "
        "interpolation_range=U[1,2)"
    ),
    "sm.pub.nac.sub.1": (
        f"paper {MISTRY2022_SINGLE_MODULE} success_rate .0% module=nac operation=sub "
        "interpolation_range=U[-2,2)"
    ),
    "sm.pub.nac.sub.2": (
        f"paper {MISTRY2022_SINGLE_MODULE} success_rate .0% module=nac operation=sub "
        "interpolation_range=U[-20,-10)"
    ),
    "sm.pub.nac.sub.3": (
        f"paper {MISTRY2022_SINGLE_MODULE} success_rate .0% module=nac operation=sub "
        "interpolation_range=U[10,20)"
    ),
    "sm.pub.nalu.add.1": (
        f"paper {MISTRY2022_SINGLE_MODULE} success_rate .0% module=nalu operation=add "
        "interpolation_range=U[-2,-1)"
    ),
    "sm.pub.nalu.add.2": (
        f"paper {MISTRY2022_SINGLE_MODULE} success_rate .0% module=nalu operation=add "
        "interpolation_range=U[1,2)"
    ),
    "sm.pub.nalu.add.3": (
        f"paper {MISTRY2022_SINGLE_MODULE} success_rate .0% module=nalu operation=add "
        "interpolation_range=U[1.1,1.2)"
    ),
    "sm.pub.nmu.mul": (
        f"paper {MISTRY2022_SINGLE_MODULE} solved_at_mean - module=nmu operation=mul "
        "interpolation_range=U[-0.2,-0.1)"
    ),
    "sm.pub.npu.div": (
        f"paper {MISTRY2022_SINGLE_MODULE} success_rate .0% module=npu operation=div "
        "interpolation_range=U[1.1,1.2)"
    ),
    "sm.pub.npu.div.U1,2": (
        f"paper {MISTRY2022_SINGLE_MODULE} solved_at_mean - module=npu operation=div "
        "interpolation_range=U[1,2)"
    ),
    "sm.pub.npu.mul": (
        f"paper {MISTRY2022_SINGLE_MODULE} success_rate .0% module=npu operation=mul "
        "interpolation_range=U[1.1,1.2)"
    ),
    "sm.pub.npu.mul.U1,2": (
        f"paper {MISTRY2022_SINGLE_MODULE} solved_at_mean - module=npu operation=mul "
        "interpolation_range=U[1,2)"
    ),
    "sm.pub.realnpu.div.1": (
        f"paper {MISTRY2022_SINGLE_MODULE} success_rate .0% module=realnpu "
        "operation=div interpolation_range=U[-1.2,-1.1)"
    ),
    "sm.pub.realnpu.div.2": (
        f"paper {MISTRY2022_SINGLE_MODULE} success_rate .0% module=realnpu "
        "operation=div interpolation_range=U[-20,-10)"
    ),
    "sm.rates": f"rate_table {PAPER_THREEFRY2X32}",
    "sm.realnpu.div.1": (
        f"range {PAPER_THREEFRY2X32} solved_at module=realnpu operation=div "
        "interpolation_range=-20,-10 solved=True"
    ),
    "sm.realnpu.div.2": (
        f"solved {PAPER} module=realnpu operation=div interpolation_range=-1.2,-1.1"
    ),
    "sm.realnpu.div.3": (
        f"solved {PAPER} module=realnpu operation=div interpolation_range=-20,-10"
    ),
    "sm.realnpu.div.4": (
        f"solved {PAPER_THREEFRY2X32} module=realnpu operation=div "
        "interpolation_range=-1.2,-1.1"
    ),
    "sm.realnpu.div.5": (
        f"solved {PAPER_THREEFRY2X32} module=realnpu operation=div "
        "interpolation_range=-20,-10"
    ),
    "sm.reciprocal": f"solved {RECIPROCAL_DIV_IN10}",
    "sm.reciprocal.negative": (
        f"solved {RECIPROCAL_DIV_IN10} "
        "interpolation_range=-20,-10|-2,-1|-1.2,-1.1|-0.2,-0.1|-2,2"
    ),
    "sm.reciprocal.positive": (
        f"solved {RECIPROCAL_DIV_IN10} interpolation_range=0.1,0.2|1,2|1.1,1.2|10,20"
    ),
    "sm.rnpu10.-2,2": f"solved {REALNPU_DIV_IN10} interpolation_range=-2,2",
    "sm.rnpu10.xmse.2e-5": (
        f"below {REALNPU_DIV_IN10} extrapolation_mse 2e-5 solved=False"
    ),
    "sm.runs": f"runs {PAPER_THREEFRY2X32}",
    "sm.runs.inalu": f"runs {PAPER_THREEFRY2X32} module=inalu",
    "sm.runs.nau+nmu": f"runs {PAPER_THREEFRY2X32} module=nau|nmu",
    "sm.snmu": f"solved {SNMU_MUL}",
    "sm.solved": f"solved {PAPER_THREEFRY2X32}",
    "sm.solved.inalu": (
        f"changed {PAPER_THREEFRY2X32} {SINGLE_MODULE_WARMUP_PER_CALL} solved "
        "module=inalu"
    ),
    "sm.tf3f": f"solved {PAPER_TORCH_ADAM}",
    "sm.tf3f.c9f2a64.1": (
        f"runs_alike {PAPER_TORCH_ADAM} extrapolation_mse {PAPER_THREEFRY2X32} "
        f"{SINGLE_MODULE_INALU_LATE_SWITCH} "
        f"{SINGLE_MODULE_NPU_CONSTRAINED_STRAIGHT_THROUGH} "
        f"{SINGLE_MODULE_WARMUP_PER_CALL} "
        "commit=c9f2a64c01cb885291338ace796dba6750e2b1e3"
    ),
    "sm.tf3f.c9f2a64.2": (
        f"sweeps_alike {PAPER_TORCH_ADAM} {PAPER_THREEFRY2X32} "
        f"{SINGLE_MODULE_INALU_LATE_SWITCH} "
        f"{SINGLE_MODULE_NPU_CONSTRAINED_STRAIGHT_THROUGH} "
        f"{SINGLE_MODULE_WARMUP_PER_CALL} "
        "commit=c9f2a64c01cb885291338ace796dba6750e2b1e3"
    ),
    "sm.tf3f.nac.add.1,2": (
        f"solved {PAPER_TORCH_ADAM} module=nac operation=add interpolation_range=1,2"
    ),
    "sm.unflagged": f"unflagged {PAPER_THREEFRY2X32}",
    "sm.xmse.inalu": (
        f"changed {PAPER_THREEFRY2X32} {SINGLE_MODULE_WARMUP_PER_CALL} "
        "extrapolation_mse module=inalu"
    ),
}
