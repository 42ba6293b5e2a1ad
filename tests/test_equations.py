"""Exact arithmetic with exact weights (the harness in `test_layers.py`
checks every layer against its NumPy reference)."""

import keras
import numpy as np


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
