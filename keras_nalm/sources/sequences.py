"""Synthetic sequence tasks as batch sources (Chandar et al. 2019, §5)."""

import math

import keras
import tensorflow as tf

from keras_nalm._validation import check_positive_int
from keras_nalm.sources.base import DEFAULT_ALGORITHM
from keras_nalm.sources.base import BatchSource
from keras_nalm.sources.base import uniform

#: Copying memory: digits 1..8, blank 0, marker 9 (one-hot inputs of 10).
COPY_DIGITS, COPY_BLANK, COPY_MARKER, COPY_SYMBOLS = 8, 0, 9, 10


def classification_metrics():
    """Cross-entropy per step (natural log, from logits) and accuracy."""
    return [
        keras.metrics.SparseCategoricalCrossentropy(
            name="cross_entropy", from_logits=True
        ),
        keras.metrics.SparseCategoricalAccuracy(name="accuracy"),
    ]


class CopySource(BatchSource):
    """The copying-memory task (Chandar et al. 2019, §5.1; Hochreiter &
    Schmidhuber 1997).

    A sequence of length 2 * `copies` + T: `copies` random digits (1..8),
    then T - 1 blanks (0), the marker (9), and `copies` blanks during which
    the model must repeat the digits. Inputs are one-hot vectors of the 10
    symbols, `(batch, 2 * copies + T, 10)`; targets are class indices
    `(batch, 2 * copies + T)`: blank (0) everywhere, then the digits. The
    loss is the cross-entropy of every step (the model outputs 9 logits per
    step: blank and the 8 digits), averaged over the steps; a model that
    outputs blanks and then guesses digits at random scores
    copies * ln(8) / (2 * copies + T) (0.17 at T = 100).

    Args:
        time_lag: int > 0, T.
        batch_size: int > 0 (default 10, the paper's).
        copies: int > 0, digits to copy (default 10).
        algorithm: the generator, one of `keras_nalm.sources.ALGORITHMS`
            (default `"threefry2x32"`).
    """

    loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    def __init__(self, time_lag, batch_size=10, copies=10, algorithm=DEFAULT_ALGORITHM):
        super().__init__(batch_size, algorithm)
        self.time_lag = check_positive_int("time_lag", time_lag)
        self.copies = check_positive_int("copies", copies)

    @property
    def length(self):
        return 2 * self.copies + self.time_lag

    @property
    def classes(self):
        """Output classes: the blank and the digits."""
        return COPY_DIGITS + 1

    @property
    def metrics(self):
        return classification_metrics()

    def random_baseline(self):
        """The cross-entropy of blanks, then uniform guesses of the digits."""
        return self.copies * math.log(COPY_DIGITS) / self.length

    def __call__(self, seed):
        digits = uniform(
            (self.batch_size, self.copies),
            seed,
            self.algorithm,
            minval=1,
            maxval=COPY_DIGITS + 1,
            dtype=tf.int32,
        )
        blanks = tf.fill((self.batch_size, self.time_lag - 1), COPY_BLANK)
        marker = tf.fill((self.batch_size, 1), COPY_MARKER)
        waiting = tf.fill((self.batch_size, self.copies), COPY_BLANK)
        symbols = tf.concat([digits, blanks, marker, waiting], axis=1)
        silent = tf.fill((self.batch_size, self.copies + self.time_lag), COPY_BLANK)
        targets = tf.concat([silent, digits], axis=1)
        return tf.one_hot(symbols, COPY_SYMBOLS), targets
