"""A token corpus as a batch source: next-token prediction on windows."""

import keras
import numpy as np
import tensorflow as tf

from benchmarks.data.sequences import classification_metrics
from keras_nalm._validation import check_positive_int
from keras_nalm.engine.sources import DEFAULT_ALGORITHM
from keras_nalm.engine.sources import BatchSource
from keras_nalm.engine.sources import uniform


class CorpusSource(BatchSource):
    """Random windows of a token corpus, each token predicting the next.

    The corpus (a 1-D array of token ids) lives in a non-trainable
    `tf.Variable` that each batch gathers from: a compiled program reads
    it as a parameter instead of folding megabytes of constants into
    itself, and `set_corpus` swaps in another corpus of the same length
    without recompiling. Each row of a batch starts at a position drawn
    uniformly from [0, len - length - 1]; `x` holds `length` ids and `y`
    the ids one step later. The model outputs `vocabulary_size` logits per
    step; the loss is the cross-entropy per token (natural log).

    Args:
        ids: 1-D integer array of token ids in [0, vocabulary_size).
        length: int > 0, tokens per window.
        vocabulary_size: int > 0 (default: max id + 1).
        batch_size: int > 0 (default 128).
        algorithm: the generator, one of `keras_nalm.engine.ALGORITHMS`
            (default `"threefry2x32"`).
    """

    loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    def __init__(
        self,
        ids,
        length,
        vocabulary_size=None,
        batch_size=128,
        algorithm=DEFAULT_ALGORITHM,
    ):
        super().__init__(batch_size, algorithm)
        ids = self._check_ids(ids)
        self.length = check_positive_int("length", length)
        if ids.size <= self.length:
            raise ValueError(
                f"The corpus has {ids.size} tokens, too few for windows of "
                f"{self.length} and their next tokens."
            )
        self.vocabulary_size = check_positive_int(
            "vocabulary_size",
            int(ids.max()) + 1 if vocabulary_size is None else vocabulary_size,
        )
        if ids.max() >= self.vocabulary_size:
            raise ValueError(
                f"Token id {int(ids.max())} is outside the vocabulary of "
                f"{self.vocabulary_size}."
            )
        self.corpus = tf.Variable(ids, trainable=False, name="corpus")

    @staticmethod
    def _check_ids(ids):
        ids = np.asarray(ids)
        if ids.ndim != 1 or not np.issubdtype(ids.dtype, np.integer):
            raise ValueError(
                "ids must be a 1-D array of integer token ids, received "
                f"shape {ids.shape} and dtype {ids.dtype}."
            )
        if ids.size and ids.min() < 0:
            raise ValueError("Token ids must be >= 0.")
        return ids.astype(np.int32)

    @property
    def metrics(self):
        return classification_metrics()

    def set_corpus(self, ids):
        """Draws from `ids` (a corpus of the same length) from now on."""
        ids = self._check_ids(ids)
        if ids.shape != tuple(self.corpus.shape):
            raise ValueError(
                f"set_corpus needs {self.corpus.shape[0]} tokens, got {ids.size}."
            )
        self.corpus.assign(ids)

    def __call__(self, seed):
        size = tf.shape(self.corpus)[0]
        starts = uniform(
            (self.batch_size, 1),
            seed,
            self.algorithm,
            maxval=size - self.length,
            dtype=tf.int32,
        )
        positions = starts + tf.range(self.length + 1)[None, :]
        windows = tf.gather(self.corpus.read_value(), positions)
        return windows[:, :-1], windows[:, 1:]
