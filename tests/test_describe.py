"""describe(): the expression read off the weights."""

import keras
import numpy as np
import pytest

import keras_nalm

L = keras_nalm.layers
BIG = 20.0  # tanh(20) = sigmoid(20) = 1 in float32


def _assign(layer, **values):
    for name, value in values.items():
        getattr(layer, name).assign(np.asarray(value, dtype="float32"))


def _nau_nmu(first, second):
    inputs = keras.Input((4,))
    nau = L.NAU(2, name="nau")
    nmu = L.NMU(1, name="nmu")
    model = keras.Model(inputs, nmu(nau(inputs)))
    _assign(nau, kernel=first)
    _assign(nmu, kernel=second)
    return model


def test_madsen_function_is_printed_with_the_sparsity_errors():
    first = np.array([[1, 1], [1, 1], [0, 1], [0, 1]]) + 1e-3 * np.array(
        [[-1, 0], [0, 0], [1, 0], [0, -2]]
    )
    model = _nau_nmu(first, [[1.0], [0.998]])
    text = keras_nalm.describe(model, print_fn=None)
    lines = text.splitlines()
    assert lines[0] == "nau: sparsity error 0.002"
    assert lines[1] == "nmu: sparsity error 0.002"
    assert lines[2] == "y0 = (x1 + x2) * (x1 + x2 + x3 + x4)"


def test_input_names_subtraction_constants_and_powers():
    model = _nau_nmu([[1, 1], [-1, 1], [0, 0], [0, 0]], [[1.0], [0.0]])
    text = keras_nalm.describe(model, input_names=["a", "b", "c", "d"], print_fn=None)
    assert text.splitlines()[-1] == "y0 = a - b"
    model = _nau_nmu([[1, 1], [0, 0], [0, 0], [0, 0]], [[1.0], [1.0]])
    assert keras_nalm.describe(model, print_fn=None).splitlines()[-1] == "y0 = x1**2"
    model = _nau_nmu(np.zeros((4, 2)), [[1.0], [0.0]])
    assert keras_nalm.describe(model, print_fn=None).splitlines()[-1] == "y0 = 0"


def test_nau_after_nmu_collects_like_terms():
    inputs = keras.Input((3,))
    nmu, nau = L.NMU(2, name="nmu"), L.NAU(1, name="nau")
    model = keras.Model(inputs, nau(nmu(inputs)))
    _assign(nmu, kernel=[[1, 0], [1, 0], [0, 1]])
    _assign(nau, kernel=[[1], [-1]])
    assert (
        keras_nalm.describe(model, print_fn=None).splitlines()[-1]
        == "y0 = x1 * x2 - x3"
    )
    _assign(nmu, kernel=[[1, 1], [1, 1], [0, 0]])
    _assign(nau, kernel=[[1], [1]])
    assert (
        keras_nalm.describe(model, print_fn=None).splitlines()[-1] == "y0 = 2*x1 * x2"
    )


def test_division_by_a_nac_mul():
    model = keras.Sequential([keras.Input((3,)), L.NACMul(1, name="mul")])
    _assign(model.layers[0], w_hat=[[BIG], [-BIG], [-BIG]], m_hat=[[BIG], [BIG], [BIG]])
    assert (
        keras_nalm.describe(model, print_fn=None).splitlines()[-1]
        == "y0 = x1 / (x2 * x3)"
    )


def test_gated_units_print_both_branches_and_the_gate():
    model = keras.Sequential(
        [keras.Input((2,)), L.NALU(1, name="nalu", use_gate_bias=True)]
    )
    nalu = model.layers[0]
    _assign(
        nalu,
        w_hat=[[BIG], [BIG]],
        m_hat=[[BIG], [BIG]],
        gate_kernel=[[0.5], [-2.0]],
        gate_bias=[0.25],
    )
    lines = keras_nalm.describe(model, print_fn=None).splitlines()
    assert lines[-2] == "y0 = nalu.g0*(x1 + x2) + (1 - nalu.g0)*(x1 * x2)"
    assert lines[-1] == "  where nalu.g0 = sigmoid(0.5*x1 - 2*x2 + 0.25)"


def test_gated_nau_nmu_and_a_sequential_chain():
    model = keras.Sequential(
        [keras.Input((2,)), L.NAU(2, name="nau"), L.GatedNAUNMU(1, name="gate")]
    )
    _assign(model.layers[0], kernel=[[1, 1], [0, 1]])
    _assign(
        model.layers[1],
        nau_kernel=[[1], [1]],
        nmu_kernel=[[1], [1]],
        gate_kernel=[[0], [0]],
    )
    lines = keras_nalm.describe(model, print_fn=None).splitlines()
    assert lines[-2] == "y0 = gate.g0*(2*x1 + x2) + (1 - gate.g0)*(x1 * (x1 + x2))"


def test_describe_prints(capsys):
    model = _nau_nmu([[1, 1], [1, 1], [0, 1], [0, 1]], [[1.0], [1.0]])
    returned = keras_nalm.describe(model)
    assert capsys.readouterr().out == returned + "\n"


def test_an_unsolved_model_says_its_read_out_is_approximate():
    solved = np.array([[1, 1], [1, 1], [0, 1], [0, 1]], dtype=float)
    perturbed = solved + np.array([[0, 0], [-0.34, 0], [0.2, 0], [0, 0]])
    text = keras_nalm.describe(_nau_nmu(perturbed, [[1.0], [1.0]]), print_fn=None)
    assert text.splitlines() == [
        "nau: sparsity error 0.34 (inexact: 2 of 8 weights are more than 0.01 "
        "from the value printed)",
        "nmu: sparsity error 0",
        "y0 ≈ (x1 + x2) * (x1 + x2 + x3 + x4)",
    ]
    # The same weights within the tolerance read as exact.
    loose = keras_nalm.describe(
        _nau_nmu(perturbed, [[1.0], [1.0]]), print_fn=None, tolerance=0.35
    )
    assert loose.splitlines()[2] == "y0 = (x1 + x2) * (x1 + x2 + x3 + x4)"
    assert "inexact" not in loose


def test_an_inexact_recurrence_is_approximate_too():
    cell = L.ArithmeticCell(L.NAU(1, name="nau"))
    rnn = keras.layers.RNN(cell, name="rnn")
    rnn(np.ones((1, 3, 1), dtype="float32"))
    cell.unit.kernel.assign(np.array([[1.0], [0.66]], dtype="float32"))
    lines = keras_nalm.describe(rnn, print_fn=None).splitlines()
    assert lines[0].startswith("rnn: sparsity error 0.34 (inexact: 1 of 2")
    assert lines[1] == "h1_t ≈ x1_t + h1_{t-1}"


def test_a_single_built_unit_is_read():
    nau = L.NAU(2, name="nau")
    nau.build((None, 2))
    nau.kernel.assign(np.array([[1.0, 1.0], [-1.0, 0.0]], dtype="float32"))
    assert keras_nalm.describe(nau, print_fn=None).splitlines()[1:] == [
        "y0 = x1 - x2",
        "y1 = x1",
    ]


def test_unbuilt_models_and_layers_and_other_objects_are_refused_clearly():
    import pytest

    with pytest.raises(ValueError, match="needs a built model; 'plain' is not"):
        keras_nalm.describe(keras.Sequential([L.NAU(1)], name="plain"))
    with pytest.raises(ValueError, match="needs a built layer; 'nau' is not"):
        keras_nalm.describe(L.NAU(2, name="nau"))
    with pytest.raises(TypeError, match="not a Dense"):
        keras_nalm.describe(keras.layers.Dense(1))
    with pytest.raises(ValueError, match="tolerance must be >= 0"):
        keras_nalm.describe(L.NAU(2), tolerance=-1)


def test_the_units_after_other_layers_read_those_layers_outputs_by_name():
    """docs/units.md's first model (Dense -> NAU -> NMU): the Dense's
    features are the inputs, named after it; the same in a Sequential."""
    inputs = keras.Input((4,))
    front = keras.layers.Dense(3, activation="relu", name="front")
    nau, nmu = L.NAU(2, name="nau"), L.NMU(1, name="nmu")
    model = keras.Model(inputs, nmu(nau(front(inputs))))
    _assign(nau, kernel=[[1, 0], [1, 1], [0, 1]])
    _assign(nmu, kernel=[[1], [1]])
    expected = "y0 = (front_1 + front_2) * (front_2 + front_3)"
    assert keras_nalm.describe(model, print_fn=None).splitlines()[-1] == expected
    flatten = keras.layers.Flatten(name="flat")
    sequential = keras.Sequential([keras.Input((2, 2)), flatten, front, nau, nmu])
    text = keras_nalm.describe(sequential, print_fn=None)
    assert text.splitlines()[-1] == expected
    named = keras_nalm.describe(model, ["a", "b", "c"], print_fn=None)
    assert named.splitlines()[-1] == "y0 = (a + b) * (b + c)"


def test_a_unit_before_another_layer_and_a_subclassed_model_are_refused():
    inputs = keras.Input((2,))
    model = keras.Model(inputs, keras.layers.Dense(1)(L.NAU(2, name="nau")(inputs)))
    with pytest.raises(ValueError, match="its last layer 'dense.*' is a Dense"):
        keras_nalm.describe(model)

    class Subclassed(keras.Model):
        def __init__(self):
            super().__init__(name="mine")
            self.unit = L.NAU(1)

        def call(self, x):
            return self.unit(x)

    subclassed = Subclassed()
    subclassed(np.ones((1, 2), "float32"))
    with pytest.raises(TypeError, match="'mine' is a subclassed model"):
        keras_nalm.describe(subclassed)
    assert keras_nalm.describe(subclassed.unit, print_fn=None)
