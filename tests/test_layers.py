"""Every public layer and cell through the public harness
(`keras_nalm.testing`): equations against NumPy, weight and loss counts,
config, one compiled integration (a jit-compiled training step, `.keras`
and SavedModel round trips), mixed precision, finite gradients and
saturation.

Every case runs the fast checks, and the first case of each class the
integration and numerical checks (large for a class slow to compile on the
backend: the NRU cell on TensorFlow, the DNC cell on JAX). The same
checks of the other configurations (variants of the same class) are
`large`, the integration of a class's other variants one model of all of
them, so that CI runs them on TensorFlow (the other backends run the
default tier). An `ArithmeticCell` around a unit configured otherwise than
another of its cases (an NAU with R_z where one runs the NAU) re-checks
that unit's configuration, which the unit's own cases check as a layer on
every backend: its equations are large, and its compiled step is
compiled in a release check (`--run-extra-large`). The `NRU` layer is
its harness-tested cell in an RNN: it is checked to compute as
`keras.layers.RNN(NRUCell(...))` with the same weights, and to round-trip
its flat configuration and a `.keras` file."""

import keras
import numpy as np
import pytest

from keras_nalm import testing
from keras_nalm.layers import NRU
from keras_nalm.layers import DNCCell
from keras_nalm.layers import NRUCell
from keras_nalm.saving import load_model
from tests.cases import ALL_CASES
from tests.cases import wrapped_unit
from tests.cases import wraps_with_defaults

FAST_CHECKS = ("equations", "weights_and_losses", "config")
#: Classes whose compiled checks (integration, numerical) are large on a
#: backend, where CI's other runs check them: XLA compiles the NRU cell's
#: recurrent training step in 7-12 s on a 2-core CPU on TensorFlow (7 % of
#: the quick loop; the JAX and PyTorch runs of `python -m tests` check it),
#: and the DNC cell's checks took 100 s of the JAX run's 514 (2026-12-06;
#: CI's TensorFlow run checks it).
SLOW_TO_COMPILE = {"tensorflow": (NRUCell,), "jax": (DNCCell,)}


def _slow_to_compile(case):
    return issubclass(
        case.layer_class, SLOW_TO_COMPILE.get(keras.backend.backend(), ())
    )


def _parameters():
    classes, units, variants, unit_variants = set(), set(), {}, {}
    for case in ALL_CASES:
        first_of_class = case.layer_class not in classes
        first_of_unit = (case.layer_class, wrapped_unit(case)) not in units
        classes.add(case.layer_class)
        units.add((case.layer_class, wrapped_unit(case)))
        unit_variant = not first_of_unit and wraps_with_defaults(case)
        if not first_of_class:
            group = unit_variants if unit_variant else variants
            group.setdefault(case.layer_class, []).append(case)
        for check in testing.CHECKS:
            if check == "integration" and not first_of_class:
                continue  # with the class's other variants, below
            if check in FAST_CHECKS:
                fast = not unit_variant
            else:
                fast = first_of_class and not _slow_to_compile(case)
            marks = [] if fast else [pytest.mark.large]
            yield pytest.param(case, check, marks=marks, id=f"{case.name}-{check}")
    for groups, mark, name in (
        (variants, pytest.mark.large, "other-variants"),
        (unit_variants, pytest.mark.extra_large, "other-unit-variants"),
    ):
        for layer_class, cases in groups.items():
            # one model of all of them, compiled once
            yield pytest.param(
                tuple(cases),
                "integration",
                marks=[mark],
                id=f"{layer_class.__name__}-{name}-integration",
            )


@pytest.mark.parametrize("case, check", list(_parameters()))
def test_layer(case, check):
    testing.CHECKS[check](case)


#: The cell's arguments that the `NRU` layer takes, other than its default.
NRU_ARGUMENTS = {
    "memory_size": 9,
    "num_heads": 4,
    "head_inputs": "input_hidden_memory",
    "head_reduction": "sum",
    "head_relu": True,
    "layer_norm": True,
}


def test_the_nru_layer_computes_as_an_rnn_of_its_cell_and_round_trips(tmp_path):
    sequences = np.random.default_rng(0).uniform(-1, 1, (2, 5, 3))
    sequences = sequences.astype("float32")
    layer = NRU(4, return_sequences=True, return_state=True, **NRU_ARGUMENTS)
    outputs, hidden, memory = layer(sequences)
    assert (outputs.shape, hidden.shape, memory.shape) == ((2, 5, 4), (2, 4), (2, 9))
    assert (layer.units, layer.memory_size, layer.num_heads) == (4, 9, 4)
    cell = NRUCell(4, **NRU_ARGUMENTS)
    rnn = keras.layers.RNN(cell, return_sequences=True, return_state=True)
    rnn(sequences)
    rng = np.random.default_rng(1)
    for variable in layer.weights:  # away from the zero biases
        variable.assign(rng.uniform(-0.5, 0.5, variable.shape))
    rnn.set_weights(layer.get_weights())
    results = [keras.ops.convert_to_numpy(value) for value in layer(sequences)]
    for got, expected in zip(results, rnn(sequences)):
        expected = keras.ops.convert_to_numpy(expected)
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6)
    config = layer.get_config()
    assert {key: config[key] for key in NRU_ARGUMENTS} == NRU_ARGUMENTS
    assert "cell" not in config
    assert NRU.from_config(config).get_config() == config
    inputs = keras.Input((None, 3))
    model = keras.Model(inputs, NRU(4, **NRU_ARGUMENTS)(inputs))
    model.layers[1].set_weights(layer.get_weights())
    path = str(tmp_path / "nru.keras")
    model.save(path)
    loaded = load_model(path)
    assert type(loaded.layers[1]) is NRU
    last = results[0][:, -1]
    restored = keras.ops.convert_to_numpy(loaded(sequences))
    np.testing.assert_allclose(restored, last, rtol=1e-6, atol=1e-6)


def test_a_weight_held_at_zero_gets_no_penalty_gradient_on_any_backend():
    # The NPU's imaginary weights start at 0 and positive inputs give them
    # no data gradient; its L1 penalty must not push them off 0 either (JAX
    # differentiates abs as 1 at 0, TensorFlow and PyTorch as 0).
    from keras_nalm.layers import NPU

    layer = NPU(2, regularizer_scale=1.0)
    layer.build((None, 3))
    x = np.random.default_rng(0).uniform(1, 2, (4, 3)).astype("float32")
    _, gradients = testing.output_and_gradients(layer, x)
    imaginary = [v.path for v in layer.trainable_weights].index(layer.w_imag.path)
    assert not np.any(keras.ops.convert_to_numpy(layer.w_imag))
    np.testing.assert_array_equal(gradients[1 + imaginary], 0.0)


@pytest.mark.skipif(keras.backend.backend() != "tensorflow", reason="TensorFlow")
def test_tensorflow_takes_its_own_abs_so_its_compiled_steps_round_as_before():
    # sign(x) * x (JAX's form) has |x|'s values and gradients, but XLA
    # fuses it otherwise: 12 000 steps of a NAC•,NMU on MNIST then end
    # elsewhere (sequential MNIST's product, R_z, seed 2).
    import tensorflow as tf

    from keras_nalm.ops import absolute

    graph = tf.function(absolute).get_concrete_function(tf.TensorSpec([3])).graph
    operations = {operation.type for operation in graph.get_operations()}
    assert "Abs" in operations and "Sign" not in operations
