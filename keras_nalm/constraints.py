"""Weight constraints of the arithmetic units."""

import keras
from keras import ops

from keras_nalm.saving import register_serializable

#: The NAU's weight range, [-1, 1] (Madsen & Johansen 2020, eq. 5).
NAU_RANGE = (-1.0, 1.0)
#: The NMU's weight range, [0, 1] (Madsen & Johansen 2020, eq. 10).
NMU_RANGE = (0.0, 1.0)


@register_serializable
class Clamp(keras.constraints.Constraint):
    """Clamps every weight into `[min_value, max_value]` after each step.

    The NAU clamps its weights to `[-1, 1]` (Madsen & Johansen 2020, eq. 5)
    and the NMU to `[0, 1]` (eq. 10). Keras applies a constraint after each
    optimizer update only; the units clip in their forward pass as well.

    Args:
        min_value: float, the lower bound.
        max_value: float, the upper bound; must exceed `min_value`.

    Example:
    >>> keras_nalm.constraints.Clamp(0.0, 1.0)(keras.ops.array([-0.5, 0.5, 2.0]))

    Reference:
    - [Madsen & Johansen, 2020](https://arxiv.org/abs/2001.05016), eq. 5
      and 10.
    """

    def __init__(self, min_value, max_value):
        min_value, max_value = float(min_value), float(max_value)
        if not min_value < max_value:
            raise ValueError(
                "Clamp needs min_value < max_value, received "
                f"min_value={min_value}, max_value={max_value}."
            )
        self.min_value = min_value
        self.max_value = max_value

    def __call__(self, w):
        return ops.clip(w, self.min_value, self.max_value)

    def get_config(self):
        return {"min_value": self.min_value, "max_value": self.max_value}


_NAMED = {
    "nau_clamp": lambda: Clamp(*NAU_RANGE),
    "nmu_clamp": lambda: Clamp(*NMU_RANGE),
}


def get(identifier):
    """Resolves a constraint: this package's names first, then Keras's.

    Names: `"nau_clamp"` (`Clamp(-1, 1)`), `"nmu_clamp"` (`Clamp(0, 1)`).
    Anything else (`None`, an instance, a config dict, a Keras name such as
    `"non_neg"`) goes to `keras.constraints.get`.
    """
    if isinstance(identifier, str) and identifier in _NAMED:
        return _NAMED[identifier]()
    return keras.constraints.get(identifier)
