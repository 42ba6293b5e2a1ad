"""Many optimizer steps per compiled call, with batches drawn in-graph.

TensorFlow backend only. On a small model `model.fit` spends ~200 µs per
step on Python, iterator and executor work, 10x more than the model needs
(`../shared/PERFORMANCE.md`). `InGraphTrainer` removes that overhead: each
compiled call runs `steps_per_call` optimizer steps inside one XLA while
loop, and each step draws its batch inside the graph from a counter-based
generator (stateless threefry, `tf.random.stateless_uniform`) keyed by
(seed, optimizer step). `model.fit` still drives training, so callbacks
work unchanged; they see one "batch" per call.

    trainer = InGraphTrainer(model, ArithmeticBatches(task, Range(((1, 2),))),
                             seed=0, steps_per_call=1000)
    trainer.compile(optimizer="adam", loss="mse", metrics=["mse"])
    trainer.fit(steps=50_000, callbacks=[RegularizerWarmup(20_000, 35_000)])

The batch of step t depends only on (seed, t), so a run resumed from a
checkpoint at step t sees the same data as an uninterrupted run.
"""

import keras
import numpy as np
import tensorflow as tf

from keras_nalm._validation import check_choice
from keras_nalm._validation import check_positive_int
from keras_nalm.tasks import ArithmeticTask
from keras_nalm.tasks import Range

#: The counter-based generator that draws every batch.
RNG_ALGORITHM = "threefry"


class ArithmeticBatches:
    """Batches of an `ArithmeticTask` drawn in-graph from a `Range`.

    One uniform number u in [0, total length) per input is mapped onto the
    range's intervals laid end to end, so a union of equally long
    intervals (all the papers' ranges) picks each interval with equal
    probability, as `Range.sample` does. The subsets and the range are
    held in variables: `set_task` (same operation and input size) and
    `set_range` (same number of intervals) change them without
    recompiling.

    Args:
        task: an `ArithmeticTask` (its subsets fixed, e.g. by `draw`).
        value_range: a `Range` of equally long intervals.
        batch_size: int > 0 (default 128, as in all the papers).
        algorithm: the counter-based generator, `"threefry"` (default; fast
            under XLA) or `"philox"` (for use outside XLA, e.g. in
            `tf.data`, where TensorFlow has no threefry kernel).
    """

    def __init__(self, task, value_range, batch_size=128, algorithm=RNG_ALGORITHM):
        if not isinstance(task, ArithmeticTask):
            raise TypeError(f"task must be an ArithmeticTask, got {task!r}.")
        self.task = task
        self.batch_size = check_positive_int("batch_size", batch_size)
        self.algorithm = check_choice("algorithm", algorithm, ("threefry", "philox"))
        self._subsets = tf.Variable(task.subset_weights(), dtype=tf.float32)
        self._starts = None
        self.set_range(value_range)

    def set_task(self, task):
        """Draws the targets of `task` from now on."""
        if not isinstance(task, ArithmeticTask):
            raise TypeError(f"task must be an ArithmeticTask, got {task!r}.")
        if (task.operation, task.input_size) != (
            self.task.operation,
            self.task.input_size,
        ):
            raise ValueError(
                "set_task needs the same operation and input size: "
                f"{self.task.operation}/{self.task.input_size}, got "
                f"{task.operation}/{task.input_size}."
            )
        self._subsets.assign(task.subset_weights())
        self.task = task

    def set_range(self, value_range):
        """Draws from `value_range` from now on."""
        if not isinstance(value_range, Range):
            raise TypeError(f"value_range must be a Range, got {value_range!r}.")
        lengths = {high - low for low, high in value_range.intervals}
        if len(lengths) != 1:
            raise ValueError(
                f"In-graph sampling needs intervals of equal length, got {value_range}."
            )
        length = lengths.pop()
        lows = [low for low, _ in value_range.intervals]
        # x = u + lows[0] + sum of the gaps between the intervals below u
        starts = [length * i for i in range(1, len(lows))]
        gaps = [low - (previous + length) for previous, low in zip(lows, lows[1:])]
        values = {"length": length * len(lows), "low": lows[0]}
        values.update(starts=starts, gaps=gaps)
        if self._starts is None:
            self._variables = {
                name: tf.Variable(value, dtype=tf.float32, trainable=False)
                for name, value in values.items()
            }
            self._starts = len(starts)
        elif len(starts) != self._starts:
            raise ValueError(
                f"{value_range} has {len(lows)} intervals; these batches were "
                f"built for {self._starts + 1}."
            )
        for name, value in values.items():
            self._variables[name].assign(value)
        self.value_range = value_range

    def sample_inputs(self, seed):
        """Inputs of shape (batch_size, input_size); `seed`: int32 (2,)."""
        shape = (self.batch_size, self.task.input_size)
        u = tf.random.stateless_uniform(shape, seed, alg=self.algorithm)
        u = u * self._variables["length"]
        x = u + self._variables["low"]
        for i in range(self._starts):
            above = u >= self._variables["starts"][i]
            x = x + tf.where(above, self._variables["gaps"][i], 0.0)
        return x

    def __call__(self, seed):
        """(x, y) of one batch; `seed` is an int32 tensor of shape (2,)."""
        x = self.sample_inputs(seed)
        sums = tf.matmul(x, self._subsets.read_value())
        return x, self.task.apply(sums[:, :1], sums[:, 1:])


class InGraphTrainer(keras.Model):
    """Trains `model` for `steps_per_call` steps per compiled call.

    Each optimizer step t draws its batch with `batches(seed=(seed, t))`,
    computes the compiled loss (regularizers included), applies the
    gradients and updates the compiled metrics, all inside one XLA while
    loop. After the loop the MSE on each fixed evaluation set is computed
    in the same call and logged as `"{name}_mse"` (a value at the call's
    last step, not a running mean), so that a callback sees it every
    `steps_per_call` steps at no extra cost.

    Callbacks see one batch per call: `RegularizerWarmup`, `BetaGrowth` and
    the iNALU callbacks therefore update every `steps_per_call` steps (a
    staircase over the schedule), and `logs["loss"]` and metrics are means
    over the steps. Save and export `trainer.model`, the user's model.

    The seed and the evaluation sets are variables: `restart` begins a new
    run (new seed, fresh optimizer) on the same compiled program, which
    makes many short runs cheap.

    Args:
        model: the Keras model to train (TensorFlow backend).
        batches: a callable from an int32 seed tensor of shape (2,) to a
            batch (x, y), built from stateless TensorFlow ops (see
            `ArithmeticBatches` for the arithmetic task).
        seed: int, the data stream's seed.
        steps_per_call: int > 0, optimizer steps per compiled call
            (default 1 000, the papers' evaluation interval).
        evaluation_data: optional dict from name to a fixed (x, y) pair.
    """

    def __init__(
        self, model, batches, seed=0, steps_per_call=1_000, evaluation_data=None
    ):
        super().__init__(name=f"{model.name}_trainer")
        if keras.backend.backend() != "tensorflow":
            raise RuntimeError(
                "InGraphTrainer needs the TensorFlow backend, "
                f"not {keras.backend.backend()!r}."
            )
        if not callable(batches):
            raise TypeError("batches must be callable: seed tensor -> (x, y).")
        self.model = model
        self.batches = batches
        self.steps_per_call = check_positive_int("steps_per_call", steps_per_call)
        self._seed = tf.Variable(int(seed), dtype=tf.int32, trainable=False)
        self._evaluation = {
            name: tuple(
                tf.Variable(np.asarray(part, np.float32), trainable=False)
                for part in pair
            )
            for name, pair in (evaluation_data or {}).items()
        }

    @property
    def point_log_keys(self):
        """Log keys that hold a value at the call's end, not a running mean."""
        return tuple(f"{name}_mse" for name in self._evaluation)

    @property
    def seed(self):
        return int(self._seed.numpy())

    def call(self, inputs, training=False):
        return self.model(inputs, training=training)

    def compile(self, jit_compile=True, **kwargs):
        """`keras.Model.compile`, with XLA on by default."""
        if kwargs.get("steps_per_execution", 1) != 1:
            raise ValueError(
                "InGraphTrainer runs steps_per_call steps per call; "
                "leave steps_per_execution at 1."
            )
        super().compile(jit_compile=jit_compile, **kwargs)

    def restart(self, seed, evaluation_data=None):
        """Begins a new run: new data seed, optimizer state and step zeroed.

        `evaluation_data` (same names and shapes) replaces the evaluation
        sets. Re-initialize the model's weights separately (e.g. with
        `NALMLayer.reinitialize`). The compiled program is kept.
        """
        self._seed.assign(int(seed))
        for name, pair in (evaluation_data or {}).items():
            if name not in self._evaluation:
                raise KeyError(f"No evaluation set named {name!r}.")
            for variable, part in zip(self._evaluation[name], pair):
                variable.assign(np.asarray(part, np.float32))
        if self.optimizer is not None and self.optimizer.built:
            for variable in self.optimizer.variables:
                if variable is not self.optimizer._learning_rate:
                    variable.assign(tf.zeros_like(variable))

    def _one_step(self):
        step = tf.cast(self.optimizer.iterations, tf.int32)
        x, y = self.batches(tf.stack([self._seed.read_value(), step]))
        with tf.GradientTape() as tape:
            y_pred = self.model(x, training=True)
            loss = self._compute_loss(x=x, y=y, y_pred=y_pred, training=True)
            self._loss_tracker.update_state(loss, sample_weight=tf.shape(x)[0])
        variables = self.trainable_weights
        self.optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
        self.compute_metrics(x, y, y_pred)

    def train_step(self, data):
        del data  # a placeholder from `fit`; the batches are drawn in-graph

        def body(i):
            self._one_step()
            return (i + 1,)

        tf.while_loop(lambda i: i < self.steps_per_call, body, (tf.constant(0),))
        logs = dict(self.get_metrics_result())
        logs.update(self._evaluation_mse())
        return logs

    def _evaluation_mse(self):
        return {
            f"{name}_mse": tf.reduce_mean(tf.square(self.model(x, training=False) - y))
            for name, (x, y) in self._evaluation.items()
        }

    def evaluation_mse(self):
        """The MSE on each evaluation set now, as Python floats (eagerly)."""
        return {name: float(value) for name, value in self._evaluation_mse().items()}

    def fit(self, steps, steps_per_epoch=None, **kwargs):
        """Trains until optimizer step `steps` with `keras.Model.fit`.

        `steps_per_epoch` defaults to `steps_per_call`, so that epoch-level
        callbacks (checkpoints, early stopping) run after every call; it
        must be a multiple of `steps_per_call`, and `steps` a multiple of
        it. Like Keras' `epochs`, `steps` is where training ends: resume
        with `initial_epoch` after restoring a checkpoint. Other keyword
        arguments (callbacks, verbose, initial_epoch, validation_data, ...)
        go to `keras.Model.fit`; data arguments are refused, the batches
        are drawn in-graph.
        """
        for name in ("x", "y", "batch_size", "epochs", "steps_per_execution"):
            if name in kwargs:
                raise TypeError(f"InGraphTrainer.fit takes no {name}=.")
        steps_per_epoch = check_positive_int(
            "steps_per_epoch", steps_per_epoch or self.steps_per_call
        )
        check_positive_int("steps", steps)
        if steps_per_epoch % self.steps_per_call or steps % steps_per_epoch:
            raise ValueError(
                f"steps={steps} must be a multiple of steps_per_epoch="
                f"{steps_per_epoch}, itself a multiple of steps_per_call="
                f"{self.steps_per_call}."
            )
        calls = tf.data.Dataset.from_tensors(tf.zeros((1,))).repeat()
        kwargs.setdefault("shuffle", False)
        return super().fit(
            calls,
            epochs=steps // steps_per_epoch,
            steps_per_epoch=steps_per_epoch // self.steps_per_call,
            **kwargs,
        )
