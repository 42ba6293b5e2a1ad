"""Improved NALU (iNALU)."""

from keras import ops

from keras_nalm import ops as nalm_ops
from keras_nalm import symbolic
from keras_nalm._validation import check_positive_float
from keras_nalm.layers.base import ScaledRegularizationLayer
from keras_nalm.layers.base import resolve
from keras_nalm.layers.base import serialized
from keras_nalm.layers.nac import nac_weight
from keras_nalm.layers.nmu import gated_product
from keras_nalm.saving import register_serializable

PATHS = ("add", "mul")


@register_serializable
class INALU(ScaledRegularizationLayer):
    """Improved Neural Arithmetic Logic Unit (iNALU).

    A NALU with separate weights for its two paths, a clipped multiplicative
    path, a sign correction and an input-independent gate (Schlör et al.
    2020; Mistry et al. 2022, §4.1, eq. 6-12):

        W_a = tanh(w_hat_add) * sigmoid(m_hat_add)                 (eq. 6)
        W_m = tanh(w_hat_mul) * sigmoid(m_hat_mul)                 (eq. 7)
        a_o = sum_i W_a,io x_i
        m_o = exp(min(sum_i log(max(|x_i|, eps)) W_m,io, omega))   (eq. 8)
        msv_o = prod_i (sign(x_i) |W_m,io| + 1 - |W_m,io|)         (eq. 9)
        g_o = sigmoid(gate_o)                                      (eq. 11)
        y_o = g_o a_o + (1 - g_o) m_o msv_o                        (eq. 12)

    The regularizer of eq. 10 (`keras_nalm.regularizers.INALURegularizer`,
    weight 0.05, t = 20) acts on all five parameters, multiplied by the
    control variable `inalu_regularization` (attribute
    `regularizer_scale_variable`),
    which starts at 0; `keras_nalm.callbacks.INALURegularizerSwitch` sets it
    to 1 once the loss is below 1 after 10 000 steps (the reference
    protocol). `keras_nalm.callbacks.INALUReinitializer` re-initializes the
    layer when training stagnates (§4.1). The protocol also clips every
    gradient to [-0.1, 0.1]: `keras.optimizers.Adam(clipvalue=0.1)`.

    Initialization as the reference code: w_hat ~ N(0.88, 0.2), m_hat ~
    N(0.5, 0.2), gate ~ N(0, 0.2).

    Mixed precision: computes and returns the variable dtype.

    Args:
        units: int > 0, the output dimension.
        omega: float > 0, the clip of the multiplicative path's exponent
            (default 20).
        epsilon: float > 0, the floor of |x| before the log (default 1e-7).
        w_hat_initializer: default `"inalu_w_hat"` (N(0.88, 0.2)).
        m_hat_initializer: default `"inalu_m_hat"` (N(0.5, 0.2)).
        gate_initializer: default `"inalu_gate"` (N(0, 0.2)).
        kernel_regularizer: ordinary Keras regularizer of the w_hat, m_hat
            weights (default None), not scaled.
        inalu_regularizer: the scaled regularizer of all five parameters
            (default `"inalu"`); None for none.
        regularizer_scale: float >= 0, initial value of the variable
            `inalu_regularization` (default 0.0).
        **kwargs: base layer arguments.

    Call arguments:
        inputs: floating point tensor `(batch_size, ..., input_dim)`.
        training: bool; accepted as Keras passes it: the unit computes the
            same in training and in inference.

    Input shape: `(batch_size, ..., input_dim)`.
    Output shape: `(batch_size, ..., units)`.

    Example:
    >>> outputs = keras_nalm.layers.INALU(1)(keras.Input((2,)))

    Reference:
    - [Schlör et al., 2020](https://arxiv.org/abs/2003.07629)
    - [Mistry et al., 2022](https://arxiv.org/abs/2111.05036), §4.1.
    """

    scale_variable_name = "inalu_regularization"

    def __init__(
        self,
        units,
        omega=20.0,
        epsilon=1e-7,
        w_hat_initializer="inalu_w_hat",
        m_hat_initializer="inalu_m_hat",
        gate_initializer="inalu_gate",
        kernel_regularizer=None,
        inalu_regularizer="inalu",
        regularizer_scale=0.0,
        **kwargs,
    ):
        super().__init__(units, regularizer_scale=regularizer_scale, **kwargs)
        self.omega = check_positive_float("omega", omega)
        self.epsilon = check_positive_float("epsilon", epsilon)
        self.w_hat_initializer = resolve("initializer", w_hat_initializer)
        self.m_hat_initializer = resolve("initializer", m_hat_initializer)
        self.gate_initializer = resolve("initializer", gate_initializer)
        self.kernel_regularizer = resolve("regularizer", kernel_regularizer)
        self.inalu_regularizer = resolve("regularizer", inalu_regularizer)

    def build_unit(self, input_dim):
        kernel_penalty = self.unit_regularizer(
            self.inalu_regularizer, self.kernel_regularizer
        )
        for path in PATHS:
            for part, initializer in (
                ("w_hat", self.w_hat_initializer),
                ("m_hat", self.m_hat_initializer),
            ):
                name = f"{part}_{path}"
                setattr(
                    self, name, self.add_unit_weight(name, initializer, kernel_penalty)
                )
        self.gate = self.add_unit_weight(
            "gate",
            self.gate_initializer,
            self.unit_regularizer(self.inalu_regularizer, None),
            shape=(self.units,),
        )

    def path_weights(self):
        """(W_a, W_m) as tensors."""
        return (
            nac_weight(self.w_hat_add, self.m_hat_add),
            nac_weight(self.w_hat_mul, self.m_hat_mul),
        )

    def compute(self, x):
        weight_add, weight_mul = self.path_weights()
        addition = ops.matmul(x, weight_add)
        log_magnitude = ops.log(ops.maximum(ops.abs(x), self.epsilon))
        exponent = ops.minimum(ops.matmul(log_magnitude, weight_mul), self.omega)
        sign = gated_product(ops.sign(x), nalm_ops.absolute(weight_mul))
        # 1 - sigmoid(gate) as sigmoid(-gate): exact where the gate saturates
        multiplication = ops.exp(exponent) * sign
        return (
            nalm_ops.sigmoid(self.gate) * addition
            + nalm_ops.sigmoid(-self.gate) * multiplication
        )

    def effective_weights(self):
        weight_add, weight_mul = self.path_weights()
        return {
            "kernel_add": ops.convert_to_numpy(weight_add),
            "kernel_mul": ops.convert_to_numpy(weight_mul),
            "gate": ops.convert_to_numpy(nalm_ops.sigmoid(self.gate)),
        }

    def symbolic(self, expressions):
        weights = self.effective_weights()
        ternary = (-1, 0, 1)
        additions = symbolic.read(
            expressions, weights["kernel_add"], ternary, symbolic.linear
        )
        multiplications = symbolic.read(
            expressions, weights["kernel_mul"], ternary, symbolic.product
        )

        def gate_line(name, k):
            return f"{name} = {weights['gate'][k]:.3g}"

        return symbolic.gated_columns(self.name, additions, multiplications, gate_line)

    def get_config(self):
        config = super().get_config()
        config.update({"omega": self.omega, "epsilon": self.epsilon})
        config.update(
            serialized(
                self,
                "w_hat_initializer",
                "m_hat_initializer",
                "gate_initializer",
                "kernel_regularizer",
                "inalu_regularizer",
            )
        )
        return config
