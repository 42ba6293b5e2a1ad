"""Neural Power Units: NPU and RealNPU."""

import math

import keras
import numpy as np
from keras import ops

from keras_nalm._validation import check_choice
from keras_nalm._validation import check_positive_float
from keras_nalm.layers.base import ScaledRegularizationLayer
from keras_nalm.layers.base import resolve
from keras_nalm.layers.base import serialized
from keras_nalm.saving import register_serializable

GATE_GRADIENTS = ("straight_through", "clip")
#: The control variable that scales an NPU's regularizers: `beta`
#: (`keras_nalm.callbacks.BetaGrowth`, the survey's) or `regularizer_scale`
#: (`keras_nalm.callbacks.RegularizerWarmup`, the modified Real NPU's).
SCALE_VARIABLES = ("beta", "regularizer_scale")
FLOAT32_EPSILON = float(np.finfo(np.float32).eps)


def clip_gate(gate, gradient):
    """g = min(max(g, 0), 1) (Mistry eq. 20).

    `gradient="clip"` differentiates the clip (zero outside [0, 1], as
    nalm-benchmark's `torch.clamp`); `"straight_through"` passes the
    gradient unchanged (as the NPU authors' NeuralArithmetic.jl), so a gate
    pushed outside [0, 1] can come back.
    """
    clipped = ops.clip(gate, 0.0, 1.0)
    if gradient == "clip":
        return clipped
    return gate + ops.stop_gradient(clipped - gate)


def npu_polar(x, gate, epsilon):
    """(log r, k) of Mistry eq. 18-19 for the gated inputs."""
    r = gate * (ops.abs(x) + epsilon) + (1.0 - gate)
    k = math.pi * gate * ops.cast(ops.less(x, 0), x.dtype)
    return ops.log(r), k


@register_serializable
class NPU(ScaledRegularizationLayer):
    """Neural Power Unit (NPU): products of arbitrary powers, signs included.

    The NPU takes the complex logarithm of its gated inputs and multiplies
    by a complex weight W = W_re + i W_im (Heim et al. 2020; Mistry et al.
    2022, §4.3, eq. 17-20):

        g_i = min(max(g_i, 0), 1)                                (eq. 20)
        r_i = g_i (|x_i| + eps) + (1 - g_i)                      (eq. 18)
        k_i = pi g_i [x_i < 0]                                   (eq. 19)
        y_o = exp(sum_i W_re,io log r_i - W_im,io k_i)
              * cos(sum_i W_im,io log r_i + W_re,io k_i)         (eq. 17)

    The relevance gate g (one per input) turns an input into the neutral
    factor 1 when closed. At initialization W_im = 0 and g = 1/2 (the
    reference code) and W_re ~ U[-r, r] with r = min(0.5, sqrt(3 * 2 /
    (in + units))), the reference code's "xavier-uniform-constrained"
    option. Its default, plain Glorot uniform, starts W_re far enough from
    the solution that closing the gates (y = 1) is the quicker way down: on
    x0 / x1 with x ~ U[1, 2] (5 000 Adam steps, lr 5e-3) the RealNPU solved
    4 of 10 seeds from Glorot uniform and 10 of 10 from this range. The
    survey's code pairs Glorot uniform with the clip's own gradient
    (`gate_gradient="clip"`); the Single Module benchmark builds that pair,
    which reproduces the survey's success rates and its slower convergence.

    Its regularizer is an L1 penalty on all its weights, scaled by beta
    (the control variable `beta`, attribute `regularizer_scale_variable`,
    starting at 0), which `keras_nalm.callbacks.BetaGrowth` multiplies by 10 every
    10 000 steps from beta_start to beta_end (Mistry §4.3, app. D table 6).

    The modified Real NPU of Mistry, Farrahi & Hare (2021, "Learning
    Division with Neural Arithmetic Logic Modules"; bmistry4/nalm-division,
    `npu_real.py` with `--npu-clip wg`) is this layer with options: W
    clipped to [-1, 1] and g to [0, 1] after each step
    (`kernel_constraint`, `gate_constraint`), W regularized by
    mean(|1 - |W||) (`keras_nalm.regularizers.UnitMagnitude`) and g by
    mean(min(|g|, |1 - g|)) (`Sparsity(target="binary")`), both scaled by a
    warm-up (`scale_variable="regularizer_scale"`,
    `keras_nalm.callbacks.RegularizerWarmup` to 1), W starting as the
    NAU's (the default here):

    >>> modified = keras_nalm.layers.RealNPU(
    ...     1,
    ...     kernel_constraint="nau_clamp",
    ...     gate_constraint="nmu_clamp",
    ...     l1_regularizer=keras_nalm.regularizers.UnitMagnitude(),
    ...     gate_regularizer=keras_nalm.regularizers.Sparsity(target="binary"),
    ...     scale_variable="regularizer_scale",
    ... )

    Args:
        units: int > 0, the output dimension.
        epsilon: float > 0, added to |x| (default: float32's machine
            epsilon, as the reference code).
        gate_gradient: how the gradient passes the gate's clip:
            `"straight_through"` (default) or `"clip"` (see `clip_gate`).
        kernel_initializer: initializer of `w_real` (default
            `"nau_uniform"`; `"glorot_uniform"` is the reference default).
        kernel_regularizer: ordinary Keras regularizer of the weights
            (default None), not scaled.
        l1_regularizer: the beta-scaled regularizer of every weight
            (default `"npu_l1"`: `keras_nalm.regularizers.L1(1.0)`); None for
            none.
        regularizer_scale: float >= 0, initial value of `beta` (default 0).
        kernel_constraint: constraint of the weights W (default None).
        gate_constraint: constraint of the gate g (default None).
        gate_regularizer: the scaled regularizer of g (default None: the
            `l1_regularizer`, as every weight's).
        scale_variable: the control variable that scales the regularizers,
            `"beta"` (default, `BetaGrowth`) or `"regularizer_scale"`
            (`keras_nalm.callbacks.RegularizerWarmup`).
        **kwargs: base layer arguments.

    Call arguments:
        inputs: floating point tensor `(batch_size, ..., input_dim)`.
        training: bool; accepted as Keras passes it: the unit computes the
            same in training and in inference.

    Input shape: `(batch_size, ..., input_dim)`.
    Output shape: `(batch_size, ..., units)`.

    Example:
    >>> outputs = keras_nalm.layers.NPU(1)(keras.Input((2,)))

    Reference:
    - [Heim et al., 2020](https://arxiv.org/abs/2006.01681)
    - [Mistry et al., 2022](https://arxiv.org/abs/2111.05036), §4.3.
    """

    scale_variable_name = "beta"
    has_imaginary_weights = True

    def __init__(
        self,
        units,
        epsilon=FLOAT32_EPSILON,
        gate_gradient="straight_through",
        kernel_initializer="nau_uniform",
        kernel_regularizer=None,
        l1_regularizer="npu_l1",
        regularizer_scale=0.0,
        kernel_constraint=None,
        gate_constraint=None,
        gate_regularizer=None,
        scale_variable="beta",
        **kwargs,
    ):
        self.scale_variable_name = check_choice(
            "scale_variable", scale_variable, SCALE_VARIABLES
        )
        super().__init__(units, regularizer_scale=regularizer_scale, **kwargs)
        self.epsilon = check_positive_float("epsilon", epsilon)
        self.gate_gradient = check_choice(
            "gate_gradient", gate_gradient, GATE_GRADIENTS
        )
        self.kernel_initializer = resolve("initializer", kernel_initializer)
        self.kernel_regularizer = resolve("regularizer", kernel_regularizer)
        self.l1_regularizer = resolve("regularizer", l1_regularizer)
        self.kernel_constraint = resolve("constraint", kernel_constraint)
        self.gate_constraint = resolve("constraint", gate_constraint)
        self.gate_regularizer = resolve("regularizer", gate_regularizer)

    def build_unit(self, input_dim):
        penalty = self.unit_regularizer(self.l1_regularizer, self.kernel_regularizer)
        constraint = self.kernel_constraint
        self.w_real = self.add_unit_weight(
            "w_real", self.kernel_initializer, penalty, constraint
        )
        if self.has_imaginary_weights:
            self.w_imag = self.add_unit_weight(
                "w_imag", keras.initializers.Zeros(), penalty, constraint
            )
        gate_penalty = self.gate_regularizer or self.l1_regularizer
        self.gate = self.add_unit_weight(
            "gate",
            keras.initializers.Constant(0.5),
            self.unit_regularizer(gate_penalty, None),
            self.gate_constraint,
            shape=(input_dim,),
        )

    def compute(self, x):
        gate = clip_gate(self.gate, self.gate_gradient)
        log_r, k = npu_polar(x, gate, self.epsilon)
        if not self.has_imaginary_weights:
            magnitude = ops.exp(ops.matmul(log_r, self.w_real))
            return magnitude * ops.cos(ops.matmul(k, self.w_real))
        magnitude = ops.exp(ops.matmul(log_r, self.w_real) - ops.matmul(k, self.w_imag))
        phase = ops.matmul(log_r, self.w_imag) + ops.matmul(k, self.w_real)
        return magnitude * ops.cos(phase)

    def effective_weights(self):
        weights = {"w_real": ops.convert_to_numpy(self.w_real)}
        if self.has_imaginary_weights:
            weights["w_imag"] = ops.convert_to_numpy(self.w_imag)
        weights["gate"] = ops.convert_to_numpy(ops.clip(self.gate, 0.0, 1.0))
        return weights

    def get_config(self):
        config = super().get_config()
        config.update({"epsilon": self.epsilon, "gate_gradient": self.gate_gradient})
        config["scale_variable"] = self.scale_variable_name
        config.update(
            serialized(
                self,
                "kernel_initializer",
                "kernel_regularizer",
                "l1_regularizer",
                "kernel_constraint",
                "gate_constraint",
                "gate_regularizer",
            )
        )
        return config


@register_serializable
class RealNPU(NPU):
    """Real Neural Power Unit: the NPU without imaginary weights.

        y_o = exp(sum_i W_re,io log r_i) * cos(sum_i W_re,io k_i)   (eq. 21)

    with r and k as in `NPU` (Mistry et al. 2022, eq. 21). Weights `w_real`
    and `gate`; the same arguments, regularizer and `BetaGrowth` schedule
    as `NPU`.

    Args:
        units: int > 0, the output dimension.
        epsilon: as `NPU`'s.
        gate_gradient: as `NPU`'s.
        kernel_initializer: as `NPU`'s (there are no imaginary weights to
            initialise or regularise).
        kernel_regularizer: as `NPU`'s.
        l1_regularizer: as `NPU`'s.
        regularizer_scale: as `NPU`'s.
        **kwargs: base layer arguments.

    Call arguments:
        inputs: floating point tensor `(batch_size, ..., input_dim)`.
        training: bool; accepted as Keras passes it: the unit computes the
            same in training and in inference.

    Input shape: `(batch_size, ..., input_dim)`.
    Output shape: `(batch_size, ..., units)`.

    Example:
    >>> outputs = keras_nalm.layers.RealNPU(1)(keras.Input((2,)))

    Reference:
    - [Heim et al., 2020](https://arxiv.org/abs/2006.01681)
    - [Mistry et al., 2022](https://arxiv.org/abs/2111.05036), eq. 21.
    """

    has_imaginary_weights = False
