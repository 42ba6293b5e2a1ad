"""The Single Module runner's protocol per module and input size (Mistry
et al. 2022, §6.5, tables 5-8, figures 18-20)."""

import keras
import pytest

import keras_nalm
from benchmarks.core.rows import read_rows
from benchmarks.core.sweep import main
from benchmarks.single_module import task as cli
from benchmarks.single_module import task as single_module
from keras_nalm import callbacks as C
from tests.lab.commands import argv


def _configs(
    module="all", operation="add", input_size=2, preset="paper", max_steps=None
):
    args = cli.parse_arguments(
        argv(
            module=module,
            operation=operation,
            input_size=input_size,
            interpolation_range="1,2",
            preset=preset,
            max_steps=max_steps,
            seeds=0,
            output="unused.jsonl",
        )
    )
    return [dict(job.config) for job in single_module.jobs(args)]


def _steps_by_module(**arguments):
    return {c["module"]: c["steps"] for c in _configs(**arguments)}


def _warmup(config):
    spec = single_module.run_spec(config)
    (warmup,) = [
        c for c in spec.make_callbacks(seed=0) if isinstance(c, C.RegularizerWarmup)
    ]
    return warmup.start, warmup.end, warmup.max_strength


def test_two_inputs_run_every_module_for_50_000_steps_with_table_7s_warmup():
    steps = _steps_by_module(operation="add")
    assert steps == {m: 50_000 for m in ("nac", "nau", "nalu", "gnalu", "inalu")}
    (nau,) = _configs(module="nau")
    assert _warmup(nau) == (20_000, 35_000, 0.01)


@pytest.mark.parametrize("input_size", [10, 100])
def test_more_inputs_give_the_nau_the_references_longer_schedule(input_size):
    steps = _steps_by_module(operation="sub", input_size=input_size)
    assert steps["nau"] == 100_000
    assert steps["inalu"] == steps["nac"] == 50_000
    (nau,) = _configs(module="nau", operation="sub", input_size=input_size)
    assert _warmup(nau) == (50_000, 75_000, 0.01)


def test_the_quick_preset_compresses_the_longer_schedule_five_times():
    (nau,) = _configs(module="nau", input_size=10, preset="quick")
    assert nau["steps"] == 20_000
    assert _warmup(nau) == (10_000, 15_000, 0.01)


def test_max_steps_scales_the_schedule_of_the_module_it_applies_to():
    (nau,) = _configs(module="nau", input_size=100, max_steps=10_000)
    assert _warmup(nau) == (5_000, 7_500, 0.01)


@pytest.mark.parametrize("name", ["npu", "realnpu"])
def test_the_npus_are_the_surveys_and_each_variant_changes_what_it_names(name):
    def layer(module):
        (config,) = _configs(module=module, operation="mul")
        model = single_module.run_spec(config).build_model()
        return model.layers[-1].get_config()

    survey = layer(name)
    assert survey["gate_gradient"] == "clip"  # torch.clamp's gradient
    assert survey["kernel_initializer"]["class_name"] == "GlorotUniform"
    ours = layer(f"{name}_constrained_straight_through")
    assert ours["gate_gradient"] == "straight_through"
    assert ours["kernel_initializer"] == keras.layers.serialize(
        keras_nalm.initializers.get("nau_uniform")
    )
    assert layer(f"{name}_straight_through")["gate_gradient"] == "straight_through"
    constrained = layer(f"{name}_constrained")
    assert constrained["kernel_initializer"] == ours["kernel_initializer"]
    assert constrained["gate_gradient"] == "clip"
    slow = layer(f"{name}_constrained_straight_through_lr_1e-3")
    ignored = {"gate_gradient", "kernel_initializer", "name"}
    for variant in (ours, constrained, slow):
        changed = {k for k in survey if survey[k] != variant[k]} - ignored
        assert not changed
    assert slow == {**ours, "name": slow["name"]}


def test_the_npu_learning_rate_variant_trains_at_adams_default():
    (default,) = _configs(module="npu", operation="mul")
    (slow,) = _configs(
        module="npu_constrained_straight_through_lr_1e-3", operation="mul"
    )
    rates = [
        single_module.run_spec(c).make_optimizer().learning_rate
        for c in (default, slow)
    ]
    assert [float(rate) for rate in rates] == pytest.approx([5e-3, 1e-3])


def test_a_norm_clip_and_a_fixed_threshold_reach_the_run(tmp_path):
    output = str(tmp_path / "rows.jsonl")
    arguments = ["--module", "nmu", "--operation", "mul", "--seeds", "0"]
    arguments += ["--interpolation-range=1,2", "--max-steps", "1000", "--quiet"]
    arguments += ["--clip-norm", "1", "--threshold", "1e9", "--output", output]
    main(single_module.TASK, arguments)
    (row,) = read_rows([output])
    assert row["clip_norm"] == 1.0 and row["fixed_threshold"] == 1e9
    assert row["threshold"] == 1e9 and row["solved"]  # any MSE below 1e9
    optimizer = single_module.module_of(row["config"]).optimizer
    assert optimizer["global_clipnorm"] == 1.0
