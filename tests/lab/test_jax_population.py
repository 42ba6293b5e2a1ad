"""Populations on JAX (`keras_nalm.jax_population`): the TensorFlow
engine's batches number for number, runs that never mix, schedules read
per run, and the GPU script's rows and resumption
(`benchmarks.speed.jax_population`)."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf

from benchmarks.core.ranges import Range
from benchmarks.data.arithmetic_batches import ArithmeticBatches
from benchmarks.data.arithmetic_task import single_module_task

jax = pytest.importorskip("jax")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _on_jax(*arguments):
    environment = {**os.environ, "KERAS_BACKEND": "jax", "TF_CPP_MIN_LOG_LEVEL": "3"}
    completed = subprocess.run(
        [sys.executable, "-m", *arguments],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    return completed.stdout


@pytest.mark.parametrize(
    "operation,interpolation,extrapolation,size",
    [("mul", "1,2", "2,6", 2), ("div", "-2,-1;1,2", "-6,-2;2,6", 10)],
)
def test_jax_batches_are_the_engines(operation, interpolation, extrapolation, size):
    from benchmarks.data.arithmetic_batches_jax import JaxArithmeticBatches

    task = single_module_task(operation, size)
    ranges = Range.parse(interpolation), Range.parse(extrapolation)
    ours = JaxArithmeticBatches(task, *ranges)
    engines = ArithmeticBatches(task, *ranges)
    for seed in ([0, 0], [7, 49_999], [-3, 12]):
        x, y = ours(np.asarray(seed, np.int32))
        x_tf, y_tf = engines(tf.constant(seed, tf.int32))
        np.testing.assert_array_equal(np.asarray(x), x_tf.numpy())
        np.testing.assert_array_equal(np.asarray(y), y_tf.numpy())


def test_runs_never_mix_and_schedules_read_each_runs_state():
    found = json.loads(_on_jax("tests.lab.jax_population_check").splitlines()[-1])
    assert found["alone_vs_together"] < 1e-5
    assert found["switches"] == found["expected"]
    assert 0 < sum(found["expected"]) < len(found["expected"])


def test_the_gpu_script_writes_the_labs_rows_and_resumes(tmp_path):
    output = tmp_path / "rows.jsonl"
    command = (
        "benchmarks.speed.jax_population",
        "--preset=quick",
        "--module=nmu",
        "--operation=mul",
        "--interpolation-range=1,2",
        "--seeds=0-2",
        f"--output={output}",
    )
    summary = json.loads(_on_jax(*command).splitlines()[-1])
    rows = [json.loads(line) for line in output.read_text().splitlines()]
    assert summary["runs"] == 3 and summary["population"] == 3
    assert [row["seed"] for row in rows] == [0, 1, 2]
    assert {row["engine"] for row in rows} == {"jax_population"}
    assert all(row["solved"] for row in rows)  # the quick NMU solves 1,2
    again = json.loads(_on_jax(*command).splitlines()[-1])
    assert again["runs"] == 0
    assert len(output.read_text().splitlines()) == 3
