"""The recurrent baselines of `keras_nalm.layers` beyond the harness
(test_layers.py): chrono initialisation (Tallec & Ollivier 2018; Chandar et
al. 2019, eq. 7-8), the FFT-like orthogonal transition of the EURNN and
the GORU (its norm over 1 000 steps, its rotation layers against a dense
NumPy product), and `OrthogonalRNN` against `keras.layers.RNN`."""

import math

import keras
import numpy as np
import pytest

import keras_nalm
from tests.reference import fft_orthogonal_matrix


def test_chrono_bias_follows_eq_7_and_8_in_keras_lstm():
    lstm = keras.layers.LSTM(
        500,
        unit_forget_bias=False,
        bias_initializer=keras_nalm.initializers.ChronoBias(100, seed=0),
    )
    lstm.build((None, 7, 3))
    i, f, c, o = np.split(lstm.cell.bias.numpy(), 4)
    np.testing.assert_array_equal(i, -f)
    assert not c.any() and not o.any()
    # b_f = log(u), u ~ U[1, 99]: exp(b_f) is uniform on [1, 99]
    u = np.exp(f)
    assert u.min() >= 1 and u.max() <= 99 + 1e-3
    assert abs(u.mean() - 50) < 4 and abs(u.std() - 98 / math.sqrt(12)) < 3


@pytest.mark.parametrize(
    "arguments, message",
    [
        ((2,), "max_dependency"),
        ((50, "ico"), "forget gate"),
        ((50, "iffo"), "once"),
    ],
)
def test_chrono_bias_rejects_bad_arguments(arguments, message):
    with pytest.raises(ValueError, match=message):
        keras_nalm.initializers.ChronoBias(*arguments)


def test_chrono_bias_needs_a_bias_that_splits_into_its_gates():
    with pytest.raises(ValueError, match="does not split"):
        keras_nalm.initializers.ChronoBias(20, "fc")((7,))


@pytest.mark.parametrize("factored", [False, True], ids=["layers", "factors"])
@pytest.mark.parametrize(
    "cell_class", [keras_nalm.layers.EURNNCell, keras_nalm.layers.GORUCell]
)
@pytest.mark.parametrize("units", [949, 64])
def test_the_fft_like_transition_keeps_the_norm_over_1000_steps(
    cell_class, units, factored
):
    """In float32, 1 000 applications of the transition (the copy task's
    949 units: 10 layers, some units unpaired), layer by layer or by its
    two stages of blocks, change the state's norm by less than 1e-4 of it,
    while turning it far from where it started."""
    tf = pytest.importorskip("tensorflow", reason="tf.function")
    keras.utils.set_random_seed(units)
    cell = cell_class(units)
    cell.build((None, 3))
    factors = cell.transition_factors() if factored else None
    start = np.random.default_rng(0).normal(size=(4, units)).astype("float32")
    apply = tf.function(
        lambda h: tf.while_loop(
            lambda i, h: i < 1000,
            lambda i, h: (i + 1, cell.transition(h, factors)),
            (0, h),
        )[1],
        jit_compile=True,
    )
    end = apply(tf.constant(start)).numpy()
    norms = np.linalg.norm(start, axis=1), np.linalg.norm(end, axis=1)
    assert end.dtype == np.float32
    np.testing.assert_allclose(norms[1], norms[0], rtol=1e-4)
    assert np.all(np.linalg.norm(end - start, axis=1) > 0.5 * norms[0])


@pytest.mark.parametrize("units", [1, 2, 5, 8, 949])
def test_the_transitions_factors_are_its_rotation_layers(units):
    """Both ways of applying the transition give the product of its Givens
    rotations (an independent dense NumPy matrix) on every unit vector."""
    keras.utils.set_random_seed(units)
    cell = keras_nalm.layers.EURNNCell(units)
    cell.build((None, 3))
    expected = fft_orthogonal_matrix(cell.theta.numpy().astype("float64"), units)
    basis = np.eye(units, dtype="float32")
    for factors in (None, cell.transition_factors()):
        images = keras.ops.convert_to_numpy(cell.transition(basis, factors))
        np.testing.assert_allclose(images, expected.T, atol=2e-6)


@pytest.mark.parametrize(
    "cell_class,units",
    [(keras_nalm.layers.EURNNCell, 37), (keras_nalm.layers.GORUCell, 20)],
)
def test_an_orthogonal_rnn_is_the_rnn_of_its_cell(cell_class, units, tmp_path):
    """`OrthogonalRNN` (the transition's factors once per sequence) gives
    `keras.layers.RNN`'s outputs and gradients, compiled, and survives a
    `.keras` round trip; it refuses a cell without the FFT-like transition."""
    tf = pytest.importorskip("tensorflow", reason="tf.function")
    keras.utils.set_random_seed(0)
    inputs = keras.Input((9, 4))
    layer = keras_nalm.layers.OrthogonalRNN(cell_class(units), return_sequences=True)
    model = keras.Model(inputs, layer(inputs))
    plain = keras.Model(
        inputs, keras.layers.RNN(layer.cell, return_sequences=True)(inputs)
    )
    x = tf.constant(np.random.default_rng(1).normal(size=(3, 9, 4)), tf.float32)

    @tf.function(jit_compile=True)
    def outputs_and_gradients(model):
        with tf.GradientTape() as tape:
            outputs = model(x)
            loss = tf.reduce_sum(tf.sin(outputs))
        return outputs, tape.gradient(loss, model.trainable_variables)

    (fast, fast_gradients), (slow, slow_gradients) = map(
        outputs_and_gradients, (model, plain)
    )
    np.testing.assert_allclose(fast, slow, atol=1e-6)
    for fast_gradient, slow_gradient in zip(fast_gradients, slow_gradients):
        np.testing.assert_allclose(fast_gradient, slow_gradient, atol=1e-5)
    model.save(tmp_path / "model.keras")
    loaded = keras.saving.load_model(tmp_path / "model.keras")
    assert type(loaded.layers[1]) is keras_nalm.layers.OrthogonalRNN
    np.testing.assert_allclose(loaded(x), fast, atol=1e-6)
    given = []  # the factors each step of the cell receives
    transition = layer.cell.transition
    layer.cell.transition = lambda h, factors=None: (
        given.append(factors) or (transition(h, factors))
    )
    model(x)
    assert given and all(factors is not None for factors in given)
    assert layer.cell.sequence_factors is None  # cleared after the call
    with pytest.raises(ValueError, match="runs an EURNNCell or a GORUCell"):
        keras_nalm.layers.OrthogonalRNN(keras_nalm.layers.JANETCell(4))
