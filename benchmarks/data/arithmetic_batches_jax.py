"""The arithmetic tasks' batches in JAX, for populations on an accelerator
(`keras_nalm.jax_population.JaxPopulationTrainer`): the batches that
`ArithmeticBatches` draws on the TensorFlow engine, number for number
(`tests/lab/test_sources.py`), with the same evaluation sets and judging
(`ArithmeticJudge`)."""

import jax
import jax.numpy as jnp
import numpy as np

from benchmarks.data.arithmetic_judge import ArithmeticJudge
from benchmarks.data.arithmetic_judge import range_bounds
from keras_nalm.jax_population import threefry_uniform


class JaxArithmeticBatches(ArithmeticJudge):
    """Batches of an `ArithmeticTask` from a `Range`, drawn with JAX.

    Args: as `ArithmeticBatches`'s; `algorithm` can only be
    `"threefry2x32"` (Threefry-2x32-20, the engine's default).
    """

    loss = "mse"
    metrics = ("mse",)

    def __init__(
        self,
        task,
        value_range,
        extrapolation_range=None,
        batch_size=128,
        algorithm="threefry2x32",
        threshold_epsilon=1e-5,
        threshold_model="madsen",
        fixed_threshold=None,
        held_threshold=None,
    ):
        if algorithm != "threefry2x32":
            raise ValueError(
                f"JAX draws Threefry-2x32-20 (threefry2x32) only, not {algorithm!r}."
            )
        self.task = task
        self.value_range = value_range
        self.extrapolation_range = extrapolation_range
        self.batch_size = batch_size
        self.threshold_epsilon = float(threshold_epsilon)
        self.threshold_model = threshold_model
        self.fixed_threshold = fixed_threshold
        self.held_threshold = held_threshold
        self.bounds = range_bounds(value_range)

    @property
    def program_key(self):
        intervals = len(self.value_range.intervals)
        task = (self.task.operation, self.task.input_size)
        return (type(self).__name__, self.batch_size, *task, intervals)

    def data(self):
        """The subsets' weights and the range's bounds, float32 arrays."""
        data = {"subsets": self.task.subset_weights(), **self.bounds}
        return {name: np.asarray(value, np.float32) for name, value in data.items()}

    def draw(self, seed, data):
        """(x, y) of one batch keyed by `seed` (int32, shape (2,)) from
        `data` (`data()`'s names)."""
        shape = (self.batch_size, self.task.input_size)
        u = threefry_uniform(shape, seed) * data["length"]
        x = u + data["low"]
        for i in range(len(self.bounds["starts"])):
            x = x + jnp.where(u >= data["starts"][i], data["gaps"][i], 0.0)
        # exact sums on GPUs too, whose default float32 products are TF32
        sums = jnp.matmul(x, data["subsets"], precision=jax.lax.Precision.HIGHEST)
        return x, self.task.apply(sums[:, :1], sums[:, 1:])

    def __call__(self, seed):
        return self.draw(seed, self.data())
