"""What every arithmetic unit and recurrent cell shares.

- `UnitBase`: the weight, control-variable, re-initialisation and
  sparsity machinery, shared by the feed-forward units (`NALMLayer`) and
  the recurrent cells (`keras_nalm.layers.NALMCell`).
- `NALMLayer`: a feed-forward unit, `(..., in) -> (..., units)`.
- `ScaledRegularizationLayer`: a unit whose own regularizer is scaled by a
  control variable that callbacks drive.
- `InputRegularization`: the input regularizer R_z (NAU, NMU, NAC+, NAC•).
- `KernelLayer`: a unit with one clipped `kernel` and R_z (NAU, NMU).
"""

import functools
import warnings

import keras
import numpy as np
from keras import ops

from keras_nalm import constraints as nalm_constraints
from keras_nalm import initializers as nalm_initializers
from keras_nalm import regularizers as nalm_regularizers
from keras_nalm import symbolic
from keras_nalm._validation import check_float_input
from keras_nalm._validation import check_non_negative_float
from keras_nalm._validation import check_positive_int

#: The arguments of a unit's main weights, as in `keras.layers.Dense`.
KERNEL_ARGUMENTS = ("kernel_initializer", "kernel_regularizer", "kernel_constraint")


def serialized(layer, *names):
    """`{name: serialized layer.name}` of initializers, regularizers and
    constraints, for `get_config`."""
    return {
        name: keras.saving.serialize_keras_object(getattr(layer, name))
        for name in names
    }


def sparsity_error(matrix):
    """Madsen eq. 17: max over the entries of min(|W|, |1 - |W||)."""
    magnitude = np.abs(np.asarray(matrix, dtype=np.float64))
    return float(np.max(np.minimum(magnitude, np.abs(1.0 - magnitude))))


def defined_sparsity_error(layer):
    """Madsen eq. 17 of a layer that defines it, or None: its
    `sparsity_error()` (None where it defines none), or eq. 17 over what
    its `effective_weights()` returns (an array, or a list or dict of
    arrays)."""
    if callable(getattr(layer, "sparsity_error", None)):
        error = layer.sparsity_error()
        return None if error is None else float(error)
    if callable(getattr(layer, "effective_weights", None)):
        weights = layer.effective_weights()
        if isinstance(weights, dict):
            weights = list(weights.values())
        if not isinstance(weights, (list, tuple)):
            weights = [weights]
        return sparsity_error(
            np.concatenate([np.ravel(ops.convert_to_numpy(w)) for w in weights])
        )
    return None


def resolve(kind, identifier):
    """Resolves an initializer, regularizer or constraint identifier."""
    getter = {
        "initializer": nalm_initializers.get,
        "regularizer": nalm_regularizers.get,
        "constraint": nalm_constraints.get,
    }[kind]
    return getter(identifier)


def _once_built(read):
    """`read(unit)` (a unit's `effective_weights`), refused with a clear
    error while the unit has no weights yet."""

    @functools.wraps(read)
    def read_built(unit):
        if not unit.built:
            raise ValueError(
                f"{type(unit).__name__} {unit.name!r} has no weights yet: call it "
                "on inputs (or build it) before reading its weights."
            )
        return read(unit)

    return read_built


#: Variable dtypes in which a unit computes its products and exponentials
#: in half precision (a plain `"float16"` or `"bfloat16"` policy).
HALF_PRECISION = ("float16", "bfloat16")


def _reseeded(initializer, rank):
    """`initializer` with a seed derived from its own and `rank` (> 0): the
    draw of the rank-th further weight it initialises. One without a seed,
    or seeded with a `keras.random.SeedGenerator` (a new draw on every
    call), is returned as it is."""
    seed = getattr(initializer, "seed", None)
    if not isinstance(seed, int) or "seed" not in initializer.get_config():
        return initializer
    config = initializer.get_config()
    state = np.random.SeedSequence([seed, rank]).generate_state(1)[0]
    config["seed"] = int(state >> 1)  # below 2**31
    return type(initializer).from_config(config)


def _warn_of_half_precision(unit):
    """Warns that `unit` computes in half precision: under a plain
    half-precision policy its variables, and so its computation, are of
    that dtype (under `mixed_*` policies they stay float32)."""
    dtype = unit.dtype_policy.variable_dtype
    if dtype in HALF_PRECISION:
        warnings.warn(
            f"{type(unit).__name__} '{unit.name}' computes in {dtype} under "
            f"the '{unit.dtype_policy.name}' dtype policy, where its products "
            "and exponentials overflow float16 (65504) or lose bfloat16's "
            "precision for moderate inputs; 'mixed_float16' or "
            "'mixed_bfloat16' keep the unit in float32, as does "
            "dtype='float32'.",
            stacklevel=3,
        )


class UnitBase(keras.layers.Layer):
    """The machinery of the arithmetic units and their recurrent cells.

    - Control variables (`add_control`): non-trainable float32 scalars that
      callbacks set while a compiled `fit` runs (a Python float would be
      frozen into the compiled step).
    - Unit weights (`add_unit_weight`): float32 weights whose initializer is
      kept, so that `reinitialize(seed)` can draw fresh values for them and
      for those of any sub-unit (a recurrent cell's unit).
    - Numerics: computation in the variable dtype (float32 under a
      `mixed_float16` or `mixed_bfloat16` policy), because the units'
      products and exponentials leave float16's range (65504) for inputs
      far smaller than those they are meant to extrapolate to; under a
      plain `float16` or `bfloat16` policy the variables, and so the
      computation, are half precision, and the unit warns that it is.
    - Reading the weights: `effective_weights()`, `sparsity_error()` (Madsen
      eq. 17) and `symbolic(expressions)`, which `keras_nalm.describe` uses;
      on a unit not yet built, `effective_weights()` (which the others
      read), in this class or any subclass, raises a `ValueError` saying so.

    Subclasses either set `discrete_values` and `combine` (how `describe`
    reads the `"kernel"` of `effective_weights()`) or override `symbolic`.
    """

    #: Prefixes of `effective_weights()` keys the sparsity error ignores.
    sparsity_excluded = ("gate",)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "effective_weights" in cls.__dict__:
            cls.effective_weights = _once_built(cls.__dict__["effective_weights"])

    #: The values `describe` rounds the effective `"kernel"` to.
    discrete_values = (-1, 0, 1)
    #: `symbolic.linear` (a sum) or `symbolic.product`, as a staticmethod.
    combine = None
    #: The identity of the unit's operation (0 for sums, 1 for products):
    #: the initial state of the unit used as a recurrent cell.
    identity_value = 0.0

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.autocast = False
        self._unit_weight_initializers = {}
        self._unit_initializer_uses = {}
        _warn_of_half_precision(self)

    def add_control(self, name, value):
        """Adds a non-trainable float32 scalar that training callbacks set."""
        return self.add_weight(
            name=name,
            shape=(),
            initializer=keras.initializers.Constant(value),
            trainable=False,
            autocast=False,
        )

    def add_unit_weight(self, name, initializer, regularizer, constraint, shape):
        """Adds a trainable weight whose initializer `reinitialize` reuses.

        Each weight is an independent draw: a random initializer that drew
        another weight of this unit before (the NAC's `w_hat` and `m_hat`
        share one) draws this one with a seed derived from its own and the
        weight's rank (`_reseeded`), as the reference code draws each of
        its weights afresh; a Keras initializer seeded with an int, or not
        at all, would return the same values on every call.
        """
        drawn = self._unit_initializer_uses.get(id(initializer), 0)
        self._unit_initializer_uses[id(initializer)] = drawn + 1
        if drawn:
            initializer = _reseeded(initializer, drawn)
        variable = self.add_weight(
            name=name,
            shape=shape,
            initializer=initializer,
            regularizer=regularizer,
            constraint=constraint,
            autocast=False,
        )
        self._unit_weight_initializers[id(variable)] = initializer
        return variable

    def unit_weight_initializer(self, variable):
        """The initializer that `variable`, a weight of this unit, was drawn
        with."""
        return self._unit_weight_initializers[id(variable)]

    def reinitialize(self, seed=None):
        """Draws fresh values for every trainable weight and returns them.

        The unit's own weights come first, in `trainable_weights` order,
        each from its initializer rebuilt with a new seed (an initializer
        seeded once returns the same values on every call); then those of
        its sub-units. `seed` (an int) makes the draw reproducible; None
        takes one from NumPy's global generator, which
        `keras.utils.set_random_seed` seeds.
        """
        rng = np.random.default_rng(
            np.random.randint(2**31 - 1) if seed is None else seed
        )
        reinitialized = []
        for variable in self.trainable_weights:
            if id(variable) not in self._unit_weight_initializers:
                continue  # a sub-unit's weight, drawn below
            initializer = self.unit_weight_initializer(variable)
            config = initializer.get_config()
            if "seed" in config:
                config["seed"] = int(rng.integers(2**31 - 1))
                initializer = type(initializer).from_config(config)
            variable.assign(initializer(variable.shape, variable.dtype))
            reinitialized.append(variable)
        for unit in self.sub_units():
            reinitialized += unit.reinitialize(int(rng.integers(2**31 - 1)))
        return reinitialized

    def sub_units(self):
        """The units this one is built from (none; a recurrent cell's unit)."""
        return []

    def effective_weights(self):
        """The weights as the unit's equations use them, as NumPy arrays.

        Returns a dict from name to array: the transformed matrices
        (tanh(w_hat) * sigmoid(m_hat), or the clipped kernel) and, for gated
        units, the gate's kernel and bias. Keys not starting with one of
        `sparsity_excluded` are the arithmetic weights that the sparsity
        error is taken over.
        """
        raise NotImplementedError

    def arithmetic_weights(self):
        """The effective weights that the sparsity error is taken over (those
        whose key does not start with one of `sparsity_excluded`), as one
        flat float64 array."""
        return np.concatenate(
            [
                np.asarray(value, dtype=np.float64).ravel()
                for key, value in self.effective_weights().items()
                if not key.startswith(self.sparsity_excluded)
            ]
        )

    def sparsity_error(self):
        """Madsen eq. 17 over this unit's arithmetic weights."""
        return sparsity_error(self.arithmetic_weights())

    def symbolic(self, expressions):
        """Maps input expressions to `(outputs, definitions)`, the output
        expressions and the lines that define names they use (see
        `keras_nalm.describe`)."""
        if self.combine is None:
            raise NotImplementedError(
                f"describe() does not read {type(self).__name__} layers; "
                "see their effective_weights()."
            )
        kernel = self.effective_weights()["kernel"]
        return symbolic.read(
            expressions, kernel, self.discrete_values, self.combine
        ), []


class NALMLayer(UnitBase):
    """Base class of the feed-forward units: `(..., in)` to `(..., units)`.

    On top of `UnitBase` it checks its input (rank >= 2, a known last axis,
    floating point) with clear errors, casts it to the variable dtype and
    returns the variable dtype. In training calls it adds the unit's input
    penalty (`input_penalty`, R_z for the NAU and NMU) as a layer loss;
    inside a recurrent cell the unit's `compute` is called instead, and the
    cell's RNN adds the penalty over the whole sequence.

    Subclasses implement `build_unit(input_dim)`, `compute(x)` and
    `effective_weights()`.

    Args:
        units: int > 0, the output dimension.
        **kwargs: base `keras.layers.Layer` arguments (`name`, `dtype`, ...).
    """

    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = check_positive_int("units", units)
        self.input_dim = None

    @property
    def output_dim(self):
        """The size of the output's last axis."""
        return self.units

    def build(self, input_shape):
        input_shape = tuple(input_shape)
        if len(input_shape) < 2:
            raise ValueError(
                f"Layer '{self.name}' ({type(self).__name__}) expects inputs "
                f"of rank >= 2, (batch, ..., features); received shape "
                f"{input_shape}."
            )
        if input_shape[-1] is None:
            raise ValueError(
                f"Layer '{self.name}' ({type(self).__name__}) needs a known "
                f"last (feature) axis; received shape {input_shape}."
            )
        self.input_dim = int(input_shape[-1])
        self.build_controls()
        self.build_unit(self.input_dim)
        self.input_spec = keras.layers.InputSpec(min_ndim=2, axes={-1: self.input_dim})

    def add_unit_weight(
        self, name, initializer, regularizer=None, constraint=None, shape=None
    ):
        """Adds an `(input_dim, units)` weight, or one of `shape`."""
        return super().add_unit_weight(
            name,
            initializer,
            regularizer,
            constraint,
            shape or (self.input_dim, self.units),
        )

    def call(self, inputs, training=None):
        check_float_input(self, inputs)
        x = ops.cast(inputs, self.variable_dtype)
        if training:
            return self.compute_in_training(x)
        return self.compute(x)

    def compute_in_training(self, x):
        """The unit in a training call: its input penalty added as a layer
        loss, then `compute(x)`. A unit that trains otherwise than it
        evaluates (`keras_nalm.layers.StochasticNMU`) overrides it."""
        self.add_input_penalty(x)
        return self.compute(x)

    def add_input_penalty(self, x):
        """Adds `input_penalty` of the mean of `x` (over every axis but the
        last) as a layer loss, when the unit has one."""
        axes = tuple(range(len(x.shape) - 1))
        penalty = self.input_penalty(ops.mean(x, axis=axes))
        if penalty is not None:
            self.add_loss(penalty)

    @property
    def has_input_penalty(self):
        """Whether `input_penalty` adds a loss (R_z switched on)."""
        return False

    def input_penalty(self, input_mean):
        """The loss that depends on the mean input (over the batch and any
        time steps), or None: R_z for the NAU and NMU, None otherwise."""
        return None

    def build_controls(self):
        """Creates the layer's control variables, before its weights."""

    def build_unit(self, input_dim):
        raise NotImplementedError

    def compute(self, x):
        """The unit's equation on `x`, already float32 `(..., input_dim)`."""
        raise NotImplementedError

    def get_config(self):
        config = super().get_config()
        config["units"] = self.units
        return config


class ScaledRegularizationLayer(NALMLayer):
    """A NALMLayer whose own regularizer is scaled by a control variable.

    The penalty of each weight is

        scale * unit_regularizer(W) + kernel_regularizer(W)

    where `scale` is the non-trainable scalar variable
    `regularizer_scale_variable`, so that a callback can change it inside a
    compiled `model.fit` (a Python float would be frozen into the compiled
    step). Its name, `scale_variable_name`, tells the callbacks which layers
    they drive: `"regularizer_scale"` for the sparsity regularizers of the
    NAU, NMU, NAC•,NMU and gated NAU/NMU (`RegularizerWarmup`); the iNALU
    and NPU use their own names.

    It starts at 0 by default: Madsen & Johansen (2020, §2.7, eq. 14) keep
    the sparsity regularizer off until the weights are near a solution.

    Args:
        units: int > 0, the output dimension.
        regularizer_scale: float >= 0, the initial value of the variable
            (default 0.0: off until a callback raises it).
        **kwargs: base layer arguments.
    """

    scale_variable_name = "regularizer_scale"

    def __init__(self, units, regularizer_scale=0.0, **kwargs):
        super().__init__(units, **kwargs)
        self.initial_regularizer_scale = check_non_negative_float(
            "regularizer_scale", regularizer_scale
        )
        self.regularizer_scale_variable = None

    @property
    def regularizer_scale(self):
        """The scale now (float): the value of `regularizer_scale_variable`,
        which `RegularizerWarmup` drives, once the layer is built; the
        constructor's value (`initial_regularizer_scale`) before."""
        if self.regularizer_scale_variable is None:
            return self.initial_regularizer_scale
        return float(keras.ops.convert_to_numpy(self.regularizer_scale_variable))

    def build_controls(self):
        super().build_controls()
        self.regularizer_scale_variable = self.add_control(
            self.scale_variable_name, self.initial_regularizer_scale
        )

    def unit_regularizer(self, scaled_regularizer, kernel_regularizer):
        """The callable penalty of one weight (None when there is none)."""
        if scaled_regularizer is None:
            return kernel_regularizer
        return nalm_regularizers.scaled_penalty(
            scaled_regularizer, self.regularizer_scale_variable, kernel_regularizer
        )

    def get_config(self):
        config = super().get_config()
        config["regularizer_scale"] = self.initial_regularizer_scale
        return config


class InputRegularization:
    """Mixin of the units that take the input regularizer R_z (Madsen
    §4.2 and eq. 75): NAU, NMU, NAC+ and NAC•. List it before the layer
    base class.

    R_z reads the unit's effective weight matrix (`weight_matrix()`) and
    the mean of its input; `input_regularization_target` picks its form:
    `"binary"` for units whose identity input is 1 (NMU, NAC•),
    `"ternary"` for those whose identity input is 0 (NAU, NAC+).

    Args:
        input_regularization: float >= 0, the strength lambda_z of R_z
            (default 0: off). When positive, it is kept in the non-trainable
            variable `input_regularization_variable` (path name
            `input_regularization`), which can be assigned during training;
            R_z is then added as a layer loss in training calls (over the
            whole sequence in `keras_nalm.layers.ArithmeticRNN`).
    """

    input_regularization_target = None

    def __init__(self, *args, input_regularization=0.0, **kwargs):
        super().__init__(*args, **kwargs)
        self.input_regularization = check_non_negative_float(
            "input_regularization", input_regularization
        )
        self.input_regularization_variable = None

    def build_controls(self):
        super().build_controls()
        if self.input_regularization > 0:
            self.input_regularization_variable = self.add_control(
                "input_regularization", self.input_regularization
            )

    @property
    def has_input_penalty(self):
        return self.input_regularization > 0

    def input_penalty(self, input_mean):
        """lambda_z * R_z(W, x̄) when R_z is on, else None."""
        if self.input_regularization_variable is None:
            return None
        penalty = nalm_regularizers.input_penalty(
            self.weight_matrix(), input_mean, self.input_regularization_target
        )
        return self.input_regularization_variable * penalty

    def get_config(self):
        config = super().get_config()
        config["input_regularization"] = self.input_regularization
        return config


class KernelLayer(InputRegularization, ScaledRegularizationLayer):
    """A unit with a single `(input_dim, units)` weight named `kernel`,
    clipped to `kernel_range` in the forward pass (NAU, NMU), with the
    input regularizer R_z (`InputRegularization`).

    Args:
        units: int > 0, the output dimension.
        kernel_initializer: as in `keras.layers.Dense`.
        kernel_regularizer: as in `keras.layers.Dense`.
        kernel_constraint: as in `keras.layers.Dense`.
        sparsity_regularizer: the unit's sparsity regularizer, multiplied by
            `regularizer_scale`.
        **kwargs: `input_regularization`, `regularizer_scale` and base
            layer arguments.
    """

    kernel_range = None
    #: The unit's equation `equation(x, kernel)`, as a staticmethod.
    equation = None

    def __init__(
        self,
        units,
        kernel_initializer,
        kernel_regularizer,
        kernel_constraint,
        sparsity_regularizer,
        **kwargs,
    ):
        super().__init__(units, **kwargs)
        self.kernel_initializer = resolve("initializer", kernel_initializer)
        self.kernel_regularizer = resolve("regularizer", kernel_regularizer)
        self.kernel_constraint = resolve("constraint", kernel_constraint)
        self.sparsity_regularizer = resolve("regularizer", sparsity_regularizer)

    def build_unit(self, input_dim):
        self.kernel = self.add_unit_weight(
            "kernel",
            self.kernel_initializer,
            self.unit_regularizer(self.sparsity_regularizer, self.kernel_regularizer),
            self.kernel_constraint,
        )

    def weight_matrix(self):
        """The kernel clipped to `kernel_range`, as a tensor."""
        return ops.clip(self.kernel, *self.kernel_range)

    def compute(self, x):
        return self.equation(x, self.kernel)

    def effective_weights(self):
        return {"kernel": ops.convert_to_numpy(self.weight_matrix())}

    def get_config(self):
        config = super().get_config()
        config.update(serialized(self, *KERNEL_ARGUMENTS, "sparsity_regularizer"))
        return config
