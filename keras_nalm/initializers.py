"""Initializers of the arithmetic units whose range depends on the shape, and
the biases of the recurrent baselines (chrono initialisation, the GORU's)."""

import math

import keras

from keras_nalm.saving import LAB_PACKAGE
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


@register_serializable
class JunctionInitializer(keras.initializers.Initializer):
    """The MC-FC junction's initialisation: the identity for a square
    `(in, out)` matrix, else a (semi-)orthogonal one.

    Before its softmax over the outputs, the identity starts each input's
    mass mostly on its own output; a non-square junction starts
    orthogonal, as the MC-LSTM authors' `LinearRedistribution`.

    Args:
        seed: int, `keras.random.SeedGenerator` or None.

    Example:
    >>> junction = keras_nalm.initializers.JunctionInitializer(seed=0)((2, 1))

    Reference:
    - [Hoedt et al., 2021](https://arxiv.org/abs/2101.05186): the authors'
      code, `stable_nalu/layer/mclstm.py` (bmistry4/nalm-benchmark).
    """

    def __init__(self, seed=None):
        self.seed = seed

    def __call__(self, shape, dtype=None):
        if len(shape) == 2 and shape[0] == shape[1]:
            return keras.initializers.Identity()(shape, dtype=dtype)
        return keras.initializers.Orthogonal(seed=self.seed)(shape, dtype=dtype)

    def get_config(self):
        return {"seed": self.seed}


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
    "mcfc_junction": JunctionInitializer,
    # iNALU, as the reference code (Schlör et al. 2020; nalm-benchmark).
    "inalu_w_hat": lambda: keras.initializers.RandomNormal(0.88, 0.2),
    "inalu_m_hat": lambda: keras.initializers.RandomNormal(0.5, 0.2),
    "inalu_gate": lambda: keras.initializers.RandomNormal(0.0, 0.2),
}


def get(identifier):
    """Resolves an initializer: this package's names first, then Keras's.

    Names: `"nau_uniform"`, `"nac_uniform"`, `"nmu_uniform"`,
    `"mcfc_junction"` (`JunctionInitializer()`),
    `"inalu_w_hat"` (N(0.88, 0.2)), `"inalu_m_hat"` (N(0.5, 0.2)),
    `"inalu_gate"` (N(0, 0.2)).
    """
    if isinstance(identifier, str) and identifier in _NAMED:
        return _NAMED[identifier]()
    return keras.initializers.get(identifier)


@register_serializable(former_packages=(LAB_PACKAGE,))
class ChronoBias(keras.initializers.Initializer):
    """Chrono initialisation of a gated RNN's bias (Tallec & Ollivier 2018;
    Chandar et al. 2019, eq. 7-8).

        b_f ~ log(U[1, T_max - 1]),   b_i = -b_f,   other gates 0

    so that each unit's forget gate starts with a time constant between 1
    and T_max steps. `gates` names the blocks of the bias in order, one
    letter per block of `units` entries: `"i"` the input gate, `"f"` the
    forget gate, any other letter a block left at 0 — `"ifco"` for
    `keras.layers.LSTM` (which must be built with `unit_forget_bias=False`,
    otherwise Keras overwrites the forget block with ones), `"fc"` for
    `keras_nalm.layers.JANETCell`.

    Args:
        max_dependency: float > 2, T_max, the longest dependency expected
            (e.g. the sequence length).
        gates: str, the bias layout (default `"ifco"`, Keras's LSTM).
        seed: int, `keras.random.SeedGenerator` or None.

    Example:
    >>> lstm = keras.layers.LSTM(
    ...     64, unit_forget_bias=False,
    ...     bias_initializer=keras_nalm.initializers.ChronoBias(120))

    Reference:
    - [Tallec & Ollivier, 2018](https://arxiv.org/abs/1804.11188).
    - [Chandar et al., 2019](https://arxiv.org/abs/1902.06704), eq. 7-8.
    """

    def __init__(self, max_dependency, gates="ifco", seed=None):
        if not max_dependency > 2:
            raise ValueError(
                "ChronoBias draws log(U[1, T_max - 1]): max_dependency must be "
                f"> 2, received {max_dependency}."
            )
        if "f" not in gates or len(set(gates)) != len(gates):
            raise ValueError(
                "gates must name each block once with one letter and include "
                f"the forget gate 'f' (e.g. 'ifco'), received {gates!r}."
            )
        self.max_dependency = float(max_dependency)
        self.gates = gates
        self.seed = seed
        self._seed_generator = keras.random.SeedGenerator(seed)

    def __call__(self, shape, dtype=None):
        (size,) = shape
        if size % len(self.gates):
            raise ValueError(
                f"A bias of {size} entries does not split into the "
                f"{len(self.gates)} gates {self.gates!r}."
            )
        units = size // len(self.gates)
        forget = keras.ops.log(
            keras.random.uniform(
                (units,),
                minval=1.0,
                maxval=self.max_dependency - 1.0,
                dtype=dtype,
                seed=self._seed_generator,
            )
        )
        blocks = {"f": forget, "i": -forget}
        zeros = keras.ops.zeros((units,), dtype=dtype)
        return keras.ops.concatenate([blocks.get(gate, zeros) for gate in self.gates])

    def get_config(self):
        seed = self.seed if isinstance(self.seed, int) or self.seed is None else None
        return {
            "max_dependency": self.max_dependency,
            "gates": self.gates,
            "seed": seed,
        }


@register_serializable(former_packages=(LAB_PACKAGE,))
class GORUBias(keras.initializers.Initializer):
    """The GORU authors' biases [b_c, b_r, b_g] of n units each: 0.01 (the
    modReLU's), 2 (the reset gate's) and TensorFlow 1's default initialiser
    of a vector of n (the update gate's): U[-sqrt(3/n), sqrt(3/n)].

    Args:
        seed: the update gate's draw's seed (default None).

    Example:
    >>> cell = keras_nalm.layers.GORUCell(
    ...     100, bias_initializer=keras_nalm.initializers.GORUBias(seed=0))

    Reference:
    - [Jing et al., 2017a](https://arxiv.org/abs/1706.02761): the authors'
      code, jingli9111/GORU-tensorflow.
    """

    def __init__(self, seed=None):
        self.seed = seed

    def __call__(self, shape, dtype=None):
        units = shape[0] // 3
        limit = math.sqrt(3.0 / units)
        update = keras.initializers.RandomUniform(-limit, limit, seed=self.seed)
        return keras.ops.concatenate(
            [
                keras.ops.full((units,), 0.01, dtype=dtype),
                keras.ops.full((units,), 2.0, dtype=dtype),
                update((units,), dtype=dtype),
            ]
        )

    def get_config(self):
        return {"seed": self.seed}
