"""The in-graph XLA engine: same training as plain `model.fit`, batches
that depend only on (seed, step), callbacks unchanged. The engine runs on
TensorFlow: without it these tests are skipped."""

import keras
import numpy as np
import pytest

tf = pytest.importorskip("tensorflow", reason="the engine runs on TensorFlow")

import keras_nalm  # noqa: E402
from keras_nalm.engine import BatchSource  # noqa: E402
from keras_nalm.engine import uniform  # noqa: E402
from keras_nalm.engine.trainer import EvaluationLog  # noqa: E402
from keras_nalm.engine.trainer import InGraphTrainer  # noqa: E402

INPUTS = 4


def target(x):
    """(x1 + x2) * (x2 + x3): an NAU -> NMU problem (TensorFlow or NumPy)."""
    return (x[:, 0:1] + x[:, 1:2]) * (x[:, 1:2] + x[:, 2:3])


def sample(rng, count, low, high):
    """`count` fixed examples from U[low, high)^4 (an evaluation set)."""
    x = rng.uniform(low, high, (count, INPUTS)).astype("float32")
    return x, target(x)


class ProductBatches(BatchSource):
    """Batches of `target` on U[1, 2)^4, drawn from (seed, step) alone."""

    def __call__(self, seed):
        x = uniform((self.batch_size, INPUTS), seed, self.algorithm, 1.0, 2.0)
        return x, target(x)


def draw(batches, seed, step):
    if not hasattr(batches, "compiled"):
        batches.compiled = tf.function(batches, jit_compile=True)
    return batches.compiled(tf.constant([seed, step]))


def nau_nmu(seed=0):
    keras.utils.set_random_seed(seed)
    inputs = keras.Input((INPUTS,))
    hidden = keras_nalm.layers.NAU(2, name="nau")(inputs)
    return keras.Model(inputs, keras_nalm.layers.NMU(1, name="nmu")(hidden))


def trainer_for(model, seed=0, steps_per_call=100, evaluation_data=None):
    batches = ProductBatches(batch_size=16)
    trainer = InGraphTrainer(model, batches, seed, steps_per_call, evaluation_data)
    trainer.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse", metrics=["mse"])
    return trainer


def test_many_steps_per_call_train_exactly_like_model_fit_on_the_same_batches():
    steps = 300
    batches = ProductBatches(batch_size=16)
    drawn = [draw(batches, 5, step) for step in range(steps)]
    x = np.concatenate([b[0].numpy() for b in drawn])
    y = np.concatenate([b[1].numpy() for b in drawn])
    reference = nau_nmu()
    reference.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
    reference.fit(x, y, batch_size=16, shuffle=False, verbose=0)
    trainer = trainer_for(nau_nmu(), seed=5)
    history = trainer.fit(steps=steps, steps_per_epoch=steps, verbose=0)
    assert int(trainer.optimizer.iterations) == steps
    for ours, theirs in zip(trainer.model.get_weights(), reference.get_weights()):
        np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-6)
    assert np.isfinite(history.history["loss"][-1])


@pytest.mark.large
def test_restart_reproduces_a_fresh_run():
    fresh = trainer_for(nau_nmu(1), seed=1)
    fresh.fit(steps=300, verbose=0)
    reused = trainer_for(nau_nmu(0), seed=0)
    reused.fit(steps=200, verbose=0)
    reused.restart(1)
    for layer, initial in zip(reused.model.layers[1:], nau_nmu(1).layers[1:]):
        for variable, value in zip(layer.trainable_weights, initial.get_weights()):
            variable.assign(value)
    reused.fit(steps=300, verbose=0)
    assert int(reused.optimizer.iterations) == 300
    for ours, theirs in zip(reused.model.get_weights(), fresh.model.get_weights()):
        np.testing.assert_array_equal(ours, theirs)


def test_evaluation_sets_are_logged_after_every_call():
    rng = np.random.default_rng(0)
    evaluation = {"extrapolation": sample(rng, 500, 2.0, 6.0)}
    trainer = trainer_for(nau_nmu(), evaluation_data=evaluation)
    seen = []
    record = keras.callbacks.LambdaCallback(
        on_train_batch_end=lambda batch, logs: seen.append(
            (float(logs["extrapolation_mse"]), trainer.evaluate_sets())
        )
    )
    trainer.fit(steps=300, callbacks=[record], verbose=0)
    assert len(seen) == 3
    x, y = evaluation["extrapolation"]
    direct = np.mean((trainer.model.predict(x, verbose=0) - y) ** 2)
    np.testing.assert_allclose(seen[-1][0], direct, rtol=1e-4)
    for logged, now in seen:
        np.testing.assert_allclose(logged, now["extrapolation_mse"], rtol=1e-5)


def test_an_evaluation_log_continues_the_series_of_a_resumed_run():
    evaluation = {"extrapolation": sample(np.random.default_rng(0), 50, 2.0, 6.0)}
    trainer = trainer_for(nau_nmu(), evaluation_data=evaluation)
    first = EvaluationLog()
    trainer.fit(steps=200, callbacks=[first], verbose=0)
    resumed = EvaluationLog(series=first.series)
    trainer.fit(steps=300, initial_epoch=2, callbacks=[resumed], verbose=0)
    assert first.series["step"] == [0, 100, 200]  # the given series is not changed
    assert resumed.series["step"] == [0, 100, 200, 300]
    assert resumed.series["extrapolation_mse"][:3] == first.series["extrapolation_mse"]
    fresh = EvaluationLog()
    trainer.fit(steps=400, initial_epoch=3, callbacks=[fresh], verbose=0)
    assert fresh.series["step"] == [300, 400]  # without a series: recorded at the start


def test_the_warmup_sets_lambda_before_every_step_inside_a_call():
    """lambda ramps from step 100 to 300 to 2; read after each call of 100
    steps it holds the value of the call's last step (99, 199, 299, 399):
    the schedule runs inside the loop, as the reference code's per-step
    ramp, not set once per call (which gave 0, 0, 1, 2)."""
    trainer = trainer_for(nau_nmu())
    warmup = keras_nalm.callbacks.RegularizerWarmup(100, 300, max_strength=2.0)
    scales = []
    record = keras.callbacks.LambdaCallback(
        on_train_batch_end=lambda batch, logs: scales.append(
            float(trainer.model.get_layer("nmu").regularizer_scale_variable.numpy())
        )
    )
    history = trainer.fit(
        steps=400, steps_per_epoch=400, callbacks=[warmup, record], verbose=0
    )
    np.testing.assert_allclose(scales, [0.0, 0.99, 1.99, 2.0], rtol=1e-6)
    assert history.history["regularizer_scale"] == [2.0]
    stop = keras.callbacks.EarlyStopping(monitor="loss", patience=0, min_delta=1e9)
    history = trainer.fit(steps=1000, callbacks=[stop], verbose=0)
    assert len(history.history["loss"]) == 2


def _controlled_model():
    """NAU -> NPU beside an iNALU: lambda, beta and the iNALU switch."""
    keras.utils.set_random_seed(0)
    inputs = keras.Input((INPUTS,))
    hidden = keras_nalm.layers.NAU(2, name="nau")(inputs)
    npu = keras_nalm.layers.NPU(1, name="npu")(hidden)
    inalu = keras_nalm.layers.INALU(1, name="inalu")(inputs)
    return keras.Model(inputs, keras.layers.Add()([npu, inalu]))


def _control_callbacks():
    return [
        keras_nalm.callbacks.RegularizerWarmup(50, 250, max_strength=0.1),
        keras_nalm.callbacks.BetaGrowth(1e-4, 1e-2, growth=10, step=120),
        # the loss is always low enough: only the step decides
        keras_nalm.callbacks.INALURegularizerSwitch(min_step=150, loss_threshold=1e9),
    ]


@pytest.mark.large
def test_calls_of_many_steps_set_every_control_value_by_the_per_step_rule():
    """lambda, beta and the iNALU switch inside calls of 100 steps take the
    values the per-step rule gives each step, as calls of one step do: the
    weights after 400 steps agree. Values set once per call (a staircase
    up to 99 steps behind) train differently; so does the switch turned on
    for a whole call (steps 100-199 are not mostly past step 150, 200-299
    are: per call it comes 49 steps late)."""
    names = ("regularizer_scale", "beta", "inalu_regularization")
    per_step, values = trainer_for(_controlled_model(), steps_per_call=1), []

    def record(batch, logs):
        variables = per_step.model.non_trainable_variables
        values.append([float(v.numpy()) for v in variables if v.name in names])

    callbacks = _control_callbacks()
    per_step.fit(
        steps=400,
        steps_per_epoch=400,
        callbacks=[
            *callbacks,
            keras.callbacks.LambdaCallback(on_train_batch_end=record),
        ],
        verbose=0,
    )
    # each step's values (read after it) are the rule's at that step
    for step in (0, 50, 149, 150, 151, 199, 250, 399):
        assert values[step][:2] == pytest.approx(
            [callbacks[0].value_at(step), callbacks[1].value_at(step)], rel=1e-6
        )
        assert values[step][2] == float(step > 150)
    per_call = trainer_for(_controlled_model(), steps_per_call=100)
    per_call.fit(
        steps=400, steps_per_epoch=400, callbacks=_control_callbacks(), verbose=0
    )
    for ours, theirs in zip(per_call.model.get_weights(), per_step.model.get_weights()):
        np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-6)


@pytest.mark.large
def test_a_new_run_with_equal_callbacks_reuses_the_call_and_reads_their_state():
    """A second run with new callbacks equal to the first's (as every run of
    a sweep makes them) keeps the compiled call, and trains as a trainer
    compiled for it alone: the iNALU switch reads the new callback's loss
    flag (off at the run's start), not the first run's (on at its end,
    which would switch on steps 51-99 of the first call)."""

    def switch_on_from_step_50():
        return [
            *_control_callbacks()[:2],
            keras_nalm.callbacks.INALURegularizerSwitch(
                min_step=50, loss_threshold=1e9
            ),
        ]

    reused = trainer_for(_controlled_model())
    start = reused.model.get_weights()
    reused.fit(steps=200, callbacks=switch_on_from_step_50(), verbose=0)
    compiled = reused.train_function
    reused.restart(seed=0)
    reused.model.set_weights(start)
    reused.fit(steps=200, callbacks=switch_on_from_step_50(), verbose=0)
    assert reused.train_function is compiled
    alone = trainer_for(_controlled_model())
    alone.fit(steps=200, callbacks=switch_on_from_step_50(), verbose=0)
    for ours, theirs in zip(reused.model.get_weights(), alone.model.get_weights()):
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-7)


def test_a_warmup_updated_every_epoch_holds_lambda_through_the_epoch():
    """update_freq="epoch" is honoured: lambda is set at each epoch's start
    (steps 0 and 200: 0 and 1), not stepped inside the calls."""
    trainer = trainer_for(nau_nmu())
    warmup = keras_nalm.callbacks.RegularizerWarmup(
        100, 300, max_strength=2.0, update_freq="epoch"
    )
    scales = []
    record = keras.callbacks.LambdaCallback(
        on_train_batch_end=lambda batch, logs: scales.append(
            float(trainer.model.get_layer("nmu").regularizer_scale_variable.numpy())
        )
    )
    trainer.fit(steps=400, steps_per_epoch=200, callbacks=[warmup, record], verbose=0)
    np.testing.assert_allclose(scales, [0.0, 0.0, 1.0, 1.0], rtol=1e-6)


def test_bad_arguments_raise_clear_errors():
    trainer = trainer_for(nau_nmu())
    with pytest.raises(TypeError, match="no x="):
        trainer.fit(steps=100, x=np.zeros((1, 4)))
    with pytest.raises(ValueError, match="multiple"):
        trainer.fit(steps=150)
    with pytest.raises(ValueError, match="steps_per_execution"):
        trainer.compile(optimizer="adam", loss="mse", steps_per_execution=10)
    with pytest.raises(TypeError, match="callable"):
        InGraphTrainer(nau_nmu(), source=None)
    with pytest.raises(ValueError, match="algorithm"):
        ProductBatches(batch_size=16, algorithm="mt19937")
    with pytest.raises(KeyError, match="evaluation set"):
        trainer.restart(0, {"validation": (np.zeros((1, 4)), np.zeros((1, 1)))})


def test_inalu_callbacks_read_the_logged_evaluation_mse_as_it_is():
    rng = np.random.default_rng(0)
    evaluation = {"interpolation": sample(rng, 200, 1.0, 2.0)}
    trainer = trainer_for(nau_nmu(), evaluation_data=evaluation)
    reinitializer = keras_nalm.callbacks.INALUReinitializer(
        max_stored=100, monitor="interpolation_mse"
    )
    reinitializer.target_layers = lambda: []  # record only: no iNALU here
    record = keras.callbacks.LambdaCallback(
        on_train_batch_end=lambda batch, logs: logged.append(
            float(logs["interpolation_mse"])
        )
    )
    logged = []
    trainer.fit(
        steps=400, steps_per_epoch=400, callbacks=[record, reinitializer], verbose=0
    )
    assert trainer.point_log_keys == ("interpolation_loss", "interpolation_mse")
    np.testing.assert_allclose(reinitializer.losses, logged)


@pytest.mark.large
def test_a_run_resumed_from_its_state_continues_exactly():
    straight = trainer_for(nau_nmu(), seed=2)
    straight.fit(steps=300, verbose=0)
    interrupted = trainer_for(nau_nmu(), seed=2)
    interrupted.fit(steps=200, verbose=0)
    resumed = trainer_for(nau_nmu(), seed=2)  # a new process would rebuild it
    resumed.model.set_weights(interrupted.model.get_weights())
    resumed.optimizer.build(resumed.trainable_variables)
    for target, source in zip(
        resumed.optimizer.variables, interrupted.optimizer.variables
    ):
        target.assign(source)
    resumed.fit(steps=300, initial_epoch=2, verbose=0)  # epochs of 100 steps
    assert int(resumed.optimizer.iterations) == 300
    for ours, theirs in zip(resumed.model.get_weights(), straight.model.get_weights()):
        np.testing.assert_array_equal(ours, theirs)
