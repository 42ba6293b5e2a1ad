"""Program evaluation (Trask et al. 2018, app. E) as a batch source."""

import keras
import numpy as np
import tensorflow as tf

from benchmarks.core.registration import register
from benchmarks.language.vocabulary import encode_programs
from benchmarks.language.vocabulary import program_set
from keras_nalm._validation import check_positive_int
from keras_nalm.engine.sources import DEFAULT_ALGORITHM
from keras_nalm.engine.sources import BatchSource
from keras_nalm.engine.sources import uniform


@register
class RoundedAccuracy(keras.metrics.Mean):
    """The fraction of predictions that round to their integer target."""

    def __init__(self, name="rounded_accuracy", dtype=None):
        super().__init__(name=name, dtype=dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = keras.ops.cast(y_true, "float32")
        rounded = keras.ops.round(keras.ops.cast(y_pred, "float32"))
        correct = keras.ops.cast(keras.ops.equal(rounded, y_true), "float32")
        return super().update_state(correct, sample_weight=sample_weight)


class ProgramBatches(BatchSource):
    """Programs read character by character, their printed integer the
    target (Trask et al. 2018, app. E, figure 6; the program families of
    Zaremba & Sutskever 2014: `benchmarks.data.language.make_program`).

    The training set (`train_size` programs whose operands have
    `train_digits` digits, drawn from `data_seed`) is held in variables;
    each batch is `batch_size` of them drawn uniformly in-graph. The
    evaluation sets are `validation` (more programs of the training
    digits) and `digits_D` for each D of `test_digits` (operands of exactly
    D digits: the extrapolation ranges), `evaluation_size` each. The loss
    is the MSE on the value; `judge` reports, at the step of the lowest
    validation MAE, the MAE and the accuracy of the rounded prediction of
    every set (`mae`, `accuracy`: {digits: value}).

    Args:
        family: `"add"` or `"if"` (`benchmarks.data.language.PROGRAM_FAMILIES`).
        train_digits: (low, high), the operands' digits in training
            (default (1, 2)).
        test_digits: the digits of the extrapolation sets (default 3-6).
        train_size, evaluation_size: ints > 0 (defaults 50 000, 1 000).
        batch_size: int > 0 (default 64).
        data_seed: int, the seed of every set (default 0).
        algorithm: the batches' generator (`keras_nalm.engine.ALGORITHMS`).
    """

    def __init__(
        self,
        family,
        train_digits=(1, 2),
        test_digits=(3, 4, 5, 6),
        train_size=50_000,
        evaluation_size=1_000,
        batch_size=64,
        data_seed=0,
        algorithm=DEFAULT_ALGORITHM,
    ):
        super().__init__(batch_size, algorithm)
        self.family = family
        self.train_digits = tuple(check_positive_int("digits", d) for d in train_digits)
        if len(self.train_digits) != 2 or self.train_digits[0] > self.train_digits[1]:
            raise ValueError(
                "train_digits must be (low, high) with low <= high, "
                f"got {train_digits!r}."
            )
        self.test_digits = tuple(check_positive_int("digits", d) for d in test_digits)
        self.evaluation_size = check_positive_int("evaluation_size", evaluation_size)
        self.data_seed = int(data_seed)
        texts, values = program_set(family, self.train_digits, train_size, data_seed)
        self.tokens = tf.Variable(encode_programs(texts), trainable=False)
        self.values = tf.Variable(values[:, None].astype(np.float32), trainable=False)

    @property
    def metrics(self):
        return ["mae", RoundedAccuracy()]

    @property
    def program_key(self):
        return (*super().program_key, tuple(self.tokens.shape))

    def update_from(self, other):
        super().update_from(other)
        self.tokens.assign(other.tokens)
        self.values.assign(other.values)

    def __call__(self, seed):
        count = tf.shape(self.values)[0]
        rows = uniform(
            (self.batch_size,), seed, self.algorithm, maxval=count, dtype=tf.int32
        )
        return tf.gather(self.tokens, rows), tf.gather(self.values, rows)

    def _set(self, digits, seed):
        texts, values = program_set(self.family, digits, self.evaluation_size, seed)
        return encode_programs(texts), values[:, None].astype(np.float32)

    def evaluation_data(self, seed):
        """The validation set and one set per test digit count, drawn from
        the data seed (the same for every run)."""
        sets = {"validation": self._set(self.train_digits, self.data_seed + 1)}
        for offset, digits in enumerate(self.test_digits, start=2):
            sets[f"digits_{digits}"] = self._set(digits, self.data_seed + offset)
        return sets

    def judge(self, model, log):
        series = log.series
        best = int(np.nanargmin(series["validation_mae"]))
        names = ["validation", *(f"digits_{d}" for d in self.test_digits)]
        keys = [self.train_digits_key, *(str(d) for d in self.test_digits)]
        return {
            "best_step": series["step"][best],
            "validation_mae": series["validation_mae"][best],
            "validation_accuracy": series["validation_rounded_accuracy"][best],
            "mae": {k: series[f"{n}_mae"][best] for k, n in zip(keys, names)},
            "accuracy": {
                k: series[f"{n}_rounded_accuracy"][best] for k, n in zip(keys, names)
            },
            "evaluation_steps": series["step"],
            "validation_mae_series": series["validation_mae"],
        }

    @property
    def train_digits_key(self):
        low, high = self.train_digits
        return f"{low}-{high}"
