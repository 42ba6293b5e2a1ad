"""Synthetic sequence tasks as batch sources (Chandar et al. 2019,
"Experiments"; the AAAI paper's sections are unnumbered)."""

import math

import keras
import numpy as np
import tensorflow as tf

from benchmarks.core.registration import register
from keras_nalm._validation import check_positive_int
from keras_nalm.engine.sources import DEFAULT_ALGORITHM
from keras_nalm.engine.sources import BatchSource
from keras_nalm.engine.sources import uniform
from keras_nalm.utils import trainable_parameter_count

#: Copying memory: digits 1..8, blank 0, marker 9 (one-hot inputs of 10).
COPY_DIGITS, COPY_BLANK, COPY_MARKER, COPY_SYMBOLS = 8, 0, 9, 10
#: The target of a step that is not scored (padding, or a denoising step
#: before the recall).
IGNORED = -1
#: Sequences in a run's fixed validation set.
VALIDATION_SEQUENCES = 1_000


class _ScoredStepsMean(keras.metrics.Mean):
    """The mean of a per-step value over the scored steps: steps whose
    target is `ignore_class` are left out of the mean, not counted as 0."""

    def __init__(self, name, ignore_class=IGNORED, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.ignore_class = ignore_class

    def step_values(self, y_true, y_pred):
        """The value of every step, `y_true` with ignored steps set to 0."""
        raise NotImplementedError

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = keras.ops.cast(y_true, "int32")
        scored = keras.ops.not_equal(y_true, self.ignore_class)
        weights = keras.ops.cast(scored, "float32")
        if sample_weight is not None:
            weights = weights * keras.ops.cast(sample_weight, "float32")
        values = self.step_values(keras.ops.where(scored, y_true, 0), y_pred)
        return super().update_state(values, sample_weight=weights)

    def get_config(self):
        return {**super().get_config(), "ignore_class": self.ignore_class}


@register
class MaskedAccuracy(_ScoredStepsMean):
    """The fraction of scored steps whose most likely class is the target;
    steps whose target is `ignore_class` are left out."""

    def __init__(self, name="accuracy", ignore_class=IGNORED, dtype=None):
        super().__init__(name=name, ignore_class=ignore_class, dtype=dtype)

    def step_values(self, y_true, y_pred):
        predicted = keras.ops.cast(keras.ops.argmax(y_pred, axis=-1), "int32")
        return keras.ops.cast(keras.ops.equal(predicted, y_true), "float32")


@register
class MaskedCrossEntropy(_ScoredStepsMean):
    """The cross-entropy (natural log, from logits) per scored step; steps
    whose target is `ignore_class` are left out. Keras's
    `SparseCategoricalCrossentropy` metric with `ignore_class` counts them
    as 0 in the mean instead (the loss does leave them out)."""

    def __init__(self, name="cross_entropy", ignore_class=IGNORED, dtype=None):
        super().__init__(name=name, ignore_class=ignore_class, dtype=dtype)

    def step_values(self, y_true, y_pred):
        return keras.ops.sparse_categorical_crossentropy(
            y_true, y_pred, from_logits=True
        )


def classification_metrics():
    """Cross-entropy per scored step (natural log, from logits) and
    accuracy; steps whose target is `IGNORED` are not scored."""
    return [MaskedCrossEntropy(), MaskedAccuracy()]


class SequenceClassificationSource(BatchSource):
    """A synthetic task scored by the cross-entropy of each step's class.

    The loss is the cross-entropy per scored step (natural log, steps with
    target `IGNORED` left out); the metrics add the accuracy. Each run has a
    fixed `"validation"` set of `validation_sequences` sequences drawn from
    the run's data seed apart from the training stream, and is judged
    (`judge`) by its last evaluation and by the evaluation of its lowest
    validation cross-entropy. `time_lag` (T) and `copies` (the digits to
    recall) are positive ints. Subclasses define `length`, `random_baseline()`
    and `sequences(batch_size, seed, per_sequence)`, which draws a batch;
    `per_sequence` asks for one random setting per sequence where training
    batches share one (the variable copy task's lag).
    """

    loss = keras.losses.SparseCategoricalCrossentropy(
        from_logits=True, ignore_class=IGNORED
    )
    classes = COPY_DIGITS + 1  # the blank and the digits

    def __init__(self, time_lag, copies, batch_size, algorithm, validation_sequences):
        super().__init__(batch_size, algorithm)
        self.time_lag = check_positive_int("time_lag", time_lag)
        self.copies = check_positive_int("copies", copies)
        self.validation_sequences = check_positive_int(
            "validation_sequences", validation_sequences
        )

    @property
    def metrics(self):
        return classification_metrics()

    @property
    def program_key(self):
        return (*super().program_key, self.time_lag, self.copies)

    def __call__(self, seed):
        return self.sequences(self.batch_size, seed, per_sequence=False)

    def evaluation_data(self, seed):
        """A fixed validation set, drawn at step -1 of the data stream (the
        training batches use steps 0, 1, ...)."""
        draw = tf.function(
            lambda key: self.sequences(self.validation_sequences, key, True),
            jit_compile=True,
        )
        x, y = draw(tf.constant([int(seed), -1], tf.int32))
        return {"validation": (x.numpy(), y.numpy())}

    def judge(self, model, log):
        """The model's trainable parameter count, the last evaluation and
        the one of lowest validation cross-entropy, with the learning
        curves (training loss per call, validation cross-entropy per
        evaluation)."""
        series = log.series
        validation = series["validation_cross_entropy"]
        best = int(np.nanargmin(validation))
        return {
            "parameters": trainable_parameter_count(model),
            "cross_entropy": validation[-1],
            "accuracy": series["validation_accuracy"][-1],
            "best_step": series["step"][best],
            "best_cross_entropy": validation[best],
            "best_accuracy": series["validation_accuracy"][best],
            "random_baseline": self.random_baseline(),
            "evaluation_steps": series["step"],
            "training_cross_entropy_series": series["training_loss"],
            "validation_cross_entropy_series": validation,
        }


def _digits(batch_size, count, seed, algorithm):
    return uniform(
        (batch_size, count),
        seed,
        algorithm,
        minval=1,
        maxval=COPY_DIGITS + 1,
        dtype=tf.int32,
    )


class CopySource(SequenceClassificationSource):
    """The copying-memory task (Chandar et al. 2019, "Copying Memory Task"; Hochreiter &
    Schmidhuber 1997), and its variable-lag version ("Variable Copying Task").

    A sequence of length 2 * `copies` + T: `copies` random digits (1..8),
    then T - 1 blanks (0), the marker (9), and `copies` blanks during which
    the model must repeat the digits. Inputs are one-hot vectors of the 10
    symbols, `(batch, 2 * copies + T, 10)`; targets are class indices
    `(batch, 2 * copies + T)`: blank (0) everywhere, then the digits. The
    model outputs 9 logits per step (blank and the 8 digits); the loss is
    the cross-entropy of every step, averaged over the steps. A model that
    outputs blanks and then guesses digits at random scores
    copies * ln(8) / (2 * copies + T) (0.17 at T = 100).

    With `variable_lag=True` the lag L (blanks + marker) is drawn from
    [1, T] for each training batch (as the authors' `copy_v2`) and for each
    validation sequence: the marker comes after L - 1 blanks, the digits
    are recalled in the next `copies` steps, and the T - L steps after them
    are padding (blank inputs, targets `IGNORED`), so that a batch has one
    static shape and its loss is the mean over its 2 * copies + L real
    steps, as on a sequence of that length.

    Args:
        time_lag: int > 0, T (the largest lag with `variable_lag`).
        batch_size: int > 0 (default 10, the paper's).
        copies: int > 0, digits to copy (default 10).
        variable_lag: bool (default False).
        algorithm: the generator, one of `keras_nalm.engine.ALGORITHMS`
            (default `"threefry2x32"`).
        validation_sequences: int > 0 (default 1 000).
    """

    def __init__(
        self,
        time_lag,
        batch_size=10,
        copies=10,
        variable_lag=False,
        algorithm=DEFAULT_ALGORITHM,
        validation_sequences=VALIDATION_SEQUENCES,
    ):
        super().__init__(time_lag, copies, batch_size, algorithm, validation_sequences)
        self.variable_lag = bool(variable_lag)

    @property
    def length(self):
        return 2 * self.copies + self.time_lag

    @property
    def program_key(self):
        return (*super().program_key, self.variable_lag)

    def random_baseline(self):
        """The cross-entropy of blanks, then uniform guesses of the digits
        (its mean over the lags with `variable_lag`)."""
        lags = range(1, self.time_lag + 1) if self.variable_lag else [self.time_lag]
        guesses = self.copies * math.log(COPY_DIGITS)
        return sum(guesses / (2 * self.copies + lag) for lag in lags) / len(lags)

    def _lags(self, batch_size, seed, per_sequence):
        if not self.variable_lag:
            return tf.fill((batch_size, 1), self.time_lag)
        rows = batch_size if per_sequence else 1
        lags = uniform(
            (rows, 1),
            seed,
            self.algorithm,
            minval=1,
            maxval=self.time_lag + 1,
            dtype=tf.int32,
        )
        return tf.broadcast_to(lags, (batch_size, 1))

    def sequences(self, batch_size, seed, per_sequence):
        # the lag's key differs from the digits' so that they are independent
        lags = self._lags(batch_size, seed + tf.constant([0, 2**30]), per_sequence)
        digits = _digits(batch_size, self.copies, seed, self.algorithm)
        time = tf.range(self.length)[None, :]
        reading = time < self.copies
        shown = tf.gather(digits, tf.minimum(time[0], self.copies - 1), axis=1)
        marker = tf.equal(time, self.copies + lags - 1)
        symbols = tf.where(reading, shown, tf.where(marker, COPY_MARKER, COPY_BLANK))
        recall = time - self.copies - lags
        recalling = (recall >= 0) & (recall < self.copies)
        recalled = tf.gather(
            digits, tf.clip_by_value(recall, 0, self.copies - 1), batch_dims=1
        )
        targets = tf.where(
            recalling,
            recalled,
            tf.where(recall >= self.copies, IGNORED, COPY_BLANK),
        )
        return tf.one_hot(symbols, COPY_SYMBOLS), targets


class DenoisingSource(SequenceClassificationSource):
    """The denoising task (Jing et al. 2017; Chandar et al. 2019, "Denoising Task").

    `copies` random digits (1..8) at random positions (in order) among T
    input steps that are otherwise noise (the blank, 0), then the marker
    (9) and `copies` blank steps during which the model must output the
    digits in order: sequences of T + 1 + `copies` steps, one-hot inputs of
    the 10 symbols. Only the last `copies` steps are scored (targets
    `IGNORED` elsewhere), so guessing digits at random scores ln(8).

    Args:
        time_lag: int >= `copies`, T.
        batch_size: int > 0 (default 10).
        copies: int > 0, digits to recall (default 10).
        algorithm: the generator (default `"threefry2x32"`).
        validation_sequences: int > 0 (default 1 000).
    """

    def __init__(
        self,
        time_lag,
        batch_size=10,
        copies=10,
        algorithm=DEFAULT_ALGORITHM,
        validation_sequences=VALIDATION_SEQUENCES,
    ):
        super().__init__(time_lag, copies, batch_size, algorithm, validation_sequences)
        if self.copies > self.time_lag:
            raise ValueError(
                f"The denoising task places {copies} digits among T = "
                f"{time_lag} steps: T must be at least the number of digits."
            )

    @property
    def length(self):
        return self.time_lag + 1 + self.copies

    def random_baseline(self):
        """Uniform guesses of the digits: ln(8) per scored step."""
        return math.log(COPY_DIGITS)

    def sequences(self, batch_size, seed, per_sequence):
        del per_sequence  # every sequence has its own positions anyway
        digits = _digits(batch_size, self.copies, seed, self.algorithm)
        scores = uniform(
            (batch_size, self.time_lag), seed + tf.constant([0, 2**30]), self.algorithm
        )
        # the `copies` positions of highest score, in increasing order
        positions = tf.sort(tf.math.top_k(scores, self.copies).indices, axis=1)
        rows = tf.repeat(tf.range(batch_size)[:, None], self.copies, axis=1)
        noisy = tf.scatter_nd(
            tf.stack([rows, positions], axis=-1),
            digits,
            (batch_size, self.time_lag),
        )
        symbols = tf.concat(
            [
                noisy,
                tf.fill((batch_size, 1), COPY_MARKER),
                tf.fill((batch_size, self.copies), COPY_BLANK),
            ],
            axis=1,
        )
        targets = tf.concat(
            [tf.fill((batch_size, self.time_lag + 1), IGNORED), digits], axis=1
        )
        return tf.one_hot(symbols, COPY_SYMBOLS), targets
