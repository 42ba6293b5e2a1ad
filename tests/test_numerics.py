"""Finite gradients where x + epsilon is exactly 0 (the harness checks x = 0
and |x| = 1e3 for every layer)."""

import numpy as np
import tensorflow as tf

import keras_nalm


def test_complex_nalu_gradient_is_finite_where_x_plus_epsilon_is_zero():
    layer = keras_nalm.layers.NALU(1, multiplication="complex", epsilon=0.5)
    x = tf.constant(np.array([[-0.5, 2.0]], dtype="float32"))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(layer(x, training=True))
    for gradient in tape.gradient(y, [x] + layer.trainable_weights):
        assert np.all(np.isfinite(gradient.numpy()))
