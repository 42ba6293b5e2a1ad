"""Keras Tuner searches trained by the in-graph engine
(keras_nalm.engine.tuning, benchmarks.tune.hypermodels), locally and in Keras
Tuner's chief/worker mode on 127.0.0.1."""

import json
import os
import re
import socket
import subprocess
import sys

import keras
import numpy as np
import pytest

from tests.lab import ROOT

keras_tuner = pytest.importorskip("keras_tuner")

from benchmarks.tune.hypermodels import ArithmeticHyperModel  # noqa: E402


def _search(tuner_class, tmp_path, **budget):
    hypermodel = ArithmeticHyperModel("add", steps=2_000, units=("nau", "nac"))
    tuner = tuner_class(
        hypermodel,
        objective=hypermodel.objective,
        directory=str(tmp_path),
        project_name=tuner_class.__name__,
        seed=3,
        **budget,
    )
    tuner.search(callbacks=[keras.callbacks.TerminateOnNaN()], verbose=0)
    return tuner


def _completed(tuner):
    trials = tuner.oracle.trials.values()
    return [trial for trial in trials if trial.status == "COMPLETED"]


def test_a_random_search_records_the_tasks_judgement_per_trial(tmp_path):
    tuner = _search(keras_tuner.RandomSearch, tmp_path, max_trials=2)
    trials = _completed(tuner)
    assert len(trials) == 2
    for trial in trials:
        metrics = trial.metrics.metrics
        mse = metrics["extrapolation_mse"].get_last_value()
        assert trial.score == pytest.approx(np.log10(mse))
        assert metrics["solved"].get_last_value() in (0.0, 1.0)
    best = tuner.oracle.get_best_trials(1)[0]
    assert best.score == min(trial.score for trial in trials)
    assert set(tuner.get_best_hyperparameters()[0].values) >= {
        "unit",
        "hidden_size",
        "learning_rate",
        "optimizer",
    }


def _zero_nau(hypermodel):
    hp = keras_tuner.HyperParameters()
    hp.Fixed("unit", "nau")
    hp.Fixed("hidden_size", 2)
    model = hypermodel.build(hp)
    model.set_weights([np.zeros_like(weight) for weight in model.get_weights()])
    return hp, model


def test_a_continued_trial_keeps_its_weights_and_its_step():
    hypermodel = ArithmeticHyperModel("add", steps=2_000, units=("nau",), seed=5)
    hp, model = _zero_nau(hypermodel)
    _, targets = hypermodel.make_source(hp, 5).evaluation_data(5)["interpolation"]
    zero_model_mse = float(np.mean(np.square(targets)))
    continued = hypermodel.fit(hp, model, epochs=2, initial_epoch=1)
    assert continued["initial_interpolation_mse"] == pytest.approx(zero_model_mse)
    assert continued["best_step"] in (1_000, 2_000)
    assert "learning_rate" in hp.values  # registered by fit

    hypermodel.fits = 0  # the same seed, from the start: re-initialised
    hp, model = _zero_nau(hypermodel)
    fresh = hypermodel.fit(hp, model, epochs=1)
    assert fresh["initial_interpolation_mse"] != pytest.approx(zero_model_mse)


def test_data_and_unknown_choices_are_refused():
    hypermodel = ArithmeticHyperModel("add", steps=1_000, units=("nau",))
    hp, model = _zero_nau(hypermodel)
    with pytest.raises(TypeError, match="draws its batches in-graph"):
        hypermodel.fit(hp, model, np.zeros((4, 100)), np.zeros((4, 1)))
    with pytest.raises(ValueError, match="units must name some of"):
        ArithmeticHyperModel("add", units=("lstm",))
    with pytest.raises(ValueError, match="Unknown operation"):
        ArithmeticHyperModel("pow")
    with pytest.raises(ValueError, match="multiple of steps_per_epoch"):
        ArithmeticHyperModel("add", steps=1_500)


# A release check: two whole searches through the oracles of Keras Tuner,
# on the hypermodel that the random search and the continued trial above
# put through CI.
@pytest.mark.extra_large
def test_bayesian_optimization_and_hyperband_finish_their_searches(tmp_path):
    bayesian = _search(keras_tuner.BayesianOptimization, tmp_path, max_trials=4)
    assert len(_completed(bayesian)) == 4
    hyperband = _search(keras_tuner.Hyperband, tmp_path, max_epochs=2, factor=2)
    trials = _completed(hyperband)
    continued = [t for t in trials if "tuner/trial_id" in t.hyperparameters.values]
    assert continued, "Hyperband should continue some trials from checkpoints"
    assert {t.hyperparameters.values["tuner/epochs"] for t in trials} == {1, 2}


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.large
def test_a_chief_and_two_workers_run_every_trial_once(tmp_path):
    environment = dict(
        os.environ,
        TF_CPP_MIN_LOG_LEVEL="3",
        KERASTUNER_ORACLE_IP="127.0.0.1",
        KERASTUNER_ORACLE_PORT=str(_free_port()),
    )
    command = [sys.executable, "-m", "benchmarks.tune", "--operation", "add"]
    command += ["--models", "nau,nac", "--steps", "2000", "--max-trials", "4"]
    command += ["--directory", str(tmp_path)]
    processes = {
        tuner_id: subprocess.Popen(
            command,
            cwd=ROOT,
            env=dict(environment, KERASTUNER_TUNER_ID=tuner_id),
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        for tuner_id in ("chief", "tuner0", "tuner1")
    }
    outputs = {}
    try:
        for tuner_id, process in processes.items():
            outputs[tuner_id], _ = process.communicate(timeout=400)
            assert process.returncode == 0, outputs[tuner_id]
    finally:
        for process in processes.values():
            process.kill()
    finished = [
        json.loads(line)
        for tuner_id in ("tuner0", "tuner1")
        for line in outputs[tuner_id].splitlines()
        if line.startswith("{")
    ]
    ids = [line["trial"] for line in finished]
    assert len(ids) == len(set(ids)) == 4
    assert {line["tuner"] for line in finished} <= {"tuner0", "tuner1"}
    assert all(line["status"] == "COMPLETED" for line in finished)
    best_score = min(line["score"] for line in finished)
    chief = outputs["chief"]
    assert "best 3 trials (objective log10_extrapolation_mse)" in chief
    best_line = chief.split("best 3 trials")[1].splitlines()[1]
    assert float(best_line.split()[0]) == pytest.approx(best_score, rel=1e-3)
    assert json.loads(best_line.split(None, 1)[1])["unit"] in ("nau", "nac")


def test_the_copy_task_is_tuned_on_its_validation_cross_entropy(tmp_path, capsys):
    from benchmarks.tune import runner as tune

    tune.main(
        ["--task", "copy", "--T", "10", "--models", "janet", "--steps", "1000"]
        + ["--max-trials", "1", "--directory", str(tmp_path)]
    )
    lines = capsys.readouterr().out.splitlines()
    (trial,) = [json.loads(line) for line in lines if line.startswith("{")]
    assert trial["values"]["model"] == "janet" and trial["status"] == "COMPLETED"
    assert 0 < trial["score"] < 3  # a cross-entropy per step over 9 classes
    assert "best 3 trials (objective best_cross_entropy):" in lines
    assert "paper's janet: width 1, learning_rate 1e-3, clip_norm 1" in lines[-1]


def test_tensorboard_gets_each_trials_series_and_expression(tmp_path):
    from benchmarks.tune import runner as tune
    from tests.lab.test_sweep import _summaries

    logs = tmp_path / "logs"
    tune.main(
        ["--operation", "add", "--models", "nau", "--steps", "2000"]
        + ["--max-trials", "1", "--directory", str(tmp_path / "tuner")]
        + ["--tensorboard", str(logs)]
    )
    (events,) = logs.glob("arithmetic/nau-*/seed_0/events.*")
    tags = _summaries(str(events))
    assert [step for step, _ in tags["extrapolation_mse"]] == [0, 1000, 2000]
    assert len(tags["controls/nau_1/regularizer_scale"]) == 3
    (step, text), *_ = tags["expression"]
    assert step == 2000 and re.search("y0 [=≈] ", text.tensor.string_val[0].decode())


def test_a_run_that_diverged_from_the_start_ranks_last():
    hypermodel = ArithmeticHyperModel("mul", steps=1_000)
    for judgement in (
        {"solved": False, "initial_interpolation_mse": float("nan")},
        {"solved": False, "extrapolation_mse": float("inf")},
        {"solved": False, "extrapolation_mse": None},
    ):
        metrics = hypermodel.metrics(judgement)
        assert metrics["extrapolation_mse"] == 1e30
        assert metrics["log10_extrapolation_mse"] == 30.0
    assert hypermodel.metrics({"extrapolation_mse": 1e-4})[
        "log10_extrapolation_mse"
    ] == (pytest.approx(-4))
