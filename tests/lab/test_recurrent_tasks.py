"""Trask et al.'s recurrent arithmetic task: its batches, evaluation sets
and runner."""

import json

import numpy as np
import pytest
import tensorflow as tf

from benchmarks import report
from benchmarks.core.ranges import Range
from benchmarks.core.sweep import main
from benchmarks.data.arithmetic_task import ArithmeticTask
from benchmarks.recurrent import runner as recurrent
from benchmarks.recurrent import task as recurrent_task
from benchmarks.recurrent.source import RecurrentArithmeticBatches
from tests.lab.commands import refusal


def _task(operation):
    return ArithmeticTask(operation, input_size=10, offset=3)


@pytest.mark.parametrize("operation", ["a", "sub", "mul", "root"])
def test_targets_sum_both_subsets_over_every_step(operation):
    source = RecurrentArithmeticBatches(_task(operation), batch_size=64)
    x, y = tf.function(source, jit_compile=True)(tf.constant([0, 5]))
    x = x.numpy().astype(np.float64)
    assert x.shape == (64, 10, 10) and 1.0 <= x.min() and x.max() < 2.0
    a = x[:, :, 3:5].sum(axis=(1, 2))  # subsets of 2 inputs, overlapping by 1
    b = x[:, :, 4:6].sum(axis=(1, 2))
    expected = {"a": a, "sub": a - b, "mul": a * b, "root": np.sqrt(a)}[operation]
    np.testing.assert_allclose(y.numpy()[:, 0], expected, rtol=1e-5, atol=1e-5)


def test_evaluation_sets_extrapolate_by_length_only():
    source = RecurrentArithmeticBatches(_task("add"), evaluation_samples=50)
    sets = source.evaluation_data(seed=1)
    (xi, yi), (xe, ye) = sets["interpolation"], sets["extrapolation"]
    assert xi.shape == (50, 10, 10) and xe.shape == (50, 1000, 10)
    assert 1.0 <= xe.min() and xe.max() < 2.0
    np.testing.assert_allclose(ye / yi.mean(), 100.0, rtol=0.03)
    again = source.evaluation_data(seed=1)["extrapolation"][0]
    np.testing.assert_array_equal(again, xe)


def test_bad_ranges_and_lengths_are_refused():
    with pytest.raises(ValueError, match="one interval"):
        RecurrentArithmeticBatches(_task("add"), Range.parse("-2,-1;1,2"))
    with pytest.raises(ValueError, match="length"):
        RecurrentArithmeticBatches(_task("add"), length=0)
    with pytest.raises(TypeError, match="ArithmeticTask"):
        RecurrentArithmeticBatches("add")


def test_the_runner_refuses_unknown_models_and_operations(tmp_path, capsys):
    output = str(tmp_path / "rows.jsonl")
    line = ["--model", "transformer", "--output", output]
    assert "unknown models: transformer; known: lstm," in refusal(
        recurrent_task.parse_arguments, line, capsys
    )
    line = ["--model", "nac", "--operation", "pow", "--output", output]
    assert "unknown operations: pow" in refusal(
        recurrent_task.parse_arguments, line, capsys
    )
    assert not (tmp_path / "rows.jsonl").exists()


def test_the_runner_writes_table_8s_numbers_for_each_model(tmp_path):
    output = str(tmp_path / "rows.jsonl")
    arguments = ["--model", "lstm,nac", "--operation", "a", "--seeds", "0"]
    main(
        recurrent_task.TASK,
        [*arguments, "--max-steps", "2000", "--output", output, "--quiet"],
    )
    with open(output) as handle:
        rows = {row["model"]: row for row in map(json.loads, handle)}
    assert set(rows) == {"lstm", "nac"}
    for row in rows.values():
        assert row["task"] == "recurrent_trask" and row["max_steps"] == 2_000
        assert row["interpolation_mse"] < row["initial_interpolation_mse"]
        assert row["training_loss"] > 0
    lstm = rows["lstm"]  # bounded by tanh: far from the 100x larger sums
    assert lstm["extrapolation_mse"] > 0.5 * lstm["initial_extrapolation_mse"]


def _trask_row(model, operation, seed, mse, initial=100.0):
    return {
        "task": "recurrent_trask",
        "model": model,
        "operation": operation,
        "max_steps": 1_000,
        "seed": seed,
        "training_loss": mse,
        "interpolation_mse": mse,
        "extrapolation_mse": mse,
        "initial_interpolation_mse": initial,
        "initial_extrapolation_mse": initial,
    }


def test_the_report_scores_models_against_the_untrained_lstm():
    rows = [_trask_row("lstm", "mul", s, 90.0, initial=100.0 + s) for s in (0, 1, 2)]
    rows += [_trask_row("nac", "mul", 0, 0.5), _trask_row("nac", "mul", 1, np.nan)]
    rows += [_trask_row("nac", "mul", 2, 2.0)]
    text = report.build(rows)[0]
    assert "| lstm | 3 | — / 0.0 | — / 0.0 | — / 0.0 | 89.1 / 0.0 |" in text
    assert "| nac | 3 | — / 0.0 | — / 0.0 | — / 0.0 | 2.0 / 1.5 |" in text  # median
    assert "| nac | E | — (1.8946) | — (.00004) | — (0.01537) | 2 (297800) |" in text


def test_runs_with_a_learned_initial_state_are_a_model_of_their_own():
    rows = [_trask_row("lstm", "mul", 0, 90.0, initial=100.0)]
    rows += [_trask_row("nalu", "mul", 0, 50.0), _trask_row("nalu", "mul", 1, 10.0)]
    rows[-1]["initial_state"] = "learned"
    text = report.build(rows)[0]
    assert "| nalu | 1 | — / 0.0 | — / 0.0 | — / 0.0 | 50.0 / 0.0 |" in text
    learned = "| nalu (learned initial state) | 1 | — / — | — / — | — / — | 10.0 / — |"
    assert learned in text


def test_each_input_range_is_scored_against_its_own_untrained_lstms():
    rows = [_trask_row("lstm", "mul", 0, 90.0, initial=100.0)]
    rows += [_trask_row("nac", "mul", 0, 50.0)]
    small = [_trask_row("lstm", "mul", 0, 1.0, initial=10.0)]
    small += [_trask_row("nac", "mul", 0, 4.0)]
    for row in small:
        row["range"] = "0.1,0.2"
    text = report.build(rows + small)[0]
    narrow, default = text.split("#### 1,000 steps, inputs from U[1,2]")
    assert "#### 1,000 steps, inputs from U[0.1,0.2]" in narrow
    assert "| nac | 1 | — / 0.0 | — / 0.0 | — / 0.0 | 50.0 / 1.5 |" in default
    assert "| nac | 1 | — / 0.0 | — / 0.0 | — / 0.0 | 40.0 / 1.5 |" in narrow


def test_the_range_is_an_argument_and_the_default_keeps_old_rows_valid():
    def configs(*arguments):
        line = ["--model", "nac", "--operation", "a", "--preset", "quick"]
        line += ["--seeds", "0", "--output", "unused.jsonl"]
        for name, value in arguments:
            line.append(f"--{name}={value}")
        args = recurrent_task.parse_arguments(line)
        return [dict(job.config) for job in recurrent_task.jobs(args)]

    assert "range" not in configs()[0]
    (config,) = configs(("range", "-1,1"))
    assert configs(("range", "1,2.0")) == configs()
    assert config["range"] == "-1,1"
    x, _ = recurrent.source(config, 0).evaluation_data(0)["interpolation"]
    assert x.min() < 0 < x.max() and -1 <= x.min() and x.max() < 1


def test_a_learned_initial_state_is_an_argument_of_the_units_models():
    """`--initial-state learned` marks the units' configurations (not the
    LSTM's, and not the default, so that the rows so far keep theirs) and
    builds their cells with a trainable initial state, in its own program."""
    line = ["--model", "nalu,lstm", "--operation", "a", "--preset", "quick"]
    line += ["--seeds", "0", "--output", "unused.jsonl"]
    for option, learned in (([], False), (["--initial-state=learned"], True)):
        args = recurrent_task.parse_arguments(line + option)
        configs = {
            c["model"]: c for c in (dict(j.config) for j in recurrent_task.jobs(args))
        }
        assert ("initial_state" in configs["nalu"]) == learned
        assert "initial_state" not in configs["lstm"]
        spec = recurrent_task.run_spec(configs["nalu"])
        cell = spec.build_model().layers[1].cell
        assert cell.learn_initial_state == learned
        assert spec.program_key[-1] == ("learned" if learned else "fixed")
