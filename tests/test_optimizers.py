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


def _norm64(gradients):
    return np.sqrt(sum(np.sum(np.asarray(g, np.float64) ** 2) for g in gradients))


def test_global_clipping_survives_gradients_whose_squares_overflow_float32():
    from keras.src.optimizers.base_optimizer import clip_by_global_norm as keras_clip

    rng = np.random.default_rng(0)
    ordinary = [rng.normal(size=(5, 3)).astype("float32"), rng.normal(size=4)]
    ordinary[1] = ordinary[1].astype("float32")
    for ours, theirs in zip(
        keras_nalm.optimizers.clip_by_global_norm(ordinary, 1.0),
        keras_clip(ordinary, 1.0),
    ):
        np.testing.assert_array_equal(ours, theirs)  # bit for bit
    huge = [g * np.float32(1e20) for g in ordinary]  # an untrained NRU's scale
    assert not np.isfinite(keras.ops.convert_to_numpy(keras_clip(huge, 1.0)[0])).all()
    clipped = [
        keras.ops.convert_to_numpy(g)
        for g in keras_nalm.optimizers.clip_by_global_norm([*huge, None], 1.0)[:2]
    ]
    assert _norm64(clipped) == pytest.approx(1.0, rel=1e-5)
    scaled = [g / _norm64(ordinary) for g in ordinary]
    for got, want in zip(clipped, scaled):
        np.testing.assert_allclose(got, want, rtol=1e-5)
    small = keras_nalm.optimizers.clip_by_global_norm([g * 1e-3 for g in ordinary], 1.0)
    np.testing.assert_allclose(small[0], ordinary[0] * 1e-3, rtol=1e-6)  # untouched
    (nan,) = keras_nalm.optimizers.clip_by_global_norm([np.array([np.inf, 1.0])], 1.0)
    assert np.isnan(keras.ops.convert_to_numpy(nan)).all()  # as Keras's


def test_torch_adam_clips_huge_gradients_like_their_scaled_copies():
    weights = np.linspace(-1, 1, 6).astype("float32")
    gradient = np.linspace(0.5, 2, 6).astype("float32")
    steps = [gradient * np.float32(1e20), gradient * np.float32(3e19)]
    clipped = train(
        keras_nalm.optimizers.TorchAdam(global_clipnorm=1.0), weights, steps
    )
    unit = gradient / np.linalg.norm(gradient)
    expected = torch_adam_reference(weights, [unit, unit], 1e-3, 1e-8)
    np.testing.assert_allclose(clipped, expected, rtol=1e-5)
