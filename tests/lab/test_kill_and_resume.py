"""A sweep killed at random moments and resumed, again and again, in the
manner of Ray Tune's restore tests (`test_experiment_restore.py`): every
round kills a two-worker sweep — its whole process group, its parent
alone, or one of its workers — at a random moment while its parent
starts, while its workers start or while they run (every kill in every
phase within nine rounds), and checks that no key is written twice, that
no finished row is lost or altered, and that no process of the sweep is
left; at the end the rows equal those of the same sweep run without
interruption, every field but time and commit."""

import contextlib
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from benchmarks.core.rows import read_rows
from benchmarks.core.rows import row_key
from benchmarks.reproduce import VOLATILE
from tests.lab import ROOT
from tests.lab.processes import left_in_group
from tests.lab.processes import pool_workers

KILLS = ("group", "parent", "worker")
PHASES = ("start", "workers", "rows")

#: A static task (the Single Module Task: 24 runs of 1 000 steps), killed
#: nine times (each kill in each phase once: a parent killed while its
#: workers start or run is what leaves workers behind when the sweep's
#: watchdog is gone), and a sequential one (the NRU paper's copy task,
#: T = 5: 6 runs of 1 000 steps of two recurrent models); they share the
#: sweep, so the second is killed three times (each kill and each phase
#: once). Both are release checks beyond CI, whose process-level kill of
#: a pool is `test_sweep.py`'s (a parent killed mid-sweep, its workers
#: gone, every row once after the resume). Every round starts three
#: TensorFlow processes.
SWEEPS = {
    "single_module": (
        ["-m", "benchmarks.single_module", "--module", "nau"]
        + ["--operation", "add,sub", "--interpolation-range=1,2"]
        + ["--seeds", "0-11", "--max-steps", "1000"],
        len(KILLS) * len(PHASES),
        pytest.mark.extra_large,
    ),
    "nru_copy": (
        ["-m", "benchmarks.nru", "--task", "copy", "--T", "5"]
        + ["--model", "lstm,janet", "--preset", "quick", "--seeds", "0-2"]
        + ["--max-steps", "1000"],
        3,
        pytest.mark.extra_large,  # the same sweep code as the first
    ),
}


def _start(line, output):
    return subprocess.Popen(
        [sys.executable, *line, "--workers", "2", "--quiet", "--output", str(output)],
        cwd=ROOT,
        env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def _rows(output):
    return list(read_rows([str(output)])) if output.exists() else []


def _wait(process, until, seconds):
    """Waits until `until()` holds, the sweep ends or `seconds` pass."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None and not until():
        time.sleep(0.05)


def _wait_for_the_moment(process, output, phase, rng):
    """A random moment of the round's phase: while the parent starts
    (TensorFlow loading), while its workers start, or while they run (after
    the round's first row)."""
    if phase == "workers":
        _wait(process, lambda: pool_workers(process.pid), 120)
    elif phase == "rows":
        before = len(_rows(output))
        _wait(process, lambda: len(_rows(output)) > before, 300)
    seconds = {"start": 10, "workers": 4, "rows": 3}[phase]
    _wait(process, lambda: False, rng.uniform(0, seconds))


def _kill(process, kill, rng):
    """Kills the sweep's process group, its parent or one of its workers
    (`kill`), unless it has ended; then waits for its parent."""
    if process.poll() is not None:  # the sweep ended before the kill
        assert process.returncode == 0, f"the sweep ended with {process.returncode}"
        return
    if kill == "group":
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    elif kill == "parent":
        process.kill()
    else:
        workers = pool_workers(process.pid)
        if workers:
            os.kill(rng.choice(workers), signal.SIGKILL)
    process.wait(timeout=120)


def _comparable(rows):
    return {
        row_key(row): {k: v for k, v in row.items() if k not in VOLATILE}
        for row in rows
    }


@pytest.mark.parametrize(
    "sweep", [pytest.param(name, marks=SWEEPS[name][2]) for name in sorted(SWEEPS)]
)
def test_a_sweep_killed_at_random_and_resumed_ends_as_an_uninterrupted_one(
    sweep, tmp_path
):
    line, rounds, _ = SWEEPS[sweep]
    rng = random.Random(sweep)
    output, kept = tmp_path / "rows.jsonl", {}
    for round_number in range(rounds):
        kill = KILLS[round_number % len(KILLS)]
        phase = PHASES[(round_number + round_number // len(KILLS)) % len(PHASES)]
        process = _start(line, output)
        _wait_for_the_moment(process, output, phase, rng)
        _kill(process, kill, rng)
        seen = f"round {round_number} ({kill}, {phase}), status {process.returncode}"
        try:
            left = left_in_group(process.pid, 10)
            assert not left, f"{seen}: processes of it were left: {left}"
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
        rows = _rows(output)
        keys = [row_key(row) for row in rows]
        assert len(keys) == len(set(keys)), f"{seen}: a key written twice"
        now = {row_key(row): row for row in rows}
        assert all(now.get(key) == row for key, row in kept.items()), (
            f"{seen}: a finished row was lost or changed"
        )
        kept = now
    assert _start(line, output).wait(timeout=600) == 0
    uninterrupted = tmp_path / "uninterrupted.jsonl"
    assert _start(line, uninterrupted).wait(timeout=600) == 0
    rows = _rows(output)
    assert len({row_key(row) for row in rows}) == len(rows)
    assert _comparable(rows) == _comparable(_rows(uninterrupted))
