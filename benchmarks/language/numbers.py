"""Number words to numbers (Trask et al. 2018, app. D) as a batch source."""

import numpy as np
import tensorflow as tf

from benchmarks.language.vocabulary import SPLIT_SIZES
from benchmarks.language.vocabulary import encode_numbers
from benchmarks.language.vocabulary import split_numbers
from keras_nalm.engine.sources import DEFAULT_ALGORITHM
from keras_nalm.engine.sources import BatchSource

#: The longest number in words has 5 tokens ("seven hundred and seventy
#: seven"); every split pads to it.
MAX_TOKENS = 5
SETS = ("train", "validation", "test")


def number_pairs(numbers):
    """(token ids `(n, 5)`, values `(n, 1)` float32) of `numbers`."""
    values = np.asarray(numbers, np.float32)[:, None]
    return encode_numbers(numbers, MAX_TOKENS), values


class NumberWords(BatchSource):
    """Numbers 0-999 read as words, their value the target (Trask app. D).

    Every training step sees the whole training split (app. D: "on the
    whole training set"), held in variables so that a compiled program
    serves every split seed. The evaluation sets are the three splits,
    judged by mean absolute error: `judge` reports the train, validation
    and test MAE at the step of the lowest validation MAE (model selection
    by validation, as the paper's).

    Args:
        split_seed: int, the seed of `benchmarks.data.language.split_numbers`
            (default 0).
        sizes: (train, validation, test) sizes (default the paper's 169,
            200, 631).
        algorithm: unused by the draws (the batch is fixed), kept for the
            protocol.
    """

    def __init__(self, split_seed=0, sizes=SPLIT_SIZES, algorithm=DEFAULT_ALGORITHM):
        self.split = split_numbers(split_seed, sizes)
        super().__init__(len(self.split["train"]), algorithm)
        x, y = number_pairs(self.split["train"])
        self.tokens = tf.Variable(x, trainable=False)
        self.values = tf.Variable(y, trainable=False)

    @property
    def metrics(self):
        return ["mae"]

    def update_from(self, other):
        super().update_from(other)
        self.tokens.assign(other.tokens)
        self.values.assign(other.values)

    def __call__(self, seed):
        return self.tokens.read_value(), self.values.read_value()

    def evaluation_data(self, seed):
        return {name: number_pairs(self.split[name]) for name in SETS}

    def judge(self, model, log):
        """MAE of each split at the step of the lowest validation MAE."""
        validation = log.series["validation_mae"]
        best = int(np.nanargmin(validation))
        result = {"best_step": log.series["step"][best]}
        result.update({f"{name}_mae": log.series[f"{name}_mae"][best] for name in SETS})
        return result
