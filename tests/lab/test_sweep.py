"""Sweeps (issue 4): reproducible rows, atomic appends, kill and resume."""

import argparse
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time

import keras
import numpy as np
import pytest

from benchmarks import reproduce
from benchmarks.core import arguments
from benchmarks.core import resume
from benchmarks.core import sweep
from benchmarks.core import training
from benchmarks.core.runs import Engine
from benchmarks.core.sweep import main
from benchmarks.core.training import train_run
from benchmarks.single_module import task as single_module
from tests.lab import ROOT
from tests.lab.processes import left_in_group


def test_parse_seeds():
    assert arguments.parse_seeds("0-3,7,9-10") == [0, 1, 2, 3, 7, 9, 10]
    assert arguments.parse_seeds("5") == [5]
    for bad in ("", "a-b", "-1", "3-x"):
        with pytest.raises(argparse.ArgumentTypeError):
            arguments.parse_seeds(bad)
    for reversed_range in ("5-0", "0-2,9-7"):
        with pytest.raises(argparse.ArgumentTypeError, match="reversed"):
            arguments.parse_seeds(reversed_range)


def test_a_partial_last_line_is_dropped_and_complete_rows_are_kept(tmp_path):
    path = str(tmp_path / "rows.jsonl")
    rows = [{"config": {"a": 1}, "seed": s, "solved": True} for s in range(3)]
    for row in rows[:2]:
        sweep.append_row(path, row)
    with open(path, "a") as handle:
        handle.write(json.dumps(rows[2])[:20])  # killed mid-write
    keys = sweep.finished_keys(path)
    assert keys == {sweep.row_key(row) for row in rows[:2]}
    sweep.append_row(path, rows[2])
    with open(path) as handle:
        assert [json.loads(line) for line in handle] == rows


NOT_ROWS = {
    "notes without a final newline": b"my notes\nthe last line, no newline",
    "one JSON object, no newline": b'{"a": 1}',
    "JSON lines of another schema": b'{"a": 1}\n{"b": 2}\n',
    "garbage": b"\x00\xff not json\n",
    "rows, then text without a newline": b'{"config": {"a": 1}, "seed": 0}\nnotes',
}


@pytest.mark.parametrize("content", NOT_ROWS.values(), ids=list(NOT_ROWS))
def test_an_output_that_holds_anything_but_rows_is_refused_and_left_as_it_was(
    tmp_path, content
):
    path = tmp_path / "output.jsonl"
    path.write_bytes(content)
    with pytest.raises(sweep.OutputError, match="is not a row of a sweep"):
        sweep.finished_keys(str(path))
    assert path.read_bytes() == content
    with pytest.raises(sweep.OutputError):
        sweep.finished_keys(str(tmp_path))  # a directory


def _fake_rows(jobs):
    return [{"config": dict(job.config), "seed": job.seed} for job in jobs]


def test_an_output_in_a_new_directory_is_created_before_the_runs(tmp_path):
    output = tmp_path / "new" / "deeper" / "rows.jsonl"
    jobs = [sweep.Job((("a", 1),), seed) for seed in range(3)]
    assert sweep.run_sweep(jobs, _fake_rows, str(output), quiet=True) == 3
    assert len(output.read_text().splitlines()) == 3


def test_the_command_line_refuses_a_foreign_output_in_one_line_with_status_2(
    tmp_path,
):
    notes = tmp_path / "notes.txt"
    notes.write_bytes(NOT_ROWS["notes without a final newline"])
    completed = subprocess.run(
        [sys.executable, "-m", "benchmarks.single_module", "--preset", "quick",
         "--module", "nmu", "--operation", "mul", "--seeds", "0",
         "--output", str(notes)],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )  # fmt: skip
    assert completed.returncode == 2, completed.stderr[-2000:]
    assert "Traceback" not in completed.stderr
    (line,) = [x for x in completed.stderr.splitlines() if x.startswith("error: ")]
    assert str(notes) in line and "line 1," in line
    assert notes.read_bytes() == NOT_ROWS["notes without a final newline"]


def _job_rows(seed, interpolation="1,2", module="nmu", operation="mul"):
    config = {
        "module": module,
        "operation": operation,
        "input_size": 2,
        "interpolation_range": interpolation,
        "extrapolation_range": "2,6",
        "preset": "quick",
        "steps": 3_000,
    }
    return single_module_rows([sweep.Job.of(config, seed)])


def single_module_rows(jobs):
    return Engine(single_module.run_spec)("single_module", jobs)


def _without_time(row):
    return {key: value for key, value in row.items() if key != "wall_seconds"}


def test_the_same_seed_gives_the_same_row_twice_even_after_other_runs():
    first = _job_rows(3)[0]
    _job_rows(4, interpolation="10,20")  # the cached program runs another job
    second = _job_rows(3)[0]
    assert _without_time(first) == _without_time(second)
    assert first["seed"] == 3 and first["max_steps"] == 3_000
    assert first["best_step"] % 1_000 == 0 and first["best_step"] <= 3_000
    for key in ("solved", "solved_at", "sparsity_error", "threshold", "device"):
        assert key in first
    assert first["versions"]["keras"]


def _sweep_command(output, population):
    return [
        sys.executable,
        "-m",
        "benchmarks.single_module",
        "--module",
        "nmu,nau",
        "--operation",
        "mul,add",
        "--seeds",
        "0",
        "--max-steps",
        "1000",
        "--preset",
        "quick",
        "--workers",
        "2",
        "--population",
        population,
        "--quiet",
        "--output",
        output,
    ]


def _rows(path):
    with open(path) as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _write_rows(path, rows):
    with open(path, "w") as handle:
        handle.writelines(json.dumps(row) + "\n" for row in rows)


@pytest.mark.large
@pytest.mark.parametrize("population", ["1", "3"])
def test_a_sweep_killed_mid_run_and_restarted_has_every_row_exactly_once(
    tmp_path, population
):
    """The pool's process-level kill test in CI (the others, on the same
    sweep code, are release checks): its parent killed outright mid-sweep,
    the workers end by themselves, and the same command then finishes
    with every row exactly once; one run at a time, and in populations of
    3 (a killed population loses its runs, never a written row)."""
    output = str(tmp_path / "sweep.jsonl")
    environment = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    process = subprocess.Popen(
        _sweep_command(output, population),
        cwd=ROOT,
        env=environment,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and process.poll() is None:
        if os.path.exists(output) and len(_rows(output)) >= 4:
            break
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)  # to the parent alone
    process.wait()
    try:
        assert not left_in_group(process.pid, 10)  # no worker outlives it
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    killed_at = len(_rows(output))
    expected = 2 * 9  # (nmu, mul) and (nau, add), 9 ranges, seed 0
    assert 4 <= killed_at < expected, "the kill should land mid-sweep"
    if population == "3":  # a population's rows are written together
        assert killed_at % 3 == 0
    subprocess.run(
        _sweep_command(output, population),
        cwd=ROOT,
        env=environment,
        check=True,
        stderr=subprocess.DEVNULL,
    )
    rows = _rows(output)
    keys = [sweep.row_key(row) for row in rows]
    assert len(keys) == len(set(keys)) == expected
    assert {(r["module"], r["operation"]) for r in rows} == {
        ("nmu", "mul"),
        ("nau", "add"),
    }
    assert {row.get("population", 1) for row in rows} == {int(population)}


def test_a_sweep_runs_in_a_process_where_tensorflow_already_runs(tmp_path):
    import tensorflow as tf

    tf.constant(1.0) + 1.0  # initializes the runtime
    output = str(tmp_path / "rows.jsonl")
    arguments = ["--module", "nau", "--operation", "add", "--seeds", "0"]
    arguments += ["--interpolation-range=1,2", "--max-steps", "1000"]
    main(single_module.TASK, [*arguments, "--output", output, "--quiet"])
    (row,) = _rows(output)
    assert row["optimizer"] == "torch_adam"  # the reference implementations'
    assert row["commit"] and isinstance(row["dirty"], bool)


def _in_checkout(*line):
    return subprocess.run(
        [sys.executable, "-m", *line],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )


def test_an_in_process_sweep_and_its_reproduction_run_on_one_thread(tmp_path):
    """The NRU command builds its models (the NRU and the LSTMs whose
    parameter counts it matches) before its sweep; its in-process runs
    still have a pool worker's one TensorFlow thread, and so do
    reproduce's re-runs (TensorFlow's default threads only with
    --default-threads): the thread count changes the rounding of the
    results, and each row's device names it."""
    output = tmp_path / "rows.jsonl"
    made = _in_checkout(
        "benchmarks.nru", "--task=copy", "--T=2", "--model=lstm", "--seeds=0",
        "--preset=quick", "--max-steps=1000", "--workers=1", f"--output={output}",
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    (row,) = _rows(str(output))
    assert row["device"].endswith("(1 thread per worker)"), row["device"]
    record = tmp_path / "record.jsonl"
    rerun = ("benchmarks.reproduce", str(output), "--lines=1", f"--record={record}")
    assert _in_checkout(*rerun).returncode == 0  # identical
    _in_checkout(*rerun, "--default-threads")  # may differ in rounding
    one, default = _rows(str(record))
    assert one["verdict"] == "identical", one["differences"]
    assert one["device"] == row["device"]
    assert default["device"].endswith("(TensorFlow's default threads)")


def test_reproduce_reruns_rows_and_finds_changed_ones(tmp_path, capsys):
    output = str(tmp_path / "rows.jsonl")
    arguments = ["--module", "nmu", "--operation", "mul", "--seeds", "0-1"]
    arguments += ["--interpolation-range=1,2", "--max-steps", "2000", "--quiet"]
    main(single_module.TASK, [*arguments, "--output", output])
    record = tmp_path / "record" / "reproductions.jsonl"
    record.parent.mkdir()
    assert reproduce.main([output, "--sample", "2", "--record", str(record)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["verdict"] for line in lines] == ["identical", "identical"]
    recorded = _rows(str(record))
    assert [row["line"] for row in recorded] == [1, 2]
    assert {row["file"] for row in recorded} == {os.path.relpath(output, ROOT)}
    assert all(row["commit"] and row["device"] and row["date"] for row in recorded)
    rows = _rows(output)
    rows[1]["extrapolation_mse"] *= 1.001  # as if the code had changed
    _write_rows(output, rows)
    assert reproduce.main([output, "--sample", "2"]) == 1
    changed = json.loads(capsys.readouterr().out.splitlines()[1])
    assert list(changed["differences"]) == ["extrapolation_mse"]
    # within a tolerance of 1 %, it is rounding; of 0.01 %, it differs
    assert reproduce.main([output, "--sample", "2", "--tolerance", "0.01"]) == 0
    verdicts = [
        json.loads(line)["verdict"] for line in capsys.readouterr().out.split("\n")[:2]
    ]
    assert verdicts == ["identical", "rounding"]
    assert reproduce.main([output, "--sample", "2", "--tolerance", "1e-4"]) == 1
    capsys.readouterr()
    assert reproduce.main([output, "--lines", "2"]) == 1  # the changed one alone
    (line,) = [json.loads(text) for text in capsys.readouterr().out.splitlines()]
    assert line["line"] == 2 and list(line["differences"]) == ["extrapolation_mse"]
    for beyond in ("3", "0", "x"):
        with pytest.raises(SystemExit) as stopped:
            reproduce.main([output, "--lines", beyond])
        assert stopped.value.code == 2
    capsys.readouterr()
    # --cheapest re-runs the rows of least wall_seconds: the unchanged one,
    # then (made the cheaper) the changed one
    rows[0]["wall_seconds"], rows[1]["wall_seconds"] = 1.0, 2.0
    _write_rows(output, rows)
    assert reproduce.main([output, "--sample", "1", "--cheapest"]) == 0
    assert json.loads(capsys.readouterr().out)["line"] == 1
    rows[0]["wall_seconds"] = 3.0
    _write_rows(output, rows)
    assert reproduce.main([output, "--sample", "1", "--cheapest"]) == 1
    assert json.loads(capsys.readouterr().out)["line"] == 2


@pytest.mark.parametrize(
    ("task", "says"),
    [("untrained_memory", "a probe's of benchmarks/nru/"), ("sorting", "Unknown")],
)
def test_reproduce_refuses_rows_no_task_reruns_in_one_line(
    task, says, tmp_path, capsys
):
    output = str(tmp_path / "rows.jsonl")
    _write_rows(output, [{"task": task, "config": {"model": "nru"}, "seed": 0}])
    with pytest.raises(SystemExit) as stopped:
        reproduce.main([output, "--sample", "1"])
    error = capsys.readouterr().err
    assert stopped.value.code == 2 and error.count("\n") == 1 and says in error


def test_a_changed_best_step_is_a_tie_only_where_its_values_agree():
    stored = {"best_step": 22000, "interpolation_mse": 2.3e-15, "solved": True}
    tied = {**stored, "best_step": 21000, "interpolation_mse": 2.3e-15 * (1 + 1e-7)}
    changed = reproduce.differences(stored, tied)
    assert sorted(changed) == ["best_step", "interpolation_mse"]
    assert reproduce.verdict(changed, 1e-5) == "rounding"
    assert reproduce.verdict(changed, 0.0) == "differs"  # exact by default
    moved = {**tied, "interpolation_mse": 4.6e-15}  # another value: no tie
    assert reproduce.verdict(reproduce.differences(stored, moved), 1e-5) == "differs"
    unsolved = {**tied, "solved": False}  # a verdict is never rounding
    assert reproduce.verdict(reproduce.differences(stored, unsolved), 0.5) == "differs"
    series = {"loss": [1.0, float("nan"), 3.0]}
    assert (
        reproduce.verdict(
            reproduce.differences(series, {"loss": [1.0 + 1e-9, float("nan"), 3.0]}),
            1e-6,
        )
        == "rounding"
    )
    for other in ([1.0, 2.0, 3.0], [1.0, float("nan")]):
        changed = reproduce.differences(series, {"loss": other})
        assert reproduce.verdict(changed, 1e-6) == "differs"


def test_nan_where_nan_was_stored_is_no_change():
    stored = {"initial_mse": float("nan"), "loss": [1.0, float("nan")], "steps": 3}
    same = {"initial_mse": float("nan"), "loss": [1.0, float("nan")], "steps": 3.0}
    assert reproduce.differences(stored, same) == {}
    assert reproduce.verdict(reproduce.differences(stored, same), 0.0) == "identical"
    assert list(reproduce.differences(stored, {**same, "initial_mse": 1.0})) == [
        "initial_mse"
    ]


def _echo_rows(jobs):
    return [{"config": dict(job.config), "seed": job.seed} for job in jobs]


def _echo_rows_failing_at_seed_3(jobs):
    if any(job.seed == 3 for job in jobs):
        raise RuntimeError("killed at seed 3")
    return _echo_rows(jobs)


def _echo_rows_dying_at_seed_3(jobs):
    if any(job.seed == 3 for job in jobs):
        os._exit(1)  # as a worker killed by the system: no exception
    return _echo_rows(jobs)


def test_a_worker_that_dies_stops_the_sweep_with_its_rows_kept(tmp_path):
    """A pool's worker killed mid-run ends the sweep with a one-line message
    (multiprocessing.Pool waited forever for the run); the runs finished
    are kept and the same command resumes the rest."""
    jobs = [sweep.Job((("model", "x"),), seed) for seed in range(6)]
    output = str(tmp_path / "rows.jsonl")
    with pytest.raises(SystemExit, match="worker process of the sweep died"):
        sweep.run_sweep(jobs, _echo_rows_dying_at_seed_3, output, 2, quiet=True)
    kept = {row["seed"] for row in _rows(output)}
    assert 3 not in kept
    assert sweep.run_sweep(jobs, _echo_rows, output, 2, quiet=True) == 6 - len(kept)
    assert sorted(row["seed"] for row in _rows(output)) == list(range(6))


def test_a_second_sweep_on_an_output_in_use_is_refused_naming_its_writer(
    tmp_path,
):
    output = tmp_path / "rows.jsonl"
    jobs = [sweep.Job((("model", "x"),), seed) for seed in range(2)]
    sweep.run_sweep(jobs[:1], _echo_rows, str(output), quiet=True)
    before = output.read_bytes()
    with sweep.sole_writer(str(output)):  # as a sweep running on it
        with pytest.raises(sweep.OutputError, match=f"process {os.getpid()}"):
            sweep.run_sweep(jobs, _echo_rows, str(output), quiet=True)
    assert output.read_bytes() == before
    assert sweep.run_sweep(jobs, _echo_rows, str(output), quiet=True) == 1


#: A sweep of six jobs of 0.3 s each, without TensorFlow, on the output
#: given; exit status 2 and the one-line message when it is refused.
_SLOW_SWEEP = """
import sys, time
from benchmarks.core import sweep
sweep.use_worker_threads = lambda: None  # the sweep's machinery, not TensorFlow's
def slow_rows(jobs):
    time.sleep(0.3)
    return [{"config": dict(job.config), "seed": job.seed} for job in jobs]
jobs = [sweep.Job((("model", "x"),), seed) for seed in range(6)]
try:
    sweep.run_sweep(jobs, slow_rows, sys.argv[1], quiet=True)
except sweep.OutputError as error:
    print(error, file=sys.stderr)
    sys.exit(2)
"""


@pytest.mark.parametrize("sweeps", [2, 3])
def test_sweeps_started_together_on_one_output_leave_one_writer(tmp_path, sweeps):
    """One sweep writes; the others are refused at once, naming it; every
    job's row is there once."""
    output = str(tmp_path / "rows.jsonl")
    environment = {**os.environ, "PYTHONPATH": ROOT}
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", _SLOW_SWEEP, output],
            env=environment,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(sweeps)
    ]
    ended = [(process.pid, *process.communicate(timeout=60)) for process in processes]
    statuses = sorted(process.returncode for process in processes)
    assert statuses == [0] + [2] * (sweeps - 1), ended
    (writer,) = [process.pid for process in processes if process.returncode == 0]
    for pid, _, error in ended:
        if pid != writer:
            assert f"being written by another sweep (process {writer})" in error
    assert sorted(row["seed"] for row in _rows(output)) == list(range(6))


def test_workers_are_capped_by_runs_cores_and_memory(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3})
    monkeypatch.setattr(sweep, "_available_memory", lambda: 16 * 2**30)
    assert sweep.capped_workers(2, 10) == (2, None)
    assert sweep.capped_workers(1000, 3) == (3, "3 run(s) to do")
    assert sweep.capped_workers(1000, 100) == (4, "4 core(s)")
    monkeypatch.setattr(sweep, "_available_memory", lambda: 2.5 * 2**30)
    assert sweep.capped_workers(1000, 100) == (2, "2.5 GiB available, about 1 a worker")
    monkeypatch.setattr(sweep, "_available_memory", lambda: 2**20)
    assert sweep.capped_workers(3, 100)[0] == 1
    monkeypatch.setattr(sweep, "_available_memory", lambda: None)
    assert sweep.capped_workers(2, 0) == (2, None)  # nothing to run: no note


def test_a_sweep_asked_for_more_workers_than_runs_says_so(tmp_path, capsys):
    jobs = [sweep.Job((("model", "x"),), seed) for seed in range(2)]
    output = str(tmp_path / "rows.jsonl")
    assert sweep.run_sweep(jobs, _echo_rows, output, workers=1000) == 2
    assert "note: --workers 1000 capped at 2: " in capsys.readouterr().err


def test_a_row_whose_write_fails_is_kept_beside_and_the_sweep_says_so(
    tmp_path, monkeypatch
):
    output = str(tmp_path / "rows.jsonl")
    jobs = [sweep.Job((("model", "x"),), seed) for seed in range(3)]
    sweep.run_sweep(jobs[:1], _echo_rows, output, quiet=True)
    append = sweep.append_rows

    def full_disk(path, rows):
        if path == output:
            raise OSError(28, "No space left on device")
        append(path, rows)

    monkeypatch.setattr(sweep, "append_rows", full_disk)
    with pytest.raises(SystemExit, match="No space left on device.*kept in"):
        sweep.run_sweep(jobs, _echo_rows, output, quiet=True)
    assert [row["seed"] for row in _rows(output)] == [0]
    assert [row["seed"] for row in _rows(output + ".unwritten")] == [1]


def test_each_run_is_written_as_it_finishes_not_with_later_runs(tmp_path):
    # A sweep stopped in its fourth run keeps the three finished before it
    # (rows written per run, not per batch of runs).
    jobs = [sweep.Job((("model", "x"),), seed) for seed in range(5)]
    output = str(tmp_path / "rows.jsonl")
    with pytest.raises(RuntimeError, match="seed 3"):
        sweep.run_sweep(jobs, _echo_rows_failing_at_seed_3, output, quiet=True)
    assert [row["seed"] for row in _rows(output)] == [0, 1, 2]


class _Killed(BaseException):
    """A kill between two system calls, which no `except` of the sweep sees."""


def test_a_population_killed_after_its_first_write_is_all_on_disk(
    tmp_path, monkeypatch
):
    # The rows of a population are on disk together or not at all: a kill
    # right after the first write that reaches the disk leaves all three
    # (written a row at a time, it left one).
    jobs = [sweep.Job((("model", "x"),), seed) for seed in range(3)]
    output = str(tmp_path / "rows.jsonl")

    def killed_after_sync(descriptor):
        raise _Killed

    monkeypatch.setattr(sweep.os, "fsync", killed_after_sync)
    with pytest.raises(_Killed):
        sweep.run_sweep(
            jobs,
            _echo_rows,
            output,
            quiet=True,
            population_key=lambda job: job.config,
            population=3,
        )
    assert [row["seed"] for row in _rows(output)] == [0, 1, 2]


def test_progress_counts_the_runs_and_estimates_the_time_left(
    tmp_path, capsys, monkeypatch
):
    jobs = [sweep.Job((("model", "x"),), seed) for seed in range(3)]
    output = str(tmp_path / "rows.jsonl")
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert sweep.run_sweep(jobs, _echo_rows, output) == 3
    first, *updates = capsys.readouterr().err.rstrip("\n").split("\r")
    assert first == f"0 of 3 runs already in {output}; running 3 with 1 worker(s).\n"
    assert [update.split(",")[0] for update in updates] == [
        "1/3 runs",
        "2/3 runs",
        "3/3 runs",
    ]
    # each rewrite clears the rest of the line ("... 10 s left" then
    # "... 9 s left" left "leftt" behind)
    assert all(update.endswith(" s left\x1b[K") for update in updates)
    assert updates[-1].endswith("about 0 s left\x1b[K")


def test_progress_is_quiet_when_stderr_is_not_a_terminal(tmp_path, capsys):
    jobs = [sweep.Job((("model", "x"),), seed) for seed in range(3)]
    sweep.run_sweep(jobs, _echo_rows, str(tmp_path / "rows.jsonl"))
    assert capsys.readouterr().err.count("\n") == 1  # "0 of 3 runs already ..."


def _summaries(path):
    import tensorflow as tf

    found = {}
    for event in tf.compat.v1.train.summary_iterator(path):
        for value in event.summary.value:
            found.setdefault(value.tag, []).append((event.step, value))
    return found


def test_tensorboard_gets_each_runs_series_and_learned_expression(tmp_path):
    directory = tmp_path / "tensorboard"
    main(
        single_module.TASK,
        ["--preset", "quick", "--module", "nmu", "--operation", "mul", "--seeds", "0"]
        + ["--max-steps", "2000", "--output", str(tmp_path / "rows.jsonl")]
        + ["--tensorboard", str(directory), "--quiet"],
    )
    runs = sorted(directory.glob("single_module/nmu-*/seed_0/events.*"))
    assert len(runs) == 9  # one per range of the Single Module Task
    tags = _summaries(str(runs[0]))
    assert [step for step, _ in tags["interpolation_mse"]] == [0, 1000, 2000]
    assert [step for step, _ in tags["training_loss"]] == [1000, 2000]
    # the layer's name is the process's first NMU's: "nmu", or "nmu_1" where
    # an earlier test's compiled trainer is reused
    (control,) = [
        tag
        for tag in tags
        if re.fullmatch(r"controls/nmu(_\d+)?/regularizer_scale", tag)
    ]
    assert len(tags[control]) == 3
    assert {"extrapolation_mse", "sparsity_error", "config"} <= set(tags)
    (step, text), *_ = tags["expression"]
    assert step == 2000 and re.search("y0 [=≈] ", text.tensor.string_val[0].decode())


def test_tensorboard_without_its_package_is_refused_at_once(monkeypatch):
    monkeypatch.setitem(sys.modules, "tensorboard", None)
    with pytest.raises(argparse.ArgumentTypeError, match="pip install"):
        arguments.tensorboard_directory("runs")


def _single_module_spec(module="nmu", steps=3_000):
    config = {
        "module": module,
        "operation": "mul",
        "input_size": 2,
        "interpolation_range": "1,2",
        "extrapolation_range": "2,6",
        "preset": "quick",
        "steps": steps,
    }
    return single_module.run_spec(config)


class _Stopped(Exception):
    """Stands for the run's process being killed."""


def _trained(spec, checkpoint=None):
    """(the judgement without its time, the evaluation log's series, the
    weights) of a run of seed 5."""
    kept = {}

    def keep(log, model):
        kept["series"] = log.series
        kept["weights"] = [w.numpy().copy() for w in model.weights]

    result = train_run(spec, 5, write_log=keep, checkpoint=checkpoint)
    return _without_time(result), kept["series"], kept["weights"]


def test_a_run_stopped_midway_resumes_from_its_checkpoint_as_if_never_stopped(
    tmp_path, monkeypatch
):
    spec = _single_module_spec()  # with the NMU's regularizer warm-up
    whole = _trained(spec)
    checkpoint = str(tmp_path / "runs" / "seed_5.npz")
    save = resume.RunCheckpoint.on_epoch_end
    epochs = []

    def save_then_stop_at_2(self, epoch, logs=None):
        save(self, epoch, logs)
        epochs.append(epoch)
        if epoch + 1 == 2:
            raise _Stopped

    monkeypatch.setattr(resume.RunCheckpoint, "on_epoch_end", save_then_stop_at_2)
    with pytest.raises(_Stopped):
        _trained(spec, checkpoint)
    assert resume.load(checkpoint, 5, 3_000).epoch == 2
    with pytest.raises(ValueError, match=r"belongs to another run .*remove it"):
        train_run(spec, 6, checkpoint=checkpoint)
    training._TRAINERS.clear()  # as in a new process: a new trainer, unbuilt,
    keras.backend.clear_session()  # and its layers named as the first's
    resumed = _trained(spec, checkpoint)
    assert epochs == [0, 1, 2]  # the second process ran the last call only
    assert resumed[:2] == whole[:2]  # the judgement, every logged series
    for got, expected in zip(resumed[2], whole[2]):
        np.testing.assert_array_equal(got, expected)
    assert not os.path.exists(checkpoint)  # removed once the run is done


def test_a_run_whose_callbacks_keep_state_is_not_checkpointed_and_says_so(
    tmp_path, capsys
):
    folder = tmp_path / "checkpoints"  # made by the first save
    spec = _single_module_spec(module="inalu", steps=1_000)
    train_run(spec, 5, checkpoint=str(folder / "seed_5.npz"))
    assert "cannot resume midway" in capsys.readouterr().err
    assert not folder.exists()  # never written, not only removed at the end


#: Outputs a sweep cannot use (devices it would read to exhaustion, a
#: directory, a link to nothing, a path under a file), refused by the
#: command line before TensorFlow loads, in one line, with status 2.
BAD_OUTPUTS = {
    "/dev/full": "is not a regular file",
    "/dev/null": "is not a regular file",
    "DIRECTORY": "is a directory",
    "LINK": "is a link to nothing",
    "FILE/rows.jsonl": "cannot be created",
}


@pytest.mark.parametrize("output", BAD_OUTPUTS, ids=list(BAD_OUTPUTS))
def test_an_output_that_is_no_regular_file_is_refused_before_tensorflow(
    tmp_path, output
):
    os.symlink(tmp_path / "nowhere", tmp_path / "LINK")
    (tmp_path / "DIRECTORY").mkdir()
    (tmp_path / "FILE").write_text("notes\n")
    path = output if output.startswith("/") else str(tmp_path / output)
    probe = (
        "import sys\n"
        "from benchmarks.single_module import task\n"
        "try:\n"
        "    task.parse_arguments(sys.argv[1:])\n"
        "finally:\n"
        "    heavy = sorted({'tensorflow', 'keras'} & set(sys.modules))\n"
        "    print(heavy, file=sys.stderr)\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", probe, "--module", "nmu", "--output", path],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert completed.returncode == 2
    message, heavy = completed.stderr.strip().splitlines()
    assert BAD_OUTPUTS[output] in message and heavy == "[]"
    assert (tmp_path / "FILE").read_text() == "notes\n"
    with pytest.raises(sweep.OutputError, match=BAD_OUTPUTS[output]):
        sweep.finished_keys(path)  # the same from Python


def test_a_foreign_line_that_looks_cut_off_is_refused_and_left_as_it_was(tmp_path):
    # One line beginning with {" that does not parse, no final newline: no
    # complete row of the file begins as it does, so it is not this
    # runner's cut-off row.
    path = tmp_path / "notes.jsonl"
    content = b'{"lr": 0.01, "notes": "x",}'
    path.write_bytes(content)
    with pytest.raises(sweep.OutputError, match="not a row of a sweep"):
        sweep.finished_keys(str(path))
    assert path.read_bytes() == content
    # After rows of another shape, too.
    content = b'{"config": {"a": 1}, "seed": 0}\n{"lr": 0.01, "notes": "x",'
    path.write_bytes(content)
    with pytest.raises(sweep.OutputError, match="not a row of a sweep"):
        sweep.finished_keys(str(path))
    assert path.read_bytes() == content


def test_an_output_of_another_tasks_rows_is_refused_and_left_as_it_was(tmp_path):
    path = tmp_path / "single_module.jsonl"
    row = {"config": {"module": "nmu"}, "seed": 0, "task": "single_module"}
    path.write_text(json.dumps(row, sort_keys=True) + "\n")
    content = path.read_bytes()
    assert sweep.finished_keys(str(path), ("single_module",)) == {sweep.row_key(row)}
    with pytest.raises(sweep.OutputError, match="task single_module, which"):
        sweep.finished_keys(str(path), ("arithmetic", "function", "trask_static"))
    # The arithmetic command refuses it before any run, in one line.
    from benchmarks.arithmetic import task as arithmetic

    line = ["--model", "nmu", "--seeds", "0", "--max-steps", "1000"]
    with pytest.raises(SystemExit) as stop:
        main(arithmetic.TASK, [*line, "--quiet", "--output", str(path)])
    assert stop.value.code == 2
    assert path.read_bytes() == content


def test_report_and_reproduce_refuse_a_file_that_holds_a_run_twice(tmp_path):
    path = tmp_path / "twice.jsonl"
    row = {"config": {"module": "nmu"}, "seed": 0, "task": "single_module"}
    other = {**row, "seed": 1}
    lines = [json.dumps(r) for r in (row, other, row)]
    path.write_text("\n".join(lines) + "\n")
    for module in ("report", "reproduce"):
        completed = subprocess.run(
            [sys.executable, "-m", f"benchmarks.{module}", str(path)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=120,
        )
        assert completed.returncode == 2, completed.stderr
        assert (
            "row 3 repeats the configuration and seed of row 1"
            in (completed.stderr.strip().splitlines()[-1])
        )


def test_rows_written_into_a_task_folders_results_leave_the_code_clean():
    """A sweep run from a worktree writes its rows under
    benchmarks/<task>/results/: a new rows file there is no change of code
    (it made the later commands' rows of one sweep script 'dirty')."""
    from benchmarks.core import rows

    folder = os.path.join(ROOT, "benchmarks", "single_module", "results")
    probe = os.path.join(folder, "_probe_of_the_dirty_check.jsonl")
    code = os.path.join(ROOT, "benchmarks", "_probe_of_the_dirty_check.py")
    try:
        for path in (probe, code):
            with open(path, "w", encoding="utf-8") as handle:
                handle.write("{}\n")
        changed = rows._git("status", "--porcelain", "--", *rows.CODE_PATHS)
    finally:
        for path in (probe, code):
            os.remove(path)
    assert "_probe_of_the_dirty_check.py" in changed  # code is seen
    assert "_probe_of_the_dirty_check.jsonl" not in changed
