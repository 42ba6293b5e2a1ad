"""Many runs of one model in one compiled program: a population.

The field's results are counts over many runs of tiny models (25 seeds ×
9 ranges per unit and operation in the survey). One such run is near its
floor with `InGraphTrainer`: a step of a 2 → 1 unit costs a few µs, all
of it per-step overhead of the loop, not arithmetic. `PopulationTrainer`
trains R runs of one program (the same model-building function, batch
source, optimizer and schedules) as one: every variable of the model is
held R times, stacked on a leading run axis, and each step is one XLA
loop iteration for all of them.

Design, and why (TensorFlow's `tf.vectorized_map` over Keras 3's
stateless API):

- Any Keras layer works unchanged. Each step calls
  `model.stateless_call(weights_r, ..., x_r)` for every run r under
  `tf.vectorized_map`, which rewrites the layer's ops into their batched
  forms (a matmul of [R, 128, 2] by [R, 2, 1], ...). The model is written
  for one run; nothing in the unit knows about populations. A unit of
  one's own (a plain `keras.layers.Layer`) trains the same way.
- Runs never mix. Each run's gradient is that of its own loss, taken
  inside the vectorized function (so that a unit's own gradients, as our
  exact gradients at saturation, are the ones vectorized); Adam (Keras's or
  `keras_nalm.optimizers.TorchAdam`) updates elementwise, so each run's
  moments and steps are its own. A global-norm clip would mix runs: the
  optimizer's `global_clipnorm` is taken over and applied per run, over
  that run's gradients only (`keras_nalm.optimizers.clip_by_global_norm`).
- Today's batches, bit for bit. Run r's batch at step t is
  `source((seed_r, t))`, the batch `InGraphTrainer` draws for that seed
  and step (the source's ops vectorized over the seeds). Weights are
  drawn per run by `initialize(model, seed)` as the engine draws them.
  The results therefore equal one-at-a-time runs up to the reassociation
  of floating-point sums in the batched ops (a test checks it).
- It stays on the TensorFlow engine (the rows' engine and generator);
  JAX's `vmap` over the same stateless API is the route to GPUs, where
  TensorFlow is not installed (`docs/backends.md`).

- What acts on one run acts on that run alone. The control variables
  (a regularizer's strength, the iNALU's switch) are held per run too.
  Schedules (`graph_value_at`) set them inside the loop before every
  step, from the step and from the run's own state (the iNALU switch's
  last loss). Each run's callbacks (iNALU's re-initialisation, the
  switch) see that run after every call, through a view of the model
  holding its weights, controls and optimizer slots: what they change
  (re-drawn weights, zeroed moments) is that run's alone. Callbacks act at
  the calls' ends, as they do with `InGraphTrainer`.

What it does not do: layers whose non-trainable state other than their
control variables changes in training (batch normalization's moving
statistics are not kept), and callbacks that need more of a model than
its weights, controls and optimizer (saving, early stopping by
`stop_training`). Train those one run at a time.

    trainer = PopulationTrainer(build_model, source, seeds=range(25),
                                optimizer=lambda: keras.optimizers.Adam(1e-3),
                                evaluation_data=[source.evaluation_data(s)
                                                 for s in range(25)])
    logs = trainer.train(steps=50_000, callbacks=[RegularizerWarmup(...)])
    results = [source.judge(trainer.model_of(r), log) for r, log in enumerate(logs)]
"""

import tensorflow as tf

from keras_nalm._population import Population
from keras_nalm.optimizers import clip_by_global_norm


class PopulationTrainer(Population):
    """Trains R runs of one model and batch source in one XLA program.

    Args:
        build_model: a function that returns the (uncompiled) Keras model
            of one run; called once.
        source: a batch source (`keras_nalm.engine.BatchSource`), or a
            list of them, one per run, of one program (equal
            `program_key`s): each run's batches are then drawn from its
            own source's `data()` (its task and range). The first gives
            the loss (`loss`, a name of `keras.losses`) and metrics named
            by loss functions (`"mse"`, ...).
        seeds: the runs' data seeds (ints); their number is R.
        optimizer: a function that returns a fresh Keras optimizer; its
            `global_clipnorm` and `clipnorm` clip each run's gradients on
            their own.
        steps_per_call: int > 0, steps between evaluations (default 1 000).
        evaluation_data: optional list (one per seed) of dicts from name
            to a fixed `(x, y)` pair, the same names and shapes for every
            run.
        initialize: `function(model, seed)` that draws a run's weights
            into `model` (default `keras_nalm.utils.reinitialize_model`,
            as the engine's sweeps draw them).
        extras: dict from name to `function(model) -> float`, recorded
            for every run at every evaluation (the run's weights put into
            the model first), e.g. a sparsity error; or a list of such
            dicts, one per run (default: each run's source's
            `log_extras`, what its `judge` reads).
        keep_weights: bool: each run's log also holds `weights`, its
            trainable weights (NumPy arrays) at every evaluation, from
            which extras can be computed afterwards, where needed only
            (default False).
    """

    backend = "tensorflow"

    def _hold(self, held, values):
        return _assigned(held, values)

    def _gradients(self, weights, controls, x, y):
        """Each run's training loss (with its regularizers), [R], and its
        gradients, [R, ...] per weight. Each run's gradient is taken
        inside the vectorized function, so that the gradients the units
        define (`tf.custom_gradient`: exact at saturation) are the ones
        vectorized; a gradient of the vectorized loss would differentiate
        their forward ops instead (0 where a saturated tanh underflows)."""

        def one(arguments):
            run_weights, run_controls, run_x, run_y = arguments
            run_weights = list(run_weights)
            with tf.GradientTape() as tape:
                tape.watch(run_weights)
                y_pred, _, losses = self.model.stateless_call(
                    run_weights,
                    list(run_controls),
                    run_x,
                    training=True,
                    return_losses=True,
                )
                loss = tf.reduce_mean(self.loss_function(run_y, y_pred))
                penalties = [tf.cast(penalty, loss.dtype) for penalty in losses]
                loss = loss + tf.add_n(penalties + [0.0 * loss])
            gradients = tape.gradient(loss, run_weights)
            gradients = [
                tf.zeros_like(w) if g is None else tf.convert_to_tensor(g)
                for g, w in zip(gradients, run_weights)
            ]
            return loss, gradients

        return tf.vectorized_map(one, (weights, controls, x, y))

    def _batches(self, step):
        if self.run_data is None:
            return tf.vectorized_map(
                lambda seed: self.source(tf.stack([seed, step])),
                self.seed_variable.value(),
            )

        def one(arguments):
            seed, data = arguments
            return self.source.draw(tf.stack([seed, step]), data)

        data = {name: variable.value() for name, variable in self.run_data.items()}
        return tf.vectorized_map(one, (self.seed_variable.value(), data))

    def _clipped(self, gradients):
        if self.variable_clip_norm:
            gradients = [
                tf.vectorized_map(
                    lambda run: tf.clip_by_norm(run, self.variable_clip_norm),
                    gradient,
                )
                for gradient in gradients
            ]
        if not self.clip_norm:
            return gradients
        return tf.vectorized_map(
            lambda run: clip_by_global_norm(list(run), self.clip_norm), gradients
        )

    def _set_controls(self, step):
        """Each schedule's value at `step` for every run ([R]: a run's
        schedule may read its own state) into the controls it sets."""
        step = tf.cast(step, tf.float32)
        for group, indices in self._schedules:
            if len(group) == 1:
                values = tf.fill([self.size], group[0].graph_value_at(step))
            else:
                values = tf.stack([s.graph_value_at(step) for s in group])
            for index in indices:
                stacked = self.controls[index]
                shape = [self.size] + [1] * (len(stacked.shape) - 1)
                value = tf.reshape(tf.cast(values, stacked.dtype), shape)
                stacked.assign(tf.broadcast_to(value, stacked.shape))

    def _step(self, losses_sum):
        step = tf.cast(self.optimizer.iterations, tf.int32)
        self._set_controls(step)
        x, y = self._batches(step)
        weights = [w.value for w in self.weights]
        controls = [c.value for c in self.controls]
        losses, gradients = self._gradients(weights, controls, x, y)
        self.optimizer.apply(self._clipped(gradients), self.weights)
        for stacked, variable in zip(self.weights, self._trainable):
            if variable.constraint is not None:  # each run's weights alone
                stacked.assign(tf.vectorized_map(variable.constraint, stacked.value))
        return losses_sum + tf.cast(losses, tf.float64)

    def _evaluations(self):
        """{key: [R] tensor}: the loss and metrics on each evaluation set."""
        weights = [w.value for w in self.weights]
        controls = [c.value for c in self.controls]
        found = {}
        for name, (x, y) in self.evaluation_sets.items():

            def one(arguments):
                run_weights, run_controls, run_x, run_y = arguments
                y_pred, _ = self.model.stateless_call(
                    list(run_weights), list(run_controls), run_x, training=False
                )
                values = {"loss": tf.reduce_mean(self.loss_function(run_y, y_pred))}
                for metric, function in self.metric_functions.items():
                    values[metric] = tf.reduce_mean(function(run_y, y_pred))
                return values

            evaluated = tf.vectorized_map(one, (weights, controls, x, y))
            for key, value in evaluated.items():
                found[f"{name}_{key}"] = value
        return found

    def _compiled_calls(self):
        """(train, evaluate): `steps_per_call` steps of every run, returning
        each run's mean training loss; the evaluations of every run. Two
        programs: within one XLA program, reads after the loop saw the
        weights from before it."""
        if self._calls is None:

            def train():
                def body(i, losses_sum):
                    return i + 1, self._step(losses_sum)

                zeros = tf.zeros([self.size], tf.float64)
                _, losses_sum = tf.while_loop(
                    lambda i, _: i < self.steps_per_call, body, (tf.constant(0), zeros)
                )
                return losses_sum / self.steps_per_call

            # autograph off: the loop is `tf.while_loop` already, and
            # converting the model's code cost ~2.7 s (once a process)
            self._calls = (
                tf.function(train, jit_compile=True, autograph=False),
                tf.function(self._evaluations, jit_compile=True, autograph=False),
            )
        return self._calls


def _assigned(variables, values):
    """`values` (nested dicts and tuples of arrays) as new variables, or
    assigned to `variables`, the same structure held before."""
    if values is None:
        return None
    if variables is None:
        return tf.nest.map_structure(_variable, values)
    tf.nest.map_structure(lambda v, a: v.assign(a), variables, values)
    return variables


def _variable(array):
    return tf.Variable(array, trainable=False)
