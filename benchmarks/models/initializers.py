"""Initializers of the NRU paper's comparison models."""

import keras

from benchmarks.core.registration import register


@register
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
    `benchmarks.models.JANETCell`.

    Args:
        max_dependency: float > 2, T_max, the longest dependency expected
            (e.g. the sequence length).
        gates: str, the bias layout (default `"ifco"`, Keras's LSTM).
        seed: int, `keras.random.SeedGenerator` or None.

    Example:
    >>> lstm = keras.layers.LSTM(
    ...     64, unit_forget_bias=False,
    ...     bias_initializer=benchmarks.models.ChronoBias(120))
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
