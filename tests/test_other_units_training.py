"""Train-to-solution for the iNALU, NPU, RealNPU, NSR and NLRL (issue 3),
judged on extrapolation, with the reference protocols' settings."""

import keras
import numpy as np
import pytest

import keras_nalm
from tests.training import division_threshold_model
from tests.training import epsilon_perfect
from tests.training import fit_and_judge

L = keras_nalm.layers
C = keras_nalm.callbacks
EPSILON_MISTRY = 1e-4  # Mistry §6.5's epsilon-perfect models


def _division_threshold_model(x):
    """Mistry §6.5 at its epsilon-perfect models' epsilon."""
    return division_threshold_model(x, EPSILON_MISTRY)


@pytest.mark.large
@pytest.mark.parametrize("cls", [L.NPU, L.RealNPU], ids=lambda c: c.__name__)
def test_power_units_learn_division_for_at_least_8_of_10_seeds(cls):
    solved, learned = [], []
    for seed in range(10):
        keras.utils.set_random_seed(seed)
        mse, threshold, model = fit_and_judge(
            [cls(1)],
            target=lambda x: x[:, :1] / x[:, 1:2],
            perfect=_division_threshold_model,
            input_dim=2,
            steps=5_000,
            learning_rate=5e-3,
            callbacks=[C.BetaGrowth(1e-9, 1e-7)],
            seed=seed,
        )
        solved.append(mse < threshold)
        if solved[-1]:
            learned.append(model.layers[0].effective_weights()["w_real"].ravel())
    assert sum(solved) >= 8, solved
    np.testing.assert_allclose(learned, [[1, -1]] * len(learned), atol=1e-3)


@pytest.mark.large
def test_inalu_learns_addition_with_the_reference_protocol():
    keras.utils.set_random_seed(0)
    exact = np.array([[1.0], [1.0]])
    mse, threshold, model = fit_and_judge(
        [L.INALU(1)],
        target=lambda x: x[:, :1] + x[:, 1:2],
        perfect=lambda x: x @ epsilon_perfect(exact, EPSILON_MISTRY),
        input_dim=2,
        steps=30_000,
        clipvalue=0.1,
        callbacks=[C.INALUReinitializer(), C.INALURegularizerSwitch()],
    )
    assert mse < threshold, (mse, threshold)
    text = keras_nalm.describe(model, print_fn=None).splitlines()
    assert text[1] == "y0 = inalu.g0*(x1 + x2) + (1 - inalu.g0)*(x1 * x2)"
    assert text[2] == "  where inalu.g0 = 1"


def test_nsr_learns_a_comparison_that_holds_100x_outside_the_training_range():
    keras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    x = rng.uniform(1, 2, size=(128 * 1000, 2)).astype("float32")  # 1 000 steps
    greater = (x[:, :1] > x[:, 1:]).astype("float32")
    model = keras.Sequential([keras.Input((2,)), L.NSR(1)])
    model.compile(
        optimizer=keras.optimizers.Adam(1e-2),
        loss="binary_crossentropy",
        steps_per_execution=100,
        jit_compile=True,
    )
    model.fit(x, np.concatenate([greater, 1 - greater], 1), batch_size=128, verbose=0)
    far = rng.uniform(100, 200, size=(100_000, 2)).astype("float32")
    outputs = keras.ops.convert_to_numpy(model(far))
    np.testing.assert_allclose(outputs[:, 0] + outputs[:, 1], 1.0, atol=1e-6)
    correct = (outputs[:, 0] > 0.5) == (far[:, 0] > far[:, 1])
    assert correct.mean() >= 0.9995
    clear = np.abs(far[:, 0] - far[:, 1]) > 1.0
    assert correct[clear].all()


@pytest.mark.parametrize(
    "name, targets, layers",
    [
        # one NLRL learns AND; the two-layer XOR is the quick loop's case
        pytest.param("AND", [0, 0, 0, 1], lambda: [L.NLRL(1)], marks=pytest.mark.large),
        ("XOR", [0, 1, 1, 0], lambda: [L.NLRL(2), L.NLRL(1)]),
    ],
)
def test_nlrl_learns_boolean_rules(name, targets, layers):
    keras.utils.set_random_seed(0)
    table = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], "float32")
    targets = np.array(targets, "float32")[:, None]
    model = keras.Sequential([keras.Input((2,))] + layers())
    model.compile(
        optimizer=keras.optimizers.Adam(1e-2),
        loss="mse",
        steps_per_execution=100,
        jit_compile=True,
    )
    repeats = 32 * 1500  # 1 500 steps of 128 (XOR is within 0.05 after 1 000)
    model.fit(
        np.tile(table, (repeats, 1)),
        np.tile(targets, (repeats, 1)),
        batch_size=128,
        verbose=0,
    )
    outputs = keras.ops.convert_to_numpy(model(table))
    np.testing.assert_allclose(outputs, targets, atol=0.1, err_msg=name)
