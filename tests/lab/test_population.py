"""Populations (issue 73): runs of one program trained together give the
rows one at a time gives, for our units and a plain Keras layer of one's
own; the sweep groups and splits them."""

import textwrap

import keras
import numpy as np
import pytest
import tensorflow as tf

from benchmarks.core import sweep
from benchmarks.core.ranges import Range
from benchmarks.core.rows import values_agree
from benchmarks.core.runs import Engine
from benchmarks.data.arithmetic_batches import ArithmeticBatches
from benchmarks.data.arithmetic_task import single_module_task
from benchmarks.reproduce import VOLATILE
from benchmarks.single_module import task as single_module
from keras_nalm import layers
from keras_nalm.callbacks import INALUReinitializer
from keras_nalm.engine import EvaluationLog
from keras_nalm.engine import InGraphTrainer
from keras_nalm.engine.population import PopulationTrainer
from keras_nalm.utils import reinitialize_model

ENGINE = Engine(single_module.run_spec, populations=True)


def _jobs(*line):
    args = single_module.parse_arguments([*line, "--output", "unused.jsonl"])
    return single_module.jobs(args)


def _results(row):
    return {key: value for key, value in row.items() if key not in VOLATILE}


def _both(jobs):
    """The jobs' rows trained together and one at a time."""
    together = ENGINE("single_module", jobs)
    alone = [row for job in jobs for row in ENGINE("single_module", [job])]
    return together, alone


def test_a_population_gives_the_rows_of_its_runs_trained_one_at_a_time():
    # Two ranges and two seeds of the NMU with its regularizer warmed up
    # early (a schedule set in the loop): each run's own batches, range
    # and schedule, so the same rows, field by field (the extrapolation
    # MSE to the bit).
    line = ["--module", "nmu", "--operation", "mul", "--seeds", "0-1"]
    line += ["--max-steps", "3000", "--regularizer-warmup", "10,5000,20000"]
    jobs = _jobs(*line, "--interpolation-range", "1,2") + _jobs(
        *line, "--interpolation-range=-2,-1"
    )
    together, alone = _both(jobs)
    assert [row["population"] for row in together] == [4] * 4
    assert all("population" not in row for row in alone)
    assert [_results(row) for row in together] == [_results(row) for row in alone]
    assert len({row["extrapolation_mse"] for row in together}) == 4


def _pair(build, interpolation, optimizer, seeds=(0, 1)):
    """A population of two runs of `build` on `interpolation`."""
    sources = [_source(interpolation), _source(interpolation)]
    evaluation = [s.evaluation_data(0) for s in sources]
    return PopulationTrainer(build, sources, list(seeds), optimizer, 500, evaluation)


def test_each_runs_gradients_are_clipped_to_the_global_norm_on_their_own():
    trainer = _pair(_model, "1,2", lambda: keras.optimizers.Adam(global_clipnorm=1.0))
    assert trainer.optimizer.global_clipnorm is None  # taken over per run
    small, large = [[0.3, 0.4]], [[30.0, 40.0]]  # norms 0.5 and 50
    (clipped,) = trainer._clipped([tf.constant([small, large])])
    np.testing.assert_allclose(clipped[0], small)  # below the norm: kept
    np.testing.assert_allclose(clipped[1], [[0.6, 0.8]], rtol=1e-6)


def test_a_plain_keras_layer_of_ones_own_trains_in_a_population(tmp_path):
    path = tmp_path / "plain_units.py"
    path.write_text(
        textwrap.dedent(
            """
            import keras


            class Linear(keras.layers.Layer):
                \"\"\"y = x W, W drawn uniformly: no unit of ours.\"\"\"

                def __init__(self, units, **kwargs):
                    super().__init__(**kwargs)
                    self.units = units

                def build(self, shape):
                    self.w = self.add_weight(
                        shape=(shape[-1], self.units), initializer="random_uniform"
                    )

                def call(self, x):
                    return keras.ops.matmul(x, self.w)
            """
        )
    )
    jobs = _jobs(
        "--module",
        f"{path}:Linear",
        "--operation",
        "add",
        "--seeds",
        "0-2",
        "--interpolation-range",
        "1,2",
        "--max-steps",
        "3000",
        "--learning-rate",
        "0.1",
    )
    together, alone = _both(jobs)
    # The same verdicts and steps; the MSEs up to the float reassociation
    # of the batched matmul (to the bit here; at a learning rate of 0.01,
    # one seed's MSE near 3e-10 was 0.4 % apart)
    for row, one in zip(together, alone):
        assert values_agree(_results(row), _results(one), 0.05)
    assert all(row["solved"] for row in together)  # it learns x1 + x2
    assert {row["population"] for row in together} == {3}
    draws = {row["initial_extrapolation_mse"] for row in together}
    assert len(draws) == 3  # each seed's own weights


def test_inalu_runs_train_in_a_population_with_the_rows_of_their_runs_alone():
    # Their switch reads each run's own interpolation MSE, their
    # re-initialisation acts on one run: the rows of one at a time, up to
    # the float reassociation of the batched ops.
    line = ["--module", "inalu", "--operation", "mul", "--seeds", "0-1"]
    jobs = _jobs(*line, "--interpolation-range", "1,2", "--max-steps", "3000")
    together, alone = _both(jobs)
    assert [row["population"] for row in together] == [2, 2]
    for row, one in zip(together, alone):
        assert values_agree(_results(row), _results(one), 1e-5)


def _inalu_model():
    inputs = keras.Input((2,))
    return keras.Model(inputs, layers.INALU(1)(inputs))


def _stagnating(seed):
    # With a learning rate of 0 the monitored loss stays put: a stagnation
    # at every second check, and a re-initialisation with fresh draws.
    return INALUReinitializer(
        interval=1,
        max_stored=1,
        loss_threshold=1e-9,
        monitor="interpolation_mse",
        seed=seed,
    )


def test_a_callback_acts_on_its_own_run_as_it_would_on_a_run_alone():
    # Run 0 is re-initialised (weights re-drawn, its Adam moments zeroed),
    # run 1 is not; each ends as the same run trained alone.
    sources = [_source("1,2"), _source("1,2")]
    evaluation = [s.evaluation_data(0) for s in sources]
    seeds = [0, 1]
    optimizer = lambda: keras.optimizers.Adam(0.0)  # noqa: E731
    trainer = PopulationTrainer(
        _inalu_model, sources, seeds, optimizer, 500, evaluation
    )
    reinitializer = _stagnating(7)
    trainer.train(2000, [[reinitializer], []])
    assert reinitializer.reinitializations == 2
    for run, callbacks in enumerate([[_stagnating(7)], []]):
        model = _inalu_model()
        alone = InGraphTrainer(model, sources[run], seeds[run], 500, evaluation[run])
        alone.compile(optimizer=optimizer())
        reinitialize_model(model, seeds[run])
        alone.fit(steps=2000, callbacks=callbacks, verbose=0)
        for stacked, variable in zip(trainer.weights, model.trainable_variables):
            np.testing.assert_array_equal(stacked.numpy()[run], variable.numpy())
        first = _first_moment(trainer.optimizer, trainer.weights[0])[run]
        np.testing.assert_array_equal(
            first, _first_moment(alone.optimizer, model.trainable_variables[0])
        )
    assert np.any(trainer.weights[0].numpy()[0] != trainer.weights[0].numpy()[1])


def _first_moment(optimizer, variable):
    return optimizer._momentums[optimizer._get_variable_index(variable)].numpy()


def _source(interpolation):
    return ArithmeticBatches(
        single_module_task("mul", 2),
        Range.parse(interpolation),
        Range.parse("2,6"),
        threshold_model="mistry",
    )


def _model():
    inputs = keras.Input((2,))
    return keras.Model(inputs, layers.NMU(1)(inputs))


def test_the_trainer_restarts_on_its_program_as_a_new_one_would_train():
    # Library level: two populations in turn on one compiled program (the
    # second a `restart`) against one run at a time with InGraphTrainer;
    # the NMU's clamp is applied to each run's weights.
    sources = [_source("1,2"), _source("10,20")]
    trainer = None
    for seeds in ([0, 1], [5, 6]):
        evaluation = [s.evaluation_data(seed) for s, seed in zip(sources, seeds)]
        if trainer is None:
            trainer = PopulationTrainer(
                _model,
                sources,
                seeds,
                lambda: keras.optimizers.Adam(0.05),
                500,
                evaluation,
            )
        else:
            trainer.restart(seeds, sources, evaluation)
        logs = trainer.train(1000)
        for run, (source, seed) in enumerate(zip(sources, seeds)):
            model = _model()
            alone = InGraphTrainer(
                model, source, seed, 500, source.evaluation_data(seed)
            )
            alone.compile(optimizer=keras.optimizers.Adam(0.05))
            reinitialize_model(model, seed)
            log = EvaluationLog()
            alone.fit(steps=1000, callbacks=[log], verbose=0)
            weights = trainer.weights[0].numpy()[run]
            np.testing.assert_array_equal(weights, model.trainable_variables[0].numpy())
            assert np.all((weights >= 0) & (weights <= 1))
            ours = logs[run].series
            assert ours["extrapolation_mse"][1:] == log.series["extrapolation_mse"][1:]
            assert ours["step"] == [0, 500, 1000]


def test_the_trainer_refuses_a_restart_of_another_size():
    trainer = _pair(_model, "1,2", keras.optimizers.Adam)
    with pytest.raises(ValueError, match="population of 2 cannot restart with 3"):
        trainer.restart([0, 1, 2], trainer.sources[:1] * 3)


def test_jobs_train_together_by_key_split_so_that_every_worker_has_some():
    jobs = [sweep.Job.of({"c": c}, seed) for c in "ab" for seed in range(5)]
    key = lambda job: dict(job.config)["c"]  # noqa: E731
    sizes = [len(b) for b in sweep.population_batches(jobs, key, 4, workers=2)]
    assert sizes == [4, 1, 4, 1]  # two groups: enough for two workers
    sizes = [len(b) for b in sweep.population_batches(jobs[:5], key, 256, 2)]
    assert sizes == [3, 2]  # one group, split for two workers
    assert sweep.population_batches(jobs, key, 1, 2) == [[job] for job in jobs]
    assert sweep.population_batches(jobs, None, 8, 2) == [[job] for job in jobs]


def test_a_population_takes_the_units_own_gradients_exact_at_saturation():
    # The NAC's weights tanh(W)·σ(M) with M saturated: our exact gradient
    # is tiny but not 0 (keras_nalm.ops), and one-at-a-time training needs
    # it to solve U[10,20) late; differentiating the vectorized forward ops
    # instead gave 0 there, and those runs stalled on one input.
    def nac():
        inputs = keras.Input((2,))
        return keras.Model(inputs, layers.NAC(1)(inputs))

    trainer = _pair(nac, "10,20", keras.optimizers.Adam, seeds=(2, 4))
    saturated = np.array([[[8.0], [8.0]], [[-9.0], [8.0]]], np.float32)
    masks = np.array([[[16.0], [-21.0]], [[-20.0], [16.0]]], np.float32)
    weights = [tf.constant(saturated), tf.constant(masks)]
    x, y = trainer._batches(tf.constant(7))
    controls = [c.value for c in trainer.controls]
    _, gradients = trainer._gradients(weights, controls, x, y)
    model = nac()
    for run in range(2):
        for variable, stacked in zip(model.trainable_variables, weights):
            variable.assign(stacked[run])
        with tf.GradientTape() as tape:
            loss = keras.ops.mean(keras.ops.square(model(x[run]) - y[run]))
        alone = tape.gradient(loss, model.trainable_variables)
        for ours, theirs in zip(gradients, alone):
            np.testing.assert_allclose(ours[run], theirs, rtol=1e-4)
        assert np.all(alone[0] != 0)  # tiny, not zero
