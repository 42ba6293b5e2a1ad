"""Optimizers that reproduce the reference implementations' updates."""

import keras
from keras import ops

from keras_nalm._validation import check_positive_float
from keras_nalm.saving import register_serializable


@register_serializable
class TorchAdam(keras.optimizers.Adam):
    """Adam as PyTorch's `torch.optim.Adam` computes it (epsilon 1e-8).

    Every public reference implementation of the arithmetic units trains
    with PyTorch's Adam, which adds epsilon to the bias-corrected second
    moment (Kingma & Ba 2015, algorithm 1):

        m_t = beta_1 m_{t-1} + (1 - beta_1) g_t
        v_t = beta_2 v_{t-1} + (1 - beta_2) g_t^2
        w_t = w_{t-1} - lr / (1 - beta_1^t) * m_t
                        / (sqrt(v_t) / sqrt(1 - beta_2^t) + epsilon)

    `keras.optimizers.Adam` adds its epsilon (default 1e-7) to the
    uncorrected sqrt(v_t) instead (the "epsilon hat" form at the end of the
    paper's section 2). The two agree when Keras's epsilon is PyTorch's
    times sqrt(1 - beta_2^t), which is how this class computes the update:
    at step t it runs Keras's Adam update with that epsilon. The difference
    is largest at the first steps (a factor 32 at t = 1) and below 1 %
    after 5 000 steps; the default epsilon differs 10x throughout. With
    `amsgrad=True`, v_t is replaced by its running maximum, as in PyTorch.

    `global_clipnorm` clips as `torch.nn.utils.clip_grad_norm_` does on a
    CPU, whose norm accumulates in double precision: with
    `clip_by_global_norm` below, finite gradients whose sum of squares
    overflows float32 (entries above about 1.8e19, as an untrained NRU's on
    784-step sequences) are scaled down to the clip norm instead of
    becoming NaN as in Keras's optimizers.

    Args:
        learning_rate: float or schedule (default 1e-3).
        beta_1: float, the first moment's decay (default 0.9).
        beta_2: float, the second moment's decay (default 0.999).
        epsilon: float > 0, PyTorch's epsilon (default 1e-8).
        amsgrad: bool (default False).
        **kwargs: base optimizer arguments (`clipvalue`, `clipnorm`,
            `global_clipnorm`, ...).

    Example:
    >>> model.compile(optimizer=keras_nalm.optimizers.TorchAdam(), loss="mse")

    Reference:
    - [Kingma & Ba, 2015](https://arxiv.org/abs/1412.6980), algorithm 1.
    """

    def __init__(
        self,
        learning_rate=0.001,
        beta_1=0.9,
        beta_2=0.999,
        epsilon=1e-8,
        amsgrad=False,
        name="torch_adam",
        **kwargs,
    ):
        super().__init__(
            learning_rate=learning_rate,
            beta_1=beta_1,
            beta_2=beta_2,
            epsilon=check_positive_float("epsilon", epsilon),
            amsgrad=amsgrad,
            name=name,
            **kwargs,
        )

    def _clip_gradients(self, grads):
        if self.global_clipnorm and not self.clipnorm:
            return clip_by_global_norm(grads, self.global_clipnorm)
        return super()._clip_gradients(grads)

    def update_step(self, gradient, variable, learning_rate):
        torch_epsilon = self.epsilon
        step = ops.cast(self.iterations + 1, variable.dtype)
        decay = ops.power(ops.cast(self.beta_2, variable.dtype), step)
        self.epsilon = torch_epsilon * ops.sqrt(1 - decay)
        try:
            super().update_step(gradient, variable, learning_rate)
        finally:
            self.epsilon = torch_epsilon


@register_serializable
def clip_by_global_norm(gradients, clip_norm):
    """Scales `gradients` so that their global L2 norm is at most `clip_norm`.

    Where the sum of squares overflows float32 (an entry above about
    1.8e19), the norm is computed as s * sqrt(sum((g / s)^2)), s the largest
    |g|, so it is finite for any finite gradients; Keras's and TensorFlow's
    clipping return NaN gradients there. Elsewhere the result is Keras's,
    bit for bit. Non-finite gradients still give NaN (as
    there), and `None` entries stay `None`.

    Args:
        gradients: list of tensors (or `None`).
        clip_norm: float > 0.

    Returns:
        The list of scaled gradients.
    """
    present = [ops.cast(g, "float32") for g in gradients if g is not None]
    if not present:
        return list(gradients)
    norm = ops.sqrt(ops.sum(ops.stack([ops.sum(ops.square(g)) for g in present])))
    largest = ops.max(ops.stack([ops.max(ops.abs(g)) for g in present]))
    scale = ops.where(largest > 0, largest, ops.ones_like(largest))
    squares = ops.stack([ops.sum(ops.square(g / scale)) for g in present])
    norm = ops.where(ops.isfinite(norm), norm, scale * ops.sqrt(ops.sum(squares)))
    factor = clip_norm * ops.minimum(1.0 / norm, 1.0 / clip_norm)
    factor = factor + (norm - norm)  # NaN unless the norm is finite
    return [None if g is None else g * ops.cast(factor, g.dtype) for g in gradients]
