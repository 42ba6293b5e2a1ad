"""Gradients where gates and weight transforms saturate (the harness's
`check_saturation` runs on every unit in `test_layers.py`)."""

import keras
import numpy as np
import pytest

import keras_nalm
from keras_nalm import ops as nalm_ops
from keras_nalm import testing
from tests.cases import LAYER_CASES

tf = pytest.importorskip("tensorflow", reason="tf.GradientTape")


def _derivative(function, x):
    x = tf.constant(x, tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = function(x)
    return y.numpy(), tape.gradient(y, x).numpy()


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "jit"])
def test_sigmoid_and_tanh_keep_their_gradients_accurate_at_saturation(compiled):
    x = np.array([-30.0, -17.0, -14.0, -1.0, 0.0, 0.5, 14.0, 17.0, 30.0])
    wrap = (lambda f: tf.function(f, jit_compile=True)) if compiled else (lambda f: f)
    exact_sigmoid = np.exp(-np.abs(x)) / (1 + np.exp(-np.abs(x))) ** 2
    exact_tanh = 1 / np.cosh(x) ** 2
    for ours, keras_op, exact in (
        (nalm_ops.sigmoid, keras.ops.sigmoid, exact_sigmoid),
        (nalm_ops.tanh, keras.ops.tanh, exact_tanh),
    ):
        value, gradient = _derivative(wrap(ours), x)
        np.testing.assert_allclose(gradient, exact, rtol=4e-6)  # 32 float32 ulps
        keras_value, keras_gradient = _derivative(wrap(keras_op), x)
        np.testing.assert_array_equal(value, keras_value)  # the same values
        assert np.max(np.abs(keras_gradient / exact - 1)) > 0.05  # y(1 - y), 1 - y^2


class RoundedGateGNALU(keras_nalm.layers.GoldenRatioNALU):
    """The G-NALU as it was: g = sigmoid(log(phi) z) differentiated through
    its rounded output, and 1 - g."""

    def mix(self, x, addition, multiplication):
        g = keras.ops.sigmoid(self.gate_logits(x))
        return g * addition + (1.0 - g) * multiplication


def test_saturation_check_catches_the_rounded_gate_of_the_old_gnalu():
    (case,) = [c for c in LAYER_CASES if c.name == "GoldenRatioNALU"]
    testing.check_saturation(case)
    old = testing.LayerCase("old GoldenRatioNALU", RoundedGateGNALU, case.reference)
    with pytest.raises(AssertionError, match="gradient of gate_kernel"):
        testing.check_saturation(old)


def test_gate_gradient_at_g_of_0_999999_matches_float64():
    """The reviewer's example: a G-NALU gate at g = 0.999999."""
    layers = []
    for dtype in ("float32", "float64"):
        layer = keras_nalm.layers.GoldenRatioNALU(1, dtype=dtype)
        layer.build((None, 2))
        for variable, value in zip(
            layer.trainable_weights,
            ([[2.0], [0.5]], [[1.5], [-1.0]], [[14.0], [14.71]]),
        ):
            variable.assign(np.array(value, dtype))
        layers.append(layer)
    x = np.array([[1.0, 1.0]])
    gradients = []
    for layer in layers:
        xt = tf.constant(x, layer.variable_dtype)
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(layer(xt))
        gradients.append(tape.gradient(y, layer.gate_kernel).numpy())
    g = 1 / (1 + ((1 + 5**0.5) / 2) ** -(14.0 + 14.71))
    assert 0.999998 < g < 0.9999995
    np.testing.assert_allclose(gradients[0], gradients[1], rtol=1e-5)
