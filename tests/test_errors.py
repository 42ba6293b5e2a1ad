"""Bad arguments and inputs get clear errors."""

import keras
import numpy as np
import pytest

import keras_nalm
from tests.cases import LAYER_CASES
from tests.cases import first_of_each_class

L = keras_nalm.layers
C = keras_nalm.callbacks


#: The checks below are the base class's (`UnitBase`) and each class's own
#: `build`: one case of each class covers them (a variant's arguments
#: change what a unit computes, which `tests/test_layers.py` checks).
CLASS_CASES = first_of_each_class(LAYER_CASES)
CLASS_IDS = [case.name for case in CLASS_CASES]

BAD_UNITS = [
    (0, ValueError),
    (-3, ValueError),
    (1.5, TypeError),
    ("2", TypeError),
    (True, TypeError),
]


@pytest.mark.parametrize("case", CLASS_CASES, ids=CLASS_IDS)
def test_units_must_be_a_positive_int(case):
    cls, kwargs = case.layer_class, case.init_kwargs
    for units, error in BAD_UNITS:
        with pytest.raises(error, match="units"):
            cls(units, **kwargs)


@pytest.mark.parametrize("case", CLASS_CASES, ids=CLASS_IDS)
def test_reading_the_weights_of_an_unbuilt_unit_says_it_is_not_built(case):
    layer = case.layer_class(2, **case.init_kwargs)
    if not isinstance(layer, L.UnitBase):
        pytest.skip("not a unit: no effective weights")
    with pytest.raises(ValueError, match="has no weights yet: call it on inputs"):
        layer.effective_weights()
    with pytest.raises(ValueError, match="has no weights yet"):
        layer.sparsity_error()


@pytest.mark.parametrize("case", CLASS_CASES, ids=CLASS_IDS)
def test_rank_one_inputs_are_rejected(case):
    cls, kwargs = case.layer_class, case.init_kwargs
    with pytest.raises(ValueError, match="rank"):
        cls(2, **kwargs)(np.ones((4,), "float32"))


@pytest.mark.parametrize("case", CLASS_CASES, ids=CLASS_IDS)
def test_integer_inputs_are_rejected(case):
    cls, kwargs = case.layer_class, case.init_kwargs
    with pytest.raises(TypeError, match="floating point"):
        cls(2, **kwargs)(np.ones((3, 4), "int32"))


@pytest.mark.parametrize("case", CLASS_CASES, ids=CLASS_IDS)
def test_unknown_feature_axis_is_rejected(case):
    cls, kwargs = case.layer_class, case.init_kwargs
    with pytest.raises(ValueError, match="last"):
        cls(2, **kwargs).build((None, None))


@pytest.mark.parametrize("case", CLASS_CASES, ids=CLASS_IDS)
def test_wrong_feature_count_after_build_is_rejected(case):
    cls, kwargs = case.layer_class, case.init_kwargs
    layer = cls(2, **kwargs)
    layer(np.ones((3, 4), "float32"))
    with pytest.raises(ValueError, match="axis -1"):
        layer(np.ones((3, 5), "float32"))


@pytest.mark.parametrize(
    "make, error, match",
    [
        (lambda: L.NACMul(1, epsilon=0.0), ValueError, "epsilon"),
        (
            lambda: keras_nalm.regularizers.INALURegularizer(-0.1),
            ValueError,
            "strength",
        ),
        (lambda: L.INALU(1, omega=0.0), ValueError, "omega"),
        (lambda: L.NPU(1, gate_gradient="none"), ValueError, "gate_gradient"),
        (lambda: L.RealNPU(1, epsilon=0.0), ValueError, "epsilon"),
        (lambda: L.NSR(1, redundancy=0), ValueError, "redundancy"),
        (lambda: L.NSR(1, scale=-1.0), ValueError, "scale"),
        (lambda: L.NLRL(1, epsilon=0.0), ValueError, "epsilon"),
        (lambda: C.BetaGrowth(1e-7, 1e-5, growth=1.0), ValueError, "growth"),
        (lambda: C.BetaGrowth(0.0, 1e-5), ValueError, "start"),
        (lambda: C.BetaGrowth(1e-7, 1e-5, step=0), ValueError, "step"),
        (lambda: C.INALUReinitializer(interval=0), ValueError, "interval"),
        (
            lambda: C.INALUReinitializer(reset_optimizer="no"),
            TypeError,
            "reset_optimizer",
        ),
        (
            lambda: C.INALURegularizerSwitch(loss_threshold=0),
            ValueError,
            "loss_threshold",
        ),
        (lambda: L.NACMul(1, epsilon=-1e-7), ValueError, "epsilon"),
        (lambda: L.NRUCell(4, memory_size=10), ValueError, "perfect square"),
        (lambda: L.NRUCell(4, memory_size=0), ValueError, "memory_size"),
        (lambda: L.NRUCell(4, num_heads=0), ValueError, "num_heads"),
        (lambda: L.NRUCell(4, head_inputs="input"), ValueError, "head_inputs"),
        (lambda: L.NRUCell(4, head_reduction="max"), ValueError, "head_reduction"),
        (lambda: L.NRUCell(4, normalization_order=0), ValueError, "normalization"),
        (lambda: L.NALU(1, epsilon="small"), TypeError, "epsilon"),
        (lambda: L.NACMul(1, weight="tanh"), ValueError, "weight"),
        (lambda: L.NALU(1, multiplication="exp"), ValueError, "multiplication"),
        (lambda: L.NAU(1, regularizer_scale=-1.0), ValueError, "regularizer_scale"),
        (
            lambda: L.NMU(1, input_regularization=-0.1),
            ValueError,
            "input_regularization",
        ),
        (lambda: L.NAU(1, kernel_regularizer="no_such"), ValueError, "no_such"),
        (lambda: L.NMU(1, kernel_constraint="no_such"), ValueError, "no_such"),
        (lambda: L.NAC(1, kernel_initializer="no_such"), ValueError, "no_such"),
        (lambda: keras_nalm.constraints.Clamp(1.0, 0.0), ValueError, "min_value"),
        (
            lambda: keras_nalm.regularizers.Sparsity(target="signed"),
            ValueError,
            "target",
        ),
        (lambda: keras_nalm.regularizers.Sparsity(shape="cubic"), ValueError, "shape"),
        (lambda: keras_nalm.regularizers.Sparsity(-1.0), ValueError, "strength"),
        (
            lambda: keras_nalm.regularizers.OutOfBounds(1.0, 1.0, 0.0),
            ValueError,
            "min_value",
        ),
    ],
)
def test_bad_constructor_arguments(make, error, match):
    with pytest.raises(error, match=match):
        make()


def test_describe_says_which_units_it_cannot_read():
    model = keras.Sequential([keras.Input((2,)), L.NPU(1)])
    with pytest.raises(NotImplementedError, match="NPU"):
        keras_nalm.describe(model)


def test_describe_rejects_models_with_other_layers():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    with pytest.raises(ValueError, match="Dense"):
        keras_nalm.describe(model)


def test_describe_rejects_branching_models():
    inputs = keras.Input((2,))
    a = L.NAU(2, name="a")(inputs)
    b = L.NMU(1, name="b")(inputs)
    model = keras.Model(inputs, [a, b])
    with pytest.raises(ValueError, match="single-input"):
        keras_nalm.describe(model)


def test_describe_checks_the_number_of_input_names():
    model = keras.Sequential([keras.Input((2,)), L.NAU(1)])
    with pytest.raises(ValueError, match="input_names"):
        keras_nalm.describe(model, input_names=["a"])


@pytest.mark.parametrize(
    "argument", ["units", "memory_slots", "word_size", "read_heads"]
)
def test_the_dnc_cell_refuses_bad_sizes_integer_steps_and_whole_sequences(argument):
    sizes = {"units": 4, "memory_slots": 5, "word_size": 3, "read_heads": 2}
    for value, error in BAD_UNITS:
        with pytest.raises(error, match=argument):
            keras_nalm.layers.DNCCell(**{**sizes, argument: value})
    rnn = keras.layers.RNN(keras_nalm.layers.DNCCell(**sizes))
    with pytest.raises(TypeError, match="floating point"):
        rnn(np.ones((2, 5, 3), "int32"))
    with pytest.raises(ValueError, match="one step"):
        keras_nalm.layers.DNCCell(**sizes).build((None, 5, 3))


def test_the_nru_cell_refuses_bad_units_integer_steps_and_whole_sequences():
    for units, error in BAD_UNITS:
        with pytest.raises(error, match="units"):
            L.NRUCell(units)
    rnn = keras.layers.RNN(L.NRUCell(4, memory_size=16))
    with pytest.raises(TypeError, match="floating point"):
        rnn(np.ones((2, 5, 3), "int32"))
    with pytest.raises(ValueError, match="one step"):
        L.NRUCell(4, memory_size=16).build((None, 5, 3))


@pytest.mark.parametrize(
    "make_cell",
    [lambda: L.NRUCell(4, memory_size=16), lambda: L.ArithmeticCell(L.NAU(2))],
)
def test_an_rnn_fed_sequences_without_a_feature_axis_says_so(make_cell):
    rnn = keras.layers.RNN(make_cell())
    with pytest.raises(ValueError, match=r"no feature axis .*x\[\.\.\., None\]"):
        rnn(np.ones((2, 5), "float32"))
