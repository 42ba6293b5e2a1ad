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
from benchmarks.core.claim_rows import percent
from benchmarks.core.claim_rows import rows
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
    such two exist."""
    pairs = [
        (abs(line - other_line), first, second)
        for line, first in _full_runs(path, commit)
        for other_line, second in _full_runs(path, other)
        if (first["device"], first["date"]) == (second["device"], second["date"])
    ]
    if not pairs:
        raise ValueError(
            f"The full runs at {commit} and {other} in {path} were not made on "
            "one device on one date."
        )
    _, first, second = min(pairs, key=lambda pair: pair[0])
    return percent(first["wall_seconds"] / second["wall_seconds"])


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
