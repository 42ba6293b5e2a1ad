"""Every weight of a unit is its own draw: the weights that one
initializer draws (the NAC's `w_hat` and `m_hat`, the NSR's two operand
selectors, ...) are independent, as the reference code draws each weight
afresh, and reproducible under `keras.utils.set_random_seed` or the
initializer's own int seed."""

import keras
import numpy as np
import pytest

import keras_nalm
from tests.cases import ALL_CASES

L = keras_nalm.layers
#: A unit wide enough that independent weights differ in every sample.
UNITS, INPUT_DIM = 16, 32


def _built(case):
    layer = case.create(UNITS)
    layer.build((None, INPUT_DIM))
    return layer


def _equal_pairs(layer):
    weights = [(w.path, np.asarray(w)) for w in layer.trainable_weights]
    return [
        (first, second)
        for i, (first, a) in enumerate(weights)
        for second, b in weights[i + 1 :]
        if a.shape == b.shape and a.size > 1 and a.std() > 0 and np.array_equal(a, b)
    ]


@pytest.mark.parametrize("case", ALL_CASES, ids=lambda case: case.name)
def test_no_two_weights_of_a_unit_are_one_draw(case):
    keras.utils.set_random_seed(0)
    assert _equal_pairs(_built(case)) == []


def test_the_nacs_two_matrices_are_uncorrelated_as_in_the_reference():
    """W = tanh(w_hat) sigmoid(m_hat) with w_hat and m_hat independent has
    mean 0 (Madsen eq. 29's premise); one draw for both gives correlation
    1 and a positive mean."""
    keras.utils.set_random_seed(0)
    layer = L.NAC(64)
    layer.build((None, 64))
    w_hat, m_hat = (np.asarray(w).ravel() for w in (layer.w_hat, layer.m_hat))
    assert abs(np.corrcoef(w_hat, m_hat)[0, 1]) < 0.1  # standard error 1/64
    kernel = np.tanh(w_hat) / (1 + np.exp(-m_hat))
    assert abs(kernel.mean()) < 4 * kernel.std() / np.sqrt(kernel.size)


def _nac_weights(**kwargs):
    layer = L.NAC(UNITS, **kwargs)
    layer.build((None, INPUT_DIM))
    return [np.asarray(w) for w in (layer.w_hat, layer.m_hat)]


def test_the_draws_are_reproducible_from_the_global_seed_or_the_initializers():
    keras.utils.set_random_seed(3)
    first = _nac_weights()
    keras.utils.set_random_seed(3)
    np.testing.assert_array_equal(first, _nac_weights())
    seeded = [
        _nac_weights(kernel_initializer=keras_nalm.initializers.NACUniform(seed=5))
        for _ in range(2)
    ]
    np.testing.assert_array_equal(seeded[0], seeded[1])
    assert not np.array_equal(*seeded[0])
