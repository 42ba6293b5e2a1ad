"""The batch-source protocol, its random numbers, and `tf.data` feeding."""

import tensorflow as tf

from keras_nalm._validation import check_choice
from keras_nalm._validation import check_positive_int
from keras_nalm.engine.algorithms import ALGORITHMS
from keras_nalm.engine.algorithms import DEFAULT_ALGORITHM
from keras_nalm.engine.algorithms import THREEFRY_ROUNDS
from keras_nalm.engine.threefry import threefry_uniform


def uniform(
    shape, seed, algorithm=DEFAULT_ALGORITHM, minval=0, maxval=None, dtype=None
):
    """Stateless uniform numbers keyed by `seed` (int32, shape (2,)).

    Floats in [minval, maxval) (default [0, 1)), or integers in
    [minval, maxval) with an integer `dtype`. Every source draws through
    here, so that one argument chooses the generator of a whole task.
    """
    dtype = dtype or tf.float32
    if algorithm in THREEFRY_ROUNDS:
        return threefry_uniform(
            shape, seed, THREEFRY_ROUNDS[algorithm], minval, maxval, dtype
        )
    if maxval is None:
        maxval = 1.0
    return tf.random.stateless_uniform(
        shape, seed, minval=minval, maxval=maxval, dtype=dtype, alg=algorithm
    )


class BatchSource:
    """A task: training batches drawn in-graph, and how the task is judged.

    Subclasses implement `__call__(seed) -> (x, y)` with stateless
    TensorFlow ops (draw random numbers with `uniform(..., seed,
    self.algorithm)`; the seed is int32 of shape (2,), the run's data seed
    and the optimizer step), and may override:

    - `loss` and `metrics`: what to compile the model with; the engine
      logs both on every evaluation set (`"{set}_loss"`,
      `"{set}_{metric}"`);
    - `evaluation_data(seed)`: the fixed evaluation sets of a run, a dict
      from name to `(x, y)` NumPy arrays;
    - `judge(model, log)`: the task's criterion, a dict of results from the
      trained model and the evaluations logged during training
      (`keras_nalm.engine.EvaluationLog`), with `log_extras`, what the
      log records besides the evaluations (name -> function of the model);
    - `program_key` and `update_from(other)`: sources with equal keys can
      share a compiled program, the one taking over the other's variables
      (a new task or range for the next run) through `update_from`;
    - `data()` and `draw(seed, data)`: the data a batch is drawn from
      besides the seed (a task's subsets, a range's bounds; `{}` by
      default), and the batch drawn from given data, so that a
      population (`keras_nalm.engine.population.PopulationTrainer`) draws
      each run's batch from that run's data; `__call__(seed)` is then
      `draw(seed, data())`.

    Fixed data larger than a few kilobytes (images, a corpus) belongs in
    non-trainable `tf.Variable`s that `__call__` gathers from, not in
    constants: XLA would fold constants into the compiled program.

    Args:
        batch_size: int > 0.
        algorithm: the counter-based generator, one of `ALGORITHMS`
            (default `"threefry2x32"`).
    """

    loss = "mse"
    log_extras = {}

    def __init__(self, batch_size, algorithm=DEFAULT_ALGORITHM):
        self.batch_size = check_positive_int("batch_size", batch_size)
        self.algorithm = check_choice("algorithm", algorithm, ALGORITHMS)

    @property
    def metrics(self):
        """Fresh metrics to compile with (a new list on every access)."""
        return ["mse"]

    def __call__(self, seed):
        raise NotImplementedError

    def data(self):
        """{name: variable or array}: what `draw` reads besides the seed."""
        return {}

    def draw(self, seed, data):
        """The batch of `seed` drawn from `data` (tensors of `data()`'s
        names and shapes); by default `self(seed)`, which has none."""
        del data
        return self(seed)

    @property
    def program_key(self):
        """What a compiled program of this source depends on."""
        return (type(self).__name__, self.batch_size, self.algorithm)

    def update_from(self, other):
        """Takes over `other`'s data (a source with the same program key)
        for the program this source is compiled into; nothing by default."""
        if other.program_key != self.program_key:
            raise ValueError(
                f"A program compiled for {self.program_key} cannot draw "
                f"{other.program_key}."
            )

    def evaluation_data(self, seed):
        """The fixed evaluation sets of the run with data seed `seed`."""
        return {}

    def judge(self, model, log):
        """The run's results: by default the last logged evaluations."""
        return {key: values[-1] for key, values in log.series.items()}


class HeldImages:
    """A mixin for sources that draw examples from images and labels held
    in non-trainable `tf.Variable`s (a compiled program reads them as
    parameters), so that a source of the same program key can take over
    another's data (`update_from`)."""

    def hold(self, images, labels):
        self.images = tf.Variable(images, trainable=False, name="images")
        self.labels = tf.Variable(labels, trainable=False, name="labels")

    def update_from(self, other):
        super().update_from(other)
        self.images.assign(other.images)
        self.labels.assign(other.labels)

    def random_rows(self, shape, seed):
        """Indices of held examples, uniform, of `shape`."""
        count = tf.shape(self.labels)[0]
        return uniform(shape, seed, self.algorithm, maxval=count, dtype=tf.int32)


def as_dataset(source, seed, first_step=0):
    """A `tf.data.Dataset` of `source`'s batches for `model.fit`.

    Batch i is `source((seed, first_step + i))`, computed by the same
    XLA-compiled generator as in `InGraphTrainer`, so `model.fit` on this
    dataset sees exactly the engine's batches (TensorFlow's own threefry
    has no kernel outside XLA). Pass `first_step` when resuming a run.
    """
    draw = tf.function(source, jit_compile=True)
    seed = tf.constant(int(seed), tf.int32)

    def batch(step):
        return draw(tf.stack([seed, tf.cast(step, tf.int32)]))

    return tf.data.Dataset.range(first_step, 2**31 - 1).map(batch)
