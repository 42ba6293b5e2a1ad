"""The arithmetic dataset task as a Keras Tuner hyper-model.

`ArithmeticHyperModel` tunes Madsen & Johansen's (2020) two-layer models
of table 4 on their arithmetic task, trained by the in-graph engine
(`keras_nalm.engine.tuning.EngineHyperModel`); `python -m benchmarks.tune`
runs its searches.
"""

import math

import keras
import keras_tuner

from benchmarks.core.ranges import Range
from benchmarks.data.arithmetic_batches import ArithmeticBatches
from benchmarks.data.arithmetic_task import OPERATIONS
from benchmarks.data.arithmetic_task import ArithmeticTask
from benchmarks.tune.units import ARITHMETIC_UNITS
from keras_nalm.callbacks import RegularizerWarmup
from keras_nalm.engine.tuning import EngineHyperModel
from keras_nalm.optimizers import TorchAdam

#: The optimizers a trial can use: PyTorch's Adam (the reference
#: implementations'), Keras's Adam and RMSprop.
OPTIMIZERS = {
    "torch_adam": TorchAdam,
    "adam": keras.optimizers.Adam,
    "rmsprop": keras.optimizers.RMSprop,
}

REGULARIZED = ("nmu", "nau", "gated_nau_nmu")

#: Objectives above this (and NaN) are reported as this, so that a
#: diverged trial ranks last instead of breaking the Bayesian oracle.
WORST_MSE = 1e30


def _finite_mse(value):
    """The MSE, or WORST_MSE when it is missing (a run that diverged from
    its first evaluation on), not finite or larger."""
    if value is None or not math.isfinite(value) or value >= WORST_MSE:
        return WORST_MSE
    return float(value)


class ArithmeticHyperModel(EngineHyperModel):
    """The arithmetic dataset task (Madsen & Johansen 2020, §4.1) to tune.

    Each trial draws the task's subsets from its seed (algorithm 1: inputs
    of `input_size`, subsets of `subset_ratio`, overlapping by
    `overlap_ratio`), trains on batches of 128 from U[1, 2] and is judged
    as in the paper: the extrapolation MSE on U[2, 6] at the step with the
    lowest interpolation MSE, and success against the epsilon-perfect
    model (eq. 16). `metrics` reports `extrapolation_mse` (non-finite or
    above 1e30: 1e30), `log10_extrapolation_mse` (the objective: the MSEs
    of a search span dozens of decades, which a Gaussian process cannot
    fit on a linear scale), `interpolation_mse`, `sparsity_error`,
    `solved` (1 or 0) and `solved_at`.

    Hyper-parameters (names as `hp` records them):
        unit: a key of `ARITHMETIC_UNITS` (table 4's two layers; default
            choices: all of them).
        hidden_size: 2 (table 4), 4 or 8.
        learning_rate: log-uniform in [1e-4, 1e-1] (the paper: 1e-3).
        optimizer: a key of `OPTIMIZERS`.
        warmup_start, warmup_length: the sparsity regularizer's warm-up as
            fractions of `steps` (the paper: 0.2 and 0.2 of 5·10^6 steps),
            and regularizer_strength (lambda-hat, log-uniform in
            [1e-3, 100]; the paper: 10 for the NMU, 0.01 for the NAU);
            only for the units in `REGULARIZED`.

    Args:
        operation: one of `benchmarks.data.arithmetic_task.OPERATIONS`.
        steps: the step budget of a trial (default 50 000).
        units: the unit choices (default: every key of ARITHMETIC_UNITS).
        input_size, subset_ratio, overlap_ratio: the task (default 100,
            0.25, 0.5: the paper's).
        interpolation_range, extrapolation_range: `Range` texts (default
            "1,2" and "2,6").
        threshold_epsilon: the epsilon-perfect model's epsilon (1e-5).
        steps_per_epoch, seed, name, tunable: as `EngineHyperModel`.
    """

    objective = keras_tuner.Objective("log10_extrapolation_mse", "min")

    def __init__(
        self,
        operation,
        steps=50_000,
        units=tuple(ARITHMETIC_UNITS),
        input_size=100,
        subset_ratio=0.25,
        overlap_ratio=0.5,
        interpolation_range="1,2",
        extrapolation_range="2,6",
        threshold_epsilon=1e-5,
        **kwargs,
    ):
        super().__init__(steps, **kwargs)
        if operation not in OPERATIONS:
            raise ValueError(f"Unknown operation {operation!r}: {OPERATIONS}.")
        unknown = sorted(set(units) - set(ARITHMETIC_UNITS))
        if not units or unknown:
            raise ValueError(
                f"units must name some of {sorted(ARITHMETIC_UNITS)}; got {units!r}."
            )
        self.operation = operation
        self.units = list(units)
        self.input_size = input_size
        self.subset_ratio = subset_ratio
        self.overlap_ratio = overlap_ratio
        self.ranges = (
            Range.parse(interpolation_range),
            Range.parse(extrapolation_range),
        )
        self.threshold_epsilon = threshold_epsilon

    def build(self, hp):
        hidden, output = ARITHMETIC_UNITS[hp.Choice("unit", self.units)]
        inputs = keras.Input((self.input_size,), name="x")
        hidden_values = hidden(hp.Choice("hidden_size", [2, 4, 8]))(inputs)
        return keras.Model(inputs, output(1)(hidden_values), name="arithmetic")

    def make_optimizer(self, hp):
        optimizer = OPTIMIZERS[hp.Choice("optimizer", list(OPTIMIZERS))]
        return optimizer(
            learning_rate=hp.Float("learning_rate", 1e-4, 1e-1, sampling="log")
        )

    def make_callbacks(self, hp):
        regularized = [unit for unit in self.units if unit in REGULARIZED]
        if hp.get("unit") not in regularized:
            return []
        with hp.conditional_scope("unit", regularized):
            start = hp.Float("warmup_start", 0.0, 0.6, step=0.1)
            length = hp.Float("warmup_length", 0.1, 0.4, step=0.1)
            strength = hp.Float("regularizer_strength", 1e-3, 100.0, sampling="log")
        begin = round(start * self.steps)
        end = max(begin + 1, round((start + length) * self.steps))
        return [RegularizerWarmup(begin, end, max_strength=strength)]

    def make_source(self, hp, seed):
        task = ArithmeticTask.draw(
            seed,
            self.operation,
            input_size=self.input_size,
            subset_ratio=self.subset_ratio,
            overlap_ratio=self.overlap_ratio,
        )
        return ArithmeticBatches(
            task,
            *self.ranges,
            threshold_epsilon=self.threshold_epsilon,
            threshold_model="madsen",
        )

    def metrics(self, judgement):
        metrics = super().metrics(judgement)
        metrics["extrapolation_mse"] = _finite_mse(judgement.get("extrapolation_mse"))
        metrics["log10_extrapolation_mse"] = math.log10(
            max(metrics["extrapolation_mse"], 1e-30)
        )
        return metrics
