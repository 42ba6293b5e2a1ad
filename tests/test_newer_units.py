"""The units published after the survey, where the harness does not reach:
the stochastic NMU's training calls, MulMCFC without a sign, the MC-FC's
conservation of mass and regularizer, and training to solution."""

import keras
import numpy as np
import pytest

import keras_nalm
from tests import reference as ref
from tests.training import division_threshold_model
from tests.training import epsilon_perfect
from tests.training import fit_and_judge

L = keras_nalm.layers


def _built(layer, x, kernel=None):
    layer(x)
    if kernel is not None:
        layer.kernel.assign(np.asarray(kernel, dtype="float32"))
    return layer


def _numpy(tensor):
    return keras.ops.convert_to_numpy(tensor).astype(np.float64)


X = np.random.default_rng(0).uniform(-2, 2, size=(64, 3)).astype("float32")
KERNEL = [[0.3, 0.9], [0.6, 0.1], [0.2, 0.5]]


def test_a_training_call_of_the_snmu_divides_its_noise_out():
    # Constant noise c: NMU(c x) / NMU(c), against NumPy.
    layer = _built(L.StochasticNMU(2, noise_range=(3.0, 3.0)), X, KERNEL)
    noise = np.full(X.shape, 3.0)
    np.testing.assert_allclose(
        _numpy(layer(X, training=True)),
        ref.stochastic_nmu_in_training(X.astype(np.float64), np.array(KERNEL), noise),
        rtol=1e-5,
        atol=1e-6,
    )
    np.testing.assert_allclose(
        _numpy(layer(X)),
        ref.nmu(X.astype(np.float64), np.array(KERNEL)),
        rtol=1e-5,
        atol=1e-6,
    )


def test_the_snmu_noise_is_drawn_per_element_and_call_and_undone_by_a_solution():
    layer = _built(L.StochasticNMU(2, seed=3), X, KERNEL)
    first, second = (_numpy(layer(X, training=True)) for _ in range(2))
    assert not np.allclose(first, second)  # fresh noise every call
    twin = _built(L.StochasticNMU(2, seed=3), X, KERNEL)
    np.testing.assert_array_equal(first, _numpy(twin(X, training=True)))
    noise = _numpy(layer.noise(keras.ops.convert_to_tensor(X)))
    assert noise.min() >= 1.0 and noise.max() <= 5.0 and len(np.unique(noise)) > 100
    # A discrete W in {0, 1}: the noise cancels, training equals evaluation.
    solution = [[1.0, 0.0], [1.0, 1.0], [0.0, 0.0]]
    layer.kernel.assign(np.array(solution, dtype="float32"))
    np.testing.assert_allclose(
        _numpy(layer(X, training=True)), _numpy(layer(X)), rtol=1e-5, atol=1e-6
    )


def test_the_batch_noise_of_the_snmu_reaches_one_over_the_sample_deviation():
    x = np.random.default_rng(1).normal(0, 0.25, size=(4096, 3)).astype("float32")
    layer = _built(L.StochasticNMU(2, noise_range="batch", seed=0), x)
    noise = _numpy(layer.noise(keras.ops.convert_to_tensor(x)))
    high = 1.0 + 1.0 / np.std(x.astype(np.float64), ddof=1)
    assert noise.min() >= 1.0 and noise.max() <= high * (1 + 1e-6)
    assert noise.max() > 1.0 + 0.99 * (high - 1.0)


@pytest.mark.parametrize("bad", [(0.0, 1.0), (3.0, 2.0), "mean", 5.0])
def test_a_bad_noise_range_is_refused(bad):
    with pytest.raises(ValueError, match="noise_range"):
        L.StochasticNMU(1, noise_range=bad)


def _mcfc_weights(layer):
    return [_numpy(layer.junction), _numpy(layer.gate_kernel), _numpy(layer.gate_bias)]


def test_the_mcfc_conserves_the_inputs_total_when_its_gate_is_open():
    layer = L.MCFC(4, junction_initializer=keras.initializers.RandomNormal(seed=2))
    layer(X)
    layer.gate_bias.assign(np.full((4,), 30.0, dtype="float32"))  # o = 1
    y = _numpy(layer(X))
    np.testing.assert_allclose(y.sum(axis=1), X.sum(axis=1), rtol=1e-5, atol=1e-5)
    expected = ref.mcfc(X, *_mcfc_weights(layer))
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-6)


def test_the_mcfc_regularizer_is_the_negative_mean_square_scaled():
    layer = L.MCFC(2, regularizer_scale=10.0)
    layer(X)
    expected = -10.0 * sum(np.mean(w**2) for w in _mcfc_weights(layer))
    np.testing.assert_allclose(
        sum(_numpy(loss) for loss in layer.losses), expected, rtol=1e-5
    )


def test_mulmcfc_without_a_sign_is_the_mcfc_in_log_space():
    layer = L.MulMCFC(2, bias_initializer=keras.initializers.Constant(0.3))
    positive = np.abs(X) + 0.1
    y = _numpy(layer(positive))
    weights = [*_mcfc_weights(layer), _numpy(layer.bias)]
    expected = ref.mul_mcfc(positive, *weights, "none", None, 0.0)
    np.testing.assert_allclose(y, expected, rtol=1e-5)
    assert np.all(np.isnan(_numpy(layer(-positive))))  # no epsilon: log of x < 0


@pytest.mark.large
def test_the_snmu_learns_multiplication_for_4_of_5_seeds():
    solution = np.array([[1.0], [1.0]])
    solved = []
    for seed in range(5):
        mse, threshold, _ = fit_and_judge(
            [L.StochasticNMU(1, seed=seed)],
            target=lambda x: x[:, :1] * x[:, 1:2],
            perfect=lambda x: ref.nmu(x, epsilon_perfect(solution)),
            input_dim=2,
            steps=5_000,
            warmup=(1_000, 3_000, 10.0),
            seed=seed,
        )
        solved.append(mse < threshold)
    assert sum(solved) >= 4, solved


@pytest.mark.large
def test_the_mcfc_learns_addition():
    mse, threshold, model = fit_and_judge(
        [L.MCFC(1)],
        target=lambda x: x[:, :1] + x[:, 1:2],
        perfect=lambda x: x @ epsilon_perfect(np.array([[1.0], [1.0]])),
        input_dim=2,
        steps=5_000,
        learning_rate=1e-2,
        warmup=(1_000, 3_000, 10.0),
    )
    assert mse < threshold, (mse, threshold)
    assert model.layers[0].effective_weights()["output_gate"] == pytest.approx(1.0)


def test_a_training_call_of_the_reciprocal_unit_uses_the_sharp_selection():
    layer = L.NeuralReciprocalUnit(2)
    layer(X)
    kernel = np.array([[1.0, -0.4], [-1.0, 0.0], [0.002, 0.7]], dtype="float32")
    layer.kernel.assign(kernel)
    x = X.astype(np.float64)
    for training in (True, False):
        np.testing.assert_allclose(
            _numpy(layer(X, training=training)),
            ref.reciprocal_unit(x, kernel.astype(np.float64), training),
            rtol=1e-5,
            atol=1e-6,
        )


def test_a_training_call_of_the_nmru_adds_float32s_epsilon_to_its_reciprocals():
    layer = L.NMRU(2)
    layer(X)
    kernel = np.random.default_rng(3).uniform(0, 1, (6, 2)).astype("float32")
    layer.kernel.assign(kernel)
    x = X.astype(np.float64)
    eps = float(np.finfo(np.float32).eps)
    for training, epsilon in ((True, eps), (False, 0.0)):
        np.testing.assert_allclose(
            _numpy(layer(X, training=training)),
            ref.nmru(x, kernel.astype(np.float64), epsilon),
            rtol=1e-5,
            atol=1e-6,
        )


def test_a_closed_gate_of_the_gated_nmru_zeroes_its_input():
    layer = L.NMRU(1, gated=True, sign_retrieval=False)
    model = keras.Sequential([keras.Input((2,)), layer])
    layer.kernel.assign(np.array([[1.0], [0.0], [0.0], [1.0]], dtype="float32"))
    x = np.array([[3.0, 4.0]], dtype="float32")
    layer.gate.assign(np.ones(4, dtype="float32"))
    assert _numpy(layer(x))[0, 0] == pytest.approx(0.75)
    assert "y0 = x1 / x2" in keras_nalm.describe(model, print_fn=None)
    layer.gate.assign(np.array([1.0, 1.0, 1.0, 0.0], dtype="float32"))
    assert _numpy(layer(x))[0, 0] == 0.0  # 1 / x2 gated to 0, and selected
    assert "y0 = 0" in keras_nalm.describe(model, print_fn=None)


def test_describe_reads_division_off_the_division_units():
    for layer, kernel in (
        (L.NeuralReciprocalUnit(1), [[1.0], [-1.0]]),
        (L.NMRU(1), [[1.0], [0.0], [0.0], [1.0]]),
    ):
        model = keras.Sequential([keras.Input((2,)), layer])
        layer.kernel.assign(np.array(kernel, dtype="float32"))
        text = keras_nalm.describe(model, print_fn=None)
        assert "y0 = x1 / x2" in text, text


def _division_threshold_model(x):
    """The Single Module task's epsilon-perfect division (epsilon 1e-5)."""
    return division_threshold_model(x, 1e-5)


@pytest.mark.large
@pytest.mark.parametrize(
    "make",
    [
        L.NeuralReciprocalUnit,
        L.NMRU,
        lambda units: L.NMRU(units, gated=True),
        lambda units: _modified_real_npu(units),
    ],
    ids=["NeuralReciprocalUnit", "NMRU", "gated NMRU", "modified RealNPU"],
)
def test_the_division_units_learn_division_in_3_of_3_seeds(make):
    solved = []
    for seed in range(3):
        mse, threshold, _ = fit_and_judge(
            [make(1)],
            target=lambda x: x[:, :1] / x[:, 1:2],
            perfect=_division_threshold_model,
            input_dim=2,
            steps=5_000,
            learning_rate=1e-2,
            warmup=(2_000, 3_500, 10.0),
            seed=seed,
        )
        solved.append(mse < threshold)
    assert all(solved), solved


def _modified_real_npu(units=1, **kwargs):
    """Mistry, Farrahi & Hare 2021's modified Real NPU, by RealNPU's options."""
    return L.RealNPU(
        units,
        kernel_constraint="nau_clamp",
        gate_constraint="nmu_clamp",
        l1_regularizer=keras_nalm.regularizers.UnitMagnitude(),
        gate_regularizer=keras_nalm.regularizers.Sparsity(target="binary"),
        scale_variable="regularizer_scale",
        **kwargs,
    )


def test_the_modified_real_npu_penalises_weights_off_unit_magnitude_and_gates():
    layer = _modified_real_npu(2, regularizer_scale=0.5)
    layer(X)
    w = np.array([[0.2, -1.0], [0.7, 0.0], [-0.5, 1.0]], dtype="float32")
    g = np.array([0.1, 0.5, 0.9], dtype="float32")
    layer.w_real.assign(w)
    layer.gate.assign(g)
    expected = 0.5 * (np.mean(np.abs(1 - np.abs(w))) + np.mean(np.minimum(g, 1 - g)))
    total = sum(_numpy(loss) for loss in layer.losses)
    np.testing.assert_allclose(total, expected, rtol=1e-6)
    assert layer.regularizer_scale_variable.path.endswith("regularizer_scale")
    assert _numpy(layer.w_real.constraint(np.array([[3.0, -3.0]]))).tolist() == [
        [1.0, -1.0]
    ]
    assert _numpy(layer.gate.constraint(np.array([-2.0, 2.0]))).tolist() == [0.0, 1.0]


def _dmu_weights(layer):
    return {w.name: _numpy(w) for w in layer.weights}


@pytest.mark.parametrize("pattern", [None, (1.0, -1.0)])
def test_a_training_call_of_the_dmu_is_its_soft_form(pattern):
    """Training calls: O and G unhardened and the training limits, against
    NumPy; other calls: the hardened plan (the harness checks those)."""
    layer = L.DMU(2, operand_pattern=pattern)
    layer(X)
    rng = np.random.default_rng(4)
    for weight in layer.trainable_weights:
        weight.assign(rng.uniform(-1, 1, weight.shape).astype("float32"))
    expected = ref.dmu(
        X.astype(np.float64),
        _dmu_weights(layer),
        2,
        pattern,
        limits=layer.magnitude_limits,
        hardened=False,
    )
    np.testing.assert_allclose(_numpy(layer(X, training=True)), expected, rtol=2e-4)
    operands, gate = layer.plan(X, hardened=True)
    assert set(np.unique(_numpy(operands))) <= {-1.0, 0.0, 1.0}
    assert np.all(_numpy(gate).sum(axis=-1) == 1.0)
    assert layer.sparsity_error() is None


def test_the_oracle_dmu_learns_division_by_its_gate():
    """DMU_sub's fixed operands (1, -1) on division: the gate learns the
    logarithmic domain, and the hardened unit divides on the extrapolation
    range to float32's precision."""
    mse, threshold, model = fit_and_judge(
        [L.DMU(1, operand_pattern=(1.0, -1.0))],
        target=lambda x: x[:, :1] / x[:, 1:2],
        perfect=lambda x: division_threshold_model(x, 1e-5),
        input_dim=2,
        steps=300,
        learning_rate=1e-2,
    )
    assert mse < threshold, (mse, threshold)
    _, gate = model.layers[0].plan(np.array([[3.0, 5.0]], "float32"), hardened=True)
    np.testing.assert_array_equal(_numpy(gate)[0, 0], [0.0, 1.0])
