"""The arithmetic dataset task and its success threshold (NumPy).

Madsen & Johansen (2020, §4.1 and app. C.1, algorithm 1): sum two
contiguous, possibly overlapping subsets of an input vector, a and b, and
apply an operation, t = a ∘ b. A model succeeds when its extrapolation MSE
is below that of an epsilon-perfect model (§4.1.1, eq. 16), whose weights
are off by epsilon: 1 - eps on the subsets and eps elsewhere.
"""

import dataclasses
import math

import numpy as np

from benchmarks.core.ranges import Range

OPERATIONS = {
    "a": lambda a, b: a,
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
    "squared": lambda a, b: a * a,
    "root": lambda a, b: a**0.5,
}


@dataclasses.dataclass(frozen=True)
class ArithmeticTask:
    """Madsen algorithm 1: t = (sum of subset a) ∘ (sum of subset b).

    subset_size = floor(subset_ratio * input_size) and overlap =
    floor(overlap_ratio * subset_size); subset b starts `overlap` elements
    before subset a ends. The subsets' position (`offset`, drawn uniformly
    in [0, input_size - 2 * subset_size + overlap]) is fixed per task; use
    `ArithmeticTask.draw(seed, ...)` to draw it.

    Defaults are Madsen table 3: input size 100, subset ratio 0.25, overlap
    ratio 0.5. The Single Module Task of Mistry et al. uses input size 2,
    subset ratio 0.5, overlap ratio 0 (a = x1, b = x2).

    `subsets=((a_start, a_stop), (b_start, b_stop))` gives the subsets
    explicitly instead (the ratios and offset are then unused), as for
    `function_task()`.
    """

    operation: str
    input_size: int = 100
    subset_ratio: float = 0.25
    overlap_ratio: float = 0.5
    offset: int = 0
    subsets: tuple = None

    def __post_init__(self):
        if self.operation not in OPERATIONS:
            raise ValueError(
                f"Unknown operation={self.operation!r}; expected one of "
                f"{sorted(OPERATIONS)}."
            )
        if self.subsets is not None:
            bounds = tuple(tuple(int(v) for v in pair) for pair in self.subsets)
            if len(bounds) != 2 or any(
                not 0 <= start < stop <= self.input_size for start, stop in bounds
            ):
                raise ValueError(
                    "subsets must be ((a_start, a_stop), (b_start, b_stop)) "
                    f"within the {self.input_size} inputs, received {self.subsets}."
                )
            object.__setattr__(self, "subsets", bounds)
            return
        if self.subset_size < 1:
            raise ValueError("The subsets are empty: raise subset_ratio or input_size.")
        if not 0 <= self.offset <= self.max_offset:
            raise ValueError(
                f"offset must be in [0, {self.max_offset}], received {self.offset}."
            )

    @classmethod
    def draw(cls, seed, operation, **kwargs):
        """A task whose subset offset is drawn with `seed`."""
        task = cls(operation, **kwargs)
        offset = int(np.random.default_rng(seed).integers(task.max_offset + 1))
        return dataclasses.replace(task, offset=offset)

    @property
    def subset_size(self):
        return math.floor(self.subset_ratio * self.input_size)

    @property
    def overlap(self):
        return math.floor(self.overlap_ratio * self.subset_size)

    @property
    def max_offset(self):
        return self.input_size - (2 * self.subset_size - self.overlap)

    @property
    def a_slice(self):
        if self.subsets is not None:
            return slice(*self.subsets[0])
        return slice(self.offset, self.offset + self.subset_size)

    @property
    def b_slice(self):
        if self.subsets is not None:
            return slice(*self.subsets[1])
        start = self.offset + self.subset_size - self.overlap
        return slice(start, start + self.subset_size)

    def subset_weights(self):
        """The (input_size, 2) 0/1 matrix that sums x into (a, b)."""
        weights = np.zeros((self.input_size, 2))
        weights[self.a_slice, 0] = 1.0
        weights[self.b_slice, 1] = 1.0
        return weights

    def apply(self, a, b):
        """The operation on the subset sums (NumPy arrays or tensors)."""
        return OPERATIONS[self.operation](a, b)

    def target(self, x, weights=None):
        """t = op(a, b) of `x`; with `weights` in place of the exact subsets."""
        sums = np.asarray(x, np.float64) @ (
            self.subset_weights() if weights is None else weights
        )
        return self.apply(sums[:, :1], sums[:, 1:])

    def sample(self, rng, n, value_range):
        """`n` inputs from `value_range` (a Range) and their targets."""
        x = value_range.sample(rng, (n, self.input_size))
        return x, self.target(x)

    def relevant_inputs(self):
        """A boolean mask of the inputs in subset a or b."""
        return self.subset_weights().sum(axis=1) > 0

    def madsen_epsilon_prediction(self, x, epsilon):
        """Madsen eq. 16: subset weights 1 - eps, eps elsewhere, exact op."""
        exact = self.subset_weights()
        return self.target(x, np.where(exact == 1.0, 1.0 - epsilon, epsilon))

    def mistry_epsilon_prediction(self, x, epsilon):
        """Mistry et al. §6.5: the per-operation epsilon-perfect outputs.

        add/sub: a ± b - eps * sum|x|; mul: a * b * (1 - eps)^2 * prod over
        the irrelevant inputs of (1 - eps |x_i|); div: a / b * (1 - eps) /
        (1 + eps) times the same product.
        """
        sums = x @ self.subset_weights()
        a, b = sums[:, :1], sums[:, 1:]
        irrelevant = np.prod(
            1.0 - epsilon * np.abs(x[:, ~self.relevant_inputs()]),
            axis=1,
            keepdims=True,
        )
        absolute_sum = epsilon * np.abs(x).sum(axis=1, keepdims=True)
        predictions = {
            "add": lambda: a + b - absolute_sum,
            "sub": lambda: a - b - absolute_sum,
            "mul": lambda: a * b * (1.0 - epsilon) ** 2 * irrelevant,
            "div": lambda: a / b * (1.0 - epsilon) / (1.0 + epsilon) * irrelevant,
        }
        if self.operation not in predictions:
            raise ValueError(
                f"Mistry et al. give no epsilon-perfect model for {self.operation!r}."
            )
        return predictions[self.operation]()

    def threshold(
        self, value_range, epsilon=1e-5, samples=1_000_000, seed=0, model="madsen"
    ):
        """The MSE of an epsilon-perfect model on `value_range`.

        `model="madsen"` (eq. 16): subset weights 1 - epsilon where the
        exact ones are 1 and epsilon where they are 0, the operation exact.
        `model="mistry"`: the per-operation formulas of Mistry et al. §6.5
        (`mistry_epsilon_prediction`). Drawn on `samples` inputs, in chunks.
        """
        predict = {
            "madsen": self.madsen_epsilon_prediction,
            "mistry": self.mistry_epsilon_prediction,
        }
        if model not in predict:
            raise ValueError(f"model must be 'madsen' or 'mistry', got {model!r}.")
        rng = np.random.default_rng(seed)
        total, remaining = 0.0, samples
        while remaining:
            n = min(remaining, 100_000)
            x = value_range.sample(rng, (n, self.input_size))
            errors = predict[model](x, epsilon) - self.target(x)
            total += float(np.sum(errors**2))
            remaining -= n
        return total / samples


def function_task():
    """Madsen §1.1 (table 1): t = (x1 + x2) * (x1 + x2 + x3 + x4)."""
    return ArithmeticTask("mul", input_size=4, subsets=((0, 2), (0, 4)))


def single_module_task(operation, input_size=2):
    """Mistry et al. §6.5: y = x1 ∘ x2, with `input_size - 2` redundant inputs.

    Input sizes 10 and 100 use subset ratios 0.1 and 0.01 (one input each
    for a and b), overlap 0.
    """
    return ArithmeticTask(
        operation, input_size=input_size, subset_ratio=1 / input_size, overlap_ratio=0.0
    )


#: Mistry et al. table 3: (interpolation, extrapolation) range pairs.
SINGLE_MODULE_RANGES = tuple(
    (Range.parse(interpolation), Range.parse(extrapolation))
    for interpolation, extrapolation in (
        ("-20,-10", "-40,-20"),
        ("-2,-1", "-6,-2"),
        ("-1.2,-1.1", "-6.1,-1.2"),
        ("-0.2,-0.1", "-2,-0.2"),
        ("-2,2", "-6,-2;2,6"),
        ("0.1,0.2", "0.2,2"),
        ("1,2", "2,6"),
        ("1.1,1.2", "1.2,6"),
        ("10,20", "20,40"),
    )
)


def paired_extrapolation_range(interpolation_range):
    """The extrapolation range paired with `interpolation_range` (table 3)."""
    for interpolation, extrapolation in SINGLE_MODULE_RANGES:
        if interpolation == interpolation_range:
            return extrapolation
    raise ValueError(
        f"{interpolation_range} is not an interpolation range of Mistry et al. "
        "table 3; give the extrapolation range explicitly."
    )
