"""RegularizerWarmup: the schedule, and that it acts inside a compiled fit."""

import keras
import numpy as np
import pytest

import keras_nalm
from keras_nalm.callbacks import RegularizerWarmup


def _frozen_weight_model():
    """NAU -> NMU whose weights cannot move (learning rate 0), so the loss
    is lambda * (R_nau + R_nmu), to float32 rounding, on targets equal to
    the (eager) outputs."""
    inputs = keras.Input((3,))
    hidden = keras_nalm.layers.NAU(2, name="nau")(inputs)
    outputs = keras_nalm.layers.NMU(1, name="nmu")(hidden)
    model = keras.Model(inputs, outputs)
    model.compile(
        optimizer=keras.optimizers.SGD(learning_rate=0.0),
        loss="mse",
        jit_compile=True,
    )
    x = np.random.default_rng(0).uniform(1, 2, size=(16, 3)).astype("float32")
    return model, x, keras.ops.convert_to_numpy(model(x))  # no predict program


def _sparsity_total(model):
    total = 0.0
    for name, reg in (("nau", "nau_sparsity"), ("nmu", "nmu_sparsity")):
        kernel = model.get_layer(name).kernel
        total += float(keras_nalm.regularizers.get(reg)(kernel))
    return total


def test_warmup_changes_the_regularization_loss_inside_jit_compiled_fit():
    model, x, y = _frozen_weight_model()
    penalty = _sparsity_total(model)
    assert penalty > 0.01
    warmup = RegularizerWarmup(start=2, end=8, max_strength=3.0)
    history = model.fit(x, y, batch_size=16, epochs=10, callbacks=[warmup], verbose=0)
    # One batch per epoch: epoch k starts at optimizer step t = k.
    lambdas = [3.0 * min(max((t - 2) / 6, 0.0), 1.0) for t in range(10)]
    np.testing.assert_allclose(
        history.history["loss"], np.array(lambdas) * penalty, rtol=1e-4, atol=1e-7
    )
    np.testing.assert_allclose(history.history["regularizer_scale"], lambdas)


def test_warmup_continues_from_the_optimizer_step_on_resume():
    model, x, y = _frozen_weight_model()
    model.optimizer.build(model.trainable_variables)
    model.optimizer.iterations.assign(6)
    warmup = RegularizerWarmup(start=2, end=10, max_strength=1.0)
    history = model.fit(x, y, batch_size=16, epochs=2, callbacks=[warmup], verbose=0)
    np.testing.assert_allclose(history.history["regularizer_scale"], [0.5, 0.625])


def test_warmup_targets_only_the_named_layers():
    model, x, y = _frozen_weight_model()
    warmup = RegularizerWarmup(0, 1, max_strength=7.0, layer_names=["nmu"])
    model.fit(x, y, batch_size=16, epochs=2, callbacks=[warmup], verbose=0)
    assert float(model.get_layer("nmu").regularizer_scale_variable.numpy()) == 7.0
    assert float(model.get_layer("nau").regularizer_scale_variable.numpy()) == 0.0
    # The attribute reads the variable; the config keeps the constructor's.
    nmu = model.get_layer("nmu")
    assert nmu.regularizer_scale == 7.0 and nmu.initial_regularizer_scale == 0.0
    assert nmu.get_config()["regularizer_scale"] == 0.0


def test_unknown_layer_name_is_a_clear_error():
    model, x, y = _frozen_weight_model()
    warmup = RegularizerWarmup(0, 1, layer_names=["nope"])
    with pytest.raises(ValueError, match="nope"):
        model.fit(x, y, epochs=1, callbacks=[warmup], verbose=0)


class _ScaleRecorder(keras.callbacks.Callback):
    """The NAU's lambda after every batch, read through `self.model` (on JAX
    a callback sees the variables' values there only, during `fit`)."""

    def __init__(self):
        super().__init__()
        self.seen = []

    def on_train_batch_end(self, batch, logs=None):
        scale = self.model.get_layer("nau").regularizer_scale_variable
        self.seen.append(float(keras.ops.convert_to_numpy(scale)))


def test_update_frequency_every_n_batches_and_per_epoch():
    model, x, y = _frozen_weight_model()
    record = _ScaleRecorder()
    x4, y4 = np.tile(x, (4, 1)), np.tile(y, (4, 1))
    every_two = RegularizerWarmup(0, 8, max_strength=8.0, update_freq=2)
    model.fit(x4, y4, batch_size=16, epochs=1, callbacks=[every_two, record], verbose=0)
    assert record.seen == [0.0, 0.0, 2.0, 2.0]
    record.seen.clear()
    per_epoch = RegularizerWarmup(0, 8, max_strength=8.0, update_freq="epoch")
    model.fit(x4, y4, batch_size=16, epochs=2, callbacks=[per_epoch, record], verbose=0)
    assert record.seen == [4.0] * 4 + [8.0] * 4


def test_schedules_follow_eq_14_and_the_exponential_mode():
    linear = RegularizerWarmup(100, 300, max_strength=10.0)
    assert [linear.value_at(t) for t in (0, 100, 200, 300, 10**6)] == [
        0,
        0,
        5,
        10,
        10,
    ]
    exp = RegularizerWarmup(0, 1, max_strength=2.0, mode="exp", exp_rate=1e-3)
    np.testing.assert_allclose(exp.value_at(1000), 2.0 * (1 - np.exp(-1.0)))
    # the engine's in-graph value of a step equals the callback's
    for schedule in (linear, exp):
        for step in (0, 99, 150, 300, 4_567):
            graph = schedule.graph_value_at(keras.ops.convert_to_tensor(float(step)))
            np.testing.assert_allclose(graph, schedule.value_at(step), rtol=1e-6)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"start": 5, "end": 5},
        {"start": -1, "end": 5},
        {"start": 0, "end": 5, "mode": "cosine"},
        {"start": 0, "end": 5, "max_strength": -1.0},
        {"start": 0, "end": 5, "update_freq": 0},
        {"start": 0, "end": 5, "update_freq": "step"},
    ],
)
def test_bad_arguments_are_clear_errors(kwargs):
    with pytest.raises(ValueError):
        RegularizerWarmup(**kwargs)
