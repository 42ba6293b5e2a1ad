"""The benchmark runners train to the papers' outcomes on small presets."""

import json

import keras
import numpy as np
import pytest
import tensorflow as tf

from benchmarks import registry
from benchmarks.arithmetic import layers as arithmetic_layers
from benchmarks.arithmetic import report as arithmetic_report
from benchmarks.arithmetic import runner as arithmetic
from benchmarks.arithmetic import task as arithmetic_task
from benchmarks.core import sweep
from benchmarks.core import training
from benchmarks.core.runs import Engine
from benchmarks.core.sweep import main
from benchmarks.identity import runner as identity
from benchmarks.identity import task as identity_task
from benchmarks.static_arithmetic import success
from keras_nalm.optimizers import TorchAdam
from tests.lab.commands import argv


@pytest.mark.large
def test_nmu_solves_the_section_1_1_function_with_the_quick_preset(tmp_path):
    output = str(tmp_path / "rows.jsonl")
    arguments = ["--task", "function", "--model", "nmu", "--seeds", "0"]
    main(
        arithmetic_task.TASK,
        [*arguments, "--preset", "quick", "--output", output, "--quiet"],
    )
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
    main(arithmetic_task.TASK, [*arguments, "--output", output, "--quiet"])
    with open(output) as handle:
        rows = {row["model"]: row for row in map(json.loads, handle)}
    assert {row["max_steps"] for row in rows.values()} == {10_000}
    assert _relative_extrapolation(rows["mlp_none"]) < 1.0
    assert _relative_extrapolation(rows["nac"]) < 1.0
    assert _relative_extrapolation(rows["mlp_tanh"]) > 20.0


def _arithmetic_configs(**overrides):
    options = {"task": "arithmetic", "model": "nmu", "seeds": 0, **overrides}
    args = arithmetic_task.parse_arguments(argv(**options, output="unused.jsonl"))
    return [dict(job.config) for job in arithmetic_task.jobs(args)]


def test_the_trask_model_list_is_table_7s_columns():
    configs = _arithmetic_configs(task="trask_static", model="trask")
    published = {model for _, model in arithmetic_report.trask_table(7)}
    assert [c["model"] for c in configs] == list(arithmetic_task.TRASK_MODELS)
    assert set(arithmetic_task.TRASK_MODELS) == published
    assert {c["steps"] for c in configs} == {100_000}


def test_the_table_12_model_list_is_its_columns_but_the_random_model():
    configs = _arithmetic_configs(task="trask_static", model="trask_table12")
    published = {model for _, model in arithmetic_report.trask_table(12)}
    assert [c["model"] for c in configs] == list(arithmetic_task.TRASK_TABLE12_MODELS)
    assert set(arithmetic_task.TRASK_TABLE12_MODELS) == published - {"random"}
    complex_nalu = arithmetic_task.run_spec(configs[-1]).build_model().layers[-1]
    assert complex_nalu.multiplication == "complex"


def test_the_hidden_size_of_figure_3_builds_that_many_units():
    (default,) = _arithmetic_configs()
    assert "hidden_size" not in default  # rows of table 4's size resume as before
    (wide,) = _arithmetic_configs(hidden_size=10)
    model = arithmetic_task.run_spec(wide).build_model()
    assert [layer.units for layer in model.layers[1:]] == [10, 1]
    row = {**wide, "seed": 0}
    assert success.unit_of(row) == "nmu (hidden 10)"
    assert success.unit_of({**default, "seed": 0}) == "nmu"


def test_figure_8s_dataset_ratios_name_their_own_configuration():
    (default,) = _arithmetic_configs()
    (subset,) = _arithmetic_configs(subset_ratio=0.05)
    (both,) = _arithmetic_configs(overlap_ratio=1.0, hidden_size=4)
    assert success.unit_of(subset) == "nmu (subset 0.05)"
    assert success.unit_of(both) == "nmu (hidden 4, overlap 1)"
    rows = [{**c, "seed": 0, "max_steps": c["steps"]} for c in (default, subset)]
    assert len({success.group_key(row) for row in rows}) == 2
    published = registry.published()
    summaries = success.summarize(
        [
            {**row, "solved": False, "solved_at": None, "sparsity_error": None}
            for row in rows
        ]
    )
    matched = [success.published_for(published, s) is not None for s in summaries]
    assert matched == [True, False]  # table 2's NMU row is for table 3's ratios


@pytest.mark.large
def test_identity_extrapolates_without_a_squashing_nonlinearity():
    config = {"preset": "quick", "steps": identity_task.QUICK_STEPS}
    jobs = [
        sweep.Job.of({**config, "activation": name}, 0) for name in ("none", "tanh")
    ]
    linear, squashed = Engine(identity_task.run_spec)("identity", jobs)
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
    assert isinstance(identity.adam("constant", "pytorch"), TorchAdam)
    assert not isinstance(identity.adam("constant"), TorchAdam)


def test_the_linear_model_learns_the_identity_exactly_when_adam_converges():
    """With Adam's rate halved every 1 000 steps the linear MLP's error on
    -1 000 ... 1 000 reaches Trask's "<0.0001" in every seed; at a constant
    0.01 Adam keeps the weights jittering (benchmarks/results/README.md)."""
    config = {"activation": "none", "preset": "paper", "schedule": "halving"}
    config["steps"] = identity_task.PAPER_STEPS
    jobs = sweep.jobs_over_seeds(config, range(4))
    for row in Engine(identity_task.run_spec)("identity", jobs):
        assert row["mean_absolute_error"] < 1e-4, row["seed"]


def _layers(model_name):
    model = arithmetic.build_model(arithmetic.MODELS[model_name], 100, 2)
    return model.layers[1:]


def test_table_5_models_are_the_references_gating_experiment():
    """App. C.5: NAC+ -> NALU with shared or separate weights, NAU -> gated
    NAU/NMU with the NMU's lambda schedule; table 5's values beside them."""
    first, second = _layers("nac_nalu")
    assert type(first).__name__ == "NAC" and second.shared_weights
    first, second = _layers("nac_nalu_separate")
    assert type(first).__name__ == "NAC" and not second.shared_weights
    first, second = _layers("nau_gated_nau_nmu")
    assert [type(first).__name__, type(second).__name__] == ["NAU", "GatedNAUNMU"]
    (warmup,) = arithmetic.callbacks(arithmetic.MODELS["nau_gated_nau_nmu"], 1.0, 0)
    assert (warmup.start, warmup.end) == (1_000_000, 2_000_000)
    published = registry.published()
    row = published[("arithmetic", "mul", "nau_gated_nau_nmu", "1,2")]
    assert (row["success_rate"], row["table"]) == ("0.62", "Madsen table 5")
    assert published[("arithmetic", "add", "nac_nalu_separate", "1,2")][
        "success_rate"
    ] == ("0.51")


def test_figure_9s_gate_is_the_second_layers_mean_gate_on_interpolation_inputs():
    """The reference's `gate/mean` of layer 2: sigmoid(h . G) averaged over
    the inputs, h the first layer's output; only gated models log it."""
    model = arithmetic.MODELS["nac_nalu_separate"]
    network = arithmetic.build_model(model, 100, 2)
    x = np.random.default_rng(0).uniform(1, 2, (2_000, 100))
    (mean_gate,) = arithmetic.log_extras(
        model, False, {"interpolation": (x, None)}
    ).values()
    first, second = network.layers[-2:]
    hidden = keras.ops.convert_to_numpy(first(x[: arithmetic.GATE_SAMPLES]))
    gate_kernel = keras.ops.convert_to_numpy(second.gate_kernel)
    expected = np.mean(1 / (1 + np.exp(-hidden @ gate_kernel)))
    np.testing.assert_allclose(mean_gate(network), expected, rtol=1e-5)
    for name in ("nmu", "nac_mul", "linear"):
        assert arithmetic.log_extras(arithmetic.MODELS[name], False, {}) == {}


def test_rows_of_gated_models_carry_a_gate_and_others_none(tmp_path):
    output = str(tmp_path / "rows.jsonl")
    arguments = ["--model", "nau_gated_nau_nmu,nmu", "--operation", "add"]
    main(
        arithmetic_task.TASK,
        [*arguments, "--max-steps", "3000", "--seeds", "0", "--output", output]
        + ["--quiet"],
    )
    with open(output) as handle:
        rows = {row["model"]: row for row in map(json.loads, handle)}
    assert 0.0 <= rows["nau_gated_nau_nmu"]["gate"] <= 1.0
    assert "gate" not in rows["nmu"]


def test_a_logged_extra_is_taken_at_the_judged_best_step():
    series = {"step": [0, 1000, 2000], "gate": [0.1, 0.7, 0.4]}
    assert training._at_best_step(series, 1000, ["gate"]) == {"gate": 0.7}
    assert training._at_best_step(series, None, ["gate"]) == {"gate": 0.4}


def test_the_baselines_are_the_references_biased_layers():
    """Tables 2 and 6: the reference's Linear, ReLU and ReLU6 are biased
    layers with zero biases; a basic unit's second layer is linear."""
    for name, activation in (
        ("linear", "linear"),
        ("relu", "relu"),
        ("relu6", "relu6"),
    ):
        first, second = _layers(name)
        assert first.use_bias and second.use_bias, name
        assert first.activation.__name__ == activation
        assert second.activation.__name__ == "linear"
        assert not first.bias.numpy().any() and not second.bias.numpy().any()
    initializers = [
        type(layer.kernel_initializer).__name__
        for name in ("relu", "linear")
        for layer in _layers(name)
    ]
    assert initializers == [
        "HeUniform",
        "GlorotUniform",
        "GlorotUniform",
        "GlorotUniform",
    ]
    assert not any(layer.use_bias for layer in _layers("linear_no_bias"))


def test_table_6_is_read_with_table_2_naming_the_rows_they_share():
    """App. C.7: every model on every operation; the rows of table 2 are
    table 6's as well, and are labelled table 2."""
    published = registry.published()
    row = published[("arithmetic", "squared", "nac_mul_sigmoid", "1,2")]
    assert (row["success_rate"], row["table"]) == ("1.00", "Madsen table 6")
    assert published[("arithmetic", "root", "nac_mul", "1,2")]["solved_at_median"] == (
        "4.0e+05"
    )
    shared = published[("arithmetic", "sub", "nau", "1,2")]
    assert (shared["sparsity_error_mean"], shared["table"]) == (
        "6.6e-02",
        "Madsen table 2",
    )
    arithmetic_rows = [key for key in published if key[0] == "arithmetic"]
    # 11 models x 6 operations (table 6) and table 5's 3 models x 2 operations.
    assert len(arithmetic_rows) == 66 + 6


def _fit_one_step_at_rate_zero(model, kernels):
    """Sets the layers' kernels, trains one step that changes nothing, and
    returns the kernels after Keras applied the constraints."""
    for layer, kernel in zip(model.layers[1:], kernels):
        layer.kernel.assign(kernel)
    model.compile(keras.optimizers.SGD(0.0), "mse")
    x = np.ones((4, 100), "float32")
    model.fit(x, np.ones((4, 1), "float32"), epochs=1, verbose=0)
    return [np.asarray(layer.kernel) for layer in model.layers[1:]]


@pytest.mark.parametrize("name", ["nmu_no_clamp", "nmu_no_sparse_no_clamp"])
def test_figure_7_models_without_clamping_keep_weights_outside_the_range(name):
    """App. C.3's "no W-clamp": the weights are not clipped after a step
    (the reference's --oob-mode regualized, --regualizer-oob 0), while the
    forward pass still uses the clipped weights, so its output equals the
    clamped model's."""
    kernels = [np.full((100, 2), 1.25, "float32"), np.full((2, 1), 1.5, "float32")]
    unclamped = arithmetic.build_model(arithmetic.MODELS[name], 100, 2)
    clamped = arithmetic.build_model(arithmetic.MODELS["nmu"], 100, 2)
    after = _fit_one_step_at_rate_zero(unclamped, kernels)
    np.testing.assert_array_equal(after[0], kernels[0])
    np.testing.assert_array_equal(after[1], kernels[1])
    clipped = _fit_one_step_at_rate_zero(clamped, kernels)
    assert clipped[0].max() == 1.0 and clipped[1].max() == 1.0
    x = np.random.default_rng(0).uniform(1, 2, (8, 100)).astype("float32")
    np.testing.assert_allclose(unclamped(x), clamped(x), rtol=1e-6)


def test_figure_7_models_differ_from_the_nmu_only_in_their_ablation():
    has_warmup = {
        name: bool(arithmetic.callbacks(arithmetic.MODELS[name], 1.0, 0))
        for name in ("nmu", "nmu_no_sparse", "nmu_no_clamp", "nmu_no_sparse_no_clamp")
    }
    assert has_warmup == {
        "nmu": True,
        "nmu_no_sparse": False,
        "nmu_no_clamp": True,
        "nmu_no_sparse_no_clamp": False,
    }
    for name in has_warmup:
        assert [type(layer).__name__ for layer in _layers(name)] == ["NAU", "NMU"]
    assert _layers("nmu_no_sparse")[1].kernel_constraint is not None


def test_the_nac_mul_nmu_follows_a_nac_in_table_4_and_an_nau_in_figure_3():
    for name, first in (("nac_mul_nmu", "NAC"), ("nau_nac_mul_nmu", "NAU")):
        layers = _layers(name)
        assert [type(layer).__name__ for layer in layers] == [first, "NACMul"]
        assert layers[1].weight == "linear"
        (warmup,) = arithmetic.callbacks(arithmetic.MODELS[name], 1.0, 0)
        assert (warmup.start, warmup.end) == (1_000_000, 2_000_000)


def test_the_subtracted_gate_variant_drops_the_nmu_once_the_gate_saturates():
    """Gate logit 40 over 100 inputs of 2 with an NMU of all ones: the
    library keeps sigmoid(-40) * 2^100 and the gate's gradient, the
    reference's float 1 - g and g (1 - g) are 0."""
    x = np.full((1, 100), 2.0, dtype="float32")
    outputs, gate_gradients = {}, {}
    for name in ("gated_nau_nmu", "gated_nau_nmu_subtracted_gate"):
        layer = arithmetic.MODELS[name].first(1)
        layer.build((None, 100))
        layer.nau_kernel.assign(np.zeros((100, 1), dtype="float32"))
        layer.nmu_kernel.assign(np.ones((100, 1), dtype="float32"))
        layer.gate_kernel.assign(np.full((100, 1), 0.2, dtype="float32"))
        with tf.GradientTape() as tape:
            output = layer(x)[0, 0]
        gradient = tape.gradient(output, layer.gate_kernel)
        outputs[name] = float(output)
        gate_gradients[name] = float(gradient[0, 0])
    saturated = 1.0 / (1.0 + np.exp(40.0))  # sigmoid(-40) = sigmoid'(40), nearly
    np.testing.assert_allclose(
        outputs["gated_nau_nmu"], 2.0**100 * saturated, rtol=1e-5
    )
    # d/dG of g*0 + (1 - g)*2^100 at input 2: -2 * sigmoid'(40) * 2^100
    np.testing.assert_allclose(
        gate_gradients["gated_nau_nmu"], -2.0 * 2.0**100 * saturated, rtol=1e-4
    )
    assert outputs["gated_nau_nmu_subtracted_gate"] == 0.0
    assert gate_gradients["gated_nau_nmu_subtracted_gate"] == 0.0
    assert type(arithmetic.MODELS["gated_nau_nmu_subtracted_gate"].second(1)) is (
        arithmetic_layers.SubtractedGateNAUNMU
    )
