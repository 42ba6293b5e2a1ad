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

import json
import types

import keras
import numpy as np
import tensorflow as tf

from keras_nalm._validation import check_positive_int
from keras_nalm.callbacks.steps import MultiStepModel
from keras_nalm.engine.trainer import _program_of
from keras_nalm.engine.trainer import is_schedule
from keras_nalm.optimizers import clip_by_global_norm
from keras_nalm.utils import optimizer_variables_of
from keras_nalm.utils import reinitialize_model


class PopulationTrainer:
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

    def __init__(
        self,
        build_model,
        source,
        seeds,
        optimizer,
        steps_per_call=1_000,
        evaluation_data=None,
        initialize=reinitialize_model,
        extras=None,
        keep_weights=False,
    ):
        if keras.backend.backend() != "tensorflow":
            raise RuntimeError("PopulationTrainer needs the TensorFlow backend.")
        seeds = [int(seed) for seed in seeds]
        if not seeds:
            raise ValueError("A population needs at least one seed.")
        self.model = build_model()
        self.initialize = initialize
        self.keep_weights = keep_weights
        self.steps_per_call = check_positive_int("steps_per_call", steps_per_call)
        self._trainable = self.model.trainable_variables
        self._controls = self.model.non_trainable_variables
        self._first_controls = [np.asarray(v.numpy()) for v in self._controls]
        self.weights = _stacked_variables(self._trainable, len(seeds), "population")
        self.controls = _stacked_variables(self._controls, len(seeds), "controls")
        self.optimizer = optimizer()
        # clipped per run here: the optimizer would clip all runs together
        self.clip_norm = self.optimizer.global_clipnorm
        self.variable_clip_norm = self.optimizer.clipnorm
        self.optimizer.global_clipnorm = self.optimizer.clipnorm = None
        self.optimizer.build(self.weights)
        self.seed_variable = tf.Variable(seeds, dtype=tf.int32, trainable=False)
        self.run_data = None
        self.evaluation_sets = None
        self._calls = None
        self._schedules = ()
        self._program = None
        self.restart(seeds, source, evaluation_data, extras)

    def restart(self, seeds, source, evaluation_data=None, extras=None):
        """Begins new runs on the same compiled program: as many seeds as
        before, sources of the same program, evaluation sets of the same
        names and shapes; fresh weights (`initialize`), optimizer state
        and control values. Arguments as the constructor's."""
        seeds = [int(seed) for seed in seeds]
        if self.evaluation_sets is not None and len(seeds) != self.size:
            raise ValueError(
                f"A population of {self.size} cannot restart with {len(seeds)} seeds."
            )
        self.seeds = seeds
        self.sources = list(source) if isinstance(source, (list, tuple)) else None
        if self.sources is not None and len(self.sources) != len(seeds):
            raise ValueError(
                f"{len(self.sources)} sources for {len(seeds)} seeds: give one per run."
            )
        self.source = self.sources[0] if self.sources else source
        if extras is None:
            run_sources = self.sources or [source] * len(seeds)
            extras = [getattr(s, "log_extras", {}) for s in run_sources]
        if isinstance(extras, (list, tuple)):
            self.extras = [dict(run_extras) for run_extras in extras]
        else:
            self.extras = [dict(extras) for _ in seeds]
        self.loss_function = keras.losses.get(getattr(self.source, "loss", "mse"))
        self.metric_functions = {
            name: keras.losses.get(name) for name in getattr(self.source, "metrics", [])
        }
        self.seed_variable.assign(seeds)
        self.run_data = _assigned(
            self.run_data, _stacked_data(self.sources) if self.sources else None
        )
        sets = _stacked_sets(evaluation_data or [{}] * len(seeds))
        self.evaluation_sets = _assigned(self.evaluation_sets, sets)
        for stacked, values in zip(self.weights, self._drawn_weights()):
            stacked.assign(values)
        for variable in self.optimizer.variables:
            if variable is not self.optimizer.learning_rate:
                variable.assign(np.zeros(variable.shape, variable.dtype))
        for stacked, value in zip(self.controls, self._first_controls):
            stacked.assign(np.broadcast_to(value, stacked.shape))

    @property
    def size(self):
        """R, the number of runs."""
        return len(self.seeds)

    def _drawn_weights(self):
        """Each trainable variable's values for every run: [R, ...]."""
        per_run = []
        for seed in self.seeds:
            self.initialize(self.model, seed)
            per_run.append([np.asarray(v.numpy()) for v in self._trainable])
        return [
            np.stack([run[i] for run in per_run]) for i in range(len(self._trainable))
        ]

    def model_of(self, run):
        """The model with run `run`'s weights and control values (the same
        model object for every run: read it before asking for another)."""
        for variable, stacked in zip(self._trainable, self.weights):
            variable.assign(stacked.value[run])
        for variable, stacked in zip(self._controls, self.controls):
            variable.assign(stacked.value[run])
        return self.model

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

    def _record(self, logs, training_losses, evaluations):
        step = int(self.optimizer.iterations.numpy())
        evaluations = {key: np.asarray(value) for key, value in evaluations.items()}
        wanted = any(self.extras) or self.keep_weights
        weights = [stacked.numpy() for stacked in self.weights] if wanted else []
        for run, log in enumerate(logs):
            if self.keep_weights:
                log.weights.append([stacked[run] for stacked in weights])
            values = {
                "step": step,
                "training_loss": None
                if training_losses is None
                else float(training_losses[run]),
            }
            values.update(
                {key: float(value[run]) for key, value in evaluations.items()}
            )
            if self.extras[run]:
                for variable, stacked in zip(self._trainable, weights):
                    variable.assign(stacked[run])
                values.update(
                    {name: fn(self.model) for name, fn in self.extras[run].items()}
                )
            for key, value in values.items():
                log.series.setdefault(key, []).append(value)

    def train(self, steps, callbacks=()):
        """Trains every run until optimizer step `steps` (a multiple of
        `steps_per_call`); returns one log per run, each with `series`
        as `keras_nalm.engine.EvaluationLog` records it (the step, the
        mean training loss of each call, the evaluations and extras,
        before training and after every call) and `weights` (with
        `keep_weights`).

        `callbacks`: Keras callbacks for every run alike (a list), or one
        list per run, where they keep state of their own (the iNALU's).
        Those with `graph_value_at`, updated every batch
        (`RegularizerWarmup`, `BetaGrowth`, `INALURegularizerSwitch`),
        set their control values inside the loop before every step, each
        run's from its own state. Every callback's hooks are called for
        its run at the calls' ends, each call an epoch of one batch, as
        `InGraphTrainer.fit` has them, with logs of the run's mean
        training loss (`"loss"`) and its evaluations (`"{set}_{key}"`),
        through a view of that run (`model`, `optimizer`, ...): what they
        change (`INALUReinitializer`'s fresh weights, zeroed moments) is
        that run's alone."""
        check_positive_int("steps", steps)
        if steps % self.steps_per_call:
            raise ValueError(
                f"steps={steps} must be a multiple of "
                f"steps_per_call={self.steps_per_call}."
            )
        per_run = self._callbacks_per_run(callbacks)
        self._adopt_schedules(per_run)
        train, evaluate = self._compiled_calls()
        logs = [types.SimpleNamespace(series={}, weights=[]) for _ in self.seeds]
        views = [_RunView(self, run) for run in range(self.size)]
        self._hooks(per_run, views, lambda c, run: c.on_train_begin())
        self._hooks(per_run, views, _beginning(0))
        # before training without XLA, as InGraphTrainer evaluates then
        self._record(logs, None, self._evaluations())
        epoch = 0
        while int(self.optimizer.iterations.numpy()) < steps:
            losses = train().numpy()
            evaluations = {key: value.numpy() for key, value in evaluate().items()}
            self._record(logs, losses, evaluations)
            ended = _ending(epoch, losses, evaluations)
            epoch += 1
            if int(self.optimizer.iterations.numpy()) < steps:
                self._hooks(per_run, views, ended, _beginning(epoch))
            else:
                self._hooks(per_run, views, ended, _train_ending(ended))
        return logs

    def _callbacks_per_run(self, callbacks):
        callbacks = list(callbacks)
        if callbacks and all(isinstance(c, (list, tuple)) for c in callbacks):
            if len(callbacks) != self.size:
                raise ValueError(
                    f"{len(callbacks)} lists of callbacks for {self.size} runs: "
                    "give one list per run, or one list for all."
                )
            return [list(run_callbacks) for run_callbacks in callbacks]
        return [callbacks] * self.size

    def _adopt_schedules(self, per_run):
        """The schedules of the runs' callbacks, grouped by position: one
        callback when every run has the same, else one per run. Equal to
        the compiled ones in class and configuration, the new callbacks
        take over the compiled ones' graph state (`adopt_graph_state`);
        else the calls are compiled anew."""
        chosen = [[c for c in callbacks if is_schedule(c)] for callbacks in per_run]
        positions = {len(run) for run in chosen}
        if len(positions) != 1:
            raise ValueError("Every run needs the same schedules.")
        indices = {id(v): i for i, v in enumerate(self._controls)}
        schedules, program = [], []
        for group in zip(*chosen):
            group = group[:1] if all(c is group[0] for c in group) else group
            targets = group[0].target_variables(self.model)
            programs = {
                json.dumps(_program_of([(c, targets)]), default=repr) for c in group
            }
            if len(programs) != 1:
                raise ValueError(
                    "The runs' schedules differ in class or configuration."
                )
            schedules.append((group, tuple(indices[id(v)] for v in targets)))
            program.append((len(group), programs.pop()))
        if program == self._program:
            for (group, _), (compiled, _) in zip(schedules, self._schedules):
                for callback, old in zip(group, compiled):
                    if callback is not old:
                        callback.adopt_graph_state(old)
            # the compiled program reads the old callbacks' graph state
            return
        self._program, self._schedules, self._calls = program, schedules, None

    def _hooks(self, per_run, views, *hooks):
        """Calls `hook(callback, run)` for each run's callbacks, the run's
        weights and controls in the model, and keeps what they change."""
        if not any(per_run):
            return
        weights = [w.numpy() for w in self.weights]
        controls = [c.numpy() for c in self.controls]
        for run, callbacks in enumerate(per_run):
            if not callbacks:
                continue
            _load(self._trainable, weights, run)
            _load(self._controls, controls, run)
            for hook in hooks:
                for callback in callbacks:
                    callback.set_model(views[run])
                    hook(callback, run)
            _store(self._trainable, weights, run)
            _store(self._controls, controls, run)
        for stacked, values in zip(self.weights + self.controls, weights + controls):
            stacked.assign(values)


def _beginning(epoch):
    def hook(callback, run):
        callback.on_epoch_begin(epoch)
        callback.on_train_batch_begin(0)

    return hook


def _ending(epoch, losses, evaluations):
    """The hooks of a call's end, with the run's logs (`hook.logs(run)`)."""

    def logs(run):
        found = {"loss": float(losses[run])}
        found.update({key: float(value[run]) for key, value in evaluations.items()})
        return found

    def hook(callback, run):
        run_logs = logs(run)
        callback.on_train_batch_end(0, run_logs)
        callback.on_epoch_end(epoch, run_logs)

    hook.logs = logs
    return hook


def _train_ending(ended):
    def hook(callback, run):
        callback.on_train_end(ended.logs(run))

    return hook


def _load(variables, stacked_values, run):
    for variable, values in zip(variables, stacked_values):
        variable.assign(values[run])


def _store(variables, stacked_values, run):
    for variable, values in zip(variables, stacked_values):
        values[run] = variable.numpy()


class _RunView(MultiStepModel):
    """One run of a population as its callbacks see it: the model (holding
    the run's weights and controls while they are called), the
    population's step, and the run's own optimizer slots."""

    def __init__(self, trainer, run):
        self.model = trainer.model
        self.steps_per_call = trainer.steps_per_call
        self.optimizer = _RunOptimizer(trainer, run)
        keys = ["loss", *trainer.metric_functions]
        self.point_log_keys = tuple(
            f"{name}_{key}" for name in trainer.evaluation_sets for key in keys
        )

    @property
    def trainable_variables(self):
        return self.model.trainable_variables

    @property
    def non_trainable_variables(self):
        return self.model.non_trainable_variables


class _RunOptimizer:
    """The population's optimizer as one run's: its step counter, and its
    slots as that run's slices, named after the model's variables (as a
    Keras optimizer names them), so that `reset_optimizer_state` zeroes
    that run's moments alone."""

    def __init__(self, trainer, run):
        optimizer = trainer.optimizer
        self.iterations = optimizer.iterations
        self.learning_rate = optimizer.learning_rate
        self.built = True
        owners = types.SimpleNamespace(
            trainable_variables=trainer.weights, optimizer=optimizer
        )
        self.variables = []
        for stacked, variable in zip(trainer.weights, trainer._trainable):
            prefix = len(stacked.path.replace("/", "_"))
            for slot in optimizer_variables_of(owners, [stacked]):
                name = variable.path.replace("/", "_") + slot.name[prefix:]
                self.variables.append(_RunSlot(name, slot, run))


class _RunSlot:
    """Run `run`'s slice of an optimizer slot, as a variable to assign."""

    def __init__(self, name, slot, run):
        self.name, self.slot, self.run = name, slot, run
        self.shape, self.dtype = tuple(slot.shape[1:]), slot.dtype

    def assign(self, value):
        values = self.slot.numpy()
        values[self.run] = np.asarray(value)
        self.slot.assign(values)


def _stacked_variables(variables, size, prefix):
    """Zero variables [size, ...] in the shapes of `variables`."""
    return [
        keras.Variable(np.zeros((size, *v.shape), v.dtype), name=f"{prefix}_{i}")
        for i, v in enumerate(variables)
    ]


def _assigned(variables, values):
    """`values` (nested dicts and tuples of arrays) as new variables, or
    assigned to `variables`, the same structure held before."""
    if values is None:
        return None
    if variables is None:
        return tf.nest.map_structure(_variable, values)
    tf.nest.map_structure(lambda v, a: v.assign(a), variables, values)
    return variables


def _stacked_data(sources):
    """{name: array [R, ...]}: every run's source data, stacked."""
    keys = {source.program_key for source in sources}
    if len(keys) != 1:
        raise ValueError(
            f"The runs' sources are of {len(keys)} programs; a population is one."
        )
    per_run = [source.data() for source in sources]
    return {
        name: np.stack([np.asarray(data[name]) for data in per_run])
        for name in per_run[0]
    }


def _stacked_sets(evaluation_data):
    """{name: (x [R, ...], y [R, ...])} of float32, from one dict per run."""
    names = list(evaluation_data[0])
    for data in evaluation_data:
        if list(data) != names:
            raise ValueError("Every run needs evaluation sets of the same names.")
    return {
        name: tuple(
            _float32(
                np.stack([np.asarray(data[name][part]) for data in evaluation_data])
            )
            for part in (0, 1)
        )
        for name in names
    }


def _float32(array):
    """Floats as float32, as the engine holds its evaluation sets."""
    if np.issubdtype(array.dtype, np.floating):
        return array.astype(np.float32)
    return array


def _variable(array):
    return tf.Variable(array, trainable=False)
