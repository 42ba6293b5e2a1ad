"""Each layer's output against an independent NumPy evaluation of its equation."""

import keras
import numpy as np
import pytest

from tests.cases import CASE_IDS
from tests.cases import LAYER_CASES
from tests.cases import awkward_inputs
from tests.cases import perturb_weights


@pytest.mark.parametrize("case", LAYER_CASES, ids=CASE_IDS)
def test_output_matches_numpy_reference(case):
    _, cls, kwargs, reference = case
    rng = np.random.default_rng(1)
    layer = cls(3, **kwargs)
    x = awkward_inputs(rng)
    layer.build(x.shape)
    perturb_weights(layer, rng, scale=1.5)
    y = keras.ops.convert_to_numpy(layer(x))
    expected = reference(layer, x.astype(np.float64))
    assert y.shape == (64, layer.output_dim)
    assert np.all(np.isfinite(y))
    np.testing.assert_allclose(y, expected, rtol=2e-4, atol=1e-4)


@pytest.mark.parametrize("case", LAYER_CASES, ids=CASE_IDS)
def test_higher_rank_inputs_map_the_last_axis(case):
    _, cls, kwargs, reference = case
    rng = np.random.default_rng(2)
    layer = cls(2, **kwargs)
    x = rng.uniform(-3, 3, size=(5, 7, 4)).astype("float32")
    y = keras.ops.convert_to_numpy(layer(x))
    assert y.shape == (5, 7, layer.output_dim)
    flat = reference(layer, x.reshape(-1, 4).astype(np.float64))
    np.testing.assert_allclose(
        y.reshape(-1, layer.output_dim), flat, rtol=2e-4, atol=1e-4
    )


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
