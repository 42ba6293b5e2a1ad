"""The benchmark runners train to the papers' outcomes on small presets."""

import argparse
import json

import keras
import numpy as np
import pytest

from benchmarks import arithmetic
from benchmarks import identity
from benchmarks import sweep
from benchmarks.reports import success
from benchmarks.runs import run_jobs
from keras_nalm.optimizers import TorchAdam


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


def _relative_extrapolation(row):
    return 100 * row["extrapolation_mse"] / row["initial_extrapolation_mse"]


@pytest.mark.large
def test_trasks_static_task_separates_linear_models_from_squashing_ones(tmp_path):
    """Table 7's a + b: NAC and the linear MLP extrapolate (0.0), the tanh
    MLP does not (43.3), on scores relative to the untrained model."""
    output = str(tmp_path / "rows.jsonl")
    arguments = ["--task", "trask_static", "--model", "mlp_none,nac,mlp_tanh"]
    arguments += ["--operation", "add", "--seeds", "0", "--preset", "quick"]
    arithmetic.main([*arguments, "--output", output, "--quiet"])
    with open(output) as handle:
        rows = {row["model"]: row for row in map(json.loads, handle)}
    assert {row["max_steps"] for row in rows.values()} == {10_000}
    assert _relative_extrapolation(rows["mlp_none"]) < 1.0
    assert _relative_extrapolation(rows["nac"]) < 1.0
    assert _relative_extrapolation(rows["mlp_tanh"]) > 20.0


def _arithmetic_configs(**overrides):
    arguments = dict(
        task="arithmetic",
        model="nmu",
        operation="mul",
        input_size=100,
        hidden_size=arithmetic.HIDDEN_SIZE,
        subset_ratio=0.25,
        overlap_ratio=0.5,
        interpolation_range="1,2",
        extrapolation_range="2,6",
        preset="paper",
        max_steps=None,
        optimizer="torch_adam",
        generator="threefry2x32",
        seeds=[0],
    )
    args = argparse.Namespace(**{**arguments, **overrides})
    return [dict(job.config) for job in arithmetic.jobs_for(args)]


def test_the_trask_model_list_is_table_7s_columns():
    configs = _arithmetic_configs(task="trask_static", model="trask")
    published = {model for _, model in success.load_trask_table7()}
    assert [c["model"] for c in configs] == list(arithmetic.TRASK_MODELS)
    assert set(arithmetic.TRASK_MODELS) == published
    assert {c["steps"] for c in configs} == {100_000}


def test_the_hidden_size_of_figure_3_builds_that_many_units():
    (default,) = _arithmetic_configs()
    assert "hidden_size" not in default  # rows of table 4's size resume as before
    (wide,) = _arithmetic_configs(hidden_size=10)
    model = arithmetic.run_spec(wide).build_model()
    assert [layer.units for layer in model.layers[1:]] == [10, 1]
    row = {**wide, "seed": 0}
    assert success.unit_of(row) == "nmu (hidden 10)"
    assert success.unit_of({**default, "seed": 0}) == "nmu"


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


def test_pytorch_defaults_draw_weights_and_biases_as_torch_nn_linear():
    keras.utils.set_random_seed(0)
    model = identity.build_mlp("relu", defaults="pytorch")
    dense = [layer for layer in model.layers if isinstance(layer, keras.layers.Dense)]
    for layer, fan_in in zip(dense, (1, 8, 8, 8)):
        bound = 1 / np.sqrt(fan_in)
        for weights in (layer.kernel.numpy(), layer.bias.numpy()):
            assert np.all(np.abs(weights) <= bound) and np.all(weights != 0)
    assert np.abs(dense[1].kernel.numpy()).max() > 0.8 / np.sqrt(8)  # spread
    keras_bias = identity.build_mlp("relu").layers[1].bias.numpy()
    np.testing.assert_array_equal(keras_bias, 0.0)
    assert isinstance(identity._adam("constant", "pytorch"), TorchAdam)
    assert not isinstance(identity._adam("constant"), TorchAdam)


def test_the_linear_model_learns_the_identity_exactly_when_adam_converges():
    """With Adam's rate halved every 1 000 steps the linear MLP's error on
    -1 000 ... 1 000 reaches Trask's "<0.0001" in every seed; at a constant
    0.01 Adam keeps the weights jittering (benchmarks/results/README.md)."""
    config = {"activation": "none", "preset": "paper", "schedule": "halving"}
    config["steps"] = identity.PAPER_STEPS
    jobs = [sweep.Job(tuple(sorted(config.items())), seed) for seed in range(4)]
    for row in run_jobs(identity.run_spec, "identity", {}, jobs):
        assert row["mean_absolute_error"] < 1e-4, row["seed"]
