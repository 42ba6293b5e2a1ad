"""Numerically safe operations shared by the units (`keras.ops` only).

The units take logarithms and exponentials of their inputs. A plain
`where(x > 0, log(x), c)` still differentiates `log` at the unselected
entries, and `0 * inf = nan` then poisons the gradient (the "double-where"
problem: tensorflow/tensorflow#38349, jax-ml/jax#347). The helpers here first
replace the unsafe entries with a harmless value, and then select.
"""

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


def log_abs(x, epsilon):
    """`log(|x| + epsilon)`, the input transform of the NAC• (Madsen eq. 3)."""
    return ops.log(ops.abs(x) + epsilon)
