"""Sweeps on a Dask distributed cluster (`--cluster`): a scheduler and two
workers as separate processes on 127.0.0.1; a worker, the submitter and
the scheduler killed mid-sweep; every row written exactly once."""

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

import pytest

from benchmarks.core import sweep
from benchmarks.core.sweep import main
from tests.lab.commands import refusal

pytest.importorskip("distributed")

#: The scheduler, the workers and the submitter start outside the repository
#: with no PYTHONPATH: the installed package is all they need.
OUTSIDE = tempfile.gettempdir()
ENVIRONMENT = {
    **{key: value for key, value in os.environ.items() if key != "PYTHONPATH"},
    "TF_CPP_MIN_LOG_LEVEL": "3",
}
#: (nmu, mul) and (nau, add) on the Single Module Task's 9 ranges, seed 0.
EXPECTED_ROWS = 2 * 9


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _start(*arguments):
    return subprocess.Popen(
        [sys.executable, "-m", *arguments],
        cwd=OUTSIDE,
        env=ENVIRONMENT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _kill(process):
    if process.poll() is None:
        process.send_signal(signal.SIGKILL)
    process.wait()


@contextlib.contextmanager
def _cluster():
    """(address, scheduler process, worker processes), all killed after."""
    address = f"tcp://127.0.0.1:{_free_port()}"
    scheduler = _start(
        "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
        "--port", address.rsplit(":", 1)[1], "--no-dashboard",
    )  # fmt: skip
    workers = [
        _start(
            "distributed.cli.dask_worker",
            address,
            "--nthreads",
            "1",
            "--no-nanny",
            "--no-dashboard",
            "--death-timeout",
            "30",
        )  # fmt: skip
        for _ in range(2)
    ]
    try:
        yield address, scheduler, workers
    finally:
        for process in [*workers, scheduler]:
            _kill(process)


def _sweep(output, address):
    return [
        sys.executable, "-m", "benchmarks.single_module",
        "--module", "nmu,nau", "--operation", "mul,add", "--seeds", "0",
        "--max-steps", "1000", "--preset", "quick",
        "--output", output, "--cluster", address,
    ]  # fmt: skip


def _row_keys(path):
    if not os.path.exists(path):
        return []
    with open(path) as handle:
        return [sweep.row_key(json.loads(line)) for line in handle if line.strip()]


def _wait_for_rows(path, count, process, limit=300):
    deadline = time.monotonic() + limit
    while len(_row_keys(path)) < count:
        assert process.poll() is None, "the sweep ended before the kill"
        assert time.monotonic() < deadline, "no rows came"
        time.sleep(0.05)


def _assert_every_row_once(path):
    keys = _row_keys(path)
    assert len(keys) == len(set(keys)) == EXPECTED_ROWS


@pytest.mark.large
def test_a_worker_killed_mid_sweep_loses_no_job_and_duplicates_none(tmp_path):
    output = str(tmp_path / "rows.jsonl")
    with _cluster() as (address, _, workers):
        submitter = subprocess.Popen(
            _sweep(output, address), cwd=OUTSIDE, env=ENVIRONMENT,
            stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        _wait_for_rows(output, 4, submitter)
        _kill(workers[0])  # both workers are busy: it dies inside a job
        _, errors = submitter.communicate(timeout=600)
    assert submitter.returncode == 0, errors
    assert f"running {EXPECTED_ROWS} on {address}" in errors
    _assert_every_row_once(output)


# A release check: CI's process-level kill on a cluster is the one above.
@pytest.mark.extra_large
def test_a_sweep_resumes_after_its_submitter_or_its_scheduler_is_killed(tmp_path):
    output = str(tmp_path / "rows.jsonl")
    with _cluster() as (address, scheduler, _):
        submitter = _start(*_sweep(output, address)[2:])
        _wait_for_rows(output, 4, submitter)
        _kill(submitter)
        killed_at = len(_row_keys(output))
        resumed = subprocess.Popen(
            _sweep(output, address), cwd=OUTSIDE, env=ENVIRONMENT,
            stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        _wait_for_rows(output, killed_at + 4, resumed)
        _kill(scheduler)
        _, errors = resumed.communicate(timeout=120)
    assert resumed.returncode != 0
    assert "run the same command again to resume" in errors, errors[-3000:]
    assert len(_row_keys(output)) < EXPECTED_ROWS, "the kill should land mid-sweep"
    with _cluster() as (address, _, _):
        subprocess.run(
            _sweep(output, address), cwd=OUTSIDE, env=ENVIRONMENT, check=True,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
    _assert_every_row_once(output)


def test_cluster_and_workers_together_are_refused(tmp_path, capsys):
    from benchmarks.single_module import task as single_module

    line = ["--module", "nau", "--operation", "add", "--seeds", "0"]
    line += ["--workers", "2", "--cluster", "tcp://127.0.0.1:1"]
    line += ["--output", str(tmp_path / "rows.jsonl")]
    assert "give --cluster or --workers, not both" in refusal(
        single_module.parse_arguments, line, capsys
    )


def test_an_unreachable_scheduler_is_named(tmp_path, monkeypatch):
    from benchmarks.single_module import task as single_module

    monkeypatch.setattr(sweep, "CONNECT_SECONDS", 2)
    with pytest.raises(SystemExit, match="Cannot reach a Dask scheduler at tcp://"):
        main(
            single_module.TASK,
            ["--module", "nau", "--operation", "add", "--seeds", "0"]
            + ["--cluster", f"tcp://127.0.0.1:{_free_port()}"]
            + ["--output", str(tmp_path / "rows.jsonl"), "--quiet"],
        )
