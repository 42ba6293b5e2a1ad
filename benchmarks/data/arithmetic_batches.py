"""The arithmetic tasks as a batch source (Madsen & Johansen 2020, §4.1)."""

import tensorflow as tf

from benchmarks.core.ranges import Range
from benchmarks.data.arithmetic_judge import ArithmeticJudge
from benchmarks.data.arithmetic_judge import range_bounds
from benchmarks.data.arithmetic_task import ArithmeticTask
from keras_nalm.engine.sources import DEFAULT_ALGORITHM
from keras_nalm.engine.sources import BatchSource
from keras_nalm.engine.sources import uniform


def _check(kind, value, name):
    if not isinstance(value, kind):
        raise TypeError(f"{name} must be a {kind.__name__}, got {value!r}.")
    return value


class ArithmeticBatches(ArithmeticJudge, BatchSource):
    """Batches of an `ArithmeticTask` drawn in-graph from a `Range`, and
    the papers' success criterion.

    Training: one uniform number u in [0, total length) per input is
    mapped onto the range's intervals laid end to end, so a union of
    equally long intervals (all the papers' ranges) picks each interval
    with equal probability, as `Range.sample` does. The subsets and the
    range are held in variables: `set_task` (same operation and input size)
    and `set_range` (same number of intervals) change them without
    recompiling.

    Judging (Madsen §4.1.1; Mistry §6.5): `evaluation_data(seed)` draws
    10 000 interpolation and 10 000 extrapolation samples; `judge` takes
    the step with the lowest interpolation MSE and calls the run solved
    when the extrapolation MSE there is below that of an epsilon-perfect
    model (`ArithmeticTask.threshold`, simulated on 10^6 samples), with
    the sparsity error (Madsen eq. 17) at that step.

    Args:
        task: an `ArithmeticTask` (its subsets fixed, e.g. by `draw`).
        value_range: the interpolation (training) `Range`, of equally long
            intervals.
        extrapolation_range: the `Range` success is judged on (default
            None: only the interpolation set is evaluated, no judging).
        batch_size: int > 0 (default 128, as in all the papers).
        algorithm: the generator, one of `keras_nalm.engine.ALGORITHMS`
            (default `"threefry2x32"`).
        threshold_epsilon: float, epsilon of the epsilon-perfect model
            (default 1e-5).
        threshold_model: `"madsen"` (eq. 16, default) or `"mistry"` (§6.5).
        fixed_threshold: float or None: a fixed MSE to judge by instead of
            the epsilon-perfect model's (the division paper's 1e-5).
        held_threshold: None, or `(mse, steps)`: also judge by the
            extrapolation MSE staying below `mse` over `steps` steps of
            the logged evaluations (the DMU's own rule, Curry 2025:
            `(6.19e-9, 100)`); `judge` then adds `held_solved_at`
            (`benchmarks.core.stats.held_below_at`).
    """

    def __init__(
        self,
        task,
        value_range,
        extrapolation_range=None,
        batch_size=128,
        algorithm=DEFAULT_ALGORITHM,
        threshold_epsilon=1e-5,
        threshold_model="madsen",
        fixed_threshold=None,
        held_threshold=None,
    ):
        super().__init__(batch_size, algorithm)
        self.fixed_threshold = fixed_threshold
        self.held_threshold = held_threshold
        self.task = _check(ArithmeticTask, task, "task")
        self.extrapolation_range = extrapolation_range
        self.threshold_epsilon = float(threshold_epsilon)
        self.threshold_model = threshold_model
        self._subsets = tf.Variable(task.subset_weights(), dtype=tf.float32)
        self._starts = None
        self.set_range(value_range)

    def set_task(self, task):
        """Draws the targets of `task` from now on."""
        _check(ArithmeticTask, task, "task")
        if (task.operation, task.input_size) != (
            self.task.operation,
            self.task.input_size,
        ):
            raise ValueError(
                "set_task needs the same operation and input size: "
                f"{self.task.operation}/{self.task.input_size}, got "
                f"{task.operation}/{task.input_size}."
            )
        self._subsets.assign(task.subset_weights())
        self.task = task

    def set_range(self, value_range, extrapolation_range=None):
        """Draws from `value_range` from now on (and judges on
        `extrapolation_range`, when given)."""
        _check(Range, value_range, "value_range")
        values = range_bounds(value_range)
        starts = values["starts"]
        lows = value_range.intervals
        if self._starts is None:
            self._variables = {
                name: tf.Variable(value, dtype=tf.float32, trainable=False)
                for name, value in values.items()
            }
            self._starts = len(starts)
        elif len(starts) != self._starts:
            raise ValueError(
                f"{value_range} has {len(lows)} intervals; these batches were "
                f"built for {self._starts + 1}."
            )
        for name, value in values.items():
            self._variables[name].assign(value)
        self.value_range = value_range
        if extrapolation_range is not None:
            self.extrapolation_range = extrapolation_range

    @property
    def program_key(self):
        intervals = len(self.value_range.intervals)
        task = (self.task.operation, self.task.input_size)
        return (*super().program_key, *task, intervals)

    def update_from(self, other):
        """Draws `other`'s task and range, and judges as `other` does."""
        super().update_from(other)
        self.set_task(other.task)
        self.set_range(other.value_range, other.extrapolation_range)
        self.threshold_epsilon = other.threshold_epsilon
        self.fixed_threshold = other.fixed_threshold
        self.held_threshold = other.held_threshold
        self.threshold_model = other.threshold_model

    def data(self):
        """The subsets' weights and the range's bounds the batches are
        drawn from (`draw`)."""
        return {"subsets": self._subsets, **self._variables}

    def draw(self, seed, data):
        """(x, y) of one batch from `data` (`data()`'s names: a run's task
        and range); `seed` is an int32 tensor of shape (2,)."""
        shape = (self.batch_size, self.task.input_size)
        u = uniform(shape, seed, self.algorithm) * data["length"]
        x = u + data["low"]
        for i in range(self._starts):
            x = x + tf.where(u >= data["starts"][i], data["gaps"][i], 0.0)
        sums = tf.matmul(x, tf.convert_to_tensor(data["subsets"]))
        return x, self.task.apply(sums[:, :1], sums[:, 1:])

    def __call__(self, seed):
        """(x, y) of one batch; `seed` is an int32 tensor of shape (2,)."""
        return self.draw(seed, self.data())
