"""What every population trainer shares, whatever its backend.

A population (`keras_nalm.engine.PopulationTrainer` on TensorFlow,
`keras_nalm.jax_population.JaxPopulationTrainer` on JAX) holds every
variable of one model R times, stacked on a leading run axis, and trains
the R runs in one compiled program. What is not compiled is the same for
both and lives here: drawing each run's weights, stacking its data and
evaluation sets, recording each run's log, grouping the callbacks'
schedules, and calling each run's callbacks through a view of that run.
A backend's subclass gives the compiled calls (`_compiled_calls`), the
initial evaluation (`_evaluations`) and how the stacked data are held
(`_hold`).
"""

import json
import types

import keras
import numpy as np

from keras_nalm._validation import check_positive_int
from keras_nalm.callbacks.steps import MultiStepModel
from keras_nalm.callbacks.steps import is_schedule
from keras_nalm.callbacks.steps import schedule_program
from keras_nalm.utils import optimizer_variables_of
from keras_nalm.utils import reinitialize_model


class Population:
    """The uncompiled part of a population trainer (see the module).

    Subclasses set `backend` and implement `_hold(held, values)` (the
    values, nested dicts and tuples of arrays, held for the compiled
    calls, replacing `held`, the same structure, or None),
    `_evaluations()` ({key: [R] array}, the evaluations before training)
    and `_compiled_calls()` ((train, evaluate): `steps_per_call` steps of
    every run, returning each run's mean training loss; the evaluations).
    """

    backend = None

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
        if keras.backend.backend() != self.backend:
            raise RuntimeError(
                f"{type(self).__name__} needs the {self.backend} backend "
                f"(KERAS_BACKEND={self.backend})."
            )
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
        self.seed_variable = None
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
        self.seed_variable = self._hold(self.seed_variable, np.asarray(seeds, np.int32))
        self.run_data = self._hold(
            self.run_data, _stacked_data(self.sources) if self.sources else None
        )
        sets = _stacked_sets(evaluation_data or [{}] * len(seeds))
        self.evaluation_sets = self._hold(self.evaluation_sets, sets)
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
            losses = np.asarray(train())
            evaluations = {key: np.asarray(value) for key, value in evaluate().items()}
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
                json.dumps(schedule_program([(c, targets)]), default=repr)
                for c in group
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
