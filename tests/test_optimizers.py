"""`TorchAdam`: PyTorch's Adam update, step by step."""

import keras
import numpy as np
import pytest

import keras_nalm


def torch_adam_reference(weights, gradients, lr, epsilon, amsgrad=False):
    """torch.optim.Adam's update (Kingma & Ba algorithm 1), in float64."""
    w = weights.astype(np.float64)
    m, v, v_max = np.zeros_like(w), np.zeros_like(w), np.zeros_like(w)
    for t, g in enumerate(gradients, start=1):
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        v_max = np.maximum(v_max, v)
        second = v_max if amsgrad else v
        w = w - lr / (1 - 0.9**t) * m / (np.sqrt(second / (1 - 0.999**t)) + epsilon)
    return w


def train(optimizer, weights, gradients):
    variable = keras.Variable(weights)
    for gradient in gradients:
        optimizer.apply_gradients([(keras.ops.convert_to_tensor(gradient), variable)])
    return keras.ops.convert_to_numpy(variable)


@pytest.mark.parametrize("amsgrad", [False, True])
def test_updates_equal_pytorchs_adam_where_epsilon_dominates(amsgrad):
    rng = np.random.default_rng(0)
    weights = rng.normal(size=(3, 2)).astype("float32")
    # gradients of the order of epsilon, where its placement decides the step
    gradients = [
        (rng.normal(size=(3, 2)) * 10.0 ** rng.uniform(-9, -7)).astype("float32")
        for _ in range(30)
    ]
    expected = torch_adam_reference(weights, gradients, 0.1, 1e-8, amsgrad)
    ours = train(
        keras_nalm.optimizers.TorchAdam(0.1, amsgrad=amsgrad), weights, gradients
    )
    np.testing.assert_allclose(ours - weights, expected - weights, rtol=1e-4)
    keras_adam = train(
        keras.optimizers.Adam(0.1, epsilon=1e-8, amsgrad=amsgrad), weights, gradients
    )
    assert np.max(np.abs((keras_adam - expected) / (expected - weights))) > 0.1


def test_config_round_trip_and_clear_errors():
    optimizer = keras_nalm.optimizers.TorchAdam(5e-3, epsilon=1e-6, clipvalue=0.1)
    restored = keras.optimizers.deserialize(keras.optimizers.serialize(optimizer))
    assert type(restored) is keras_nalm.optimizers.TorchAdam
    assert restored.get_config() == optimizer.get_config()
    assert restored.epsilon == 1e-6 and restored.clipvalue == 0.1
    with pytest.raises(ValueError, match="epsilon"):
        keras_nalm.optimizers.TorchAdam(epsilon=0.0)
