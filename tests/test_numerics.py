"""Finite gradients at x = 0 and for large |x|; mixed precision."""

import keras
import numpy as np
import pytest
import tensorflow as tf

from tests.cases import CASE_IDS
from tests.cases import LAYER_CASES


def _gradients(layer, x):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x, training=True)
        loss = tf.reduce_sum(y) + tf.add_n([tf.constant(0.0)] + layer.losses)
    return y, tape.gradient(loss, [x] + layer.trainable_weights)


@pytest.mark.parametrize("case", LAYER_CASES, ids=CASE_IDS)
@pytest.mark.parametrize("magnitude", [0.0, 1e3], ids=["zero", "large"])
def test_gradients_are_finite(case, magnitude):
    _, cls, kwargs, _ = case
    layer = cls(2, **kwargs)
    x = np.full((4, 3), magnitude, dtype="float32")
    x[1] *= -1
    x[2, 0] = 0.0
    y, gradients = _gradients(layer, x)
    assert np.all(np.isfinite(y.numpy()))
    for gradient in gradients:
        assert gradient is not None
        assert np.all(np.isfinite(gradient.numpy()))


def test_complex_nalu_gradient_is_finite_where_x_plus_epsilon_is_zero():
    import keras_nalm

    layer = keras_nalm.layers.NALU(1, multiplication="complex", epsilon=0.5)
    _, gradients = _gradients(layer, np.array([[-0.5, 2.0]], dtype="float32"))
    for gradient in gradients:
        assert np.all(np.isfinite(gradient.numpy()))


@pytest.mark.parametrize("case", LAYER_CASES, ids=CASE_IDS)
def test_mixed_float16_keeps_float32_numerics_without_overflow(case):
    _, cls, kwargs, _ = case
    keras.config.set_dtype_policy("mixed_float16")
    inputs = keras.Input((4,))
    hidden = keras.layers.Dense(4)(inputs)  # float16 activations feed the unit
    layer = cls(2, **kwargs)
    outputs = layer(hidden)
    model = keras.Model(inputs, outputs)
    model.layers[1].set_weights([np.eye(4, dtype="float32"), np.zeros(4, "float32")])
    rng = np.random.default_rng(0)
    x = rng.uniform(-1e3, 1e3, size=(32, 4)).astype("float32")
    x[:4] = 0.0
    y = model(x, training=False)
    assert keras.backend.standardize_dtype(y.dtype) == "float32"
    assert np.all(np.isfinite(keras.ops.convert_to_numpy(y)))
    assert all(v.dtype == "float32" for v in layer.weights)
    model.compile(optimizer="adam", loss="mse", jit_compile=True)
    history = model.fit(
        x, np.zeros((32, layer.output_dim)), epochs=1, batch_size=8, verbose=0
    )
    assert np.isfinite(history.history["loss"][0])
