"""Units as recurrent cells: `ArithmeticCell` in `keras.layers.RNN`,
`ArithmeticRNN` and its input regularizer over whole sequences."""

import keras
import numpy as np
import pytest

import keras_nalm
from keras_nalm.testing import weights

L = keras_nalm.layers
C = keras_nalm.callbacks


def _sequences(rng, batch, steps, low=1.0, high=2.0):
    return rng.uniform(low, high, size=(batch, steps, 2)).astype("float32")


def _recurrent_model(unit, name="rnn", **rnn_arguments):
    inputs = keras.Input((None, 2))
    layer = keras.layers.RNN(L.ArithmeticCell(unit), name=name, **rnn_arguments)
    return keras.Model(inputs, layer(inputs))


def _fit(model, x, y, steps, learning_rate=1e-2, callbacks=()):
    model.compile(
        optimizer=keras.optimizers.Adam(learning_rate), loss="mse", jit_compile=True
    )
    model.fit(
        x,
        y,
        batch_size=64,
        epochs=steps * 64 // len(x),
        verbose=0,
        callbacks=list(callbacks),
    )


@pytest.mark.large
def test_an_nau_cell_learns_to_sum_a_sequence_and_extrapolates(tmp_path):
    rng = np.random.default_rng(0)
    model = _recurrent_model(L.NAU(1))
    x = _sequences(rng, 4096, 10)
    warmup = C.RegularizerWarmup(1_000, 2_000, max_strength=0.01)
    _fit(model, x, x[..., :1].sum(axis=1), 3_000, callbacks=[warmup])
    scale = model.get_layer("rnn").cell.unit.regularizer_scale_variable
    assert float(scale) == np.float32(0.01)
    longer = _sequences(rng, 256, 1_000)  # 100x the training length
    predictions = model.predict(longer, verbose=0)
    np.testing.assert_allclose(predictions, longer[..., :1].sum(axis=1), rtol=1e-3)
    assert model.get_layer("rnn").cell.sparsity_error() < 1e-2
    lines = keras_nalm.describe(model, print_fn=None).splitlines()
    assert lines[1:] == ["h1_t = x1_t + h1_{t-1}", "y0 = h1_T"]
    path = tmp_path / "sum.keras"
    model.save(path)
    loaded = keras.saving.load_model(path)
    np.testing.assert_array_equal(loaded.predict(longer, verbose=0), predictions)
    tf = pytest.importorskip("tensorflow", reason="a TensorFlow SavedModel")
    model.export(str(tmp_path / "served"), verbose=False)
    served = tf.saved_model.load(str(tmp_path / "served"))
    np.testing.assert_array_equal(
        served.serve(tf.constant(longer)).numpy(), predictions
    )


@pytest.mark.large
def test_an_nmu_cell_learns_a_running_product_from_the_identity():
    rng = np.random.default_rng(1)
    model = _recurrent_model(L.NMU(1))
    cell = model.get_layer("rnn").cell
    assert cell.initial_value == 1.0  # the product's identity
    x = _sequences(rng, 4096, 4, 0.5, 1.5)
    _fit(model, x, x[..., :1].prod(axis=1), 3_000)
    longer = _sequences(rng, 256, 20, 0.8, 1.2)
    np.testing.assert_allclose(
        model.predict(longer, verbose=0), longer[..., :1].prod(axis=1), rtol=1e-3
    )
    lines = keras_nalm.describe(model, print_fn=None).splitlines()
    assert lines[1] == "h1_t = x1_t * h1_{t-1}"


def _rollout(kernel, x, initial):
    """h_t = NMU([x_t, h_{t-1}]) in NumPy: the unit inputs of every step."""
    w = np.clip(kernel, 0, 1)
    h, inputs = np.full((x.shape[0], w.shape[1]), initial), []
    for t in range(x.shape[1]):
        z = np.concatenate([x[:, t], h], axis=-1)
        inputs.append(z)
        h = np.prod(z[:, :, None] * w + 1 - w, axis=1)
    return inputs, h


def test_input_regularizer_is_taken_over_every_step_of_the_sequence():
    rng = np.random.default_rng(2)
    strength = 3.0
    unit = L.NMU(2, input_regularization=strength, sparsity_regularizer=None)
    rnn = L.ArithmeticRNN(unit, return_state=True)
    x = rng.uniform(0, 2, size=(8, 6, 3)).astype("float32")
    mask = np.ones((8, 6), bool)
    mask[::2, -2:] = False
    output, state = rnn(x, mask=mask, training=True)
    (penalty,) = rnn.losses
    kernel = weights(unit)["kernel"]
    inputs, _ = _rollout(kernel, x.astype(np.float64)[1::2], 1.0)
    short, _ = _rollout(kernel, x.astype(np.float64)[::2, :4], 1.0)
    seen = np.concatenate(inputs + short)  # every unmasked step of every row
    x_bar = seen.mean(axis=0)[:, None]
    expected = strength * np.mean((1 - np.clip(kernel, 0, 1)) * (1 - x_bar) ** 2)
    np.testing.assert_allclose(float(penalty), expected, rtol=1e-5)
    np.testing.assert_array_equal(
        keras.ops.convert_to_numpy(output), keras.ops.convert_to_numpy(state)
    )
    assert rnn.compute_output_shape((8, 6, 3))[1] == (8, 2)  # h only
    rnn(x, training=False)
    assert rnn.losses == []


def test_a_cell_with_an_input_regularizer_needs_arithmetic_rnn():
    cell = L.ArithmeticCell(L.NAU(1, input_regularization=1.0))
    x = np.ones((2, 3, 2), "float32")
    keras.layers.RNN(cell)(x)  # inference needs no penalty
    with pytest.raises(ValueError, match="ArithmeticRNN"):
        keras.layers.RNN(cell)(x, training=True)
    assert cell.rnn_class is L.ArithmeticRNN
    with pytest.raises(TypeError, match="not a recurrent cell"):
        L.ArithmeticCell(keras.layers.LSTMCell(2))
    with pytest.raises(ValueError, match="state"):
        L.ArithmeticCell(L.NSR(1))
    with pytest.raises(TypeError, match="ArithmeticCell, a unit or a layer"):
        L.ArithmeticRNN(keras.layers.LSTMCell(2))


def test_stateful_arithmetic_rnn_resets_to_the_identity():
    rnn = L.ArithmeticRNN(L.NMU(1), stateful=True)
    model = keras.Sequential([keras.Input(batch_shape=(2, None, 1)), rnn])
    rnn.cell.unit.kernel.assign(np.ones((2, 1), "float32"))
    x = np.full((2, 3, 1), 2.0, "float32")
    np.testing.assert_allclose(model(x), 8.0)
    np.testing.assert_allclose(model(x), 64.0)  # the state carries over
    rnn.reset_state()
    np.testing.assert_allclose(model(x), 8.0)


def test_callbacks_find_units_inside_rnn_cells():
    inputs = keras.Input((None, 2))
    hidden = keras.layers.RNN(L.ArithmeticCell(L.INALU(1, name="inalu")))(inputs)
    model = keras.Model(inputs, L.NMU(1, name="nmu")(hidden))
    model.compile(optimizer="adam", loss="mse", metrics=["mse"])
    reinitializer = C.INALUReinitializer()
    reinitializer.set_model(model)
    assert [layer.name for layer in reinitializer.target_layers()] == ["inalu"]
    switch = C.INALURegularizerSwitch()
    switch.set_model(model)
    assert [v.path for v in switch.target_variables()] == [
        "rnn/arithmetic_cell/inalu/inalu_regularization"
    ]


def test_a_learned_initial_state_starts_the_sequence_and_trains():
    """`learn_initial_state=True`: h_0 is the weight `initial_state`
    (starting at the unit's identity); the first step reads it, and a
    training step moves it (the reference code of Trask's recurrent task
    learns its initial state)."""
    nau = keras_nalm.layers.NAU(2, kernel_initializer="ones")
    cell = keras_nalm.layers.ArithmeticCell(nau, learn_initial_state=True)
    model = keras.Sequential([keras.Input((1, 3)), keras.layers.RNN(cell)])
    (state,) = [w for w in cell.trainable_weights if w.name == "initial_state"]
    np.testing.assert_array_equal(state.numpy(), [0.0, 0.0])
    state.assign([0.5, -2.0])
    x = np.array([[[1.0, 2.0, 3.0]]], "float32")
    # W = 1: every output is the sum of [x, h_0] = 6 + 0.5 - 2
    np.testing.assert_allclose(model(x), [[4.5, 4.5]])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    model.train_on_batch(x, np.zeros((1, 2), "float32"))
    assert not np.allclose(state.numpy(), [0.5, -2.0])
    loaded = keras.layers.RNN.from_config(keras.layers.RNN(cell).get_config())
    assert loaded.cell.learn_initial_state


@keras.saving.register_keras_serializable(package="tests")
class _PlainLinear(keras.layers.Layer):
    """y = x W: a layer of one's own, no keras_nalm unit, with a state size
    (`units`) and no sparsity error of its own."""

    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, shape):
        self.w = self.add_weight(shape=(shape[-1], self.units), name="w")

    def call(self, x):
        return keras.ops.matmul(x, self.w)

    def get_config(self):
        return {**super().get_config(), "units": self.units}


def test_a_layer_of_ones_own_runs_as_a_cell_and_round_trips(tmp_path):
    """`ArithmeticCell` around a plain Keras layer: h_t = [x_t, h_{t-1}] W
    from `initial_value`, equal to a NumPy loop; no sparsity error where
    the layer defines none; saved and loaded with its weights."""
    rng = np.random.default_rng(3)
    layer = _PlainLinear(2)
    cell = L.ArithmeticCell(layer, initial_value=0.5)
    model = keras.Sequential([keras.Input((4, 3)), keras.layers.RNN(cell)])
    kernel = rng.uniform(-0.5, 0.5, size=(5, 2)).astype("float32")
    layer.w.assign(kernel)
    x = rng.uniform(-1, 1, size=(6, 4, 3)).astype("float32")
    h = np.full((6, 2), 0.5, "float32")
    for t in range(4):
        h = np.concatenate([x[:, t], h], axis=-1) @ kernel
    np.testing.assert_allclose(model.predict(x, verbose=0), h, rtol=1e-5, atol=1e-6)
    assert cell.sparsity_error() is None
    assert keras_nalm.utils.model_sparsity_error(model, strict=True) is None
    path = tmp_path / "plain.keras"
    model.save(path)
    loaded = keras.saving.load_model(path)
    np.testing.assert_array_equal(loaded.predict(x, verbose=0), model.predict(x))
    assert loaded.layers[-1].cell.initial_value == 0.5
    with pytest.raises(TypeError, match="no int attribute `units`"):
        L.ArithmeticCell(keras.layers.Activation("relu"))


def test_a_layers_own_effective_weights_give_its_sparsity_error():
    """Eq. 17 over what a layer's `effective_weights()` returns, not over
    its raw variables."""

    class Sigmoid(_PlainLinear):
        def effective_weights(self):
            return {"w": keras.ops.sigmoid(self.w)}

    layer = Sigmoid(1)
    model = keras.Sequential([keras.Input((2,)), layer])
    layer.w.assign([[0.0], [40.0]])  # sigmoid: 0.5 and 1.0
    assert keras_nalm.utils.model_sparsity_error(model) == pytest.approx(0.5)
    assert keras_nalm.utils.model_sparsity_error(model, strict=True) == 0.5
