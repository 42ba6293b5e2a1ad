"""Initializers of the arithmetic units whose range depends on the shape."""

import math

import keras

from keras_nalm.saving import register_serializable


def _fans(shape):
    if len(shape) != 2:
        raise ValueError(
            f"Expected a 2-D weight shape (inputs, units), received {shape}."
        )
    return int(shape[0]), int(shape[1])


def nac_weight_variance(r):
    """Var[tanh(w) * sigmoid(m)] for w, m ~ U[-r, r] (Madsen eq. 29)."""
    return (1.0 / (2.0 * r)) * (1.0 - math.tanh(r) / r) * (r - math.tanh(r / 2))


def nac_radius(fan_in, fan_out):
    """Solves Madsen eq. 29 for r such that Var[W] = 2 / (fan_in + fan_out).

    The variance of eq. 29 grows monotonically with r but stays below 1/2,
    so the Glorot target is reachable only for fan_in + fan_out > 4; as the
    reference code does, the fan is taken as at least 5 (target 0.4).
    """
    target = 2.0 / max(fan_in + fan_out, 5)
    low, high = 1e-6, 1e3
    for _ in range(200):
        middle = 0.5 * (low + high)
        if nac_weight_variance(middle) < target:
            low = middle
        else:
            high = middle
    return 0.5 * (low + high)


def nau_radius(fan_in, fan_out):
    """r = min(0.5, sqrt(3) * sqrt(2 / (fan_in + fan_out))) (Madsen §2.6)."""
    return min(0.5, math.sqrt(3.0) * math.sqrt(2.0 / (fan_in + fan_out)))


class _SymmetricUniform(keras.initializers.RandomUniform):
    """U[-r, r] with r computed from the weight shape by `radius`."""

    radius = None

    def __init__(self, seed=None):
        super().__init__(minval=0.0, maxval=0.0, seed=seed)

    def __call__(self, shape, dtype=None):
        r = type(self).radius(*_fans(shape))
        return keras.random.uniform(
            shape, minval=-r, maxval=r, dtype=dtype, seed=self.seed
        )

    def get_config(self):
        return {"seed": super().get_config()["seed"]}


@register_serializable
class NAUUniform(_SymmetricUniform):
    """NAU initializer: U[-r, r], r = min(0.5, sqrt(3 * 2 / (in + units))).

    The Glorot-uniform range capped at 0.5 (Madsen & Johansen 2020, §2.6).

    Args:
        seed: int, `keras.random.SeedGenerator` or None.

    Example:
    >>> kernel = keras_nalm.initializers.NAUUniform(seed=0)((4, 2))

    Reference:
    - [Madsen & Johansen, 2020](https://arxiv.org/abs/2001.05016), §2.6.
    """

    radius = staticmethod(nau_radius)


@register_serializable
class NACUniform(_SymmetricUniform):
    """NAC initializer for w_hat and m_hat: U[-r, r] with r from eq. 29.

    r is chosen so that W = tanh(w_hat) * sigmoid(m_hat) has the Glorot
    variance 2 / (in + units) (Madsen & Johansen 2020, app. B.1.2, eq. 29).

    Args:
        seed: int, `keras.random.SeedGenerator` or None.

    Example:
    >>> w_hat = keras_nalm.initializers.NACUniform(seed=0)((4, 2))

    Reference:
    - [Madsen & Johansen, 2020](https://arxiv.org/abs/2001.05016), app.
      B.1.2, eq. 29.
    """

    radius = staticmethod(nac_radius)


@register_serializable
class LinearBias(keras.initializers.Initializer):
    """PyTorch's `nn.Linear` bias initialisation: U[-1/sqrt(fan_in),
    1/sqrt(fan_in)], fan_in being the input size of the bias's kernel.

    A bias's shape does not say its kernel's fan-in: a layer that accepts
    this initializer binds it (`bound(fan_in)`) for each of its biases, as
    `NRUCell` does. The NRU authors' code keeps this initialisation for
    every bias of its cell (apsarath/NRU, `NRU.py`).

    Args:
        fan_in: int > 0 or None (default: bound by the layer).
        seed: int, `keras.random.SeedGenerator` or None.

    Example:
    >>> cell = keras_nalm.layers.NRUCell(
    ...     32, bias_initializer=keras_nalm.initializers.LinearBias(seed=0))
    >>> outputs = keras.layers.RNN(cell)(keras.Input((None, 10)))

    Reference:
    - [Chandar et al., 2019](https://arxiv.org/abs/1902.06704): the
      authors' code, apsarath/NRU.
    """

    def __init__(self, fan_in=None, seed=None):
        self.fan_in = fan_in
        self.seed = seed

    def bound(self, fan_in):
        """The initializer of a bias whose kernel has `fan_in` inputs."""
        return LinearBias(fan_in=int(fan_in), seed=self.seed)

    def __call__(self, shape, dtype=None):
        if self.fan_in is None:
            raise ValueError(
                "LinearBias needs the fan-in of its bias's kernel: use it in a "
                "layer that binds it (NRUCell), or give LinearBias(fan_in=...)."
            )
        limit = 1.0 / math.sqrt(self.fan_in)
        uniform = keras.initializers.RandomUniform(-limit, limit, seed=self.seed)
        return uniform(shape, dtype=dtype)

    def get_config(self):
        return {"fan_in": self.fan_in, "seed": self.seed}


def nmu_uniform(seed=None):
    """NMU initializer U[0.25, 0.75]: E[W] = 1/2 as in Madsen §2.6.

    This is the reference code's range (Var[W] = 1/48), not the Var[W] = 1/4
    of Madsen app. B.4.3, which no uniform distribution on [0, 1] reaches.
    """
    return keras.initializers.RandomUniform(0.25, 0.75, seed=seed)


_NAMED = {
    "nau_uniform": NAUUniform,
    "nac_uniform": NACUniform,
    "nmu_uniform": nmu_uniform,
    # iNALU, as the reference code (Schlör et al. 2020; nalm-benchmark).
    "inalu_w_hat": lambda: keras.initializers.RandomNormal(0.88, 0.2),
    "inalu_m_hat": lambda: keras.initializers.RandomNormal(0.5, 0.2),
    "inalu_gate": lambda: keras.initializers.RandomNormal(0.0, 0.2),
}


def get(identifier):
    """Resolves an initializer: this package's names first, then Keras's.

    Names: `"nau_uniform"`, `"nac_uniform"`, `"nmu_uniform"`,
    `"inalu_w_hat"` (N(0.88, 0.2)), `"inalu_m_hat"` (N(0.5, 0.2)),
    `"inalu_gate"` (N(0, 0.2)).
    """
    if isinstance(identifier, str) and identifier in _NAMED:
        return _NAMED[identifier]()
    return keras.initializers.get(identifier)
