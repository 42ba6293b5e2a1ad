"""`keras_nalm.utils`: the layer walker, re-initialisation, optimizer state."""

import keras
import numpy as np
import pytest

import keras_nalm
from keras_nalm import utils

L = keras_nalm.layers


def _nested_model():
    inputs = keras.Input((5, 3))
    recurrent = keras.layers.RNN(L.ArithmeticCell(L.NAU(2, name="nau")), name="rnn")
    inner = keras.Sequential([keras.layers.Dense(4, name="dense")], name="inner")
    lstm = keras.layers.Bidirectional(keras.layers.LSTM(2, name="lstm"), name="bi")
    hidden = keras.layers.Concatenate()([recurrent(inputs), lstm(inputs)])
    outputs = L.NMU(1, name="nmu")(inner(hidden))
    return keras.Model(inputs, outputs)


def test_the_walker_sees_cells_units_nested_models_and_wrappers():
    layers = utils.walk_layers(_nested_model())
    names = [layer.name for layer in layers]
    for name in ("rnn", "arithmetic_cell", "nau", "inner", "dense", "bi", "nmu"):
        assert name in names
    assert names.index("arithmetic_cell") == names.index("rnn") + 1
    assert names.index("nau") == names.index("arithmetic_cell") + 1
    assert "forward_lstm" in names and "lstm_cell" in names
    assert names.count("lstm_cell") == 2  # forward and backward, each once
    assert len(layers) == len({id(layer) for layer in layers})


def test_reinitialize_model_redraws_every_weight_reproducibly():
    model = _nested_model()
    before = [w.copy() for w in model.get_weights()]
    utils.reinitialize_model(model, seed=3)
    first = [w.copy() for w in model.get_weights()]
    utils.reinitialize_model(model, seed=3)
    for a, b in zip(first, model.get_weights()):
        np.testing.assert_array_equal(a, b)
    for variable, old, new in zip(model.weights, before, first):
        if not variable.trainable:
            continue
        if variable.name == "bias":  # deterministic: zeros, the LSTM's forget 1s
            np.testing.assert_array_equal(old, new, err_msg=variable.path)
        else:
            assert not np.array_equal(old, new), variable.path
    lstm_bias = model.get_layer("bi").forward_layer.cell.bias.numpy()
    np.testing.assert_array_equal(lstm_bias, [0, 0, 1, 1, 0, 0, 0, 0])
    utils.reinitialize_model(model, seed=4)
    assert not np.array_equal(first[0], model.get_weights()[0])


def test_reinitialize_draws_chrono_biases_and_the_nru_cells_maps_afresh():
    inputs = keras.Input((5, 3))
    chrono = keras.layers.LSTM(
        6,
        unit_forget_bias=False,
        bias_initializer=keras_nalm.initializers.ChronoBias(40, seed=1),
    )
    nru = keras.layers.RNN(L.NRUCell(4, memory_size=4, num_heads=1))
    model = keras.Model(inputs, [chrono(inputs), nru(inputs)])
    before = [w.copy() for w in model.get_weights()]
    utils.reinitialize_model(model, seed=3)
    bias = chrono.cell.bias.numpy()
    assert not np.array_equal(bias, before[2])
    forget = bias[6:12]
    np.testing.assert_array_equal(bias[:6], -forget)  # b_i = -b_f (eq. 8)
    assert 0 <= forget.min() and forget.max() <= np.log(39)
    assert not bias[12:].any()
    kernels = [w for w in nru.cell.weights if w.name.endswith("_kernel")]
    assert len(kernels) == 2  # hidden_kernel, heads_kernel
    old = dict(zip((w.path for w in model.weights), before))
    for kernel in kernels:
        assert not np.array_equal(kernel.numpy(), old[kernel.path]), kernel.path


def test_a_layer_without_initializers_cannot_be_reinitialized():
    class Scale(keras.layers.Layer):
        def build(self, shape):
            self.factor = self.add_weight(shape=(), name="factor")

        def call(self, x):
            return x * self.factor

    inputs = keras.Input((2,))
    model = keras.Model(inputs, Scale(name="scale")(inputs))
    with pytest.raises(TypeError, match="factor_initializer"):
        utils.reinitialize_model(model, seed=0)


def _trained(model):
    model.compile(optimizer="adam", loss="mse", run_eagerly=True)  # no tracing
    model.fit(np.ones((8, 5, 3)), np.ones((8, 1)), epochs=2, verbose=0)
    return model


def test_reset_optimizer_state_zeroes_all_or_some_of_it():
    model = _trained(_nested_model())
    learning_rate = float(model.optimizer.learning_rate)
    nau = model.get_layer("rnn").cell.unit
    slots = utils.optimizer_variables_of(model, [nau.kernel])
    assert [v.name.rsplit("_", 1)[-1] for v in slots] == ["momentum", "velocity"]
    assert all(np.abs(v.numpy()).sum() > 0 for v in slots)
    utils.reset_optimizer_state(model, [nau.kernel])
    assert all(np.abs(v.numpy()).sum() == 0 for v in slots)
    assert int(model.optimizer.iterations) == 2
    others = [v for v in model.optimizer.variables if "momentum" in v.name]
    assert any(np.abs(v.numpy()).sum() > 0 for v in others)
    utils.reset_optimizer_state(model)
    assert int(model.optimizer.iterations) == 0
    assert all(np.abs(v.numpy()).sum() == 0 for v in others)
    assert float(model.optimizer.learning_rate) == learning_rate


def test_model_sparsity_error_is_the_worst_layer():
    inputs = keras.Input((2,))
    nau = L.NAU(2, name="nau")
    model = keras.Model(inputs, keras.layers.Dense(1)(nau(inputs)))
    nau.kernel.assign([[1.0, 0.1], [0.0, -1.0]])
    model.layers[-1].kernel.assign([[1.0], [0.02]])
    assert utils.model_sparsity_error(model) == pytest.approx(0.1)
    with pytest.raises(ValueError, match="no unit"):
        utils.model_sparsity_error(keras.Sequential([keras.Input((2,))]))


class _OwnMatrix(keras.layers.Layer):
    """A layer of one's own: y = x W, no keras_nalm base class."""

    def build(self, shape):
        self.w = self.add_weight(shape=(shape[-1], 1), initializer="zeros")

    def call(self, x):
        return keras.ops.matmul(x, self.w)


class _OwnMeasured(_OwnMatrix):
    def sparsity_error(self):
        return 0.25


def test_model_sparsity_error_of_a_layer_of_ones_own():
    # Without a sparsity_error() method: eq. 17 over its rank-2 weights.
    model = keras.Sequential([keras.Input((2,)), _OwnMatrix()])
    model.layers[0].w.assign([[0.9], [0.3]])
    assert utils.model_sparsity_error(model) == pytest.approx(0.3)
    # Its own method wins over its weights.
    measured = keras.Sequential([keras.Input((2,)), _OwnMeasured()])
    measured.layers[0].w.assign([[0.5], [0.5]])
    assert utils.model_sparsity_error(measured) == pytest.approx(0.25)
