"""Neural Addition Unit (NAU)."""

from keras import ops

from keras_nalm import symbolic
from keras_nalm.constraints import NAU_RANGE
from keras_nalm.layers.base import KernelLayer
from keras_nalm.saving import register_serializable


def nau_equation(x, kernel):
    """z = x . clip(W, -1, 1) (Madsen eq. 5 and 7)."""
    return ops.matmul(x, ops.clip(kernel, *NAU_RANGE))


@register_serializable
class NAU(KernelLayer):
    """Neural Addition Unit (NAU), for exact addition and subtraction.

    A linear map whose weights are clamped to [-1, 1] and regularized
    towards {-1, 0, 1} (Madsen & Johansen 2020, §2.2, eq. 5-7):

        W = min(max(W, -1), 1)                            (eq. 5)
        R_sparse = mean(min(|W|, 1 - |W|))                (eq. 6)
        z_o = sum_i W_io * x_i                            (eq. 7)

    W is clipped in `call` and, by the default `kernel_constraint`, after
    each optimizer step (as the reference code does). The kernel starts
    U[-r, r], r = min(0.5, sqrt(3) * sqrt(2 / (in + units))) (§2.6).

    The sparsity regularizer is multiplied by the non-trainable variable
    `regularizer_scale` (attribute `regularizer_scale_variable`), which
    starts at 0: the paper switches it on after a
    warm-up, lambda = lambda_hat * clip((t - start) / (end - start), 0, 1)
    (eq. 14), which `keras_nalm.callbacks.RegularizerWarmup` does (lambda_hat
    = 0.01 for the NAU models of Madsen table 4). For a constant strength,
    pass `regularizer_scale`.

    Mixed precision: the layer computes in its variable dtype (float32 under
    `mixed_float16`) and returns that dtype.

    Args:
        units: int > 0, the output dimension.
        kernel_initializer: initializer for `kernel` (default
            `"nau_uniform"`, `keras_nalm.initializers.NAUUniform`).
        kernel_regularizer: an ordinary Keras regularizer for `kernel`
            (default None), not scaled.
        kernel_constraint: constraint for `kernel` (default `"nau_clamp"`,
            `Clamp(-1, 1)`).
        sparsity_regularizer: the sparsity regularizer R_sparse (default
            `"nau_sparsity"`, `Sparsity(target="ternary")`; None for none),
            multiplied by `regularizer_scale`.
        regularizer_scale: float >= 0, initial value of the variable
            `regularizer_scale` (default 0.0).
        input_regularization: float >= 0, the strength of the input
            regularizer R_z = mean((1 - |W|) * mean_batch(x)^2) (Madsen
            app. D.2, eq. 75); default 0 (off).
        **kwargs: base layer arguments (`name`, `dtype`, ...).

    Call arguments:
        inputs: floating point tensor `(batch_size, ..., input_dim)`.
        training: bool; R_z is added only when training.

    Input shape: `(batch_size, ..., input_dim)`.
    Output shape: `(batch_size, ..., units)`.

    Example:
    >>> inputs = keras.Input((4,))
    >>> outputs = keras_nalm.layers.NAU(2)(inputs)

    Reference:
    - [Madsen & Johansen, 2020](https://arxiv.org/abs/2001.05016), §2.2.
    """

    kernel_range = NAU_RANGE
    equation = staticmethod(nau_equation)
    discrete_values = (-1, 0, 1)
    combine = staticmethod(symbolic.linear)
    input_regularization_target = "ternary"

    def __init__(
        self,
        units,
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
