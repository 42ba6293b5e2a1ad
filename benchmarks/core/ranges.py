"""The value ranges of the arithmetic tasks: uniform ranges and their
unions (Madsen & Johansen 2020, table 3; Mistry et al. 2022, table 3), as
the command lines write them and the batch sources draw from them."""

import dataclasses

import numpy as np


@dataclasses.dataclass(frozen=True)
class Range:
    """A uniform range, or a union of ranges such as U[-6,-2] ∪ U[2,6].

    Each element is drawn from one of the intervals, chosen with equal
    probability (as the reference code's union ranges).
    """

    intervals: tuple

    def __post_init__(self):
        intervals = tuple((float(low), float(high)) for low, high in self.intervals)
        if not intervals or any(not low < high for low, high in intervals):
            raise ValueError(
                f"A range needs intervals with low < high, received {self.intervals}."
            )
        object.__setattr__(self, "intervals", intervals)

    @classmethod
    def parse(cls, text):
        """`"1,2"` or `"-6,-2;2,6"` (a union) to a Range."""
        try:
            pairs = [
                tuple(float(v) for v in part.split(",")) for part in text.split(";")
            ]
            if any(len(pair) != 2 for pair in pairs):
                raise ValueError
        except ValueError:
            raise ValueError(
                f"Cannot read the range {text!r}: write 'low,high' or "
                "'low,high;low,high' for a union."
            ) from None
        return cls(tuple(pairs))

    def sample(self, rng, shape):
        if len(self.intervals) == 1:
            # what the general form gives (`rng.integers(1)` draws nothing),
            # without its 100 MB index arrays: a threshold's 10^8 draws in
            # half the time
            ((low, high),) = self.intervals
            return rng.uniform(size=shape) * (high - low) + low
        choice = rng.integers(len(self.intervals), size=shape)
        lows = np.array([low for low, _ in self.intervals])[choice]
        highs = np.array([high for _, high in self.intervals])[choice]
        return rng.uniform(size=shape) * (highs - lows) + lows

    def to_text(self):
        """The `parse` form: `"1,2"` or `"-6,-2;2,6"`."""
        return ";".join(f"{low:g},{high:g}" for low, high in self.intervals)

    def __str__(self):
        return " ∪ ".join(f"U[{low:g},{high:g}]" for low, high in self.intervals)
