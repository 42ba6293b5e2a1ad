"""Logic units: the Neural Logic Rule Layer (NLRL) and the Neural Status
Register (NSR)."""

import keras
from keras import ops

from keras_nalm import ops as nalm_ops
from keras_nalm._validation import check_positive_float
from keras_nalm._validation import check_positive_int
from keras_nalm.layers.base import NALMLayer
from keras_nalm.layers.base import resolve
from keras_nalm.layers.base import serialized
from keras_nalm.ops import log_abs
from keras_nalm.saving import register_serializable


@register_serializable
class NLRL(NALMLayer):
    """Neural Logic Rule Layer (NLRL): learned AND / OR rules with negation.

    For inputs in [0, 1] (Reimann & Schwung 2019; Mistry et al. 2022, §4.5,
    eq. 26-29), with N = sigmoid(negation_gate), A = sigmoid(kernel) and
    o = sigmoid(output_gate):

        x_hat_io = (1 - N_io) x_i + N_io (1 - x_i)                 (eq. 26)
        OR_o  = 1 - prod_i (1 - A_io x_hat_io)                     (eq. 27)
        AND_o = exp(sum_i A_io log(|x_hat_io| + eps))              (eq. 28)
        y_o   = (1 - o_o) AND_o + o_o OR_o                         (eq. 29)

    The OR is the product that eq. 27's Kronecker form expands to
    (inclusion-exclusion), computed in O(in) per output. Stacked NLRLs
    express implication, XOR and equivalence. Inputs outside [0, 1] are
    computed as written but have no logical meaning.

    Mixed precision: computes and returns the variable dtype.

    Args:
        units: int > 0, the output dimension.
        epsilon: float > 0, added inside the AND's log (default 1e-7).
        kernel_initializer: initializer of `kernel` and `negation_gate`
            (default `"random_normal"`, N(0, 0.05): all gates start near
            1/2).
        output_gate_initializer: default `"zeros"`.
        kernel_regularizer: regularizer of `kernel` (default None).
        **kwargs: base layer arguments.

    Call arguments:
        inputs: floating point tensor `(batch_size, ..., input_dim)`.
        training: bool; accepted as Keras passes it: the unit computes the
            same in training and in inference.

    Input shape: `(batch_size, ..., input_dim)`, values in [0, 1].
    Output shape: `(batch_size, ..., units)`.

    Example:
    >>> outputs = keras_nalm.layers.NLRL(1)(keras.Input((2,)))

    Reference:
    - [Reimann & Schwung, 2019](https://doi.org/10.1109/INDIN41052.2019.8972324)
    - [Mistry et al., 2022](https://arxiv.org/abs/2111.05036), §4.5.
    """

    def __init__(
        self,
        units,
        epsilon=1e-7,
        kernel_initializer="random_normal",
        output_gate_initializer="zeros",
        kernel_regularizer=None,
        **kwargs,
    ):
        super().__init__(units, **kwargs)
        self.epsilon = check_positive_float("epsilon", epsilon)
        self.kernel_initializer = resolve("initializer", kernel_initializer)
        self.output_gate_initializer = resolve("initializer", output_gate_initializer)
        self.kernel_regularizer = resolve("regularizer", kernel_regularizer)

    def build_unit(self, input_dim):
        self.negation_gate = self.add_unit_weight(
            "negation_gate", self.kernel_initializer
        )
        self.kernel = self.add_unit_weight(
            "kernel", self.kernel_initializer, self.kernel_regularizer
        )
        self.output_gate = self.add_unit_weight(
            "output_gate", self.output_gate_initializer, shape=(self.units,)
        )

    def compute(self, x):
        # 1 - sigmoid(v) as sigmoid(-v): exact where the gates saturate
        inputs = ops.expand_dims(x, -1)
        gated = nalm_ops.sigmoid(-self.negation_gate) * inputs + nalm_ops.sigmoid(
            self.negation_gate
        ) * (1.0 - inputs)
        weight = nalm_ops.sigmoid(self.kernel)
        conjunction = ops.exp(ops.sum(weight * log_abs(gated, self.epsilon), axis=-2))
        disjunction = 1.0 - ops.prod(1.0 - weight * gated, axis=-2)
        return (
            nalm_ops.sigmoid(-self.output_gate) * conjunction
            + nalm_ops.sigmoid(self.output_gate) * disjunction
        )

    def effective_weights(self):
        return {
            "kernel": ops.convert_to_numpy(nalm_ops.sigmoid(self.kernel)),
            "gate_negation": ops.convert_to_numpy(nalm_ops.sigmoid(self.negation_gate)),
            "gate_output": ops.convert_to_numpy(nalm_ops.sigmoid(self.output_gate)),
        }

    def get_config(self):
        config = super().get_config()
        config["epsilon"] = self.epsilon
        config.update(
            serialized(
                self,
                "kernel_initializer",
                "output_gate_initializer",
                "kernel_regularizer",
            )
        )
        return config


@register_serializable
class NSR(NALMLayer):
    """Neural Status Register (NSR): learned comparisons of two inputs.

    Each output selects two operands by softmax, compares them through a
    smooth sign bit and zero bit, and returns the comparison and its
    negation (Faber & Wattenhofer 2020; Mistry et al. 2022, §4.6,
    eq. 30-37):

        op1_or = sum_i x_i softmax_i(v_op1)_ior                    (eq. 30)
        op2_or = sum_i x_i softmax_i(v_op2)_ior                    (eq. 31)
        d_or = scale * (op1_or - op2_or)                      (eq. 32-33)
        sign_or = tanh(d_or),  zero_or = 1 - 2 tanh(d_or)^2   (eq. 34-35)
        z_o = sum_r (sign_or s_or + zero_or z_or) + shift_o        (eq. 36)
        y_o = sigmoid(z_o)                                         (eq. 37)

    r runs over `redundancy` independent operand pairs, whose terms are
    summed before the sigmoid. The output is `[y, 1 - y]`: `2 * units`
    features, the comparisons first. Because the sign and zero bits
    saturate, a learned comparison holds for inputs far outside the
    training range. `scale` (lambda of eq. 33) should grow as the input
    differences that matter shrink (Faber & Wattenhofer, figure 5).

    Mixed precision: computes and returns the variable dtype.

    Args:
        units: int > 0, the number of comparisons.
        redundancy: int > 0, operand pairs per comparison (default 1).
        scale: float > 0, lambda (default 1.0).
        selector_initializer: initializer of `v_op1` and `v_op2`
            (default `"random_normal"`).
        bit_scale_initializer: initializer of `sign_scale` and
            `zero_scale` (default `"random_normal"`); `shift` starts at 0.
        **kwargs: base layer arguments.

    Call arguments:
        inputs: floating point tensor `(batch_size, ..., input_dim)`.
        training: bool; accepted as Keras passes it: the unit computes the
            same in training and in inference.

    Input shape: `(batch_size, ..., input_dim)`.
    Output shape: `(batch_size, ..., 2 * units)`.

    Example:
    >>> outputs = keras_nalm.layers.NSR(1)(keras.Input((2,)))

    Reference:
    - [Faber & Wattenhofer, 2020](https://arxiv.org/abs/2004.07085)
    - [Mistry et al., 2022](https://arxiv.org/abs/2111.05036), §4.6.
    """

    def __init__(
        self,
        units,
        redundancy=1,
        scale=1.0,
        selector_initializer="random_normal",
        bit_scale_initializer="random_normal",
        **kwargs,
    ):
        super().__init__(units, **kwargs)
        self.redundancy = check_positive_int("redundancy", redundancy)
        self.scale = check_positive_float("scale", scale)
        self.selector_initializer = resolve("initializer", selector_initializer)
        self.bit_scale_initializer = resolve("initializer", bit_scale_initializer)

    sparsity_excluded = ("sign_scale", "zero_scale", "shift")

    @property
    def output_dim(self):
        return 2 * self.units

    def build_unit(self, input_dim):
        pairs = (self.units, self.redundancy)
        for name in ("v_op1", "v_op2"):
            variable = self.add_unit_weight(
                name, self.selector_initializer, shape=(input_dim, *pairs)
            )
            setattr(self, name, variable)
        for name in ("sign_scale", "zero_scale"):
            variable = self.add_unit_weight(
                name, self.bit_scale_initializer, shape=pairs
            )
            setattr(self, name, variable)
        self.shift = self.add_unit_weight(
            "shift", keras.initializers.Zeros(), shape=(self.units,)
        )

    def operand(self, x, selector):
        return ops.einsum("...i,iur->...ur", x, ops.softmax(selector, axis=0))

    def compute(self, x):
        difference = self.scale * (
            self.operand(x, self.v_op1) - self.operand(x, self.v_op2)
        )
        sign_bit = nalm_ops.tanh(difference)
        zero_bit = 1.0 - 2.0 * ops.square(sign_bit)
        bits = sign_bit * self.sign_scale + zero_bit * self.zero_scale
        comparison = nalm_ops.sigmoid(ops.sum(bits, axis=-1) + self.shift)
        return ops.concatenate([comparison, 1.0 - comparison], axis=-1)

    def effective_weights(self):
        return {
            "operand_1": ops.convert_to_numpy(ops.softmax(self.v_op1, axis=0)),
            "operand_2": ops.convert_to_numpy(ops.softmax(self.v_op2, axis=0)),
            "sign_scale": ops.convert_to_numpy(self.sign_scale),
            "zero_scale": ops.convert_to_numpy(self.zero_scale),
            "shift": ops.convert_to_numpy(self.shift),
        }

    def get_config(self):
        config = super().get_config()
        config.update({"redundancy": self.redundancy, "scale": self.scale})
        config.update(serialized(self, "selector_initializer", "bit_scale_initializer"))
        return config
