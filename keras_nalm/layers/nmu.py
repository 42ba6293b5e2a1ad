"""Neural Multiplication Unit (NMU)."""

import keras
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


#: `StochasticNMU(noise_range=BATCH_NOISE)`: the noise's upper bound from
#: the batch, 1 + 1 / std(x).
BATCH_NOISE = "batch"


def _noise_range(value):
    """A `(low, high)` pair with 0 < low <= high, or `BATCH_NOISE`."""
    if value == BATCH_NOISE:
        return BATCH_NOISE
    try:
        low, high = (float(bound) for bound in value)
    except (TypeError, ValueError):
        raise ValueError(
            f"noise_range must be a pair (low, high) or {BATCH_NOISE!r}; "
            f"received {value!r}."
        ) from None
    if not 0 < low <= high:
        raise ValueError(
            f"noise_range must satisfy 0 < low <= high; received {value!r}."
        )
    return (low, high)


@register_serializable
class StochasticNMU(NMU):
    """Stochastic NMU (sNMU): an NMU trained on noisy inputs, the noise
    undone at the output.

    In a training call every input element is multiplied by its own noise
    n ~ U[low, high], drawn anew at each call, and the product of the
    noise alone divides it out (Mistry, Farrahi & Hare 2022):

        y_o = NMU_W(x * n)_o / NMU_W(n)_o

    where NMU_W(v)_o = prod_i (W_io v_i + 1 - W_io) (the NMU, eq. 12 of
    Madsen & Johansen 2020). For a discrete W in {0, 1}^(in x out) the
    division undoes the noise exactly (each selected factor is x_i n_i,
    each other 1), so the noise leaves the solution unchanged while it
    moves every other W: the unit is pushed towards discrete weights. A
    call that is not training is the plain NMU, without noise. With
    `noise_range="batch"` the upper bound is 1 + 1 / std(x), the sample
    standard deviation (Bessel-corrected) of all the batch's input
    elements, without gradient; the lower bound is 1.

    As in the authors' code (bmistry4/nalm-robust-nmu, `nmu_noise`), the
    input regularizer R_z, when on, sees the noisy input; weights,
    initialisation, clipping and the sparsity regularizer are the NMU's.
    Inside a recurrent cell (`keras_nalm.layers.ArithmeticCell`) the unit
    computes as the NMU, without noise.

    Args:
        units: int > 0, the output dimension.
        noise_range: `(low, high)` with 0 < low <= high, the range of the
            uniform noise (default `(1.0, 5.0)`, the authors' default), or
            `"batch"`.
        seed: int or None, the seed of the noise's `keras.random.SeedGenerator`.
        regularizer_scale: float >= 0, initial value of the variable
            `regularizer_scale` (default 0.0), as the NMU's.
        input_regularization: float >= 0, the strength of R_z (default 0:
            off), as the NMU's.
        **kwargs: the NMU's other arguments (`kernel_initializer`,
            `sparsity_regularizer`, ...) and base layer arguments.

    Call arguments:
        inputs: floating point tensor `(batch_size, ..., input_dim)`.
        training: bool; the noise (and R_z) apply only when training.

    Input shape: `(batch_size, ..., input_dim)`.
    Output shape: `(batch_size, ..., units)`.

    Example:
    >>> inputs = keras.Input((2,))
    >>> outputs = keras_nalm.layers.StochasticNMU(1, seed=0)(inputs)

    Reference:
    - [Mistry, Farrahi & Hare, 2022](https://arxiv.org/abs/2211.05624),
      "Improving the Robustness of Neural Multiplication Units with
      Reversible Stochasticity"; bmistry4/nalm-robust-nmu at 47675db,
      `stable_nalu/layer/re_regualized_linear_mnac.py`.
    """

    def __init__(
        self,
        units,
        noise_range=(1.0, 5.0),
        seed=None,
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
        self.noise_range = _noise_range(noise_range)
        self.seed = seed
        self.seed_generator = keras.random.SeedGenerator(seed)

    def noise(self, x):
        """The multiplicative noise of one training call, shaped like `x`."""
        unit = keras.random.uniform(
            ops.shape(x), dtype=x.dtype, seed=self.seed_generator
        )
        if self.noise_range == BATCH_NOISE:
            low = 1.0
            count = ops.cast(ops.size(x), x.dtype)
            variance = ops.var(x) * count / (count - 1.0)
            high = 1.0 + 1.0 / ops.sqrt(ops.stop_gradient(variance))
        else:
            low, high = self.noise_range
        return low + (high - low) * unit

    def compute_in_training(self, x):
        noise = self.noise(x)
        noisy = x * noise
        self.add_input_penalty(noisy)
        return self.compute(noisy) / self.compute(noise)

    def get_config(self):
        config = super().get_config()
        noise_range = self.noise_range
        config["noise_range"] = (
            noise_range if noise_range == BATCH_NOISE else list(noise_range)
        )
        config["seed"] = self.seed
        return config
