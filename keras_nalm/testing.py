"""A test harness for keras_nalm units and cells, and for units of your own.

A `LayerCase` states a layer (or recurrent cell) class, its arguments, the
weight and loss counts it must have, and an independent NumPy evaluation
of its equation. `run_layer_test(case)` then checks, as Keras's own layer
tests do for its layers:

- `check_equations`: the output against the NumPy reference, on weights
  spread over and beyond their clamp ranges and on inputs with zeros,
  negatives and values 20x outside U[1, 2]; higher-rank inputs map the
  last axis; a cell runs in `keras.layers.RNN` against the reference
  stepped in a NumPy loop, also with masking, `stateful=True` and
  `go_backwards`;
- `check_weights_and_losses`: the counts of trainable and non-trainable
  weights and of losses (weight penalties, and those of training calls);
- `check_config`: every `__init__` argument is in `get_config` with the
  value it was given, and the config and `keras.layers.serialize` round
  trips give the same config;
- `check_integration`: one functional model around the layer (or the
  layers of several cases, side by side), compiled once: a jit-compiled
  training step (`model.train_on_batch`; eager on PyTorch) trains (finite
  loss, every layer's weights move); that same model saved as `.keras`
  and loaded gives identical outputs, optimizer state and control
  variables, and on TensorFlow its `model.export` served through
  `tf.saved_model.load` gives its outputs;
- `check_mixed_precision`: under `mixed_float16` and `mixed_bfloat16`, the
  weights stay float32, the outputs are float32 and finite at |x| up to
  1e3 (1 for cells), and a training pass on inputs in U[-2, 2] gives
  finite outputs and float32 weight gradients (finite under bfloat16);
- `check_finite_gradients`: finite outputs and gradients at x = 0 and at
  |x| = 1e3;
- `check_saturation`: where the gates and weight transforms saturate
  (weights of magnitude 10 to 20: logits of ±10 to ±30 and beyond), the
  float32 output, input gradient and per-example weight gradients, eager
  and jit-compiled, agree with a float64 run of the same layer within what
  a float32 rounding of its inputs and weights can change (TensorFlow
  and PyTorch: Keras's JAX backend has no float64 transcendentals).

Each check takes the case and raises `AssertionError` on failure (and
`unittest.SkipTest` where the backend lacks what it needs), so pytest can
parametrize over cases and checks. The harness uses public Keras API
only; `keras_nalm`'s own tests are built on it.

Example:
>>> case = LayerCase(
...     "NAU", keras_nalm.layers.NAU,
...     reference=lambda layer, x: x @ np.clip(weights(layer)["kernel"], -1, 1),
...     trainable_weights=1, non_trainable_weights=1, losses=1,
...     config_values={"regularizer_scale": 0.5, ...})
>>> keras_nalm.testing.run_layer_test(case, checks=["equations", "config"])
"""

import dataclasses
import functools
import inspect
import os
import tempfile
import unittest
from typing import Callable

import keras
import numpy as np

RTOL, ATOL = 2e-4, 1e-4
MIXED_POLICIES = ("mixed_float16", "mixed_bfloat16")


@dataclasses.dataclass(frozen=True)
class LayerCase:
    """One configuration of a layer or cell to test, with its reference.

    Args:
        name: the case's name (a test id).
        layer_class: the class under test.
        reference: the NumPy evaluation of the equation, in float64. For a
            layer `reference(layer, x) -> y`; for a cell (`recurrent=True`)
            `reference(cell, x_t, states) -> (output, new_states)`, states
            being a list of arrays. It reads the weights with `weights()`.
        init_kwargs: constructor arguments besides `units` (or what
            `make` takes).
        trainable_weights: the expected count of trainable weights after
            build (None: not checked).
        non_trainable_weights: the expected count of non-trainable weights
            after build (None: not checked).
        losses: expected losses of the built layer (weight penalties).
        training_losses: expected losses after a training call (default:
            `losses`).
        config_values: a value, other than its default, for every
            `__init__` argument but `units` (objects as instances), for
            `check_config`.
        make: `make(units, **init_kwargs) -> layer` when the class is not
            built as `layer_class(units, **init_kwargs)`.
        derived_arguments: `__init__` arguments of base classes that the
            class computes itself and does not store (an `ArithmeticCell`'s
            `units`, its unit's).
        recurrent: whether the class is an RNN cell.
        units: the output size the checks build (default 3).
        input_dim: the input size the checks build (default 4).
        weight_scale: weights are drawn from U[-weight_scale, weight_scale]
            for `check_equations` (default 1.5).
        saturating_weights: `(low, high)`: `check_saturation` draws every
            trainable weight's magnitude from U[low, high] with a random
            sign (default (10, 20)); a dict from weight name to such a
            range sets them one by one.
        serving_rtol: relative tolerance of `check_integration` between the
            exported model's outputs and the model's in a graph (default 0:
            identical). A layer with many reductions per step (the DNC) may
            round them differently in the two graphs by an ulp.
        saturation_training: whether `check_saturation` takes training calls
            (default False: inference calls). True for a layer whose
            inference is piecewise constant in its weights (the DMU hardens
            its plan), which has gradients only in training.
    """

    name: str
    layer_class: type
    reference: Callable
    init_kwargs: dict = dataclasses.field(default_factory=dict)
    trainable_weights: int = None
    non_trainable_weights: int = None
    losses: int = None
    training_losses: int = None
    config_values: dict = None
    make: Callable = None
    derived_arguments: tuple = ()
    recurrent: bool = False
    units: int = 3
    input_dim: int = 4
    weight_scale: float = 1.5
    saturating_weights: object = (10.0, 20.0)
    serving_rtol: float = 0.0
    saturation_training: bool = False

    def create(self, units=None, **overrides):
        """A new, unbuilt layer of the case."""
        kwargs = {**self.init_kwargs, **overrides}
        make = self.make or self.layer_class
        return make(self.units if units is None else units, **kwargs)

    def wrap(self, layer, **rnn_arguments):
        """The layer as it is called on data: a cell inside the RNN it
        names (`cell.rnn_class`, default `keras.layers.RNN`)."""
        if not self.recurrent:
            return layer
        return getattr(layer, "rnn_class", keras.layers.RNN)(layer, **rnn_arguments)

    def output_size(self, layer):
        if self.recurrent:
            return layer.output_size
        return getattr(layer, "output_dim", layer.units)


def weights(layer):
    """A layer's weights as float64 arrays by name (for references)."""
    return {
        v.name: np.asarray(keras.ops.convert_to_numpy(v), dtype=np.float64)
        for v in layer.weights
    }


def perturb_weights(layer, rng, scale=1.5):
    """Sets every trainable weight to U[-scale, scale]: some entries land
    outside the clamp ranges, so clipping in `call` is exercised too."""
    for variable in layer.trainable_weights:
        variable.assign(
            rng.uniform(-scale, scale, size=variable.shape).astype("float32")
        )


def awkward_inputs(rng, input_dim=4, batch=64):
    """Zeros, negatives, and values 20x outside the U[1, 2] training range."""
    x = rng.uniform(-40, 40, size=(batch, input_dim))
    x[:8] = 0.0
    x[8:16, 0] = 0.0
    x[16:24] = -rng.uniform(1, 2, size=(8, input_dim))
    x[24:32] = rng.uniform(20, 40, size=(8, input_dim))
    return x.astype("float32")


def sequence_inputs(rng, input_dim=4, batch=16, steps=5):
    """Sequences with zeros and negatives, small enough that products over
    the steps stay in float32's range."""
    x = rng.uniform(-2, 2, size=(batch, steps, input_dim))
    x[:2] = 0.0
    x[2:4, :, 0] = 0.0
    return x.astype("float32")


def numpy_rnn(case, cell, x, mask=None, initial_states=None):
    """The reference stepped over `x` (batch, time, features) in NumPy,
    with Keras's masking: a masked step keeps the states and repeats the
    last output. Returns (outputs (batch, time, out), final states)."""
    if initial_states is None:
        initial_states = cell.get_initial_state(batch_size=x.shape[0])
    states = [
        np.asarray(keras.ops.convert_to_numpy(s), np.float64) for s in initial_states
    ]
    outputs, last = [], np.zeros((x.shape[0], case.output_size(cell)))
    for t in range(x.shape[1]):
        output, new_states = case.reference(cell, x[:, t].astype(np.float64), states)
        keep = np.ones((x.shape[0], 1), bool) if mask is None else mask[:, t, None]
        last = np.where(keep, output, last)
        states = [np.where(keep, new, old) for new, old in zip(new_states, states)]
        outputs.append(last)
    return np.stack(outputs, axis=1), states


def _close(actual, expected, message=""):
    np.testing.assert_allclose(
        keras.ops.convert_to_numpy(actual),
        expected,
        rtol=RTOL,
        atol=ATOL,
        err_msg=message,
    )


def _built(case, units=None, **overrides):
    """A built layer with perturbed weights, and a batch for it."""
    rng = np.random.default_rng(1)
    layer = case.create(units, **overrides)
    if case.recurrent:
        x = sequence_inputs(rng, case.input_dim)
        layer.build((None, case.input_dim))
    else:
        x = awkward_inputs(rng, case.input_dim)
        layer.build(x.shape)
    perturb_weights(layer, rng, case.weight_scale)
    return layer, x


def check_equations(case):
    """The output equals the NumPy reference (see the module docstring)."""
    if case.recurrent:
        return _check_cell_equations(case)
    layer, x = _built(case)
    y = keras.ops.convert_to_numpy(layer(x))
    assert y.shape == (x.shape[0], case.output_size(layer)), y.shape
    assert np.all(np.isfinite(y)), f"{case.name}: non-finite outputs"
    _close(y, case.reference(layer, x.astype(np.float64)), case.name)
    rank3 = np.random.default_rng(2).uniform(-3, 3, size=(5, 7, case.input_dim))
    y = keras.ops.convert_to_numpy(layer(rank3.astype("float32")))
    assert y.shape == (5, 7, case.output_size(layer)), y.shape
    flat = case.reference(layer, rank3.reshape(-1, case.input_dim))
    _close(y.reshape(-1, y.shape[-1]), flat, f"{case.name}, rank 3")


def _check_cell_equations(case):
    cell, x = _built(case)
    rnn = case.wrap(cell, return_sequences=True, return_state=True)
    y, *states = rnn(x)
    expected, expected_states = numpy_rnn(case, cell, x)
    _close(y, expected, f"{case.name}: outputs")
    for state, value in zip(states, expected_states):
        _close(state, value, f"{case.name}: final states")
    mask = np.ones(x.shape[:2], bool)
    mask[::2, -2:] = False  # trailing padding in every other sequence
    masked = case.wrap(cell, return_sequences=True)(x, mask=mask)
    _close(masked, numpy_rnn(case, cell, x, mask)[0], f"{case.name}: masked")
    backwards = case.wrap(cell, go_backwards=True)(x)
    _close(backwards, numpy_rnn(case, cell, x[:, ::-1])[0][:, -1], case.name)
    stateful = keras.Sequential(
        [
            keras.Input(batch_shape=x.shape[:1] + (None, x.shape[2])),
            case.wrap(cell, stateful=True),
        ]
    )
    half = x.shape[1] // 2
    stateful(x[:, :half])
    _close(stateful(x[:, half:]), expected[:, -1], f"{case.name}: stateful")


def check_weights_and_losses(case):
    """The weight and loss counts the case states."""
    layer, x = _built(case)
    if case.trainable_weights is not None:
        assert len(layer.trainable_weights) == case.trainable_weights, [
            w.path for w in layer.trainable_weights
        ]
    if case.non_trainable_weights is not None:
        assert len(layer.non_trainable_weights) == case.non_trainable_weights, [
            w.path for w in layer.non_trainable_weights
        ]
    if case.losses is not None:
        assert len(layer.losses) == case.losses, layer.losses
    if case.losses is not None or case.training_losses is not None:
        wrapped = case.wrap(layer)
        wrapped(x, training=True)
        expected = case.losses if case.training_losses is None else case.training_losses
        assert len(wrapped.losses) == expected, wrapped.losses


def init_arguments(layer_class):
    """The named `__init__` arguments of `layer_class` and of its bases up to
    `keras.layers.Layer` (those its `**kwargs` reach)."""
    names = []
    for cls in layer_class.__mro__:
        if cls in (keras.layers.Layer, object) or not issubclass(
            cls, keras.layers.Layer
        ):
            continue
        for parameter in inspect.signature(cls.__init__).parameters.values():
            if parameter.kind in (
                parameter.POSITIONAL_OR_KEYWORD,
                parameter.KEYWORD_ONLY,
            ):
                if parameter.name != "self" and parameter.name not in names:
                    names.append(parameter.name)
    return names


def check_config(case):
    """Every `__init__` argument is in `get_config`, with its value."""
    values = dict(case.config_values or {})
    layer = case.create(**values)
    config = layer.get_config()
    arguments = [
        name
        for name in init_arguments(case.layer_class)
        if name not in case.derived_arguments
    ]
    missing = [name for name in arguments if name not in config]
    assert not missing, f"{case.name}: get_config lacks {missing}"
    untested = [
        name
        for name in arguments
        if name not in values and name not in ("units", "unit")
    ]
    assert not untested, f"{case.name}: config_values gives no value for {untested}"
    for name, value in values.items():
        stored = config[name]
        assert stored == keras.saving.serialize_keras_object(value), (
            f"{case.name}: get_config()[{name!r}] is {stored!r}, the layer was "
            f"given {value!r}"
        )
    clone = case.layer_class.from_config(config)
    assert clone.get_config() == config
    restored = keras.layers.deserialize(keras.layers.serialize(layer))
    assert type(restored) is case.layer_class
    assert restored.get_config() == config


def case_model(case, **overrides):
    """A functional model around the case's layer: (model, layer, x)."""
    layer, x = _built(case, **overrides)
    inputs = keras.Input(x.shape[1:], name="x")
    outputs = case.wrap(layer, name="rnn")(inputs) if case.recurrent else layer(inputs)
    return keras.Model(inputs, outputs), layer, x


def _targets(case, layer, x):
    return np.ones((x.shape[0], case.output_size(layer)), "float32")


def _values(variables):
    return [np.array(keras.ops.convert_to_numpy(v)) for v in variables]


def _assert_identical(expected, actual, what):
    for a, b in zip(_values(expected), _values(actual)):
        np.testing.assert_array_equal(a, b, err_msg=what)


def _jit_compile():
    """True (XLA) on TensorFlow and JAX; on PyTorch, where `jit_compile=True`
    means TorchDynamo (tens of seconds a model), Keras's default, eager, as
    Keras's own layer tests have it (keras_nalm's tests compile one model of
    every unit class with TorchDynamo)."""
    return "auto" if keras.backend.backend() == "torch" else True


def _integration_model(cases):
    """One functional model of the cases' layers side by side (one input
    and one output each; a single case: `case_model`'s model): (model,
    layers, batches)."""
    if len(cases) == 1:
        model, layer, x = case_model(cases[0])
        return model, [layer], [x]
    inputs, outputs, layers, batches = [], [], [], []
    for index, case in enumerate(cases):
        layer, x = _built(case)
        inputs.append(keras.Input(x.shape[1:], name=f"x{index}"))
        wrapped = case.wrap(layer, name=f"rnn{index}") if case.recurrent else layer
        outputs.append(wrapped(inputs[-1]))
        layers.append(layer)
        batches.append(x)
    return keras.Model(inputs, outputs), layers, batches


def _one_or_all(values):
    return values[0] if len(values) == 1 else values


def check_integration(cases, directory=None):
    """One model end to end, compiled once: a jit-compiled training step
    (`model.train_on_batch`, the step `model.fit` runs) trains (a finite
    loss, the weights move), then that same model saved as `.keras` and
    loaded gives identical outputs, optimizer state and control variables,
    and on TensorFlow, `model.export` served through `tf.saved_model.load`
    gives its outputs.

    `cases` is a `LayerCase`, or several (the variants of a layer class):
    their layers then sit side by side in the one model, and every layer
    must move."""
    cases = [cases] if isinstance(cases, LayerCase) else list(cases)
    names = ", ".join(case.name for case in cases)
    model, layers, batches = _integration_model(cases)
    for layer in layers:
        for variable in layer.non_trainable_weights:  # control values, not defaults
            variable.assign(np.full(variable.shape, 0.7, variable.dtype))
    model.compile(
        optimizer=keras.optimizers.Adam(1e-2), loss="mse", jit_compile=_jit_compile()
    )
    # built before the step, which TensorFlow then traces once, not twice
    model.optimizer.build(model.trainable_variables)
    before = [_values(layer.trainable_weights) for layer in layers]
    inputs = [np.abs(x) % 1.0 + 1.0 for x in batches]  # U[1, 2)-like inputs
    targets = [
        2.0 * _targets(case, layer, x) for case, layer, x in zip(cases, layers, batches)
    ]
    # `model.fit`'s compiled step without its input pipeline (on TensorFlow a
    # tf.data dataset, half a second a model)
    losses = np.atleast_1d(
        model.train_on_batch(_one_or_all(inputs), _one_or_all(targets))
    )
    assert np.all(np.isfinite(losses)), f"{names}: the training step's loss is {losses}"
    for case, layer, old in zip(cases, layers, before):
        new = _values(layer.trainable_weights)
        assert any(not np.array_equal(a, b) for a, b in zip(old, new)), (
            f"{case.name}: a training step moved no weight"
        )
    outputs = _outputs(model, batches)
    with tempfile.TemporaryDirectory(dir=directory) as folder:
        path = os.path.join(folder, "model.keras")
        model.save(path)
        loaded = keras.saving.load_model(path)
        for got, expected in zip(_outputs(loaded, batches), outputs):
            np.testing.assert_array_equal(expected, got, err_msg=names)
        _assert_identical(
            model.non_trainable_weights, loaded.non_trainable_weights, names
        )
        _assert_identical(model.optimizer.variables, loaded.optimizer.variables, names)
        if keras.backend.backend() == "tensorflow":
            rtol = max(case.serving_rtol for case in cases)
            _check_served(model, _one_or_all(batches), rtol, folder)


def _outputs(model, batches):
    """The model's outputs on `batches` (one per input), as NumPy arrays."""
    outputs = model(_one_or_all(batches))
    return [keras.ops.convert_to_numpy(y) for y in keras.tree.flatten(outputs)]


def _check_served(model, x, rtol, folder):
    """`model.export` then `tf.saved_model.load(...).serve` gives the
    model's outputs in a graph (as `serve` computes them: the graph may
    fuse operations that eager execution rounds one by one). `x`: an
    array, or a list of them for a model of several inputs."""
    import tensorflow as tf

    exported = os.path.join(folder, "exported")
    model.export(exported, verbose=False)
    reloaded = tf.saved_model.load(exported)  # owns the variables: keep it
    x = tf.nest.map_structure(tf.constant, x)
    served = tf.nest.flatten(reloaded.serve(x))
    in_graph = tf.nest.flatten(tf.function(lambda x: model(x, training=False))(x))
    for got, expected in zip(served, in_graph):
        np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=rtol, atol=0.0)


def check_mixed_precision(case):
    """Under `mixed_float16` and `mixed_bfloat16`: float32 weights, finite
    float32 outputs, float32 weight gradients (finite under bfloat16)."""
    previous = keras.config.dtype_policy()
    try:
        for policy in MIXED_POLICIES:
            keras.config.set_dtype_policy(policy)
            _check_mixed_precision(case, policy)
    finally:
        keras.config.set_dtype_policy(previous)


def _check_mixed_precision(case, policy):
    """A forward pass at |x| up to 1e3 (1 for cells: products over steps),
    and the layer's weight gradients of a pass on U[-2, 2], in a model whose
    unit is fed low-precision activations: float32, and finite under
    `mixed_bfloat16`. (Under `mixed_float16`, gradients that pass through
    float16 may overflow where a derivative exceeds its range, 1/|x| near
    x = 0 in log space: Keras's loss scaling skips such steps.)"""
    layer = case.create()
    rng = np.random.default_rng(0)
    if case.recurrent:
        inputs = keras.Input((None, case.input_dim))
        outputs = case.wrap(layer, dtype="float32")(inputs)
        x = rng.uniform(-1, 1, size=(32, 4, case.input_dim)).astype("float32")
    else:
        inputs = keras.Input((case.input_dim,))
        hidden = keras.layers.Dense(case.input_dim, kernel_initializer="identity")
        outputs = layer(hidden(inputs))  # low-precision activations feed the unit
        x = rng.uniform(-1e3, 1e3, size=(32, case.input_dim)).astype("float32")
        x[:4] = 0.0
    model = keras.Model(inputs, outputs)
    message = f"{case.name} under {policy}"
    scaled = x / np.abs(x).max() * 2  # trains in U[-2, 2]: a product of 1e3s is no task
    if case.recurrent:  # one call for both: JAX compiles an RNN's loop per call
        y, gradients = output_and_gradients(
            model, np.concatenate([x, scaled]), training=True
        )
    else:  # |x| up to 1e3 forward only
        y = model(x, training=False)
        assert np.all(np.isfinite(keras.ops.convert_to_numpy(y))), message
        y, gradients = output_and_gradients(model, scaled, training=True)
    assert keras.backend.standardize_dtype(y.dtype) == "float32", (message, y.dtype)
    assert np.all(np.isfinite(y)), message
    assert all(v.dtype == "float32" for v in layer.weights), message
    own = {id(variable) for variable in layer.trainable_weights}
    for variable, gradient in zip(model.trainable_weights, gradients[1:]):
        if id(variable) in own:
            assert gradient.dtype == np.float32, (message, variable.path, gradient)
            if policy == "mixed_bfloat16":  # float32's range: no overflow
                assert np.all(np.isfinite(gradient)), f"{message}: {variable.path}"


def output_and_gradients(layer, x, training=False, compiled=False):
    """The layer's output on `x` and the gradients of sum(output) + its
    losses with respect to `x` and to its trainable weights, as NumPy
    arrays, on the current backend (TensorFlow, JAX or PyTorch).

    `compiled` differentiates inside `tf.function(jit_compile=True)` or
    `jax.jit` (PyTorch: eagerly).
    """
    return gradient_function(layer, training, compiled)(x)


def gradient_function(layer, training=False, compiled=False):
    """`output_and_gradients` of `layer` as a function of `x` alone: with
    `compiled`, it is traced and compiled once for every input of the same
    shape and dtype."""
    backend = keras.backend.backend()
    if backend == "tensorflow":
        return _tensorflow_gradients(layer, training, compiled)
    if backend == "jax":
        return _jax_gradients(layer, training, compiled)
    if backend == "torch":
        return functools.partial(_torch_gradients, layer, training=training)
    raise unittest.SkipTest(f"No gradients on the {backend!r} backend.")


def _numpy(values):
    return [np.asarray(keras.ops.convert_to_numpy(v)) for v in values]


def _tensorflow_gradients(layer, training, compiled):
    import tensorflow as tf

    def gradients(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = layer(x, training=training)
            total = tf.reduce_sum(y) + tf.add_n(
                [tf.constant(0.0, y.dtype)]
                + [tf.cast(loss, y.dtype) for loss in layer.losses]
            )
        return y, tape.gradient(total, [x, *layer.trainable_weights])

    if compiled:
        gradients = tf.function(gradients, jit_compile=True)

    def evaluate(x):
        y, grads = gradients(tf.constant(x))
        return np.asarray(y), _numpy(grads)

    return evaluate


def _takes_training(layer):
    """Whether `layer.call` accepts `training` (`stateless_call` passes its
    keywords on as they are, `__call__` drops one `call` does not take)."""
    parameters = inspect.signature(layer.call).parameters.values()
    return any(p.name == "training" or p.kind == p.VAR_KEYWORD for p in parameters)


def _jax_gradients(layer, training, compiled):
    import jax

    non_trainable = [v.value for v in layer.non_trainable_variables]
    arguments = {"training": training} if _takes_training(layer) else {}

    def total(x, trainable):
        y, _, losses = layer.stateless_call(
            trainable, non_trainable, x, return_losses=True, **arguments
        )
        return y.sum() + sum(loss.sum() for loss in losses), y

    gradients = jax.value_and_grad(total, argnums=(0, 1), has_aux=True)
    if compiled:
        gradients = jax.jit(gradients)

    def evaluate(x):
        (_, y), (dx, dweights) = gradients(
            jax.numpy.asarray(x), [v.value for v in layer.trainable_variables]
        )
        return np.asarray(y), _numpy([dx, *dweights])

    return evaluate


def _torch_gradients(layer, x, training):
    import torch

    x = torch.tensor(x, requires_grad=True)
    y = layer(x, training=training)
    total = y.sum() + sum(loss.sum() for loss in layer.losses)
    weights = [v.value for v in layer.trainable_weights]
    grads = torch.autograd.grad(total, [x, *weights], allow_unused=True)
    grads = [
        torch.zeros_like(w) if g is None else g for g, w in zip(grads, [x, *weights])
    ]
    return y.detach().numpy(), [g.detach().numpy() for g in grads]


def check_finite_gradients(case):
    """Finite outputs and gradients (inputs and weights) at x = 0 and at
    |x| = 1e3 (cells: at |x| = 1, products over steps), in one batch: one
    evaluation (a recurrent layer compiles its loop once per call on JAX),
    whose weight gradients, sums over the examples, are finite only if
    every example's are."""
    layer = case.create(2)
    shape = (4, 3, 3) if case.recurrent else (4, 3)
    halves = []
    for magnitude in (0.0, 1.0 if case.recurrent else 1e3):
        x = np.full(shape, magnitude, dtype="float32")
        x[1] *= -1
        x[2, ..., 0] = 0.0
        halves.append(x)
    x = np.concatenate(halves)
    wrapped = case.wrap(layer)
    wrapped.build(x.shape)
    y, gradients = output_and_gradients(wrapped, x, training=True)
    where = f"{case.name} at |x| = 0 and {halves[1].max():g}"
    assert np.all(np.isfinite(y)), f"{where}: outputs {y}"
    assert len(gradients) == 1 + len(wrapped.trainable_weights)
    names = ["x"] + [w.path for w in wrapped.trainable_weights]
    for name, gradient in zip(names, gradients):
        assert np.all(np.isfinite(gradient)), f"{where}: the gradient of {name}"


#: float32's machine epsilon.
FLOAT32_EPS = float(np.finfo(np.float32).eps)


def _saturated_pair(case, rng):
    """The layer in float32 and in float64 with the same saturating weights
    (float32 values)."""
    layers = [case.create(dtype=dtype) for dtype in ("float32", "float64")]
    for layer in layers:
        layer.build((None, case.input_dim))
    ranges = case.saturating_weights
    for variable, twin in zip(layers[0].trainable_weights, layers[1].trainable_weights):
        name = variable.name.split("/")[-1]
        low, high = ranges[name] if isinstance(ranges, dict) else ranges
        magnitude = rng.uniform(low, high, size=variable.shape)
        value = (magnitude * rng.choice([-1.0, 1.0], size=variable.shape)).astype(
            "float32"
        )
        variable.assign(value)
        twin.assign(value.astype("float64"))
    return layers


def _per_example(evaluate, x):
    """[output, d/dx, d/dweights...] of each example alone, as float64, by
    `evaluate` (a `gradient_function`, compiled once for all of them)."""
    found = []
    for i in range(len(x)):
        y, gradients = evaluate(x[i : i + 1])
        found.append([np.asarray(v, np.float64) for v in (y.sum(), *gradients)])
    return found


def check_saturation(case, examples=6, perturbations=3):
    """Float32 output and gradients against float64 where the unit
    saturates.

    Each example's output, input gradient and weight gradients are computed
    alone, in float32 (eagerly and jit-compiled) and in float64 on the same
    float32 values. The float32 error, taken over each tensor as a whole,
    must stay below 4x what float64 changes when the inputs and weights are
    moved by one float32 rounding (a relative 2^-24, `perturbations` random
    draws), plus 64 float32 epsilons of the tensor's largest entry: ulps of
    a well-conditioned computation pass, and a gradient that loses its
    precision at saturation (the derivative of a sigmoid taken from its
    rounded output, 1 - g rounded to 0) does not.
    """
    if keras.backend.backend() == "jax":
        raise unittest.SkipTest(
            "No float64 reference on JAX: Keras's JAX backend computes "
            "keras.ops.tanh, sigmoid, cosh, ... of float64 inputs in float32."
        )
    if case.recurrent:
        raise unittest.SkipTest("check_saturation tests feed-forward units.")
    rng = np.random.default_rng(3)
    single, double = _saturated_pair(case, rng)
    signs = rng.choice([-1.0, 1.0], size=(examples, case.input_dim))
    x = (rng.uniform(0.5, 2.0, size=signs.shape) * signs).astype("float32")
    # the float64 reference compiled once for every example and perturbation
    # (XLA keeps float64 arithmetic in float64)
    training = case.saturation_training
    evaluate_double = gradient_function(double, training, compiled=True)
    reference = _per_example(evaluate_double, x.astype(np.float64))
    spread = [[np.zeros_like(v) for v in example] for example in reference]
    exact = [w.numpy() for w in double.trainable_weights]
    for _ in range(perturbations):
        for weight, value in zip(double.trainable_weights, exact):
            weight.assign(
                value * (1 + FLOAT32_EPS / 2 * rng.uniform(-1, 1, value.shape))
            )
        moved = x * (1 + FLOAT32_EPS / 2 * rng.uniform(-1, 1, x.shape))
        for example, other, bound in zip(
            reference, _per_example(evaluate_double, moved), spread
        ):
            for i, (a, b) in enumerate(zip(example, other)):
                bound[i] = np.maximum(bound[i], np.max(np.abs(a - b)))
    labels = ["output", "input gradient"] + [
        f"gradient of {w.name}" for w in single.trainable_weights
    ]
    for compiled in (False, True):
        computed = _per_example(gradient_function(single, training, compiled), x)
        for index, (example, expected, bound) in enumerate(
            zip(computed, reference, spread)
        ):
            for label, got, want, moved in zip(labels, example, expected, bound):
                scale = np.max(np.abs(want))
                error = np.max(np.abs(got - want))
                limit = 4 * np.max(moved) + 64 * FLOAT32_EPS * scale
                assert error <= limit, (
                    f"{case.name}, example {index}, {'jit' if compiled else 'eager'}: "
                    f"the {label} is off by {error:.3g} (float64 {scale:.3g} at most, "
                    f"float32 rounding of the inputs moves it by {np.max(moved):.3g})"
                )


#: Every check, by name; `run_layer_test` runs them in this order.
CHECKS = {
    "equations": check_equations,
    "weights_and_losses": check_weights_and_losses,
    "config": check_config,
    "integration": check_integration,
    "mixed_precision": check_mixed_precision,
    "finite_gradients": check_finite_gradients,
    "saturation": check_saturation,
}


def run_layer_test(case, checks=None):
    """Runs `checks` (names of `CHECKS`; default all) on `case`. Checks the
    backend cannot run are skipped; returns the names of those skipped."""
    skipped = []
    for name in checks or CHECKS:
        try:
            CHECKS[name](case)
        except unittest.SkipTest:
            skipped.append(name)
    return skipped
