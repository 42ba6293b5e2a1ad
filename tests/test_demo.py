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
