"""Gated units: the NALU, the G-NALU and the gated NAU/NMU."""

import math

import keras
from keras import ops

from keras_nalm import ops as nalm_ops
from keras_nalm import symbolic
from keras_nalm._validation import check_choice
from keras_nalm._validation import check_positive_float
from keras_nalm.constraints import NAU_RANGE
from keras_nalm.constraints import NMU_RANGE
from keras_nalm.layers.base import KERNEL_ARGUMENTS
from keras_nalm.layers.base import NALMLayer
from keras_nalm.layers.base import ScaledRegularizationLayer
from keras_nalm.layers.base import resolve
from keras_nalm.layers.base import serialized
from keras_nalm.layers.nac import complex_multiply
from keras_nalm.layers.nac import nac_weight
from keras_nalm.layers.nac import nac_weight_distance
from keras_nalm.layers.nau import nau_equation
from keras_nalm.layers.nmu import nmu_equation
from keras_nalm.ops import log_abs
from keras_nalm.saving import register_serializable

MULTIPLICATIONS = ("log", "complex")
#: The arguments of the gated NAU/NMU's two kernels.
GATED_UNIT_ARGUMENTS = tuple(
    f"{unit}_{part}"
    for unit in ("nau", "nmu")
    for part in (*KERNEL_ARGUMENTS, "sparsity_regularizer")
)


class GatedLayer(NALMLayer):
    """A unit y = g * addition(x) + (1 - g) * multiplication(x) with
    g = sigmoid(x . G [+ b]) (Mistry eq. 4-5): owns `gate_kernel` and the
    optional `gate_bias`."""

    def __init__(
        self,
        units,
        use_gate_bias=False,
        gate_initializer="glorot_uniform",
        gate_bias_initializer="zeros",
        gate_regularizer=None,
        **kwargs,
    ):
        super().__init__(units, **kwargs)
        self.use_gate_bias = bool(use_gate_bias)
        self.gate_initializer = resolve("initializer", gate_initializer)
        self.gate_bias_initializer = resolve("initializer", gate_bias_initializer)
        self.gate_regularizer = resolve("regularizer", gate_regularizer)

    def build_gate(self):
        self.gate_kernel = self.add_unit_weight(
            "gate_kernel", self.gate_initializer, self.gate_regularizer
        )
        self.gate_bias = None
        if self.use_gate_bias:
            self.gate_bias = self.add_unit_weight(
                "gate_bias", self.gate_bias_initializer, shape=(self.units,)
            )

    #: The gate is sigmoid(gate_slope * logits) (the G-NALU's is log(phi)).
    gate_slope = 1.0

    def gate_logits(self, x):
        logits = ops.matmul(x, self.gate_kernel)
        if self.gate_bias is not None:
            logits = logits + self.gate_bias
        return self.gate_slope * logits

    def gate(self, x):
        """The gate g = sigmoid(x . G [+ b]) of inputs `x` (one per unit):
        1 selects the addition, 0 the multiplication."""
        return nalm_ops.sigmoid(self.gate_logits(x))

    def mix(self, x, addition, multiplication):
        """g * addition + (1 - g) * multiplication, with 1 - g computed as
        sigmoid(-logits): 1 - sigmoid(logits) is 0 in float32 once the gate
        saturates, which would cut the multiplication's gradient."""
        logits = self.gate_logits(x)
        return (
            nalm_ops.sigmoid(logits) * addition
            + nalm_ops.sigmoid(-logits) * multiplication
        )

    def gate_weights(self):
        weights = {"gate_kernel": ops.convert_to_numpy(self.gate_kernel)}
        if self.gate_bias is not None:
            weights["gate_bias"] = ops.convert_to_numpy(self.gate_bias)
        return weights

    def gated_symbolic(self, expressions, additions, multiplications):
        """Outputs `g_k*(add_k) + (1 - g_k)*(mul_k)` with the gate lines."""
        weights = self.gate_weights()

        def gate_line(name, k):
            return symbolic.gate_definition(
                name, expressions, weights["gate_kernel"], weights.get("gate_bias"), k
            )

        return symbolic.gated_columns(self.name, additions, multiplications, gate_line)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "use_gate_bias": self.use_gate_bias,
            }
        )
        config.update(
            serialized(
                self,
                "gate_initializer",
                "gate_bias_initializer",
                "gate_regularizer",
            )
        )
        return config


@register_serializable
class NALU(GatedLayer):
    """Neural Arithmetic Logic Unit (NALU).

    A sigmoid gate mixes a NAC+ (addition, subtraction) and a NAC•
    (multiplication, division) (Trask et al. 2018; Mistry et al. 2022,
    §3, eq. 1-5):

        W = tanh(w_hat) * sigmoid(m_hat)                      (eq. 1)
        a_o = sum_i W_io * x_i                                (eq. 2)
        m_o = exp(sum_i W_io * log(|x_i| + epsilon))          (eq. 3)
        g_o = sigmoid(sum_i G_io * x_i [+ b_o])               (eq. 4)
        y_o = g_o * a_o + (1 - g_o) * m_o                     (eq. 5)

    With `shared_weights=False` the NAC• has its own `w_hat_mul`,
    `m_hat_mul` (the "separate" NALU of Madsen app. C.5). With
    `multiplication="complex"` the NAC• takes logarithms in complex numbers
    so that it can multiply negative inputs (Trask 2018, appendix F):

        m_o = Re exp(sum_i W_io * log(x_i + epsilon))
            = exp(sum_i W_io log|x_i + epsilon|)
              * cos(pi * sum_i W_io [x_i + epsilon < 0])

    `w_hat`, `m_hat` start as the NAC+ (`NACUniform`), the gate Glorot
    uniform, the optional `gate_bias` at zero (the reference code's
    choices).

    Mixed precision: computes the log and exp in the variable dtype
    (float32 under `mixed_float16`) and returns that dtype.

    Args:
        units: int > 0, the output dimension.
        shared_weights: bool, whether the NAC+ and NAC• share W (default
            True, as Trask et al.).
        multiplication: `"log"` (default) or `"complex"`.
        epsilon: float > 0 (default 1e-7).
        use_gate_bias: bool, whether the gate has a bias (default False).
        kernel_initializer: initializer of the w_hat, m_hat weights
            (default `"nac_uniform"`).
        kernel_regularizer: regularizer of the w_hat, m_hat weights
            (default None).
        kernel_constraint: constraint of the w_hat, m_hat weights
            (default None).
        gate_initializer: default `"glorot_uniform"`.
        gate_bias_initializer: default `"zeros"`.
        gate_regularizer: regularizer of `gate_kernel` (default None).
        **kwargs: base layer arguments.

    Call arguments:
        inputs: floating point tensor `(batch_size, ..., input_dim)`.
        training: bool; accepted as Keras passes it: the unit computes the
            same in training and in inference.

    Input shape: `(batch_size, ..., input_dim)`.
    Output shape: `(batch_size, ..., units)`.

    Example:
    >>> outputs = keras_nalm.layers.NALU(1)(keras.Input((2,)))

    Reference:
    - [Trask et al., 2018](https://arxiv.org/abs/1808.00508), appendix F.
    - [Mistry et al., 2022](https://arxiv.org/abs/2111.05036), §3.
    """

    def __init__(
        self,
        units,
        shared_weights=True,
        multiplication="log",
        epsilon=1e-7,
        kernel_initializer="nac_uniform",
        kernel_regularizer=None,
        kernel_constraint=None,
        use_gate_bias=False,
        gate_initializer="glorot_uniform",
        gate_bias_initializer="zeros",
        gate_regularizer=None,
        **kwargs,
    ):
        super().__init__(
            units,
            use_gate_bias=use_gate_bias,
            gate_initializer=gate_initializer,
            gate_bias_initializer=gate_bias_initializer,
            gate_regularizer=gate_regularizer,
            **kwargs,
        )
        self.shared_weights = bool(shared_weights)
        self.multiplication = check_choice(
            "multiplication", multiplication, MULTIPLICATIONS
        )
        self.epsilon = check_positive_float("epsilon", epsilon)
        self.kernel_initializer = resolve("initializer", kernel_initializer)
        self.kernel_regularizer = resolve("regularizer", kernel_regularizer)
        self.kernel_constraint = resolve("constraint", kernel_constraint)

    def build_unit(self, input_dim):
        names = ["w_hat", "m_hat"]
        if not self.shared_weights:
            names += ["w_hat_mul", "m_hat_mul"]
        for name in names:
            variable = self.add_unit_weight(
                name,
                self.kernel_initializer,
                self.kernel_regularizer,
                self.kernel_constraint,
            )
            setattr(self, name, variable)
        self.build_gate()

    #: W = tanh(slope w_hat) sigmoid(slope m_hat) (the G-NALU's is log(phi)).
    weight_slope = 1.0

    def exponential(self, z):
        return ops.exp(z)

    def multiplication_parameters(self):
        """(w_hat, m_hat) of the NAC•."""
        if self.shared_weights:
            return self.w_hat, self.m_hat
        return self.w_hat_mul, self.m_hat_mul

    def weights_add_mul(self):
        """(W of the NAC+, W of the NAC•) as tensors."""
        weight = nac_weight(self.w_hat, self.m_hat, self.weight_slope)
        if self.shared_weights:
            return weight, weight
        parameters = self.multiplication_parameters()
        return weight, nac_weight(*parameters, self.weight_slope)

    def compute(self, x):
        weight_add, weight_mul = self.weights_add_mul()
        if self.multiplication == "complex":
            distance = nac_weight_distance(
                *self.multiplication_parameters(), self.weight_slope
            )
            multiplication = complex_multiply(x, weight_mul, self.epsilon, distance)
        else:
            log_magnitude = log_abs(x, self.epsilon)
            multiplication = self.exponential(ops.matmul(log_magnitude, weight_mul))
        return self.mix(x, ops.matmul(x, weight_add), multiplication)

    def effective_weights(self):
        weight_add, weight_mul = self.weights_add_mul()
        weights = {"kernel": ops.convert_to_numpy(weight_add)}
        if not self.shared_weights:
            weights["kernel_mul"] = ops.convert_to_numpy(weight_mul)
        weights.update(self.gate_weights())
        return weights

    def symbolic(self, expressions):
        weights = self.effective_weights()
        weight_mul = weights.get("kernel_mul", weights["kernel"])
        ternary = (-1, 0, 1)
        additions = symbolic.read(
            expressions, weights["kernel"], ternary, symbolic.linear
        )
        multiplications = symbolic.read(
            expressions, weight_mul, ternary, symbolic.product
        )
        return self.gated_symbolic(expressions, additions, multiplications)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "shared_weights": self.shared_weights,
                "multiplication": self.multiplication,
                "epsilon": self.epsilon,
            }
        )
        config.update(serialized(self, *KERNEL_ARGUMENTS))
        return config


PHI = (1.0 + math.sqrt(5.0)) / 2.0
LOG_PHI = math.log(PHI)


@register_serializable
class GoldenRatioNALU(NALU):
    """Golden-ratio NALU (G-NALU): the NALU with base phi instead of e.

    The survey calls it G-NALU; `keras_nalm.layers.GNALU` is the same class
    under that name, and files saved as `"keras_nalm>GNALU"` load as this
    class. (It has nothing to do with the gated NAU/NMU, `GatedNAUNMU`.)

    The tanh and sigmoid of the weights and of the gate take the golden
    ratio phi = (1 + sqrt(5)) / 2 as their base, and the NAC• raises phi
    instead of e (Rana et al. 2019; Mistry et al. 2022, §4.4, eq. 22-25):

        sigmoid_gr(x) = 1 / (1 + phi^-x)                           (eq. 23)
        tanh_gr(x) = (phi^2x - 1) / (phi^2x + 1)                   (eq. 24)
        W = tanh_gr(w_hat) * sigmoid_gr(m_hat)
        g_o = sigmoid_gr(sum_i G_io x_i [+ b_o])
        m_o = phi^(sum_i W_io log(|x_i| + eps) / log(phi))        (eq. 25)

    so that sigmoid_gr(x) = sigmoid(x log phi) and tanh_gr(x) =
    tanh(x log phi): the golden base flattens both. Eq. 25 equals the
    NALU's exp(...) in exact arithmetic. Weights, arguments and defaults
    as `NALU`.

    Args:
        units: int > 0, the output dimension.
        shared_weights: as `NALU`'s (default True).
        multiplication: as `NALU`'s (default `"log"`).
        epsilon: as `NALU`'s (default 1e-7).
        kernel_initializer: as `NALU`'s (default `"nac_uniform"`).
        kernel_regularizer: as `NALU`'s (default None).
        kernel_constraint: as `NALU`'s (default None).
        use_gate_bias: as `NALU`'s (default False).
        gate_initializer: as `NALU`'s (default `"glorot_uniform"`).
        gate_bias_initializer: as `NALU`'s (default `"zeros"`).
        gate_regularizer: as `NALU`'s (default None).
        **kwargs: base layer arguments.

    Call arguments:
        inputs: floating point tensor `(batch_size, ..., input_dim)`.
        training: bool; accepted as Keras passes it: the unit computes the
            same in training and in inference.

    Input shape: `(batch_size, ..., input_dim)`.
    Output shape: `(batch_size, ..., units)`.

    Example:
    >>> outputs = keras_nalm.layers.GoldenRatioNALU(1)(keras.Input((2,)))

    Reference:
    - [Rana et al., 2019](https://arxiv.org/abs/1910.05522)
    - [Mistry et al., 2022](https://arxiv.org/abs/2111.05036), §4.4.
    """

    weight_slope = LOG_PHI
    gate_slope = LOG_PHI

    def exponential(self, z):
        return ops.power(PHI, z / LOG_PHI)


#: The survey's name of `GoldenRatioNALU`, kept for code and files that use it.
GNALU = GoldenRatioNALU
keras.saving.get_custom_objects()["keras_nalm>GNALU"] = GoldenRatioNALU


@register_serializable
class GatedNAUNMU(GatedLayer, ScaledRegularizationLayer):
    """A sigmoid gate between an NAU and an NMU (Madsen & Johansen 2020,
    app. C.5).

        g_o = sigmoid(sum_i G_io * x_i [+ b_o])
        y_o = g_o * NAU(x)_o + (1 - g_o) * NMU(x)_o

    The NAU and NMU have separate weights `nau_kernel` and `nmu_kernel`
    with their own initialization, clamp and sparsity regularizer; both
    sparsity regularizers are multiplied by the variable
    `regularizer_scale` (starts at 0, driven by
    `keras_nalm.callbacks.RegularizerWarmup`); see `NAU` and `NMU`.

    Mixed precision: computes and returns the variable dtype.

    Args:
        units: int > 0, the output dimension.
        nau_kernel_initializer: default `"nau_uniform"`.
        nau_kernel_regularizer: ordinary Keras regularizer (default None).
        nau_kernel_constraint: default `"nau_clamp"`.
        nau_sparsity_regularizer: default `"nau_sparsity"`, scaled.
        nmu_kernel_initializer: default `"nmu_uniform"`.
        nmu_kernel_regularizer: ordinary Keras regularizer (default None).
        nmu_kernel_constraint: default `"nmu_clamp"`.
        nmu_sparsity_regularizer: default `"nmu_sparsity"`, scaled.
        use_gate_bias: bool, whether the gate has a bias (default False).
        gate_initializer: default `"glorot_uniform"`.
        gate_bias_initializer: default `"zeros"`.
        gate_regularizer: default None.
        regularizer_scale: float >= 0, initial value of the variable
            `regularizer_scale` (default 0.0).
        **kwargs: base layer arguments.

    Call arguments:
        inputs: floating point tensor `(batch_size, ..., input_dim)`.
        training: bool; accepted as Keras passes it: the unit computes the
            same in training and in inference.

    Input shape: `(batch_size, ..., input_dim)`.
    Output shape: `(batch_size, ..., units)`.

    Example:
    >>> outputs = keras_nalm.layers.GatedNAUNMU(1)(keras.Input((2,)))

    Reference:
    - [Madsen & Johansen, 2020](https://arxiv.org/abs/2001.05016), app. C.5.
    """

    def __init__(
        self,
        units,
        nau_kernel_initializer="nau_uniform",
        nau_kernel_regularizer=None,
        nau_kernel_constraint="nau_clamp",
        nau_sparsity_regularizer="nau_sparsity",
        nmu_kernel_initializer="nmu_uniform",
        nmu_kernel_regularizer=None,
        nmu_kernel_constraint="nmu_clamp",
        nmu_sparsity_regularizer="nmu_sparsity",
        regularizer_scale=0.0,
        use_gate_bias=False,
        gate_initializer="glorot_uniform",
        gate_bias_initializer="zeros",
        gate_regularizer=None,
        **kwargs,
    ):
        super().__init__(
            units,
            regularizer_scale=regularizer_scale,
            use_gate_bias=use_gate_bias,
            gate_initializer=gate_initializer,
            gate_bias_initializer=gate_bias_initializer,
            gate_regularizer=gate_regularizer,
            **kwargs,
        )
        self.nau_kernel_initializer = resolve("initializer", nau_kernel_initializer)
        self.nau_kernel_regularizer = resolve("regularizer", nau_kernel_regularizer)
        self.nau_kernel_constraint = resolve("constraint", nau_kernel_constraint)
        self.nau_sparsity_regularizer = resolve("regularizer", nau_sparsity_regularizer)
        self.nmu_kernel_initializer = resolve("initializer", nmu_kernel_initializer)
        self.nmu_kernel_regularizer = resolve("regularizer", nmu_kernel_regularizer)
        self.nmu_kernel_constraint = resolve("constraint", nmu_kernel_constraint)
        self.nmu_sparsity_regularizer = resolve("regularizer", nmu_sparsity_regularizer)

    def build_unit(self, input_dim):
        for unit in ("nau", "nmu"):
            regularizer = self.unit_regularizer(
                getattr(self, f"{unit}_sparsity_regularizer"),
                getattr(self, f"{unit}_kernel_regularizer"),
            )
            variable = self.add_unit_weight(
                f"{unit}_kernel",
                getattr(self, f"{unit}_kernel_initializer"),
                regularizer,
                getattr(self, f"{unit}_kernel_constraint"),
            )
            setattr(self, f"{unit}_kernel", variable)
        self.build_gate()

    def compute(self, x):
        addition = nau_equation(x, self.nau_kernel)
        multiplication = nmu_equation(x, self.nmu_kernel)
        return self.mix(x, addition, multiplication)

    def effective_weights(self):
        weights = {
            "nau_kernel": ops.convert_to_numpy(ops.clip(self.nau_kernel, *NAU_RANGE)),
            "nmu_kernel": ops.convert_to_numpy(ops.clip(self.nmu_kernel, *NMU_RANGE)),
        }
        weights.update(self.gate_weights())
        return weights

    def symbolic(self, expressions):
        weights = self.effective_weights()
        additions = symbolic.read(
            expressions, weights["nau_kernel"], (-1, 0, 1), symbolic.linear
        )
        multiplications = symbolic.read(
            expressions, weights["nmu_kernel"], (0, 1), symbolic.product
        )
        return self.gated_symbolic(expressions, additions, multiplications)

    def get_config(self):
        config = super().get_config()
        config.update(serialized(self, *GATED_UNIT_ARGUMENTS))
        return config
