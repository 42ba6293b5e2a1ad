"""The README's first command, as a user runs it."""

import subprocess
import sys

import pytest


@pytest.mark.large
def test_demo_command_prints_pass_and_the_learned_expression():
    completed = subprocess.run(
        [sys.executable, "-m", "keras_nalm.demo", "--seed", "1"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    out = completed.stdout
    assert completed.returncode == 0, out + completed.stderr
    lines = out.splitlines()
    assert "PASS" in lines
    assert lines[-1] == "y0 = (x1 + x2) * (x1 + x2 + x3 + x4)"
    assert any(line.startswith("Extrapolation MSE on U[2,6]: ") for line in lines)


def test_demo_help():
    completed = subprocess.run(
        [sys.executable, "-m", "keras_nalm.demo", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert completed.returncode == 0
    assert "--steps" in completed.stdout


def test_the_demo_threshold_is_the_arithmetic_tasks_epsilon_perfect_mse():
    """The demo's closed form of Madsen eq. 16 against the benchmarks'
    general epsilon-perfect model of the same function, on other draws."""
    from benchmarks.data.arithmetic_task import Range
    from benchmarks.data.arithmetic_task import function_task
    from keras_nalm import demo

    ours = demo.epsilon_perfect_mse(demo.EXTRAPOLATION_RANGE, samples=200_000)
    theirs = function_task().threshold(
        Range((demo.EXTRAPOLATION_RANGE,)), epsilon=demo.EPSILON, samples=200_000
    )
    assert ours == pytest.approx(theirs, rel=0.02)
    off_by_more = demo.epsilon_perfect_mse(demo.EXTRAPOLATION_RANGE, epsilon=2e-5)
    assert off_by_more == pytest.approx(4 * ours, rel=0.02)


def test_the_demo_data_follow_the_function():
    import numpy as np

    from keras_nalm import demo

    x, y = demo.sample(np.random.default_rng(0), 5, demo.INTERPOLATION_RANGE)
    assert x.min() >= 1.0 and x.max() < 2.0
    expected = (x[:, 0] + x[:, 1]) * x.sum(axis=1)
    np.testing.assert_allclose(y[:, 0], expected, rtol=1e-6)
