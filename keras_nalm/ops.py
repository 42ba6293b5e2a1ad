"""Numerically safe operations shared by the units (`keras.ops` only).

The units take logarithms and exponentials of their inputs. A plain
`where(x > 0, log(x), c)` still differentiates `log` at the unselected
entries, and `0 * inf = nan` then poisons the gradient (the "double-where"
problem: tensorflow/tensorflow#38349, jax-ml/jax#347). The helpers here first
replace the unsafe entries with a harmless value, and then select.
"""

import keras
import numpy as np
from keras import ops

#: Smallest positive normal float32: `log(TINY)` stands in for `log(0)`.
TINY = float(np.finfo(np.float32).tiny)


def safe_log(x):
    """`log(x)` for `x > 0`, and `log(TINY)` (about -87.3) for `x <= 0`.

    Both the value and the gradient are finite everywhere; the gradient is
    zero where `x <= 0`.
    """
    positive = ops.greater(x, 0)
    x_safe = ops.where(positive, x, ops.ones_like(x))
    return ops.where(positive, ops.log(x_safe), ops.full_like(x, np.log(TINY)))


def absolute(x):
    """|x|, differentiated as sign(x) on every backend: 0 at x = 0, as
    TensorFlow and PyTorch differentiate `abs` (and the reference code,
    in PyTorch). JAX's `abs` has the derivative 1 at 0, so a weight held
    at exactly 0 (the NPU's imaginary part, a clamped NMU weight) would be
    pushed off it by an L1 penalty there alone: on JAX it is computed as
    sign(x) * x, whose value is |x| exactly. The other backends keep their
    `abs`: the same values and gradients, and the same compiled step (on
    TensorFlow, sign(x) * x changes the rounding of XLA's fused step, which
    long training carries into the results).
    """
    if keras.backend.backend() == "jax":
        return ops.sign(x) * x
    return ops.abs(x)


def log_abs(x, epsilon):
    """`log(|x| + epsilon)`, the input transform of the NAC• (Madsen eq. 3)."""
    return ops.log(ops.abs(x) + epsilon)


def _with_derivative(function, derivative):
    """`function`, differentiated as `derivative(x)` times the upstream
    gradient instead of through its own (rounded) output."""

    @ops.custom_gradient
    def wrapped(x):
        def gradient(*args, upstream=None):
            if upstream is None:
                (upstream,) = args
            return upstream * derivative(x)

        return function(x), gradient

    # A variable is read first: the custom gradient then sees a tensor (a
    # variable read inside it would need TensorFlow's `variables` argument).
    return lambda x: wrapped(ops.copy(x))


def _sigmoid_derivative(x):
    return ops.sigmoid(x) * ops.sigmoid(-x)


def _tanh_derivative(x):
    return ops.square(1.0 / ops.cosh(x))  # 0, not NaN, once cosh overflows


#: sigmoid(x), whose gradient keeps its relative precision where sigmoid
#: saturates. Frameworks differentiate sigmoid as y (1 - y) from the rounded
#: output y, so that 1 - y, and the gradient, lose all precision as y -> 1
#: (at x = 14, 6 % of it in float32; at x = 17, all of it). This computes
#: sigmoid(x) sigmoid(-x) from x instead, as accurate as float32 allows at
#: any x; the value is `keras.ops.sigmoid`'s.
sigmoid = _with_derivative(ops.sigmoid, _sigmoid_derivative)

#: tanh(x), whose gradient keeps its relative precision where tanh
#: saturates: 1 / cosh(x)^2 from x instead of 1 - y^2 from the rounded
#: output (0 in float32 from |x| = 9 on); the value is `keras.ops.tanh`'s.
#: This changes training, not only gradients: Adam turns the tiny gradient
#: of a saturated weight into a full step, so NAC+ weights tanh(W_hat)
#: sigmoid(M_hat) keep moving to exactly +-1 where PyTorch's (the reference
#: code's) output-based derivative stops them; on the Single Module Task the
#: NAC+ on U[+-10, 20) succeeds in 25 of 25 runs instead of 18
#: (`benchmarks/results/README.md`).
tanh = _with_derivative(ops.tanh, _tanh_derivative)
