"""Division units: the neural reciprocal unit and the NMRU (Mistry, Farrahi
& Hare, "Learning Division with Neural Arithmetic Logic Modules")."""

import math

import keras
import numpy as np
from keras import ops

from keras_nalm import symbolic
from keras_nalm._validation import check_non_negative_float
from keras_nalm.constraints import NAU_RANGE
from keras_nalm.constraints import NMU_RANGE
from keras_nalm.layers.base import KernelLayer
from keras_nalm.layers.base import resolve
from keras_nalm.layers.npu import FLOAT32_EPSILON
from keras_nalm.saving import register_serializable

#: How sharply the training form of the reciprocal unit tells a nonzero
#: weight from zero: t = tanh(SHARPNESS * W)^2 (the authors' 1000).
SHARPNESS = 1000.0


def reciprocal_product(x, kernel, training, separate_sign=False, epsilon=0.0):
    """The reciprocal unit's y_o = prod_i (s_io |x_i|^W_io t_io + 1 - t_io),
    t = tanh(1000 W)^2 in training and |W| otherwise; s = sign(x_i), or, with
    `separate_sign`, 1 inside the product and prod_i sign(x_i)^round(W_io)
    outside it (without gradient; a zero input counts as positive)."""
    weight = ops.clip(kernel, *NAU_RANGE)
    column = ops.expand_dims(x, -1)
    if training:
        selected = ops.square(ops.tanh(SHARPNESS * weight))
    else:
        selected = ops.abs(weight)
    power = ops.power(ops.abs(column) + epsilon, weight)
    if not separate_sign:
        return ops.prod(ops.sign(column) * power * selected + (1.0 - selected), axis=-2)
    magnitude = ops.prod(power * selected + (1.0 - selected), axis=-2)
    exponent = ops.stop_gradient(ops.round(weight))
    negative = ops.cast(ops.less(column, 0.0), x.dtype)
    sign = ops.prod(ops.power(1.0 - 2.0 * negative, exponent), axis=-2)
    return magnitude * ops.stop_gradient(sign)


@register_serializable
class NeuralReciprocalUnit(KernelLayer):
    """Neural reciprocal unit: a product unit whose weights in [-1, 1]
    select an input (1), its reciprocal (-1) or neither (0), for division.

    Mistry, Farrahi & Hare (2021) call it "NRU"; it is not Chandar et al.'s
    non-saturating recurrent unit (`keras_nalm.layers.NRUCell`). As the
    authors' code computes it (bmistry4/nalm-division,
    `functional/mnac.py`, mode `div`):

        W = min(max(W, -1), 1)
        y_o = prod_i (sign(x_i) |x_i|^W_io t_io + 1 - t_io)

    with t_io = tanh(1000 W_io)^2 in training calls (a near-binary "this
    weight is not zero") and t_io = |W_io| otherwise. A weight of 1 gives
    x_i, -1 gives 1 / x_i, 0 the multiplicative identity. With
    `separate_sign=True` (the authors' `div-sepSign`) the product takes
    |x_i|^W_io and the output is multiplied by prod_i sign(x_i)^round(W_io),
    without gradient; there a zero input counts as positive (the authors'
    sign(0)^-1 is infinite; the magnitude decides such an output).

    The kernel starts as the NAU's (U[-r, r], r = min(0.5, sqrt(3 * 2 /
    (in + units)))) and is clipped after each optimizer step; the sparsity
    regularizer is the NAU's, mean(min(|W|, |1 - |W||)), times the variable
    `regularizer_scale` (the authors' lambda = 10 warmed up; their
    protocol: `keras_nalm.callbacks.RegularizerWarmup`). There is no
    epsilon by default: a zero input with a negative weight gives an
    infinite output; `epsilon` is added to |x| before the power.

    Args:
        units: int > 0, the output dimension.
        separate_sign: bool, the sign outside the product (default False).
        epsilon: float >= 0, added to |x| (default 0, the authors').
        kernel_initializer: default `"nau_uniform"`.
        kernel_regularizer: an ordinary Keras regularizer (default None).
        kernel_constraint: default `"nau_clamp"` (`Clamp(-1, 1)`).
        sparsity_regularizer: default `"nau_sparsity"`, multiplied by
            `regularizer_scale`.
        regularizer_scale: float >= 0, initial value of the variable
            `regularizer_scale` (default 0.0).
        input_regularization: float >= 0, the NAU's R_z (default 0: off),
            as the authors' `RegualizerNAUZ`.
        **kwargs: base layer arguments (`name`, `dtype`, ...).

    Call arguments:
        inputs: floating point tensor `(batch_size, ..., input_dim)`.
        training: bool; the training form of t (and R_z) when training.

    Input shape: `(batch_size, ..., input_dim)`.
    Output shape: `(batch_size, ..., units)`.

    Example:
    >>> inputs = keras.Input((2,))
    >>> outputs = keras_nalm.layers.NeuralReciprocalUnit(1)(inputs)

    Reference:
    - [Mistry, Farrahi & Hare, 2021](https://arxiv.org/abs/2110.05177),
      "Learning Division with Neural Arithmetic Logic Modules";
      bmistry4/nalm-division at 61fa973, `stable_nalu/layer/reciprocal_nmu.py`.
    """

    kernel_range = NAU_RANGE
    discrete_values = (-1, 0, 1)
    combine = staticmethod(symbolic.product)
    identity_value = 1.0
    input_regularization_target = "ternary"

    def __init__(
        self,
        units,
        separate_sign=False,
        epsilon=0.0,
        kernel_initializer="nau_uniform",
        kernel_regularizer=None,
        kernel_constraint="nau_clamp",
        sparsity_regularizer="nau_sparsity",
        regularizer_scale=0.0,
        input_regularization=0.0,
        **kwargs,
    ):
        super().__init__(
            units,
            kernel_initializer=kernel_initializer,
            kernel_regularizer=kernel_regularizer,
            kernel_constraint=kernel_constraint,
            sparsity_regularizer=sparsity_regularizer,
            regularizer_scale=regularizer_scale,
            input_regularization=input_regularization,
            **kwargs,
        )
        self.separate_sign = bool(separate_sign)
        self.epsilon = check_non_negative_float("epsilon", epsilon)

    def product(self, x, training):
        return reciprocal_product(
            x, self.kernel, training, self.separate_sign, self.epsilon
        )

    def compute(self, x):
        return self.product(x, training=False)

    def compute_in_training(self, x):
        self.add_input_penalty(x)
        return self.product(x, training=True)

    def get_config(self):
        config = super().get_config()
        config.update(separate_sign=self.separate_sign, epsilon=self.epsilon)
        return config


def with_reciprocals(x, epsilon):
    """x' = [x ; 1 / (x + epsilon)] along the last axis."""
    return ops.concatenate([x, 1.0 / (x + epsilon)], axis=-1)


def sign_retrieving_product(x, kernel):
    """y_o = prod_j (W_jo |x_j| + 1 - W_jo) * cos(sum_j W_jo pi [x_j < 0])."""
    weight = ops.clip(kernel, *NMU_RANGE)
    magnitude = ops.prod(
        ops.expand_dims(ops.abs(x), -1) * weight + (1.0 - weight), axis=-2
    )
    angle = math.pi * ops.cast(ops.less(x, 0.0), x.dtype)
    return magnitude * ops.cos(ops.matmul(angle, weight))


@register_serializable
class NMRU(KernelLayer):
    """Neural multiplicative reciprocal unit (NMRU): an NMU over the inputs
    and their reciprocals, for division.

    The inputs are extended with their reciprocals, x' = [x ; 1 / (x + e)]
    with e = float32's machine epsilon in training calls and e =
    `evaluation_epsilon` (0 by default: exactly 1 / x) otherwise, and the
    unit is a product over x' (Mistry, Farrahi & Hare 2021; the authors'
    `concat_reciprocal_nmu*.py`). With `sign_retrieval=True` (default, the
    form the authors' main results run)

        y_o = prod_j (W_jo |x'_j| + 1 - W_jo) * cos(sum_j W_jo pi [x'_j < 0])

    (the magnitude of an NMU and the sign of a Real NPU, so that negative
    inputs are handled); with `sign_retrieval=False`,
    y_o = prod_j (W_jo x'_j + 1 - W_jo), the plain NMU over x'. With
    `gated=True` (the authors' gated variant) x' is first multiplied by a
    learned gate g in [0, 1]^(2 in) (clipped, starting at 0.5), which can
    zero an input or a reciprocal before the product reads it. W in
    [0, 1]^(2 in x units) starts U[0.25, 0.75], is clipped after each step
    and regularized as the NMU's (mean(min(W, 1 - W)), times
    `regularizer_scale`); the authors clip the gradients' global norm at 1.

    Args:
        units: int > 0, the output dimension.
        sign_retrieval: bool (default True).
        gated: bool, the gate on x' (default False).
        evaluation_epsilon: float >= 0, e outside training (default 0).
        kernel_initializer: default `"nmu_uniform"`.
        kernel_regularizer: an ordinary Keras regularizer (default None).
        kernel_constraint: default `"nmu_clamp"`.
        sparsity_regularizer: default `"nmu_sparsity"`, multiplied by
            `regularizer_scale`.
        regularizer_scale: float >= 0, initial value of the variable
            `regularizer_scale` (default 0.0).
        input_regularization: float >= 0, the NMU's R_z over x' (default 0).
        **kwargs: base layer arguments (`name`, `dtype`, ...).

    Call arguments:
        inputs: floating point tensor `(batch_size, ..., input_dim)`.
        training: bool; e = float32's epsilon (and R_z) when training.

    Input shape: `(batch_size, ..., input_dim)`.
    Output shape: `(batch_size, ..., units)`.

    Example:
    >>> inputs = keras.Input((2,))
    >>> outputs = keras_nalm.layers.NMRU(1)(inputs)

    Reference:
    - [Mistry, Farrahi & Hare, 2021](https://arxiv.org/abs/2110.05177),
      "Learning Division with Neural Arithmetic Logic Modules";
      bmistry4/nalm-division at 61fa973,
      `stable_nalu/layer/concat_reciprocal_nmu_sign_retrieval.py`.
    """

    kernel_range = NMU_RANGE
    discrete_values = (0, 1)
    identity_value = 1.0
    input_regularization_target = "binary"

    def __init__(
        self,
        units,
        sign_retrieval=True,
        gated=False,
        evaluation_epsilon=0.0,
        kernel_initializer="nmu_uniform",
        kernel_regularizer=None,
        kernel_constraint="nmu_clamp",
        sparsity_regularizer="nmu_sparsity",
        regularizer_scale=0.0,
        input_regularization=0.0,
        **kwargs,
    ):
        super().__init__(
            units,
            kernel_initializer=kernel_initializer,
            kernel_regularizer=kernel_regularizer,
            kernel_constraint=kernel_constraint,
            sparsity_regularizer=sparsity_regularizer,
            regularizer_scale=regularizer_scale,
            input_regularization=input_regularization,
            **kwargs,
        )
        self.sign_retrieval = bool(sign_retrieval)
        self.gated = bool(gated)
        self.gate = None
        self.evaluation_epsilon = check_non_negative_float(
            "evaluation_epsilon", evaluation_epsilon
        )

    def build_unit(self, input_dim):
        self.kernel = self.add_unit_weight(
            "kernel",
            self.kernel_initializer,
            self.unit_regularizer(self.sparsity_regularizer, self.kernel_regularizer),
            self.kernel_constraint,
            shape=(2 * input_dim, self.units),
        )
        if self.gated:
            self.gate = self.add_unit_weight(
                "gate",
                keras.initializers.Constant(0.5),
                constraint=resolve("constraint", "nmu_clamp"),
                shape=(2 * input_dim,),
            )

    def product(self, extended):
        if self.gate is not None:
            extended = extended * ops.clip(self.gate, *NMU_RANGE)
        if self.sign_retrieval:
            return sign_retrieving_product(extended, self.kernel)
        weight = ops.clip(self.kernel, *NMU_RANGE)
        factors = ops.expand_dims(extended, -1) * weight + (1.0 - weight)
        return ops.prod(factors, axis=-2)

    def compute(self, x):
        return self.product(with_reciprocals(x, self.evaluation_epsilon))

    def compute_in_training(self, x):
        extended = with_reciprocals(x, FLOAT32_EPSILON)
        self.add_input_penalty(extended)
        return self.product(extended)

    def effective_weights(self):
        found = {"kernel": ops.convert_to_numpy(self.weight_matrix())}
        if self.gate is not None:
            found["gate"] = ops.convert_to_numpy(ops.clip(self.gate, *NMU_RANGE))
        return found

    def symbolic(self, expressions):
        reciprocals = [symbolic.product([e], [-1]) for e in expressions]
        extended = [*expressions, *reciprocals]
        weights = self.effective_weights()
        if "gate" in weights:
            opened = np.round(weights["gate"]) == 1
            extended = [
                e if on else symbolic.Const(0.0) for e, on in zip(extended, opened)
            ]
        read = symbolic.read(
            extended, weights["kernel"], self.discrete_values, symbolic.product
        )
        return read, []

    def get_config(self):
        config = super().get_config()
        config.update(
            sign_retrieval=self.sign_retrieval,
            gated=self.gated,
            evaluation_epsilon=self.evaluation_epsilon,
        )
        return config
