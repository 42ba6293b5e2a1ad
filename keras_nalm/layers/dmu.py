"""The Domain Mixed Unit (DMU): operands and a domain gate predicted from
the input, executed in a linear and a logarithmic domain."""

import math

import keras
from keras import ops

from keras_nalm import ops as nalm_ops
from keras_nalm._validation import check_positive_float
from keras_nalm.layers.base import NALMLayer
from keras_nalm.layers.base import _once_built
from keras_nalm.layers.base import resolve
from keras_nalm.layers.base import serialized
from keras_nalm.saving import register_serializable

#: The precisions the DMU computes in (None: its variables' dtype).
PRECISIONS = (None, "float32", "float64")


def soft_clamp(x, low, high):
    """A smooth clamp into (low, high): low + softplus(high - softplus(high
    - x) - low), the authors' soft ceiling then soft floor."""
    ceiling = high - ops.softplus(high - x)
    return low + ops.softplus(ceiling - low)


def two_way_softmax(logits):
    """softmax over the last axis of two, as (sigmoid(a - b), sigmoid(b -
    a)): its gradient keeps its precision where the gate saturates
    (`keras_nalm.ops.sigmoid`)."""
    difference = logits[..., 0] - logits[..., 1]
    return ops.stack([nalm_ops.sigmoid(difference), nalm_ops.sigmoid(-difference)], -1)


def domain_mixed(magnitude, sign, operands, gate, limits, sign_scale, smoothing):
    """One DMU step: y = sign * magnitude of the operands' result in the two
    domains, mixed by the gate.

    `magnitude`, `sign`: `(..., 1, in)` of the inputs; `operands`: O, `(...,
    units, in)`; `gate`: `(..., units, 2)`, (G_lin, G_log); `limits`: the
    magnitude's (low, high).
    """
    low, high = limits
    linear_gate, log_gate = gate[..., 0], gate[..., 1]
    linear = ops.sum(operands * sign * magnitude, axis=-1)
    logarithmic = ops.sum(operands * ops.log(ops.maximum(magnitude, low)), axis=-1)
    negatives = ops.sum(ops.abs(operands) * (1.0 - sign) / 2.0, axis=-1)
    result_sign = linear_gate * nalm_ops.tanh(linear / sign_scale) + log_gate * ops.cos(
        math.pi * negatives
    )
    # the logarithmic result is bounded by its soft clamp; a hard clip of it
    # would only add a kink at m_max where rounding decides the gradient
    linear_magnitude = ops.clip(ops.sqrt(linear * linear + smoothing), low, high)
    log_magnitude = ops.exp(soft_clamp(logarithmic, math.log(low), math.log(high)))
    return result_sign * (linear_gate * linear_magnitude + log_gate * log_magnitude)


def _limits(name, limits):
    low, high = (float(limit) for limit in limits)
    if not 0 < low < high:
        raise ValueError(
            f"`{name}` must be (m_min, m_max) with 0 < m_min < m_max, "
            f"received {limits!r}."
        )
    return low, high


@register_serializable
class DMU(NALMLayer):
    """Domain Mixed Unit (DMU), one step of a differentiable arithmetic DAG.

    The unit reads its input twice: as the operands' values and, through
    linear heads, as the plan it executes (Curry 2025). For each output o
    the heads predict operand weights O_o and a two-way domain gate
    G_o = (G_lin, G_log) from the layer-normalised input h:

        h = LayerNorm(x)
        O_o = tanh(h W_s + b_s)_o * softplus(h W_m + b_m)_o   in R^in
        G_o = softmax(h W_g + b_g)_o                          in R^2

    Each input is a magnitude m_j = |x_j| and a sign s_j (+1 for x_j >= 0,
    else -1), and the unit mixes a linear and a logarithmic result:

        R_lin = sum_j O_j s_j m_j
        R_log = sum_j O_j log max(m_j, m_min)
        sign  = G_lin tanh(R_lin / tau) + G_log cos(pi sum_j |O_j| (1 - s_j) / 2)
        |y|   = G_lin clip(sqrt(R_lin^2 + delta)) + G_log exp(softclamp(R_log))
        y     = sign * |y|

    so that O = (1, 1) adds or multiplies and O = (1, -1) subtracts or
    divides, as the gate picks the domain. softclamp is a smooth clamp
    into (log m_min, log m_max). Training calls compute this soft form;
    other calls harden it, as the authors evaluate: O rounded to
    {-1, 0, 1}, G the one-hot of its larger entry, and the limits relaxed
    to `evaluation_magnitude_limits` (the soft clamp then changes a
    result of moderate size by far less than float64's rounding).

    With `operand_pattern` (e.g. `(1, -1)` for subtraction and division,
    padded with zeros to the input size) O is fixed and only the gate is
    learned: the paper's DMU_add and DMU_sub, whose pattern is chosen from
    the task's operation, an oracle a unit that must find its operands
    does not have.

    Departures and choices, where the authors' code (marict/nalm-benchmark,
    `stable_nalu/layer/dag.py`, whose versions differ) and this layer
    differ: the clip into [m_min, m_max] applies to the linear result (the
    authors clip the mixed magnitude; the logarithmic result is within the
    limits by its soft clamp, and the two agree wherever the gate is
    hardened); one step per output (the authors' layer has one output and a
    depth-1 DAG; its operand vector has a slot for the step's own node,
    always masked, which this layer leaves out, so its heads' Glorot
    fan-out is `units * in` rather than `in + 1`); `precision` None
    computes in the variables' dtype, where the authors compute in
    float64 (`precision="float64"`, which the lab's reproduction uses; on
    JAX it needs `jax_enable_x64`). The unit has no regularizer and no
    sparsity error of its own: its operands depend on the input, so eq.
    17 has no fixed weights to read (`sparsity_error()` is None), and
    `describe` does not read it.

    Args:
        units: int > 0, the output dimension.
        operand_pattern: None (O learned, default) or a sequence of floats,
            the fixed O of every output (the oracle DMU_add / DMU_sub).
        magnitude_limits: (m_min, m_max) in training calls, 0 < m_min <
            m_max (default (1e-11, 1e6)).
        evaluation_magnitude_limits: (m_min, m_max) in other calls
            (default (1e-20, 1e20)).
        sign_scale: float > 0, tau (default 1e-4).
        smoothing: float > 0, delta (default 1e-8).
        layer_norm_epsilon: float > 0 (default 1e-5, PyTorch's).
        head_initializer: for W_s, W_m, W_g (default `"glorot_uniform"`).
        head_bias_initializer: for b_s, b_m, b_g (default `"zeros"`).
        precision: None, `"float32"` or `"float64"` (default None).
        **kwargs: base layer arguments (`name`, `dtype`, ...).

    Call arguments:
        inputs: floating point tensor `(batch_size, ..., input_dim)`.
        training: bool; the soft form when training, the hardened one
            otherwise.

    Input shape: `(batch_size, ..., input_dim)`.
    Output shape: `(batch_size, ..., units)`.

    Example:
    >>> inputs = keras.Input((2,))
    >>> outputs = keras_nalm.layers.DMU(1)(inputs)

    Reference:
    - [Curry, 2025](https://arxiv.org/abs/2509.08180), the Domain Mixed
      Unit; marict/nalm-benchmark at 9350f32, `stable_nalu/layer/dag.py`.
    """

    def __init__(
        self,
        units,
        operand_pattern=None,
        magnitude_limits=(1e-11, 1e6),
        evaluation_magnitude_limits=(1e-20, 1e20),
        sign_scale=1e-4,
        smoothing=1e-8,
        layer_norm_epsilon=1e-5,
        head_initializer="glorot_uniform",
        head_bias_initializer="zeros",
        precision=None,
        **kwargs,
    ):
        super().__init__(units, **kwargs)
        self.operand_pattern = (
            None if operand_pattern is None else [float(v) for v in operand_pattern]
        )
        self.magnitude_limits = _limits("magnitude_limits", magnitude_limits)
        self.evaluation_magnitude_limits = _limits(
            "evaluation_magnitude_limits", evaluation_magnitude_limits
        )
        self.sign_scale = check_positive_float("sign_scale", sign_scale)
        self.smoothing = check_positive_float("smoothing", smoothing)
        self.layer_norm_epsilon = check_positive_float(
            "layer_norm_epsilon", layer_norm_epsilon
        )
        self.head_initializer = resolve("initializer", head_initializer)
        self.head_bias_initializer = resolve("initializer", head_bias_initializer)
        if precision not in PRECISIONS:
            raise ValueError(
                f"Unknown precision={precision!r}; expected one of {list(PRECISIONS)}."
            )
        self.precision = precision

    def build_unit(self, input_dim):
        pattern = self.operand_pattern
        if pattern is not None and len(pattern) > input_dim:
            raise ValueError(
                f"DMU '{self.name}': `operand_pattern` has {len(pattern)} "
                f"values for {input_dim} inputs."
            )
        self.norm_scale = self.add_unit_weight(
            "norm_scale", keras.initializers.Ones(), shape=(input_dim,)
        )
        self.norm_offset = self.add_unit_weight(
            "norm_offset", keras.initializers.Zeros(), shape=(input_dim,)
        )
        heads = (("gate", 2),) if pattern is not None else ()
        heads = heads or (("sign", input_dim), ("magnitude", input_dim), ("gate", 2))
        for head, size in heads:
            kernel = self.add_unit_weight(
                f"{head}_kernel",
                self.head_initializer,
                shape=(input_dim, self.units * size),
            )
            bias = self.add_unit_weight(
                f"{head}_bias", self.head_bias_initializer, shape=(self.units * size,)
            )
            setattr(self, f"{head}_kernel", kernel)
            setattr(self, f"{head}_bias", bias)

    def _head(self, h, head, size):
        kernel = ops.cast(getattr(self, f"{head}_kernel"), h.dtype)
        bias = ops.cast(getattr(self, f"{head}_bias"), h.dtype)
        logits = ops.matmul(h, kernel) + bias
        return ops.reshape(logits, (*ops.shape(h)[:-1], self.units, size))

    def plan(self, x, hardened=False):
        """(O, G) for the inputs `x` (in the unit's precision): the operand
        weights `(..., units, input_dim)` and the gate `(..., units, 2)`;
        `hardened`: as evaluation uses them."""
        x = ops.cast(x, self._compute_precision())
        mean = ops.mean(x, axis=-1, keepdims=True)
        variance = ops.mean(ops.square(x - mean), axis=-1, keepdims=True)
        h = (x - mean) / ops.sqrt(variance + self.layer_norm_epsilon)
        h = h * ops.cast(self.norm_scale, x.dtype) + ops.cast(self.norm_offset, x.dtype)
        gate = two_way_softmax(self._head(h, "gate", 2))
        if self.operand_pattern is None:
            sign = nalm_ops.tanh(self._head(h, "sign", self.input_dim))
            operands = sign * ops.softplus(self._head(h, "magnitude", self.input_dim))
        else:
            pattern = self.operand_pattern
            pattern = pattern + [0.0] * (self.input_dim - len(pattern))
            operands = ops.broadcast_to(
                ops.convert_to_tensor(pattern, dtype=x.dtype),
                ops.shape(gate)[:-1] + (self.input_dim,),
            )
        if hardened:
            operands = ops.clip(ops.round(operands), -1.0, 1.0)
            gate = ops.one_hot(ops.argmax(gate, axis=-1), 2, dtype=x.dtype)
        return operands, gate

    def _compute_precision(self):
        return self.precision or self.variable_dtype

    def _execute(self, x, hardened):
        operands, gate = self.plan(x, hardened)
        x = ops.cast(x, operands.dtype)
        magnitude = ops.expand_dims(ops.abs(x), -2)
        sign = ops.expand_dims(ops.where(x >= 0, 1.0, -1.0), -2)
        limits = self.evaluation_magnitude_limits if hardened else self.magnitude_limits
        y = domain_mixed(
            magnitude,
            ops.cast(sign, x.dtype),
            operands,
            gate,
            limits,
            self.sign_scale,
            self.smoothing,
        )
        return ops.cast(y, self.variable_dtype)

    def compute(self, x):
        return self._execute(x, hardened=True)

    def compute_in_training(self, x):
        return self._execute(x, hardened=False)

    def effective_weights(self):
        return {
            weight.name: ops.convert_to_numpy(weight)
            for weight in self.trainable_weights
        }

    @_once_built
    def sparsity_error(self):
        """None: the operands depend on the input, eq. 17 has no fixed
        weights to read."""
        return None

    def get_config(self):
        config = super().get_config()
        config.update(
            operand_pattern=self.operand_pattern,
            magnitude_limits=list(self.magnitude_limits),
            evaluation_magnitude_limits=list(self.evaluation_magnitude_limits),
            sign_scale=self.sign_scale,
            smoothing=self.smoothing,
            layer_norm_epsilon=self.layer_norm_epsilon,
            precision=self.precision,
            **serialized(self, "head_initializer", "head_bias_initializer"),
        )
        return config
