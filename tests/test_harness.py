"""The harness's compiled checks fail on the mistakes they are meant to
catch: a sound layer passes `check_integration` and
`check_mixed_precision`, and each broken copy of it fails the check that
guards against its mistake (the saturation check's own mutation test is in
`test_saturation.py`)."""

import contextlib
import logging

import keras
import numpy as np
import pytest

from keras_nalm import layers
from keras_nalm import testing
from tests.cases import LAYER_CASES
from tests.cases import first_of_each_class

PACKAGE = "keras_nalm_harness_tests"


@keras.saving.register_keras_serializable(PACKAGE)
class Scaled(keras.layers.Layer):
    """y = (x W) * factor + offset, with a non-trainable `factor`, computed in
    the variable dtype (float32 under a mixed policy), as the units are."""

    def __init__(self, units, offset=0.0, **kwargs):
        super().__init__(autocast=False, **kwargs)
        self.units = units
        self.offset = offset

    def build(self, input_shape):
        self.kernel = self.add_weight(
            shape=(input_shape[-1], self.units),
            initializer="glorot_uniform",
            name="kernel",
        )
        self.factor = self.add_weight(
            shape=(), initializer="ones", trainable=False, name="factor"
        )

    def call(self, x):
        x = keras.ops.cast(x, self.variable_dtype)
        kernel = keras.ops.cast(self.kernel, self.variable_dtype)
        return keras.ops.matmul(x, kernel) * self.factor + self.offset

    def get_config(self):
        return {**super().get_config(), "units": self.units, "offset": self.offset}


@keras.saving.register_keras_serializable(PACKAGE)
class Frozen(Scaled):
    """Its kernel gets a gradient of zero (a hard clamp where the gradient
    should pass): a fit cannot train it."""

    def call(self, x):
        x = keras.ops.cast(x, self.variable_dtype)
        kernel = keras.ops.stop_gradient(self.kernel) + 0.0 * self.kernel
        return keras.ops.matmul(x, kernel) * self.factor + self.offset


@keras.saving.register_keras_serializable(PACKAGE)
class ForgetsOffset(Scaled):
    """Its config drops `offset`: the loaded layer computes another function."""

    def get_config(self):
        config = super().get_config()
        del config["offset"]
        return config


@keras.saving.register_keras_serializable(PACKAGE)
class LosesFactor(Scaled):
    """Saves its kernel but not its non-trainable `factor`."""

    def save_own_variables(self, store):
        store["0"] = keras.ops.convert_to_numpy(self.kernel)

    def load_own_variables(self, store):
        self.kernel.assign(store["0"])


@keras.saving.register_keras_serializable(PACKAGE)
class CountsItsTraces(Scaled):
    """Python state in a traced `call` (TensorFlow): each graph bakes in
    another count, eager calls are right."""

    def call(self, x):
        import tensorflow as tf

        if tf.executing_eagerly():
            return super().call(x)
        self.traces = getattr(self, "traces", 0) + 1
        return super().call(x) * float(self.traces)


@keras.saving.register_keras_serializable(PACKAGE)
class HalfPrecisionWeights(Scaled):
    """Creates its kernel in the compute dtype (float16 under mixed_float16)."""

    def build(self, input_shape):
        super().build(input_shape)
        self.kernel = self.add_weight(
            shape=(input_shape[-1], self.units),
            dtype=self.compute_dtype,
            name="kernel",
        )


@keras.saving.register_keras_serializable(PACKAGE)
class Cubes(Scaled):
    """Cubes its inputs in the compute dtype: float16 overflows past 40."""

    def call(self, x):
        return super().call(x * x * x)


@keras.saving.register_keras_serializable(PACKAGE)
class CubesInFloat32(Scaled):
    """Cubes its inputs in the variable dtype."""

    def call(self, x):
        x = keras.ops.cast(x, self.variable_dtype)
        return super().call(x * x * x)


@keras.saving.register_keras_serializable(PACKAGE)
class SquareRoots(Scaled):
    """Takes sqrt|x|: its input gradient is infinite at x = 0."""

    def call(self, x):
        return super().call(keras.ops.sqrt(keras.ops.abs(x)))


@keras.saving.register_keras_serializable(PACKAGE)
class Exponentiates(Scaled):
    """Takes exp(x): float32 overflows past x = 88."""

    def call(self, x):
        return super().call(keras.ops.exp(x))


@keras.saving.register_keras_serializable(PACKAGE)
class LogsBelowItsDomain(Scaled):
    """Takes log(x - 3): NaN on the integration check's inputs in [1, 2)."""

    def call(self, x):
        return super().call(keras.ops.log(x - 3.0))


def _reference(layer, x):
    w = testing.weights(layer)
    return x @ w["kernel"] * w["factor"] + layer.offset


def _case(layer_class, reference=_reference):
    return testing.LayerCase(
        layer_class.__name__,
        layer_class,
        reference,
        init_kwargs={"offset": 0.5},
        config_values={"offset": 0.25},
    )


def _cubes_reference(layer, x):
    return _reference(layer, x**3)


def test_a_sound_layer_passes_the_compiled_checks():
    testing.run_layer_test(_case(Scaled))
    testing.run_layer_test(_case(CubesInFloat32, _cubes_reference))


@pytest.mark.parametrize(
    "broken, message",
    [
        (Frozen, "moved no weight"),
        (LogsBelowItsDomain, r"loss is \[nan\]"),
        (ForgetsOffset, "ForgetsOffset"),
        (LosesFactor, "LosesFactor"),
    ],
)
def test_the_integration_check_fails_on_a_broken_layer(broken, message):
    with pytest.raises(AssertionError, match=message):
        testing.check_integration(_case(broken))


@pytest.mark.parametrize(
    "broken, message",
    [(Frozen, "Frozen: a training step moved no weight"), (LosesFactor, "LosesFactor")],
)
def test_the_integration_of_several_variants_fails_on_a_broken_one(broken, message):
    with pytest.raises(AssertionError, match=message):
        testing.check_integration([_case(Scaled), _case(broken)])


def test_the_integration_check_fails_when_the_served_model_differs():
    if keras.backend.backend() != "tensorflow":
        pytest.skip("SavedModel export needs the TensorFlow backend.")
    with pytest.raises(AssertionError, match="Not equal to tolerance"):
        testing.check_integration(_case(CountsItsTraces))
    with pytest.raises(AssertionError, match="Not equal to tolerance"):
        testing.check_integration([_case(Scaled), _case(CountsItsTraces)])


@pytest.mark.parametrize(
    "broken, message",
    [(HalfPrecisionWeights, "mixed_float16"), (Cubes, "mixed_float16")],
)
def test_the_mixed_precision_check_fails_on_a_broken_layer(broken, message):
    testing.check_equations(_case(Cubes, _cubes_reference))  # sound in float32
    with pytest.raises(AssertionError, match=message):
        testing.check_mixed_precision(_case(broken))


class _Records(logging.Handler):
    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


@contextlib.contextmanager
def _dynamo_recompiles():
    """The messages TorchDynamo logs when it recompiles, with the guards
    that failed and the source lines they guard."""
    import torch

    records = _Records()
    torch._logging.set_logs(recompiles=True)
    logger = logging.getLogger("torch._dynamo")
    logger.addHandler(records)
    try:
        yield records.messages
    finally:
        logger.removeHandler(records)
        torch._logging.set_logs()


#: Units that draw random numbers in training calls: Keras's torch backend
#: keeps its seed generator out of TorchDynamo (`torch.compiler.disable`),
#: so each of their training calls breaks the compiled graph, and the
#: frames after the break are compiled per layer class.
RANDOM_IN_TRAINING = (layers.StochasticNMU,)


# A release check: CI compiles the units that draw noise (below), through
# the base class's call and Keras's torch backend as every unit's model.
@pytest.mark.extra_large
def test_every_unit_class_fits_under_torch_compile(monkeypatch):
    """On PyTorch the harness fits eagerly; here one model of every
    feed-forward unit class fits with `jit_compile=True` (TorchDynamo) for
    two epochs, and none of TorchDynamo's recompiles guards a line of
    keras_nalm (those it makes guard Keras's own torch backend, once per
    layer class). TorchDynamo traces the layers' code and AOTAutograd their
    gradients (the `aot_eager` backend); Inductor's C++ code generation, the
    default backend's last stage, is PyTorch's own and took 8 of the 10
    minutes of the PyTorch run on a 2-core machine without its cache."""
    if keras.backend.backend() != "torch":
        pytest.skip("TorchDynamo is PyTorch's compiler.")
    import torch

    compiled, torch_compile = [], torch.compile

    def compile_with_aot_eager(function, **options):
        compiled.append(function)
        return torch_compile(function, **{**options, "backend": "aot_eager"})

    monkeypatch.setattr(torch, "compile", compile_with_aot_eager)
    inputs = keras.Input((4,))
    units = [
        case.create()
        for case in first_of_each_class(LAYER_CASES)
        if case.layer_class not in RANDOM_IN_TRAINING
    ]
    outputs = keras.layers.Concatenate()([unit(inputs) for unit in units])
    model = keras.Model(inputs, outputs)
    model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse", jit_compile=True)
    before = [testing.weights(unit) for unit in units]
    x = np.random.default_rng(0).uniform(1, 2, size=(64, 4)).astype("float32")
    with _dynamo_recompiles() as recompiles:
        history = model.fit(
            x, np.ones((64, outputs.shape[-1])), batch_size=32, epochs=2, verbose=0
        )
    assert compiled, "fit did not go through torch.compile"
    assert recompiles, "no recompile was logged: the log is not read"
    ours = [message for message in recompiles if "keras_nalm/" in message]
    assert not ours, "\n\n".join(ours)
    assert np.isfinite(history.history["loss"][0])
    unmoved = [
        unit.name
        for unit, old in zip(units, before)
        if all(
            np.array_equal(old[w.name], testing.weights(unit)[w.name])
            for w in unit.trainable_weights
        )
    ]
    assert not unmoved


def test_the_units_that_draw_noise_fit_under_torch_compile(monkeypatch):
    """The units of `RANDOM_IN_TRAINING` fit compiled too, their noise drawn
    outside the graph (a graph break per call)."""
    if keras.backend.backend() != "torch":
        pytest.skip("TorchDynamo is PyTorch's compiler.")
    import torch

    torch_compile = torch.compile
    monkeypatch.setattr(
        torch,
        "compile",
        lambda function, **options: torch_compile(
            function, **{**options, "backend": "aot_eager"}
        ),
    )
    for layer_class in RANDOM_IN_TRAINING:
        unit = layer_class(1)
        model = keras.Sequential([keras.Input((2,)), unit])
        model.compile(
            optimizer=keras.optimizers.Adam(1e-2), loss="mse", jit_compile=True
        )
        x = np.random.default_rng(0).uniform(1, 2, size=(64, 2)).astype("float32")
        before = testing.weights(unit)["kernel"]
        history = model.fit(x, x[:, :1] * x[:, 1:], batch_size=32, epochs=2, verbose=0)
        assert np.isfinite(history.history["loss"]).all()
        assert not np.array_equal(before, testing.weights(unit)["kernel"])


@pytest.mark.parametrize(
    "layer_class, message",
    [(SquareRoots, "the gradient of x"), (Exponentiates, "outputs")],
)
def test_the_finite_gradient_check_fails_at_zero_and_at_large_inputs(
    layer_class, message
):
    """Both halves of the check's one batch are checked: x = 0 (the
    square root's infinite slope) and |x| = 1e3 (exp overflows)."""
    testing.check_finite_gradients(_case(Scaled))
    with pytest.raises(AssertionError, match=message):
        testing.check_finite_gradients(_case(layer_class))
