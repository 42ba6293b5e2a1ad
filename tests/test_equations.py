"""Exact arithmetic with exact weights (the harness in `test_layers.py`
checks every layer against its NumPy reference)."""

import keras
import numpy as np
import pytest


def test_exact_nau_weights_give_exact_sums_far_outside_training_range():
    import keras_nalm

    layer = keras_nalm.layers.NAU(2)
    layer.build((None, 3))
    layer.kernel.assign(np.array([[1, 1], [1, -1], [0, 0]], dtype="float32"))
    x = np.array([[100.0, 250.0, 7.0], [-3.0, 0.0, 1e4]], dtype="float32")
    y = keras.ops.convert_to_numpy(layer(x))
    np.testing.assert_array_equal(y, [[350.0, -150.0], [-3.0, -3.0]])


def test_exact_nmu_weights_give_exact_products_including_negatives_and_zero():
    import keras_nalm

    layer = keras_nalm.layers.NMU(1)
    layer.build((None, 3))
    layer.kernel.assign(np.array([[1], [1], [0]], dtype="float32"))
    x = np.array([[-40.0, 30.0, 5.0], [0.0, 7.0, 1.0]], dtype="float32")
    y = keras.ops.convert_to_numpy(layer(x))
    np.testing.assert_array_equal(y, [[-1200.0], [0.0]])


def test_complex_nalu_multiplies_negative_numbers_with_their_sign():
    import keras_nalm

    layer = keras_nalm.layers.NALU(1, multiplication="complex", epsilon=1e-7)
    layer.build((None, 2))
    big = 20.0  # tanh(20) * sigmoid(20) == 1 in float32
    layer.w_hat.assign(np.full((2, 1), big, dtype="float32"))
    layer.m_hat.assign(np.full((2, 1), big, dtype="float32"))
    layer.gate_kernel.assign(np.zeros((2, 1), dtype="float32"))
    x = np.array([[-3.0, 4.0], [-3.0, -4.0]], dtype="float32")
    y = keras.ops.convert_to_numpy(layer(x))
    # gate = 0.5: y = 0.5 * (x0 + x1) + 0.5 * x0 * x1
    np.testing.assert_allclose(y, [[0.5 * 1 - 6.0], [0.5 * -7 + 6.0]], rtol=1e-5)


def test_the_nru_layer_norm_uses_the_authors_epsilon_by_default():
    """Eq. 9's layer normalisation with `nn.LayerNorm`'s epsilon, 1e-5 (the
    authors' code), not Keras's 1e-3: on pre-activations of variance ~1e-4
    the two differ by far more than float32 rounding."""
    import keras_nalm
    from keras_nalm.testing import weights
    from tests import reference as ref

    cell = keras_nalm.layers.NRUCell(6, memory_size=4, num_heads=1, layer_norm=True)
    rng = np.random.default_rng(0)
    x = rng.uniform(-0.01, 0.01, size=(5, 3)).astype("float32")
    h = rng.uniform(0, 0.01, size=(5, 6)).astype("float32")
    m = rng.uniform(-0.01, 0.01, size=(5, 4)).astype("float32")
    output = keras.ops.convert_to_numpy(cell(x, [h, m])[0])

    def step(epsilon):
        arguments = (1, "hidden_memory", "mean", False, True, 5.0)
        return ref.nru_step(
            weights(cell), x, h, m, *arguments, layer_norm_epsilon=epsilon
        )[0]

    np.testing.assert_allclose(output, step(1e-5), rtol=1e-4, atol=1e-6)
    assert not np.allclose(output, step(1e-3), rtol=1e-2)


def test_the_nrus_biases_can_start_as_the_authors_linear_layers():
    """`LinearBias`: each bias U[+-1/sqrt(fan_in)] of its own map (the
    hidden map reads [x, h, m]: 3 + 16 + 9 = 28 inputs; the heads read
    [h, m]: 25), spread over its range; redrawn by `reinitialize_model`
    within the same bounds; the config keeps the unbound initializer."""
    import keras_nalm
    from keras_nalm import utils
    from keras_nalm.initializers import LinearBias

    cell = keras_nalm.layers.NRUCell(
        16, memory_size=9, num_heads=1, bias_initializer=LinearBias(seed=1)
    )
    model = keras.Sequential([keras.Input((None, 3)), keras.layers.RNN(cell)])
    limits = {"hidden_bias": 1 / np.sqrt(28), "heads_bias": 1 / np.sqrt(25)}

    def biases():
        return {
            w.name: keras.ops.convert_to_numpy(w)
            for w in cell.weights
            if w.name in limits
        }

    first = biases()
    utils.reinitialize_model(model, seed=3)
    for values in (first, biases()):
        for name, limit in limits.items():
            assert np.abs(values[name]).max() <= limit
            assert np.abs(values[name]).max() > 0.6 * limit  # not zeros
    assert not np.array_equal(first["hidden_bias"], biases()["hidden_bias"])
    config = keras.layers.RNN(cell).get_config()["cell"]["config"]
    assert config["bias_initializer"]["config"] == {"fan_in": None, "seed": 1}
    with pytest.raises(ValueError, match="needs the fan-in"):
        LinearBias()((4,))
