"""Finite gradients where x + epsilon is exactly 0 (the harness checks x = 0
and |x| = 1e3 for every layer), and what a unit says under a plain
half-precision policy."""

import warnings

import keras
import numpy as np
import pytest

import keras_nalm


def test_complex_nalu_gradient_is_finite_where_x_plus_epsilon_is_zero():
    tf = pytest.importorskip("tensorflow", reason="tf.GradientTape")
    layer = keras_nalm.layers.NALU(1, multiplication="complex", epsilon=0.5)
    x = tf.constant(np.array([[-0.5, 2.0]], dtype="float32"))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(layer(x, training=True))
    for gradient in tape.gradient(y, [x] + layer.trainable_weights):
        assert np.all(np.isfinite(gradient.numpy()))


def _output_dtype(unit):
    x = np.full((2, 2), 3.0, dtype="float32")
    return keras.backend.standardize_dtype(unit(x).dtype)


@pytest.mark.parametrize("policy", ["float16", "bfloat16"])
def test_a_unit_under_a_plain_half_precision_policy_says_it_computes_in_it(policy):
    """Under `float16`/`bfloat16` a unit's variables, and so its products,
    are half precision (unlike under `mixed_*`): it warns, naming the
    policies that keep it in float32."""
    keras.config.set_dtype_policy(policy)
    with pytest.warns(UserWarning, match=f"computes in {policy}.*'mixed_float16'"):
        unit = keras_nalm.layers.NMU(1)
    assert _output_dtype(unit) == policy
    with pytest.warns(UserWarning, match=f"computes in {policy}"):
        keras_nalm.layers.ArithmeticCell(keras_nalm.layers.NAU(1, dtype="float32"))
    for quiet in ("mixed_float16", "mixed_bfloat16", "float32"):
        keras.config.set_dtype_policy(quiet)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            unit = keras_nalm.layers.NMU(1)
        assert _output_dtype(unit) == "float32"
