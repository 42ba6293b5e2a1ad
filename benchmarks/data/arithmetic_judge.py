"""The arithmetic tasks' evaluation sets and success criterion (Madsen &
Johansen 2020, §4.1.1; Mistry et al. 2022, §6.5), for any engine: NumPy
only, shared by the TensorFlow engine's `ArithmeticBatches` and the JAX
populations' `JaxArithmeticBatches`."""

import numpy as np

from benchmarks.core.stats import held_below_at
from benchmarks.core.stats import summarize_run
from keras_nalm.utils import model_sparsity_error

#: Madsen app. C.2 and Mistry table 5: fixed sets of 10 000 samples.
EVALUATION_SAMPLES = 10_000
#: The epsilon-perfect model's MSE is simulated on this many samples.
THRESHOLD_SAMPLES = 1_000_000

_THRESHOLDS = {}


def range_bounds(value_range):
    """What a batch maps its uniform numbers u in [0, 1) onto `value_range`
    (a `Range` of equally long intervals) with: x = u * length + low plus
    gaps[i] where u * length >= starts[i] (the intervals laid end to end)."""
    lengths = {high - low for low, high in value_range.intervals}
    if len(lengths) != 1:
        raise ValueError(
            f"In-graph sampling needs intervals of equal length, got {value_range}."
        )
    length = lengths.pop()
    lows = [low for low, _ in value_range.intervals]
    # x = u + lows[0] + sum of the gaps between the intervals below u
    return {
        "length": length * len(lows),
        "low": lows[0],
        "starts": [length * i for i in range(1, len(lows))],
        "gaps": [low - (previous + length) for previous, low in zip(lows, lows[1:])],
    }


class ArithmeticJudge:
    """A source's evaluation sets and judging: from its `task`,
    `value_range`, `extrapolation_range`, `threshold_epsilon`,
    `threshold_model`, `fixed_threshold` and `held_threshold` (see
    `ArithmeticBatches`)."""

    log_extras = {"sparsity_error": model_sparsity_error}
    #: `judge` reads the log's extras at its best step only.
    extras_at_best_step = True

    def evaluation_data(self, seed):
        """10 000 interpolation (and extrapolation) samples, from `seed`."""
        rng = np.random.default_rng([seed, 1])
        ranges = {"interpolation": self.value_range}
        if self.extrapolation_range is not None:
            ranges["extrapolation"] = self.extrapolation_range
        return {
            name: self.task.sample(rng, EVALUATION_SAMPLES, value_range)
            for name, value_range in ranges.items()
        }

    def threshold(self):
        """The extrapolation MSE below which a run succeeds: the
        `fixed_threshold`, or the epsilon-perfect model's MSE (cached)."""
        if self.fixed_threshold is not None:
            return float(self.fixed_threshold)
        key = (
            self.task,
            self.extrapolation_range,
            self.threshold_epsilon,
            self.threshold_model,
        )
        if key not in _THRESHOLDS:
            _THRESHOLDS[key] = self.task.threshold(
                self.extrapolation_range,
                epsilon=self.threshold_epsilon,
                samples=THRESHOLD_SAMPLES,
                model=self.threshold_model,
            )
        return _THRESHOLDS[key]

    def judge(self, model, log):
        """`summarize_run` with the threshold, the threshold, and the
        untrained model's MSEs (`initial_*_mse`)."""
        if self.extrapolation_range is None:
            raise ValueError("Judging needs an extrapolation_range.")
        series = log.series
        limit = self.threshold()
        summary = summarize_run(
            series["step"],
            series["interpolation_mse"],
            series["extrapolation_mse"],
            series["sparsity_error"],
            limit,
        )
        summary.update(
            threshold=limit,
            initial_interpolation_mse=series["interpolation_mse"][0],
            initial_extrapolation_mse=series["extrapolation_mse"][0],
        )
        if self.held_threshold is not None:
            held_limit, span = self.held_threshold
            summary["held_solved_at"] = held_below_at(
                series["step"], series["extrapolation_mse"], held_limit, span
            )
        return summary
