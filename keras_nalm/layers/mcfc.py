"""Mass-conserving fully connected layers (MC-FC) and their multiplicative
form (MulMCFC)."""

import math

from keras import ops

from keras_nalm._validation import check_choice
from keras_nalm._validation import check_non_negative_float
from keras_nalm.layers.base import ScaledRegularizationLayer
from keras_nalm.layers.base import resolve
from keras_nalm.layers.base import serialized
from keras_nalm.saving import register_serializable

#: MulMCFC's sign of the output: none (positive inputs only), the iNALU's
#: product of signs, or the Real NPU's cosine.
SIGNS = ("none", "inalu", "real_npu")


def junction_matrix(logits):
    """J = softmax(R) over the outputs (the last axis), as exp(R - logsumexp
    R): with one output it is 1, which `keras.ops.softmax` warns of."""
    return ops.exp(logits - ops.logsumexp(logits, axis=-1, keepdims=True))


def mass_redistribution(x, junction, gate_kernel, gate_bias):
    """MC-FC: y = sigmoid(w + b) * (x @ softmax(R, axis=-1))."""
    output_gate = ops.sigmoid(gate_kernel[0] + gate_bias)
    return output_gate * ops.matmul(x, junction_matrix(junction))


@register_serializable
class MCFC(ScaledRegularizationLayer):
    """Mass-conserving fully connected layer (MC-FC), for addition.

    Each input's mass is split among the outputs by a junction whose rows
    sum to 1, and an output gate keeps a share of each output's mass
    (Hoedt et al. 2021, the MC-LSTM's mass-conserving layer without
    recurrence):

        J = softmax(R, axis=outputs)          R in R^(in x units)
        o = sigmoid(w + b)                    w, b in R^units
        y = o * (x J)

    so that sum_o (x J)_o = sum_i x_i: the junction conserves the inputs'
    total, and the gate discards the (1 - o) share. The gate is the MC-LSTM
    output gate fed with the constant 1 (the layer's only auxiliary input),
    so o is a learned vector in (0, 1)^units. With one output J = 1 for
    every input and y = o * sum_i x_i: the layer adds every input and
    solves addition when o -> 1. It cannot subtract (J >= 0).

    The regularizer is negative and unbounded below,
    -(mean(R^2) + mean(w^2) + mean(b^2)), times the variable
    `regularizer_scale` (which `keras_nalm.callbacks.RegularizerWarmup`
    drives; the NALM benchmark's runs: lambda = 10 warmed up from step
    20 000 to 35 000 of 50 000): it pushes the junction towards one-hot
    rows and the gate towards saturation.

    R starts as the identity when square, else orthogonal
    (`JunctionInitializer`); w is a random unit vector (orthogonal, as a
    one-input linear layer's weight); b starts at 0.

    Args:
        units: int > 0, the output dimension.
        junction_initializer: default `"mcfc_junction"`
            (`keras_nalm.initializers.JunctionInitializer()`).
        gate_initializer: for the gate's weight, shape `(1, units)`
            (default `"orthogonal"`).
        gate_bias_initializer: default `"zeros"`.
        concentration_regularizer: the layer's regularizer of R, w and b,
            multiplied by `regularizer_scale` (default `"concentration"`,
            `keras_nalm.regularizers.Concentration()`; None for none).
        regularizer_scale: float >= 0, initial value of the variable
            `regularizer_scale` (default 0.0).
        **kwargs: base layer arguments (`name`, `dtype`, ...).

    Call arguments:
        inputs: floating point tensor `(batch_size, ..., input_dim)`.

    Input shape: `(batch_size, ..., input_dim)`.
    Output shape: `(batch_size, ..., units)`.

    Example:
    >>> inputs = keras.Input((2,))
    >>> outputs = keras_nalm.layers.MCFC(1)(inputs)

    Reference:
    - [Hoedt et al., 2021](https://arxiv.org/abs/2101.05186), "MC-LSTM:
      Mass-Conserving LSTM", ICML 2021; as a NALM in the NALM benchmark,
      bmistry4/nalm-benchmark at 120ec8e, `stable_nalu/layer/mcfc.py`.
    """

    combine = None

    def __init__(
        self,
        units,
        junction_initializer="mcfc_junction",
        gate_initializer="orthogonal",
        gate_bias_initializer="zeros",
        concentration_regularizer="concentration",
        regularizer_scale=0.0,
        **kwargs,
    ):
        super().__init__(units, regularizer_scale=regularizer_scale, **kwargs)
        self.junction_initializer = resolve("initializer", junction_initializer)
        self.gate_initializer = resolve("initializer", gate_initializer)
        self.gate_bias_initializer = resolve("initializer", gate_bias_initializer)
        self.concentration_regularizer = resolve(
            "regularizer", concentration_regularizer
        )

    def build_unit(self, input_dim):
        penalty = self.unit_regularizer(self.concentration_regularizer, None)
        self.junction = self.add_unit_weight(
            "junction", self.junction_initializer, penalty
        )
        self.gate_kernel = self.add_unit_weight(
            "gate_kernel", self.gate_initializer, penalty, shape=(1, self.units)
        )
        self.gate_bias = self.add_unit_weight(
            "gate_bias", self.gate_bias_initializer, penalty, shape=(self.units,)
        )

    def compute(self, x):
        return mass_redistribution(x, self.junction, self.gate_kernel, self.gate_bias)

    def effective_weights(self):
        output_gate = ops.sigmoid(self.gate_kernel[0] + self.gate_bias)
        return {
            "junction": ops.convert_to_numpy(junction_matrix(self.junction)),
            "output_gate": ops.convert_to_numpy(output_gate),
        }

    def get_config(self):
        config = super().get_config()
        config.update(
            serialized(
                self,
                "junction_initializer",
                "gate_initializer",
                "gate_bias_initializer",
                "concentration_regularizer",
            )
        )
        return config


@register_serializable
class MulMCFC(MCFC):
    """Multiplicative MC-FC: the MC-FC in log space, for multiplication.

        y = exp(MCFC(log(v + epsilon)) + alpha) * s,    alpha in R^units

    (Hoedt et al. 2021; with the sign variants of the NALM benchmark). With
    `sign="none"`, v = x and s = 1, as the MC-LSTM authors' layer: there is
    no epsilon, so a zero or negative input gives NaN. The sign variants
    take v = |x| and restore the sign from the junction J = softmax(R):

    - `"inalu"`: s_o = prod_i (J_io sign(x_i) + 1 - J_io), the iNALU's
      product of the selected inputs' signs;
    - `"real_npu"`: s_o = cos(sum_i pi g_i [x_i < 0] J_io), the Real NPU's
      cosine, with a learned sign gate g in [0, 1]^input_dim (clipped in
      the forward pass, starting at 0.5).

    With one output J = 1 and the layer computes o * sum_i log v_i, so it
    solves multiplication when the output gate o -> 1 and alpha -> 0. The
    regularizer, initialisation and `regularizer_scale` are the MC-FC's;
    alpha starts at 0 and is not regularized.

    Args:
        units: int > 0, the output dimension.
        sign: `"none"` (default), `"inalu"` or `"real_npu"`.
        bias_initializer: for alpha (default `"zeros"`).
        sign_gate_initializer: for g (`sign="real_npu"`; default 0.5).
        sign_gate_regularizer: a regularizer of g (default None); the NALM
            benchmark's option is `keras_nalm.regularizers.Sparsity(
            target="binary")`, min(g, 1 - g).
        epsilon: float >= 0, added to v before its logarithm (default 0,
            the authors' layer; a zero input then has an infinite
            gradient, which a small epsilon such as 1e-7 keeps finite).
        regularizer_scale: float >= 0, initial value of the variable
            `regularizer_scale` (default 0.0), which scales the MC-FC's
            regularizer and the sign gate's.
        **kwargs: the MC-FC's arguments and base layer arguments.

    Call arguments:
        inputs: floating point tensor `(batch_size, ..., input_dim)`.

    Input shape: `(batch_size, ..., input_dim)`.
    Output shape: `(batch_size, ..., units)`.

    Example:
    >>> inputs = keras.Input((2,))
    >>> outputs = keras_nalm.layers.MulMCFC(1, sign="real_npu")(inputs)

    Reference:
    - [Hoedt et al., 2021](https://arxiv.org/abs/2101.05186), "MC-LSTM:
      Mass-Conserving LSTM", ICML 2021; the sign variants from
      bmistry4/nalm-benchmark at 120ec8e, `stable_nalu/layer/mcfc.py`
      (`MulMCFCSignINALU`, `MulMCFCSignRealNPU`).
    """

    sparsity_excluded = ("bias", "sign_gate")

    def __init__(
        self,
        units,
        sign="none",
        bias_initializer="zeros",
        sign_gate_initializer=0.5,
        sign_gate_regularizer=None,
        epsilon=0.0,
        regularizer_scale=0.0,
        **kwargs,
    ):
        super().__init__(units, regularizer_scale=regularizer_scale, **kwargs)
        self.sign = check_choice("sign", sign, SIGNS)
        self.epsilon = check_non_negative_float("epsilon", epsilon)
        self.bias_initializer = resolve("initializer", bias_initializer)
        if isinstance(sign_gate_initializer, (int, float)):
            sign_gate_initializer = {
                "class_name": "Constant",
                "config": {"value": float(sign_gate_initializer)},
            }
        self.sign_gate_initializer = resolve("initializer", sign_gate_initializer)
        self.sign_gate_regularizer = resolve("regularizer", sign_gate_regularizer)
        self.sign_gate = None

    def build_unit(self, input_dim):
        super().build_unit(input_dim)
        self.bias = self.add_unit_weight(
            "bias", self.bias_initializer, shape=(self.units,)
        )
        if self.sign == "real_npu":
            self.sign_gate = self.add_unit_weight(
                "sign_gate",
                self.sign_gate_initializer,
                self.unit_regularizer(self.sign_gate_regularizer, None),
                shape=(input_dim,),
            )

    def compute(self, x):
        magnitude = x if self.sign == "none" else ops.abs(x)
        log_sum = super().compute(ops.log(magnitude + self.epsilon))
        return ops.exp(log_sum + self.bias) * self.output_sign(x)

    def output_sign(self, x):
        """s of the layer's equation (1.0 for `sign="none"`)."""
        if self.sign == "none":
            return 1.0
        junction = junction_matrix(self.junction)
        if self.sign == "inalu":
            factors = ops.expand_dims(ops.sign(x), -1) * junction + (1.0 - junction)
            return ops.prod(factors, axis=-2)
        negative = ops.cast(ops.less(x, 0.0), x.dtype)
        angle = math.pi * ops.clip(self.sign_gate, 0.0, 1.0) * negative
        return ops.cos(ops.matmul(angle, junction))

    def effective_weights(self):
        found = {**super().effective_weights(), "bias": self.bias}
        if self.sign_gate is not None:
            found["sign_gate"] = ops.clip(self.sign_gate, 0.0, 1.0)
        return {key: ops.convert_to_numpy(value) for key, value in found.items()}

    def get_config(self):
        config = super().get_config()
        config["sign"] = self.sign
        config["epsilon"] = self.epsilon
        config.update(
            serialized(
                self,
                "bias_initializer",
                "sign_gate_initializer",
                "sign_gate_regularizer",
            )
        )
        return config
