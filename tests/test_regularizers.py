"""Regularizers, constraints and initializers against their formulas."""

import keras
import numpy as np
import pytest

import keras_nalm
from keras_nalm import constraints
from keras_nalm import initializers
from keras_nalm import regularizers

W = np.array([[-1.3, -0.8, -0.2, 0.0], [0.3, 0.5, 0.9, 1.4]], dtype="float32")


@pytest.mark.parametrize(
    "target, shape, expected",
    [
        ("ternary", "linear", lambda w: np.minimum(np.abs(w), np.abs(1 - np.abs(w)))),
        ("ternary", "squared", lambda w: w**2 * (1 - np.abs(w)) ** 2),
        ("binary", "linear", lambda w: np.minimum(np.abs(w), np.abs(1 - w))),
        ("binary", "squared", lambda w: w**2 * (1 - w) ** 2),
    ],
)
def test_sparsity_matches_madsen_eq_6_and_11(target, shape, expected):
    reg = regularizers.Sparsity(2.5, target=target, shape=shape)
    value = float(keras.ops.convert_to_numpy(reg(W)))
    np.testing.assert_allclose(value, 2.5 * expected(W.astype(float)).mean(), rtol=1e-6)


def test_sparsity_is_zero_exactly_at_discrete_weights():
    discrete = np.array([[-1.0, 0.0, 1.0]], dtype="float32")
    assert float(regularizers.get("nau_sparsity")(discrete)) == 0.0
    assert float(regularizers.get("nmu_sparsity")(discrete[:, 1:])) == 0.0
    assert float(regularizers.get("nmu_sparsity")(discrete)) > 0.0


def test_out_of_bounds_matches_the_reference_formulas():
    nau = float(regularizers.get("nau_out_of_bounds")(W))
    nmu = float(regularizers.get("nmu_out_of_bounds")(W))
    w = W.astype(float)
    np.testing.assert_allclose(nau, np.maximum(np.abs(w) - 1, 0).mean(), rtol=1e-6)
    np.testing.assert_allclose(
        nmu, np.maximum(np.abs(w - 0.5) - 0.5, 0).mean(), rtol=1e-6
    )


RZ = {"input_regularization": 3.0}


def test_input_penalty_matches_madsen_section_4_2_and_eq_75():
    rng = np.random.default_rng(0)
    kernel = rng.uniform(-1, 1, size=(3, 2)).astype("float32")
    x = rng.normal(size=(5, 7, 3)).astype("float32")
    x_bar = x.reshape(-1, 3).mean(axis=0)[:, None].astype(float)
    k = kernel.astype(float)
    mean = keras.ops.mean(x, axis=(0, 1))
    nmu = regularizers.input_penalty(kernel, mean, "binary")
    nau = regularizers.input_penalty(kernel, mean, "ternary")
    np.testing.assert_allclose(
        float(nmu), ((1 - k) * (1 - x_bar) ** 2).mean(), rtol=1e-5
    )
    np.testing.assert_allclose(
        float(nau), ((1 - np.abs(k)) * x_bar**2).mean(), rtol=1e-5
    )


@pytest.mark.parametrize(
    "make_layer, target",
    [
        (lambda: keras_nalm.layers.NMU(2, sparsity_regularizer=None, **RZ), "binary"),
        (lambda: keras_nalm.layers.NAU(2, sparsity_regularizer=None, **RZ), "ternary"),
        (lambda: keras_nalm.layers.NAC(2, **RZ), "ternary"),
        (
            lambda: keras_nalm.layers.NACMul(
                2, weight="linear", sparsity_regularizer=None, **RZ
            ),
            "binary",
        ),
    ],
    ids=["NMU", "NAU", "NAC", "NACMul-linear"],
)
def test_input_regularization_is_a_training_loss_of_the_layer(make_layer, target):
    layer = make_layer()
    x = np.random.default_rng(0).uniform(0, 2, size=(8, 3)).astype("float32")
    layer(x, training=False)
    assert [float(loss) for loss in layer.losses] in ([], [0.0])
    layer(x, training=True)
    loss = layer.losses[-1]
    w = keras.ops.convert_to_numpy(layer.weight_matrix()).astype(float)
    x_bar = x.mean(axis=0)[:, None].astype(float)
    expected = {
        "binary": (1 - w) * (1 - x_bar) ** 2,  # Madsen §4.2
        "ternary": (1 - np.abs(w)) * x_bar**2,  # Madsen eq. 75
    }[target].mean()
    np.testing.assert_allclose(float(loss), 3.0 * expected, rtol=1e-5)


def test_regularizer_scale_multiplies_the_sparsity_regularizer_only():
    layer = keras_nalm.layers.NAU(2, regularizer_scale=0.5, kernel_regularizer="l2")
    layer.build((None, 3))
    layer.kernel.assign(np.array([[0.2, 0.9], [0.5, -0.4], [0.0, 1.0]], "float32"))
    sparsity = float(regularizers.get("nau_sparsity")(layer.kernel))
    l2 = float(keras.regularizers.L2()(layer.kernel))
    np.testing.assert_allclose(float(layer.losses[0]), 0.5 * sparsity + l2, rtol=1e-6)
    layer.regularizer_scale_variable.assign(4.0)
    np.testing.assert_allclose(float(layer.losses[0]), 4 * sparsity + l2, rtol=1e-6)


def test_sparsity_regularizer_starts_switched_off():
    layer = keras_nalm.layers.NMU(2)
    layer.build((None, 3))
    assert float(layer.regularizer_scale_variable.numpy()) == 0.0
    assert float(layer.losses[0]) == 0.0


def test_get_resolves_package_names_then_keras_names():
    assert regularizers.get("nmu_sparsity").target == "binary"
    assert isinstance(regularizers.get("l2"), keras.regularizers.L2)
    assert regularizers.get(None) is None
    assert constraints.get("nau_clamp").get_config() == {
        "min_value": -1.0,
        "max_value": 1.0,
    }
    assert isinstance(constraints.get("non_neg"), keras.constraints.NonNeg)
    assert isinstance(initializers.get("nac_uniform"), initializers.NACUniform)
    assert isinstance(initializers.get("zeros"), keras.initializers.Zeros)
    with pytest.raises(ValueError):
        regularizers.get("no_such_regularizer")


def test_clamp_clips_into_its_range():
    clipped = constraints.Clamp(0.0, 1.0)(np.array([-0.5, 0.25, 3.0], "float32"))
    np.testing.assert_array_equal(keras.ops.convert_to_numpy(clipped), [0.0, 0.25, 1.0])


def test_nau_initializer_range():
    values = initializers.NAUUniform(seed=1)((100, 2))
    r = min(0.5, np.sqrt(3) * np.sqrt(2 / 102))
    assert np.abs(values).max() <= r
    assert np.abs(values).max() > 0.95 * r
    capped = initializers.NAUUniform(seed=1)((20, 4))  # sqrt(6 / 24) = 0.5
    assert 0.45 < np.abs(capped).max() <= 0.5


def test_nac_initializer_gives_glorot_variance_of_w():
    shape = (400, 600)
    w_hat = keras.ops.convert_to_numpy(initializers.NACUniform(seed=1)(shape))
    m_hat = keras.ops.convert_to_numpy(initializers.NACUniform(seed=2)(shape))
    w = np.tanh(w_hat) / (1 + np.exp(-m_hat))
    np.testing.assert_allclose(w.var(), 2 / 1000, rtol=0.02)


def test_nac_radius_solves_eq_29():
    from keras_nalm.initializers import nac_radius
    from keras_nalm.initializers import nac_weight_variance

    for fans in [(2, 1), (4, 2), (100, 2)]:
        r = nac_radius(*fans)
        np.testing.assert_allclose(
            nac_weight_variance(r), 2 / max(sum(fans), 5), rtol=1e-9
        )


def test_nmu_initializer_is_uniform_on_a_quarter_to_three_quarters():
    values = keras.ops.convert_to_numpy(initializers.get("nmu_uniform")((200, 50)))
    assert values.min() >= 0.25 and values.max() <= 0.75
    np.testing.assert_allclose(values.mean(), 0.5, atol=0.01)
