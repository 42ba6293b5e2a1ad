"""Sequences of MNIST digits as a batch source: running sums and products
(Madsen & Johansen 2020, §4.2, app. D; Trask et al. 2018, app. C)."""

import numpy as np
import tensorflow as tf

from keras_nalm._validation import check_choice
from keras_nalm._validation import check_positive_int
from keras_nalm.engine.sources import DEFAULT_ALGORITHM
from keras_nalm.engine.sources import BatchSource
from keras_nalm.engine.sources import HeldImages
from keras_nalm.utils import unit_sparsity_error

#: The pixel normalisation of the reference code (PyTorch's MNIST example).
PIXEL_MEAN, PIXEL_STD = 0.1307, 0.3081
#: What the targets are of the digits seen so far: their sum, product, or
#: count per class (10 targets).
OPERATIONS = ("sum", "product", "count")
#: Test sequences are predicted this many images at a time.
PREDICT_IMAGES = 5_000


def normalize_images(images):
    """uint8 images (n, 28, 28) to float32 (n, 28, 28, 1), normalised."""
    images = np.asarray(images)
    if images.ndim != 3 or images.shape[1:] != (28, 28):
        raise ValueError(
            f"MNIST images must have shape (n, 28, 28), received {images.shape}."
        )
    scaled = images.astype(np.float32) / 255.0
    return ((scaled - PIXEL_MEAN) / PIXEL_STD)[..., None]


def _targets(labels, operation, cumulative):
    """The running (or final) sum, product or class counts of digit labels
    (batch, time): (batch, time, outputs) or (batch, outputs)."""
    if operation == "count":
        values = np.cumsum(np.eye(10)[np.asarray(labels)], axis=1)
    else:
        labels = np.asarray(labels, np.float64)
        running = np.cumsum if operation == "sum" else np.cumprod
        values = running(labels, axis=1)[..., None]
    return values if cumulative else values[:, -1]


def _predict(model, x):
    batch = max(1, PREDICT_IMAGES // x.shape[1])
    return model.predict(x, batch_size=batch, verbose=0)


def _scores(predictions, targets):
    """MSE, and the share of sequences whose every rounded output is right."""
    right = np.all(np.round(predictions) == targets, axis=-1)
    return float(np.mean((predictions - targets) ** 2)), float(np.mean(right))


def _classification(predictions, targets):
    """The share of single digits whose largest count is their own: the
    digit classification that counting's outputs give at length 1."""
    return float(np.mean(np.argmax(predictions, -1) == np.argmax(targets, -1)))


class MNISTSequences(HeldImages, BatchSource):
    """Sequences of MNIST images; the target is the running sum or product
    of their digits, or how many of each digit it has seen.

    Training batches draw `length` images per sequence, uniformly with
    replacement among the training images of the allowed `digits`, inside
    the graph: the images are held in a non-trainable variable. With
    `cumulative=True` the target has one value per step, the sum or product
    of the digits so far (Madsen's "cumsum"/"cumprod"), and the model
    returns sequences; else the target is the final one.

    Evaluation (Madsen app. D): `evaluation_data(seed)` is the validation
    set, sequences of `length` from the validation images (each image once,
    in an order drawn from the seed), used to choose the best step;
    `test_scores(model, seed)` predicts test sequences at every test length,
    each test image used once per length (so n_test // L sequences of
    length L, read at their last step; a cumulative model with
    `test_prefixes` is read at step L of sequences of the longest test
    length instead, as Madsen's). Through `log_extras` the test scores and the
    sparsity error of the model's units are recorded at every evaluation,
    so that `judge` reports those of the best step and the test MSE of
    every step (for the step a run is first solved at).

    Args:
        train: (images, labels), uint8 (n, 28, 28) and ints: the training
            images.
        operation: `"sum"`, `"product"` or `"count"` (10 targets: the
            count of each digit).
        length: int > 0, the training (and validation) sequence length.
        validation: (images, labels) or None (no evaluation sets).
        test: (images, labels) or None.
        test_lengths: the lengths `test_scores` evaluates.
        digits: the digits that may appear (default 0-9; the product task
            uses 1-9).
        cumulative: targets at every step (default True).
        test_prefixes: test a cumulative source's model at length L at
            step L of the longest test sequences (default True, Madsen's
            reading: n_test // max(test_lengths) sequences at every
            length); False tests it on every length's own sequences.
        batch_size: int > 0 (default 64, the reference's).
        algorithm: the generator, one of `keras_nalm.engine.ALGORITHMS`.
    """

    def __init__(
        self,
        train,
        operation,
        length,
        validation=None,
        test=None,
        test_lengths=(),
        digits=tuple(range(10)),
        cumulative=True,
        test_prefixes=True,
        batch_size=64,
        algorithm=DEFAULT_ALGORITHM,
    ):
        super().__init__(batch_size, algorithm)
        self.operation = check_choice("operation", operation, OPERATIONS)
        self.length = check_positive_int("length", length)
        self.digits = tuple(sorted({int(d) for d in digits}))
        if not self.digits or not set(self.digits) <= set(range(10)):
            raise ValueError(f"digits must be among 0-9, received {digits!r}.")
        self.cumulative = bool(cumulative)
        self.test_prefixes = self.cumulative and bool(test_prefixes)
        self.test_lengths = tuple(
            check_positive_int("test length", n) for n in test_lengths
        )
        self.validation = self._eligible(validation, "validation")
        self.test = self._eligible(test, "test")
        self.log_extras = {"sparsity_error": unit_sparsity_error}
        if self.test is not None and self.test_lengths:
            self.log_extras["test_scores"] = self.test_scores
        images, labels = self._eligible(train, "train")
        self.hold(normalize_images(images), labels.astype(np.float32))

    def _eligible(self, split, name):
        """The images of the allowed digits in `split` (or None)."""
        if split is None:
            return None
        images, labels = (np.asarray(part) for part in split)
        if len(images) != len(labels):
            raise ValueError(
                f"The {name} split has {len(images)} images and {len(labels)} labels."
            )
        keep = np.isin(labels, self.digits)
        if keep.sum() < self.length:
            raise ValueError(
                f"The {name} split has {int(keep.sum())} images of the digits "
                f"{self.digits}, fewer than one sequence of {self.length}."
            )
        return images[keep], labels[keep]

    @property
    def program_key(self):
        return (
            *super().program_key,
            self.operation,
            self.length,
            self.cumulative,
            tuple(self.images.shape),
        )

    def __call__(self, seed):
        picks = self.random_rows((self.batch_size, self.length), seed)
        x = tf.gather(self.images.read_value(), picks)
        labels = tf.gather(self.labels.read_value(), picks)
        if self.operation == "count":
            y = tf.math.cumsum(tf.one_hot(tf.cast(labels, tf.int32), 10), axis=1)
        else:
            running = tf.math.cumsum if self.operation == "sum" else tf.math.cumprod
            y = running(labels, axis=1)[..., None]
        return x, y if self.cumulative else y[:, -1]

    def sequences(self, split, length, seed):
        """Every image of `split` once, in a seeded order, cut into
        sequences of `length` (normalised images, targets)."""
        images, labels = split
        order = np.random.default_rng(seed).permutation(len(labels))
        count = len(labels) // length
        picks = order[: count * length].reshape(count, length)
        x = normalize_images(images[picks.reshape(-1)])
        x = x.reshape(count, length, 28, 28, 1)
        return x, _targets(labels[picks], self.operation, self.cumulative)

    def evaluation_data(self, seed):
        if self.validation is None:
            return {}
        return {"validation": self.sequences(self.validation, self.length, seed)}

    def test_scores(self, model, seed=0):
        """{"length": (MSE, accuracy)} of `model` on the test sequences of
        each test length; accuracy is the share of sequences whose every
        output, rounded, equals its target. Counting's scores at length 1
        have a third: the digit classification accuracy, the share of
        digits whose largest count is their own (our reading of Trask
        table 10's "Classification" column; the exact count is stricter).
        The lengths are strings, as JSON keeps them: a checkpoint stores
        the logged scores as JSON (`benchmarks.core.resume`)."""
        if self.test is None or not self.test_lengths:
            raise ValueError("test_scores needs a test split and test_lengths.")
        if self.test_prefixes:
            x, y = self.sequences(self.test, max(self.test_lengths), seed)
            predictions = _predict(model, x)
            return {
                str(n): self._scores_at(n, predictions[:, n - 1], y[:, n - 1])
                for n in self.test_lengths
            }
        results = {}
        for n in self.test_lengths:
            x, y = self.sequences(self.test, n, seed)
            predictions = _predict(model, x)
            if self.cumulative:
                predictions, y = predictions[:, -1], y[:, -1]
            results[str(n)] = self._scores_at(n, predictions, y)
        return results

    def _scores_at(self, length, predictions, targets):
        scores = _scores(predictions, targets)
        if length == 1 and self.operation == "count":
            scores += (_classification(predictions, targets),)
        return scores

    def judge(self, model, log):
        """At the step of the lowest validation MSE: that MSE, the units'
        sparsity error (None without units), the test MSE and accuracy
        per length and, for counting tested at length 1, the digit
        classification accuracy there; with `test_mse_series` the test
        MSE per length at every evaluated step (`evaluation_steps`)."""
        series = log.series
        validation = series.get("validation_mse") or series["validation_loss"]
        best = int(np.nanargmin(validation))
        result = {
            "best_step": series["step"][best],
            "validation_mse": validation[best],
            "sparsity_error": series["sparsity_error"][best],
        }
        if "test_scores" in series:
            scores = series["test_scores"]
            lengths = [str(n) for n in self.test_lengths]
            result["test_mse"] = {n: scores[best][n][0] for n in lengths}
            result["test_accuracy"] = {n: scores[best][n][1] for n in lengths}
            if len(scores[best].get("1", ())) == 3:
                result["test_classification"] = scores[best]["1"][2]
            result["evaluation_steps"] = series["step"]
            result["test_mse_series"] = {
                n: [step_scores[n][0] for step_scores in scores] for n in lengths
            }
        return result
