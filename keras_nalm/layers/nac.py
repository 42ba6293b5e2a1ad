"""Neural Accumulators: NAC+ (`NAC`) and NAC• with its variants (`NACMul`)."""

import math

from keras import ops

from keras_nalm import ops as nalm_ops
from keras_nalm import symbolic
from keras_nalm._validation import check_choice
from keras_nalm._validation import check_positive_float
from keras_nalm.constraints import NMU_RANGE
from keras_nalm.layers.base import KERNEL_ARGUMENTS
from keras_nalm.layers.base import InputRegularization
from keras_nalm.layers.base import NALMLayer
from keras_nalm.layers.base import ScaledRegularizationLayer
from keras_nalm.layers.base import resolve
from keras_nalm.layers.base import serialized
from keras_nalm.ops import log_abs
from keras_nalm.ops import safe_log
from keras_nalm.saving import register_serializable


def nac_weight(w_hat, m_hat, slope=1.0):
    """W = tanh(w_hat) * sigmoid(m_hat) (Trask 2018; Madsen eq. 1); with
    `slope`, of slope * w_hat and slope * m_hat (the G-NALU's log(phi))."""
    return nalm_ops.tanh(slope * w_hat) * nalm_ops.sigmoid(slope * m_hat)


def nac_weight_distance(w_hat, m_hat, slope=1.0):
    """1 - |W| for W = nac_weight(w_hat, m_hat, slope), accurate where |W|
    nears 1 (where 1 - |W| computed from W rounds to 0 in float32):
    1 - |tanh(w)| sigmoid(m) = 2 sigmoid(-2 |w|) + |tanh(w)| sigmoid(-m)."""
    w_hat, m_hat = slope * w_hat, slope * m_hat
    return 2.0 * nalm_ops.sigmoid(-2.0 * nalm_ops.absolute(w_hat)) + nalm_ops.absolute(
        nalm_ops.tanh(w_hat)
    ) * nalm_ops.sigmoid(-m_hat)


def log_space_multiply(x, weight, epsilon):
    """z = exp(log(|x| + epsilon) . W) (Madsen eq. 3; Mistry eq. 3)."""
    return ops.exp(ops.matmul(log_abs(x, epsilon), weight))


def complex_multiply(x, weight, epsilon, distance=None):
    """Re exp(W . log(x + epsilon)), logarithms taken in complex numbers.

    With log(v) = log|v| + i*pi*[v < 0] (Trask 2018, appendix F):
    Re exp(...) = exp(log|x + eps| . W) * cos(pi * [x + eps < 0] . W).
    An input with x + epsilon exactly 0 contributes log(TINY) (about -87)
    instead of -inf, so that the value and the gradient stay finite.

    Where the weights near +-1 the phase nears a multiple of pi, and its
    sine (the gradient) depends on how far |W| is from 1, which float32
    loses when it rounds W. Given `distance` = 1 - |W| computed accurately
    (`nac_weight_distance`), the phase is split into a whole number of half
    turns K = n . sign(W) and a small remainder D = n . (sign(W) distance):
    cos(pi n . W) = cos(pi K) cos(pi D), exact in both factors.
    """
    shifted = x + epsilon
    magnitude = ops.exp(ops.matmul(safe_log(ops.abs(shifted)), weight))
    negative = ops.cast(ops.less(shifted, 0), x.dtype)
    if distance is None:
        return magnitude * ops.cos(math.pi * ops.matmul(negative, weight))
    signs = ops.sign(weight)
    half_turns = ops.matmul(negative, signs)
    remainder = ops.matmul(negative, signs * distance)
    return magnitude * ops.cos(math.pi * half_turns) * ops.cos(math.pi * remainder)


WEIGHT_MODES = ("nac", "sigmoid", "linear")


@register_serializable
class NAC(InputRegularization, NALMLayer):
    """Neural Accumulator NAC+, the additive sub-unit of the NALU.

    A linear map whose weights are biased towards {-1, 0, 1} by a
    tanh-sigmoid construction (Trask et al. 2018; Madsen & Johansen 2020
    eq. 1-2; Mistry et al. 2022 eq. 1-2):

        W = tanh(w_hat) * sigmoid(m_hat)                  (eq. 1)
        a_o = sum_i W_io * x_i                            (eq. 2)

    `w_hat` and `m_hat` start U[-r, r], with r solving Madsen eq. 29 so that
    Var[W] = 2 / (in + units) (Glorot).

    Args:
        units: int > 0, the output dimension.
        kernel_initializer: initializer of `w_hat` and `m_hat` (default
            `"nac_uniform"`, `keras_nalm.initializers.NACUniform`).
        kernel_regularizer: regularizer of `w_hat` and `m_hat` (default None).
        kernel_constraint: constraint of `w_hat` and `m_hat` (default None).
        input_regularization: float >= 0, the strength lambda_z of the
            input regularizer R_z = mean((1 - |W|) * x̄²) (default 0: off;
            Madsen app. D.2, eq. 75, the "NAC+,R_z" of figure 13).
        **kwargs: base layer arguments.

    Call arguments:
        inputs: floating point tensor `(batch_size, ..., input_dim)`.
        training: bool; R_z is added only when training.

    Input shape: `(batch_size, ..., input_dim)`.
    Output shape: `(batch_size, ..., units)`.

    Example:
    >>> outputs = keras_nalm.layers.NAC(1)(keras.Input((2,)))

    Reference:
    - [Trask et al., 2018](https://arxiv.org/abs/1808.00508)
    - [Madsen & Johansen, 2020](https://arxiv.org/abs/2001.05016), eq. 1-2.
    """

    combine = staticmethod(symbolic.linear)
    input_regularization_target = "ternary"

    def __init__(
        self,
        units,
        kernel_initializer="nac_uniform",
        kernel_regularizer=None,
        kernel_constraint=None,
        input_regularization=0.0,
        **kwargs,
    ):
        super().__init__(units, input_regularization=input_regularization, **kwargs)
        self.kernel_initializer = resolve("initializer", kernel_initializer)
        self.kernel_regularizer = resolve("regularizer", kernel_regularizer)
        self.kernel_constraint = resolve("constraint", kernel_constraint)

    def build_unit(self, input_dim):
        self.w_hat, self.m_hat = (
            self.add_unit_weight(
                name,
                self.kernel_initializer,
                self.kernel_regularizer,
                self.kernel_constraint,
            )
            for name in ("w_hat", "m_hat")
        )

    def weight_matrix(self):
        """W = tanh(w_hat) * sigmoid(m_hat) as a tensor."""
        return nac_weight(self.w_hat, self.m_hat)

    def compute(self, x):
        return ops.matmul(x, self.weight_matrix())

    def effective_weights(self):
        return {"kernel": ops.convert_to_numpy(self.weight_matrix())}

    def get_config(self):
        config = super().get_config()
        config.update(serialized(self, *KERNEL_ARGUMENTS))
        return config


_NAC_MUL_DEFAULTS = {
    # weight mode: (initializer, constraint, sparsity regularizer)
    "nac": ("nac_uniform", None, None),
    "sigmoid": ("glorot_normal", None, None),
    "linear": ("nmu_uniform", "nmu_clamp", "nmu_sparsity"),
}


@register_serializable
class NACMul(InputRegularization, ScaledRegularizationLayer):
    """Multiplicative Neural Accumulator NAC• and its variants NAC•σ, NAC•,NMU.

    A linear map in log space (Madsen & Johansen 2020 eq. 3 and §4.1.3;
    Mistry et al. 2022 eq. 3):

        z_o = exp(sum_i W_io * log(|x_i| + epsilon))

    It multiplies (W = 1) and divides (W = -1) the magnitudes of its
    inputs; the sign of the inputs is lost, and inputs much smaller than
    epsilon are treated as epsilon. `weight` selects the construction of W:

    - `"nac"` (NAC•): W = tanh(w_hat) * sigmoid(m_hat), weights `w_hat`,
      `m_hat`, initialized as the NAC+.
    - `"sigmoid"` (NAC•σ): W = sigmoid(w_hat), weight `w_hat` (Glorot
      normal), which removes division.
    - `"linear"` (NAC•,NMU): W = clip(kernel, 0, 1), weight `kernel`, with
      the NMU's initialization, clamp and sparsity regularizer (scaled by
      the variable `regularizer_scale`, which starts at 0 and is driven by
      `keras_nalm.callbacks.RegularizerWarmup`; lambda_hat = 10 in Madsen
      table 4).

    Mixed precision: computes the log and exp in the variable dtype
    (float32 under `mixed_float16`) and returns that dtype.

    Args:
        units: int > 0, the output dimension.
        weight: `"nac"` (default), `"sigmoid"` or `"linear"`.
        epsilon: float > 0, added to |x| before the log (default 1e-7).
        kernel_initializer: initializer of the weights; `"auto"` (default)
            takes the one of the weight mode (see above).
        kernel_regularizer: an ordinary Keras regularizer of the weights
            (default None), not scaled.
        kernel_constraint: `"auto"` (default): `"nmu_clamp"` for
            `"linear"`, None otherwise.
        sparsity_regularizer: multiplied by `regularizer_scale`; `"auto"`
            (default): `"nmu_sparsity"` for `"linear"`, None otherwise.
        regularizer_scale: float >= 0, initial value of the variable
            `regularizer_scale` (default 0.0).
        input_regularization: float >= 0, the strength lambda_z of the
            input regularizer R_z = mean((1 - W) * (1 - x̄)²) (default 0:
            off; Madsen §4.2, applied to NAC•,NMU in figure 4).
        **kwargs: base layer arguments.

    Call arguments:
        inputs: floating point tensor `(batch_size, ..., input_dim)`.
        training: bool; R_z is added only when training.

    Input shape: `(batch_size, ..., input_dim)`.
    Output shape: `(batch_size, ..., units)`.

    Example:
    >>> outputs = keras_nalm.layers.NACMul(1, weight="linear")(keras.Input((2,)))

    Reference:
    - [Trask et al., 2018](https://arxiv.org/abs/1808.00508)
    - [Madsen & Johansen, 2020](https://arxiv.org/abs/2001.05016), eq. 3
      and §4.1.3.
    """

    combine = staticmethod(symbolic.product)
    identity_value = 1.0
    input_regularization_target = "binary"

    def __init__(
        self,
        units,
        weight="nac",
        epsilon=1e-7,
        kernel_initializer="auto",
        kernel_regularizer=None,
        kernel_constraint="auto",
        sparsity_regularizer="auto",
        regularizer_scale=0.0,
        input_regularization=0.0,
        **kwargs,
    ):
        super().__init__(
            units,
            regularizer_scale=regularizer_scale,
            input_regularization=input_regularization,
            **kwargs,
        )
        self.weight = check_choice("weight", weight, WEIGHT_MODES)
        self.epsilon = check_positive_float("epsilon", epsilon)
        defaults = dict(
            zip(("initializer", "constraint", "sparsity"), _NAC_MUL_DEFAULTS[weight])
        )

        def chosen(argument, default_key):
            return defaults[default_key] if argument == "auto" else argument

        self.kernel_initializer = resolve(
            "initializer", chosen(kernel_initializer, "initializer")
        )
        self.kernel_regularizer = resolve("regularizer", kernel_regularizer)
        self.kernel_constraint = resolve(
            "constraint", chosen(kernel_constraint, "constraint")
        )
        self.sparsity_regularizer = resolve(
            "regularizer", chosen(sparsity_regularizer, "sparsity")
        )

    def build_unit(self, input_dim):
        names = {"nac": ("w_hat", "m_hat"), "sigmoid": ("w_hat",)}
        regularizer = self.unit_regularizer(
            self.sparsity_regularizer, self.kernel_regularizer
        )
        for name in names.get(self.weight, ("kernel",)):
            variable = self.add_unit_weight(
                name, self.kernel_initializer, regularizer, self.kernel_constraint
            )
            setattr(self, name, variable)

    def weight_matrix(self):
        """W of the chosen construction, as a tensor."""
        if self.weight == "nac":
            return nac_weight(self.w_hat, self.m_hat)
        if self.weight == "sigmoid":
            return nalm_ops.sigmoid(self.w_hat)
        return ops.clip(self.kernel, *NMU_RANGE)

    def compute(self, x):
        return log_space_multiply(x, self.weight_matrix(), self.epsilon)

    def effective_weights(self):
        return {"kernel": ops.convert_to_numpy(self.weight_matrix())}

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "weight": self.weight,
                "epsilon": self.epsilon,
            }
        )
        config.update(serialized(self, *KERNEL_ARGUMENTS, "sparsity_regularizer"))
        return config
