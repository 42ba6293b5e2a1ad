"""BetaGrowth, INALURegularizerSwitch and INALUReinitializer."""

import keras
import numpy as np
import pytest

import keras_nalm
from tests.training import build_for_one_trace

L = keras_nalm.layers
C = keras_nalm.callbacks


def _frozen(layer, input_dim=2, steps_per_execution=1):
    """A model whose weights cannot move (learning rate 0), with targets
    equal to its outputs (computed eagerly): its loss is its regularization
    loss, to float32 rounding."""
    model = keras.Sequential([keras.Input((input_dim,)), layer])
    model.compile(
        optimizer=keras.optimizers.SGD(learning_rate=0.0),
        loss="mse",
        metrics=["mse"],
        jit_compile=True,
        steps_per_execution=steps_per_execution,
    )
    x = np.random.default_rng(0).uniform(1, 2, size=(16, input_dim)).astype("float32")
    y = keras.ops.convert_to_numpy(model(x))  # no predict program
    return build_for_one_trace(model, x, y), x, y


def test_beta_grows_on_schedule_inside_jit_compiled_fit():
    npu = L.NPU(1)
    model, x, y = _frozen(npu)
    l1 = sum(float(np.abs(w.numpy()).sum()) for w in npu.trainable_weights)
    growth = C.BetaGrowth(1e-3, 1e-1, growth=10, step=2)
    history = model.fit(x, y, batch_size=16, epochs=7, callbacks=[growth], verbose=0)
    betas = [1e-3, 1e-3, 1e-2, 1e-2, 1e-1, 1e-1, 1e-1]
    np.testing.assert_allclose(history.history["beta"], betas, rtol=1e-12)
    np.testing.assert_allclose(history.history["loss"], np.array(betas) * l1, rtol=1e-4)


def test_beta_shrinks_when_end_is_below_start_and_stops_at_end():
    growth = C.BetaGrowth(1e-5, 1e-7, growth=10, step=100)
    values = [growth.value_at(t) for t in (0, 99, 100, 200, 10_000)]
    np.testing.assert_allclose(values, [1e-5, 1e-5, 1e-6, 1e-7, 1e-7], rtol=1e-12)
    # the engine's in-graph value of a step equals the callback's
    for schedule in (growth, C.BetaGrowth(1e-7, 1e-5, growth=10, step=100)):
        for step in (0, 99, 100, 250, 10_000):
            graph = schedule.graph_value_at(keras.ops.convert_to_tensor(float(step)))
            np.testing.assert_allclose(graph, schedule.value_at(step), rtol=1e-5)


def test_inalu_regularizer_switches_on_after_min_step_when_the_loss_is_low():
    inalu = L.INALU(1)
    model, x, y = _frozen(inalu)
    penalty = sum(
        float(keras_nalm.regularizers.INALURegularizer()(w))
        for w in inalu.trainable_weights
    )
    switch = C.INALURegularizerSwitch(min_step=3, loss_threshold=1.0)
    history = model.fit(x, y, batch_size=16, epochs=6, callbacks=[switch], verbose=0)
    # Epoch k runs optimizer step k; the switch needs step > 3.
    np.testing.assert_allclose(
        history.history["inalu_regularization"], [0, 0, 0, 0, 1, 1]
    )
    np.testing.assert_allclose(
        history.history["loss"], [0, 0, 0, 0, penalty, penalty], rtol=1e-4, atol=1e-6
    )
    # the engine's in-graph rule gives the per-step rule's values
    graph = [
        switch.graph_value_at(keras.ops.convert_to_tensor(float(t))) for t in range(7)
    ]
    assert [float(g) for g in graph] == [switch.value_at(t) for t in range(7)]


def test_inalu_regularizer_follows_most_steps_of_an_execution():
    """With 4 optimizer steps per execution the switch decides for 4 steps
    at once: steps 4-7 are mostly past min_step 4 (the reference's rule
    turns on at step 5), so the second execution has the regularizer."""
    model, x, y = _frozen(L.INALU(1), steps_per_execution=4)
    switch = C.INALURegularizerSwitch(min_step=4, loss_threshold=1.0)
    history = model.fit(x, y, batch_size=4, epochs=3, callbacks=[switch], verbose=0)
    # (deciding by the execution's first step, 4 > 4, would give [0, 0, 1])
    assert history.history["inalu_regularization"] == [0.0, 1.0, 1.0]


def test_inalu_regularizer_stays_off_while_the_loss_is_high():
    model, x, y = _frozen(L.INALU(1))
    switch = C.INALURegularizerSwitch(min_step=0, loss_threshold=1.0)
    history = model.fit(
        x, y + 10.0, batch_size=16, epochs=3, callbacks=[switch], verbose=0
    )
    assert history.history["inalu_regularization"] == [0.0, 0.0, 0.0]
    assert float(switch.graph_value_at(keras.ops.convert_to_tensor(5.0))) == 0.0


def _trained_inalu_model():
    model = keras.Sequential([keras.Input((2,)), L.INALU(1, name="inalu")])
    model.compile(optimizer="adam", loss="mse", run_eagerly=True)  # no tracing
    x = np.ones((8, 2), "float32")
    model.fit(x, np.ones((8, 1)), epochs=1, verbose=0)  # Adam moments become non-zero
    return model


def _feed_losses(callback, losses):
    """Calls the batch hooks with Keras's running-mean `logs["loss"]`."""
    callback.on_train_begin()
    running = 0.0
    for batch, loss in enumerate(losses):
        running += (loss - running) / (batch + 1)
        callback.on_train_batch_end(batch, {"mse": running})


def _slots(model):
    """Adam's moments of the iNALU's weights (named after their paths)."""
    prefixes = [w.path.replace("/", "_") for w in model.trainable_variables]
    slots = [v for v in model.optimizer.variables if v.name.startswith(tuple(prefixes))]
    assert len(slots) == 2 * len(prefixes)
    return slots


def test_reinitializer_fires_on_a_stagnating_loss_with_fresh_values():
    model = _trained_inalu_model()
    inalu = model.get_layer("inalu")
    before = [w.numpy().copy() for w in inalu.trainable_weights]
    assert any(np.abs(s.numpy()).sum() > 0 for s in _slots(model))
    initial = [
        keras.ops.convert_to_numpy(inalu.unit_weight_initializer(w)(w.shape))
        for w in inalu.trainable_weights
    ]
    callback = C.INALUReinitializer(interval=10, max_stored=100, seed=1)
    callback.set_model(model)
    _feed_losses(callback, 5.0 + 0.01 * np.sin(np.arange(115)))
    assert callback.reinitializations == 1
    assert len(callback.losses) == 5  # cleared at loss 110, then 5 more
    after = [w.numpy() for w in inalu.trainable_weights]
    for old, new, first in zip(before, after, initial):
        assert not np.allclose(old, new)
        assert not np.allclose(first, new)  # a new seed, not the stored one
    assert all(np.abs(s.numpy()).sum() == 0 for s in _slots(model))
    for variable, value in zip(inalu.trainable_weights[:4], after[:4]):
        assert abs(value.mean() - (0.88 if "w_hat" in variable.name else 0.5)) < 0.5


def test_reinitializer_keeps_adams_moments_like_the_reference_when_asked():
    model = _trained_inalu_model()
    moments = [s.numpy().copy() for s in _slots(model)]
    before = [w.numpy().copy() for w in model.get_layer("inalu").trainable_weights]
    callback = C.INALUReinitializer(
        interval=10, max_stored=100, seed=1, reset_optimizer=False
    )
    callback.set_model(model)
    _feed_losses(callback, 5.0 + 0.01 * np.sin(np.arange(115)))
    assert callback.reinitializations == 1
    for old, new in zip(before, model.get_layer("inalu").trainable_weights):
        assert not np.allclose(old, new.numpy())
    for old, slot in zip(moments, _slots(model)):
        np.testing.assert_array_equal(old, slot.numpy())


def test_reinitializer_does_not_fire_on_a_decreasing_or_solved_loss():
    model = _trained_inalu_model()
    inalu = model.get_layer("inalu")
    before = [w.numpy().copy() for w in inalu.trainable_weights]
    decreasing = C.INALUReinitializer(interval=10, max_stored=100)
    decreasing.set_model(model)
    _feed_losses(decreasing, np.linspace(50.0, 2.0, 301))
    solved = C.INALUReinitializer(interval=10, max_stored=100)
    solved.set_model(model)
    _feed_losses(solved, np.full(301, 0.5))
    assert decreasing.reinitializations == 0 and solved.reinitializations == 0
    for old, new in zip(before, inalu.trainable_weights):
        np.testing.assert_array_equal(old, new.numpy())


def test_missing_monitor_is_a_clear_error():
    model = keras.Sequential([keras.Input((2,)), L.INALU(1)])
    model.compile(optimizer="adam", loss="mse", run_eagerly=True)
    for callback in (C.INALUReinitializer(), C.INALURegularizerSwitch()):
        with pytest.raises(ValueError, match="metrics=\\['mse'\\]"):
            model.fit(np.ones((4, 2)), np.ones((4, 1)), callbacks=[callback], verbose=0)


def test_reinitializer_inside_fit_needs_an_inalu():
    model = keras.Sequential([keras.Input((2,)), L.NMU(1)])
    model.compile(optimizer="adam", loss="mse", run_eagerly=True)
    with pytest.raises(ValueError, match="INALU"):
        model.fit(
            np.ones((4, 2)),
            np.ones((4, 1)),
            callbacks=[C.INALUReinitializer()],
            verbose=0,
        )


def test_layer_reinitialize_draws_new_values_reproducibly():
    layer = L.NAU(3)
    layer.build((None, 4))
    first = layer.kernel.numpy().copy()
    layer.reinitialize(seed=5)
    second = layer.kernel.numpy().copy()
    layer.reinitialize(seed=5)
    np.testing.assert_array_equal(layer.kernel.numpy(), second)
    assert not np.allclose(first, second)
    layer.reinitialize()
    assert not np.allclose(layer.kernel.numpy(), second)
