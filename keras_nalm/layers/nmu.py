"""Neural Multiplication Unit (NMU)."""

from keras import ops

from keras_nalm import symbolic
from keras_nalm.constraints import NMU_RANGE
from keras_nalm.layers.base import KernelLayer
from keras_nalm.saving import register_serializable


def gated_product(x, weight):
    """z_o = prod_i (W_io * x_i + 1 - W_io): each weight gates its input
    between x_i (W = 1) and the multiplicative identity (W = 0)."""
    factors = ops.expand_dims(x, -1) * weight + (1.0 - weight)
    return ops.prod(factors, axis=-2)


def nmu_equation(x, kernel):
    """The NMU, W clipped to [0, 1] (Madsen eq. 10 and 12)."""
    return gated_product(x, ops.clip(kernel, *NMU_RANGE))


@register_serializable
class NMU(KernelLayer):
    """Neural Multiplication Unit (NMU), for exact multiplication.

    Each weight gates between its input (W = 1) and the multiplicative
    identity (W = 0) (Madsen & Johansen 2020, §2.5, eq. 10-12):

        W = min(max(W, 0), 1)                             (eq. 10)
        R_sparse = mean(min(W, 1 - W))                    (eq. 11)
        z_o = prod_i (W_io * x_i + 1 - W_io)              (eq. 12)

    Unlike the NAC•, it handles negative, zero and small inputs and has no
    epsilon, but it cannot divide. W is clipped in `call` and, by the
    default `kernel_constraint`, after each optimizer step. The kernel
    starts U[0.25, 0.75] (E[W] = 1/2, §2.6 and app. B.4; the reference
    code's range). The gradient is finite at x = 0.

    The sparsity regularizer is multiplied by the non-trainable variable
    `regularizer_scale`, which starts at 0 and is raised by
    `keras_nalm.callbacks.RegularizerWarmup` (eq. 14; lambda_hat = 10 for
    the NMU models of Madsen table 4), or set by `regularizer_scale`.

    Mixed precision: computes and returns the variable dtype (float32
    under `mixed_float16`): products overflow float16 quickly.

    Args:
        units: int > 0, the output dimension.
        kernel_initializer: default `"nmu_uniform"` (U[0.25, 0.75]).
        kernel_regularizer: an ordinary Keras regularizer for `kernel`
            (default None), not scaled.
        kernel_constraint: default `"nmu_clamp"` (`Clamp(0, 1)`).
        sparsity_regularizer: default `"nmu_sparsity"`
            (`Sparsity(target="binary")`; None for none), multiplied by
            `regularizer_scale`.
        regularizer_scale: float >= 0, initial value of the variable
            `regularizer_scale` (default 0.0).
        input_regularization: float >= 0, strength of the input regularizer
            R_z = mean((1 - W) * (1 - mean_batch(x))^2) (Madsen §4.2);
            default 0 (off).
        **kwargs: base layer arguments (`name`, `dtype`, ...).

    Call arguments:
        inputs: floating point tensor `(batch_size, ..., input_dim)`.
        training: bool; R_z is added only when training.

    Input shape: `(batch_size, ..., input_dim)`.
    Output shape: `(batch_size, ..., units)`.

    Example:
    >>> inputs = keras.Input((4,))
    >>> hidden = keras_nalm.layers.NAU(2)(inputs)
    >>> outputs = keras_nalm.layers.NMU(1)(hidden)

    Reference:
    - [Madsen & Johansen, 2020](https://arxiv.org/abs/2001.05016), §2.5.
    """

    kernel_range = NMU_RANGE
    identity_value = 1.0
    equation = staticmethod(nmu_equation)
    discrete_values = (0, 1)
    combine = staticmethod(symbolic.product)
    input_regularization_target = "binary"

    def __init__(
        self,
        units,
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
