"""The benchmark runners train to the papers' outcomes on small presets."""

import json

import numpy as np
import pytest

from benchmarks import arithmetic
from benchmarks import identity
from benchmarks import sweep
from benchmarks.runs import run_jobs


@pytest.mark.large
def test_nmu_solves_the_section_1_1_function_with_the_quick_preset(tmp_path):
    output = str(tmp_path / "rows.jsonl")
    arguments = ["--task", "function", "--model", "nmu", "--seeds", "0"]
    arithmetic.main([*arguments, "--preset", "quick", "--output", output, "--quiet"])
    with open(output) as handle:
        (row,) = [json.loads(line) for line in handle]
    assert row["task"] == "function" and row["max_steps"] == 20_000
    assert row["solved"], row
    assert 5_000 <= row["solved_at"] <= 20_000
    assert row["extrapolation_mse"] < row["threshold"] < 1e-5
    assert row["initial_extrapolation_mse"] > 1.0


@pytest.mark.large
def test_identity_extrapolates_without_a_squashing_nonlinearity():
    config = {"preset": "quick", "steps": identity.QUICK_STEPS}
    jobs = [
        sweep.Job(tuple(sorted({**config, "activation": name}.items())), 0)
        for name in ("none", "tanh")
    ]
    linear, squashed = run_jobs(identity.run_spec, "identity", {}, jobs)
    assert linear["mean_absolute_error"] < 5.0
    assert squashed["mean_absolute_error"] > 400.0  # ~ predicting a constant
    np.testing.assert_allclose(
        squashed["error_percent"], squashed["mean_absolute_error"] / 5
    )


def test_the_linear_model_learns_the_identity_exactly_when_adam_converges():
    """With Adam's rate halved every 1 000 steps the linear MLP's error on
    -1 000 ... 1 000 reaches Trask's "<0.0001" in every seed; at a constant
    0.01 Adam keeps the weights jittering (benchmarks/results/README.md)."""
    config = {"activation": "none", "preset": "paper", "schedule": "halving"}
    config["steps"] = identity.PAPER_STEPS
    jobs = [sweep.Job(tuple(sorted(config.items())), seed) for seed in range(4)]
    for row in run_jobs(identity.run_spec, "identity", {}, jobs):
        assert row["mean_absolute_error"] < 1e-4, row["seed"]
