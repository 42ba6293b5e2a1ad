"""The claims of the speed measurements (`benchmarks.claims`):
`speed_table FILE FIELD=VALUE ...`, each unit's training speed per backend
and setting relative to Dense's (`benchmarks.speed.backend_speed`);
`pytest_progress FILE COUNT`, a count read off the progress marks of a
pytest log (`benchmarks/speed/gpu_backends.sh`'s harness logs);
`suite_ratio FILE COMMIT OTHER`, the wall time of the test suite at one
commit over that at another, measured on the same device and date
(`benchmarks.speed.test_suite full`); `suite_table FILE FIELD=VALUE ...`,
the table of those measurements, a row each."""

import re

from benchmarks.core.claim_rows import Claim
from benchmarks.core.claim_rows import file_path
from benchmarks.core.claim_rows import matching
from benchmarks.core.claim_rows import rows
from benchmarks.core.claim_rows import span
from benchmarks.speed import backend_table

#: pytest's outcome of each test: its character on a progress line, its
#: word on a verbose (`-v`) line.
_OUTCOMES = {
    "passed": (".", "PASSED"),
    "failed": ("F", "FAILED"),
    "skipped": ("s", "SKIPPED"),
    "errors": ("E", "ERROR"),
}
_PERCENT = re.compile(r"\[\s*(\d+)%\]")
_PROGRESS_LINE = re.compile(r"(?:\S+\.py )?([.FsExX]+)(?:\s*\[\s*\d+%\])?")
_VERBOSE_LINE = re.compile(r"\S+::\S+ (PASSED|FAILED|SKIPPED|ERROR|XFAIL|XPASS)\b")


def speed_table(path, *filters):
    """Each unit's training speed per backend and setting, relative to
    Dense's, of the matching rows."""
    return "\n".join(backend_table.speed_table(matching(path, filters)))


def pytest_progress(path, count):
    """A count of the pytest log `path` (its progress lines, or its lines
    per test under `-v`): how many tests `passed`, `failed`, were
    `skipped` or raised `errors`, how many `ran` in all, or `percent`,
    the last progress mark it printed ("78 %": a run stopped by a time
    limit)."""
    with open(file_path(path), encoding="utf-8") as handle:
        text = handle.read()
    if count == "percent":
        marks = _PERCENT.findall(text)
        if not marks:
            raise ValueError(f"{path} has no progress mark of pytest's.")
        return f"{marks[-1]} %"
    outcomes = []
    for line in text.splitlines():
        progress = _PROGRESS_LINE.fullmatch(line.strip())
        verbose = _VERBOSE_LINE.match(line.strip())
        if progress:
            outcomes.extend(progress[1])
        elif verbose:
            outcomes.append(verbose[1])
    if count == "ran":
        return str(len(outcomes))
    if count not in _OUTCOMES:
        raise ValueError(
            f"pytest_progress counts {', '.join([*_OUTCOMES, 'ran', 'percent'])};"
            f" not {count!r}."
        )
    return str(sum(outcome in _OUTCOMES[count] for outcome in outcomes))


def _full_runs(path, commit):
    """[(line, row)] of the `full` rows of `path` made at `commit` (a prefix)."""
    found = [
        (line, row)
        for line, row in enumerate(rows(path))
        if row["command"] == "full" and row["commit"].startswith(commit)
    ]
    if not found:
        raise ValueError(f"{path} has 0 full runs at {commit}.")
    return found


def suite_ratio(path, commit, other):
    """The wall time of the full run at `commit` over that at `other`, in
    percent ("52 %"): of the two runs made on one device on one date
    nearest each other in the file (one after the other), refused where no
    such two exist; "67-74 %" where `commit` was run just before and just
    after that run of `other` (the same distance from it)."""
    pairs = [
        (abs(line - other_line), other_line, first, second)
        for line, first in _full_runs(path, commit)
        for other_line, second in _full_runs(path, other)
        if (first["device"], first["date"]) == (second["device"], second["date"])
    ]
    if not pairs:
        raise ValueError(
            f"The full runs at {commit} and {other} in {path} were not made on "
            "one device on one date."
        )
    distance, other_line, _, second = min(pairs, key=lambda pair: pair[:2])
    ratios = [
        100 * first["wall_seconds"] / second["wall_seconds"]
        for gap, line, first, _ in pairs
        if (gap, line) == (distance, other_line)
    ]
    return f"{span([round(ratio) for ratio in ratios])} %"


def suite_table(path, *filters):
    """The measurements of the README's commands, a row each, in the order
    they were made: date, device, command, commit, tests passed and
    skipped, wall and CPU seconds, the load average before, exit status."""
    lines = [
        "| date | device | command | commit | passed | skipped | wall s | CPU s "
        "| load | status |",
        "|---|---|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in matching(path, filters):
        device = f"{row['cores']}-core {row['device']}"
        counts = (row.get("passed", "—"), row.get("skipped", "—"))
        lines.append(
            f"| {row['date']} | {device} | {row['command']} | `{row['commit'][:7]}` "
            f"| {counts[0]} | {counts[1]} | {row['wall_seconds']:.0f} "
            f"| {row['cpu_seconds']:.0f} | {row['load_before']:.2f} | {row['status']} |"
        )
    return "\n".join(lines)


CLAIMS = {
    "speed_table": Claim(speed_table, table=True),
    "pytest_progress": Claim(pytest_progress),
    "suite_ratio": Claim(suite_ratio),
    "suite_table": Claim(suite_table, table=True),
}


BACKEND_SPEED = "speed/results/backend_speed.jsonl"
HARNESS_JAX = "speed/results/gpu_backends/harness_jax.txt"
HARNESS_JAX_HIGHEST = "speed/results/gpu_backends/harness_jax_highest.txt"
TEST_SUITE = "speed/results/test_suite.jsonl"
POPULATION_RATIOS = "speed/results/population_ratios.jsonl"

#: The named claims of the pages over the rows of the speed measurements (a page's
#: `<!--=speed.NAME-->` stands for the expression; `benchmarks.claims`).
NAMED = {
    **{
        f"speed.population.{unit}": (
            f"value {POPULATION_RATIOS} ratio .2f task=single_module unit={unit} "
            "population=225"
        )
        for unit in ("nmu", "nau", "npu")
    },
    "speed.population.madsen": (
        f"value {POPULATION_RATIOS} ratio .2f task=arithmetic population=225"
    ),
    "speed.Dense.246e19b": (
        f"speed_table {BACKEND_SPEED} baseline=Dense "
        "commit=246e19b56b7bf5497bdbe8fd6dddb79de948f55c|a0c3134315e1ba394bf1bd9eb116ceb2fbe9b86f|f52adfc665f13e6c11c688c12fdc2aa21021942c"
    ),
    "speed.Dense.jax.1": (
        f"value {BACKEND_SPEED} steps_per_s .0f layer=Dense backend=jax "
        "jit_compile=False steps_per_execution=1 "
        "commit=246e19b56b7bf5497bdbe8fd6dddb79de948f55c|a0c3134315e1ba394bf1bd9eb116ceb2fbe9b86f|f52adfc665f13e6c11c688c12fdc2aa21021942c"
    ),
    "speed.Dense.jax.100": (
        f"value {BACKEND_SPEED} steps_per_s .0f layer=Dense backend=jax "
        "jit_compile=True steps_per_execution=100 "
        "commit=246e19b56b7bf5497bdbe8fd6dddb79de948f55c|a0c3134315e1ba394bf1bd9eb116ceb2fbe9b86f|f52adfc665f13e6c11c688c12fdc2aa21021942c"
    ),
    "speed.Dense.tensorflow.1": (
        f"value {BACKEND_SPEED} steps_per_s .0f layer=Dense backend=tensorflow "
        "jit_compile=False steps_per_execution=1 "
        "commit=246e19b56b7bf5497bdbe8fd6dddb79de948f55c|a0c3134315e1ba394bf1bd9eb116ceb2fbe9b86f|f52adfc665f13e6c11c688c12fdc2aa21021942c"
    ),
    "speed.Dense.tensorflow.2": (
        f"value {BACKEND_SPEED} steps_per_s .0f layer=Dense backend=tensorflow "
        "jit_compile=True steps_per_execution=100 "
        "commit=246e19b56b7bf5497bdbe8fd6dddb79de948f55c|a0c3134315e1ba394bf1bd9eb116ceb2fbe9b86f|f52adfc665f13e6c11c688c12fdc2aa21021942c"
    ),
    "speed.Dense.torch.1.1": (
        f"value {BACKEND_SPEED} steps_per_s .0f layer=Dense backend=torch "
        "jit_compile=False steps_per_execution=1 "
        "commit=246e19b56b7bf5497bdbe8fd6dddb79de948f55c|a0c3134315e1ba394bf1bd9eb116ceb2fbe9b86f|f52adfc665f13e6c11c688c12fdc2aa21021942c"
    ),
    "speed.Dense.torch.1.2": (
        f"value {BACKEND_SPEED} steps_per_s .0f layer=Dense backend=torch "
        "jit_compile=True steps_per_execution=1 "
        "commit=246e19b56b7bf5497bdbe8fd6dddb79de948f55c|a0c3134315e1ba394bf1bd9eb116ceb2fbe9b86f|f52adfc665f13e6c11c688c12fdc2aa21021942c"
    ),
    "speed.demo.15919a3": (
        f"value {TEST_SUITE} training_seconds .1f command=demo "
        "commit=15919a3bfbee5ca8ab14cf9b3249176b94af55c5"
    ),
    "speed.jax.failed": f"pytest_progress {HARNESS_JAX} failed",
    "speed.jax.percent": f"pytest_progress {HARNESS_JAX} percent",
    "speed.jax.ran": f"pytest_progress {HARNESS_JAX} ran",
    "speed.jaxhi.failed": f"pytest_progress {HARNESS_JAX_HIGHEST} failed",
    "speed.jaxhi.passed": f"pytest_progress {HARNESS_JAX_HIGHEST} passed",
    "speed.jaxhi.percent": f"pytest_progress {HARNESS_JAX_HIGHEST} percent",
    "speed.jaxhi.ran": f"pytest_progress {HARNESS_JAX_HIGHEST} ran",
    "speed.model.fitNAU.1": (
        f"value {BACKEND_SPEED} ratio_to_baseline .2f layer=model.fit:NAU-NMU "
        "jit_compile=False "
        "commit=246e19b56b7bf5497bdbe8fd6dddb79de948f55c|a0c3134315e1ba394bf1bd9eb116ceb2fbe9b86f|f52adfc665f13e6c11c688c12fdc2aa21021942c"
    ),
    "speed.model.fitNAU.2": (
        f"value {BACKEND_SPEED} ratio_to_baseline .2f layer=model.fit:NAU-NMU "
        "jit_compile=True "
        "commit=246e19b56b7bf5497bdbe8fd6dddb79de948f55c|a0c3134315e1ba394bf1bd9eb116ceb2fbe9b86f|f52adfc665f13e6c11c688c12fdc2aa21021942c"
    ),
    "speed.pytorch-loop": (
        f"value {BACKEND_SPEED} steps_per_s .0f layer=pytorch-loop:NAU-NMU "
        "commit=246e19b56b7bf5497bdbe8fd6dddb79de948f55c|a0c3134315e1ba394bf1bd9eb116ceb2fbe9b86f|f52adfc665f13e6c11c688c12fdc2aa21021942c"
    ),
    "speed.suite.794d431": f"suite_ratio {TEST_SUITE} 794d431 f2eb624",
    "speed.suite.5494c2a": f"suite_ratio {TEST_SUITE} 5494c2a f2eb624",
    "speed.suite.c440a1b": f"suite_ratio {TEST_SUITE} c440a1b f2eb624",
    "speed.table.suite": f"suite_table {TEST_SUITE}",
}
