"""One training run with the in-graph engine: the part of the runs that
needs TensorFlow (`benchmarks.core.runs` imports it when it trains).

`train_run(spec, seed)` trains a `benchmarks.core.runs.RunSpec` with
`keras_nalm.engine.InGraphTrainer` and returns the source's judgement.
Trainers are cached per process and reused for every seed with the same
compiled program: between runs only the weights (re-drawn with
`keras_nalm.utils.reinitialize_model`), the optimizer state, the seed, the
evaluation sets and the source's variables change.
"""

import dataclasses
import functools
import json
import math
import sys
import time
from typing import TYPE_CHECKING
from typing import Callable

import keras

from benchmarks.core import resume
from benchmarks.core.runs import run_directory
from benchmarks.core.stats import diverged_at
from keras_nalm.callbacks.steps import is_schedule
from keras_nalm.describe import describe
from keras_nalm.layers import UnitBase
from keras_nalm.utils import reinitialize_model
from keras_nalm.utils import walk_layers

if TYPE_CHECKING:
    from keras_nalm.engine.trainer import EvaluationLog

_TRAINERS = {}
_POPULATIONS = {}


def _trainer(spec, source, seed, evaluation):
    """The process's trainer of the spec's program, set for a new run: its
    seed and evaluation sets, fresh weights and optimizer, and the units'
    control variables at their first values (a previous run's would
    otherwise show before the callbacks set them)."""
    from keras_nalm.engine.trainer import InGraphTrainer

    key = (spec.program_key, spec.jit_compile, source.program_key)
    if key not in _TRAINERS:
        keras.utils.set_random_seed(seed)
        trainer = InGraphTrainer(
            spec.build_model(), source, seed, spec.steps_per_call, evaluation
        )
        trainer.compile(optimizer=spec.make_optimizer(), jit_compile=spec.jit_compile)
        _TRAINERS.clear()  # one live program per process keeps memory flat
        _TRAINERS[key] = trainer, control_values(trainer.model)
    trainer, first_controls = _TRAINERS[key]
    trainer.source.update_from(source)
    trainer.restart(seed, evaluation)
    initializer(spec)(trainer.model, seed)
    for variable in _control_variables(trainer.model):
        variable.assign(first_controls[variable.path])
    return trainer


def initializer(spec):
    """`function(model, seed)` that draws a run's weights into `model`:
    `reinitialize_model`, or, with `spec.redraw_by_building`, the weights
    of the model built anew under the seed."""
    if not spec.redraw_by_building:
        return reinitialize_model

    def redraw(model, seed):
        keras.utils.set_random_seed(seed)
        model.set_weights(spec.build_model().get_weights())

    return redraw


def _control_variables(model):
    return [
        variable
        for layer in walk_layers(model)
        if isinstance(layer, UnitBase)
        for variable in layer.non_trainable_weights
        if tuple(variable.shape) == ()
    ]


def control_values(model):
    """{path: value} of the units' control variables (the sparsity
    regularizer's λ, R_z's λ_z, the NPU's β, ...) in `model`."""
    return {
        variable.path: float(keras.ops.convert_to_numpy(variable))
        for variable in _control_variables(model)
    }


def _scalars(series):
    """(name, step, value) of the log's numbers, and of its dicts' numbers
    as `name/key`."""
    for name, values in series.items():
        if name == "step":
            continue
        for step, value in zip(series["step"], values):
            items = value.items() if isinstance(value, dict) else [(None, value)]
            for key, number in items:
                if isinstance(number, (int, float)) and math.isfinite(number):
                    yield (name if key is None else f"{name}/{key}"), step, number


def write_tensorboard(directory, config, log, model):
    """A run's logged series as TensorBoard scalars in `directory`, with its
    configuration and, when `keras_nalm.describe` reads the model (None:
    no model), the learned expression as text."""
    import tensorflow as tf

    lines = []
    try:
        if model is not None:
            describe(model, print_fn=lines.append)
    except (ValueError, TypeError):
        lines = []
    writer = tf.summary.create_file_writer(directory)
    with writer.as_default():
        tf.summary.text("config", json.dumps(config, sort_keys=True), step=0)
        for name, step, value in _scalars(log.series):
            tf.summary.scalar(name, value, step=step)
        if lines:
            tf.summary.text("expression", "\n".join(lines), step=log.series["step"][-1])
    writer.close()


@dataclasses.dataclass
class Run:
    """A run set up to train: `trainer.fit(steps=spec.steps, **fit_options)`
    trains it, then `finish()` returns the source's judgement plus
    `diverged_at` (the first logged step whose training loss is not
    finite, `stats.diverged_at`; None) and `wall_seconds` (and hands the
    log to `write_log`, removes the checkpoint)."""

    trainer: object
    log: "EvaluationLog"
    fit_options: dict
    run_extras: dict
    elapsed: Callable
    write_log: Callable = None
    saver: object = None

    def finish(self):
        result = self.trainer.source.judge(self.trainer.model, self.log)
        result.update(finishing(result, self.log.series, self.run_extras))
        result["wall_seconds"] = self.elapsed()
        if self.write_log is not None:
            self.write_log(self.log, self.trainer.model)
        if self.saver is not None:
            self.saver.remove()
        return result


def start_run(spec, seed, write_log=None, checkpoint=None):
    """The `Run` of one seed, set up to train.
    `write_log(log, model)`, when given, receives the run's evaluation log
    (which then also records the units' control variables) and model.
    `checkpoint`, a file, makes the run resumable
    (`benchmarks.core.resume`): it is saved there at every evaluation,
    a run stopped midway continues from it, and it is removed once the run
    ends. A run whose callbacks keep state of their own is not saved."""
    from keras_nalm.engine.trainer import EvaluationLog

    began = time.perf_counter()
    source = spec.make_source(seed)
    evaluation = source.evaluation_data(seed)
    trainer = _trainer(spec, source, seed, evaluation)
    run_extras = spec.make_log_extras(evaluation)
    extras = {**source.log_extras, **run_extras}
    if write_log is not None:
        extras["controls"] = control_values
    callbacks = spec.make_callbacks(seed)
    checkpoint = _resumable(checkpoint, callbacks)
    restored = resume.load(checkpoint, seed, spec.steps)
    log = EvaluationLog(extras, series=restored.series)

    def elapsed():
        return restored.elapsed + time.perf_counter() - began

    callbacks = [log, *callbacks]
    saver = None
    if checkpoint is not None:
        saver = resume.RunCheckpoint(
            checkpoint, seed, spec.steps, log, elapsed, restored
        )
        callbacks.insert(0, saver)  # restores before the others begin
    fit_options = {
        "steps_per_epoch": spec.steps_per_call,
        "initial_epoch": restored.epoch,
        "callbacks": callbacks,
        "verbose": 0,
    }
    return Run(trainer, log, fit_options, run_extras, elapsed, write_log, saver)


def train_run(spec, seed, write_log=None, checkpoint=None):
    """Trains one seed (`start_run`); returns the source's judgement plus
    `wall_seconds`."""
    run = start_run(spec, seed, write_log, checkpoint)
    run.trainer.fit(steps=spec.steps, **run.fit_options)
    return run.finish()


def population_callbacks(callbacks):
    """The callbacks, when a population can call them for one run
    (`keras_nalm.callbacks`': the schedules, iNALU's re-initialisation),
    else None: a run with a callback of another kind trains alone."""
    for callback in callbacks:
        if not type(callback).__module__.startswith("keras_nalm.callbacks"):
            return None
    return list(callbacks)


def _schedule_program(callbacks):
    """What of the callbacks a population's compiled program holds: the
    class and configuration of those set inside its loop."""
    return [
        (type(c), json.dumps(c.get_config(), sort_keys=True, default=repr))
        for c in callbacks
        if is_schedule(c)
    ]


@dataclasses.dataclass(eq=False)
class PopulationRun:
    """One run of a population: its spec, seed, source, evaluation sets,
    log extras (the source's and the spec's `run_extras`) and callbacks."""

    spec: object
    seed: int
    source: object
    evaluation: dict
    extras: dict
    run_extras: dict
    callbacks: list

    @classmethod
    def of(cls, spec, seed):
        source = spec.make_source(seed)
        evaluation = source.evaluation_data(seed)
        run_extras = spec.make_log_extras(evaluation)
        extras = {**source.log_extras, **run_extras}
        callbacks = population_callbacks(spec.make_callbacks(seed))
        return cls(spec, seed, source, evaluation, extras, run_extras, callbacks)

    @property
    def program(self):
        """What runs trained together must share."""
        spec = self.spec
        schedules = (
            None if self.callbacks is None else _schedule_program(self.callbacks)
        )
        return (
            spec.program_key,
            self.source.program_key,
            spec.steps,
            spec.steps_per_call,
            spec.jit_compile,
            spec.redraw_by_building,
            json.dumps(schedules, default=repr),
        )


def populations(runs):
    """`runs` (`PopulationRun`s) as lists of one program each, in order;
    a run that cannot train in a population (`population_callbacks`)
    alone."""
    groups = {}
    for index, run in enumerate(runs):
        key = ("alone", index) if run.callbacks is None else run.program
        groups.setdefault(key, []).append(run)
    return list(groups.values())


def train_population(runs, trainer_class=None, initialize=None):
    """Trains `runs` (`PopulationRun`s of one program) as one population
    (`trainer_class`, by default `keras_nalm.engine.PopulationTrainer`;
    `keras_nalm.jax_population.JaxPopulationTrainer` on JAX), drawing the
    runs' weights with `initialize(model, seed)` (default: as the runs
    alone draw them, `initializer(spec)`); returns each
    run's result as `Run.finish` does, with `population` (their number)
    and `wall_seconds` (the population's wall time shared equally).
    Where every source judges the log's extras at its best step only
    (`extras_at_best_step`), they are computed there alone, from the
    weights kept at each evaluation: the same results, without R extras
    at every evaluation."""
    if trainer_class is None:
        from keras_nalm.engine.population import PopulationTrainer as trainer_class

    began = time.perf_counter()
    spec = runs[0].spec
    seeds = [run.seed for run in runs]
    sources = [run.source for run in runs]
    evaluation = [run.evaluation for run in runs]
    at_best = all(getattr(s, "extras_at_best_step", False) for s in sources)
    extras = [{} if at_best else run.extras for run in runs]
    initialize = initialize or initializer(spec)
    key = (trainer_class, initialize, runs[0].program, len(runs), at_best)
    if key in _POPULATIONS:
        trainer = _POPULATIONS[key]
        trainer.restart(seeds, sources, evaluation, extras)
    else:
        keras.utils.set_random_seed(seeds[0])
        trainer = trainer_class(
            spec.build_model,
            sources,
            seeds,
            spec.make_optimizer,
            spec.steps_per_call,
            evaluation,
            initialize=initialize,
            extras=extras,
            keep_weights=at_best,
        )
        _POPULATIONS.clear()  # one live program per process keeps memory flat
        _POPULATIONS[key] = trainer
    logs = trainer.train(spec.steps, [run.callbacks for run in runs])
    share = (time.perf_counter() - began) / len(runs)
    results = []
    for index, (run, log) in enumerate(zip(runs, logs)):
        model = trainer.model_of(index)
        result = _judged(run, log, model) if at_best else run.source.judge(model, log)
        result.update(finishing(result, log.series, run.run_extras))
        result.update(population=len(runs), wall_seconds=share)
        results.append(result)
    return results


def _judged(run, log, model):
    """The source's judgement of a run whose log holds no extras yet: the
    extras are computed at the judged best step (the last where it names
    none) from the weights kept there, and the run judged again with
    them; the model is left with the run's last weights."""
    series = log.series
    for name in run.extras:
        series[name] = [None] * len(series["step"])
    best_step = run.source.judge(model, log).get("best_step")
    index = -1 if best_step is None else series["step"].index(best_step)
    last = [variable.numpy() for variable in model.trainable_variables]
    for variable, value in zip(model.trainable_variables, log.weights[index]):
        variable.assign(value)
    for name, function in run.extras.items():
        series[name][index] = function(model)
    for variable, value in zip(model.trainable_variables, last):
        variable.assign(value)
    return run.source.judge(model, log)


def logging_for(task, config, seed, tensorboard=None, checkpoints=None):
    """(write_log, checkpoint) of a job: its TensorBoard series under
    `tensorboard` and its checkpoint under `checkpoints` (`run_directory`),
    None where the directory is None."""
    write_log = tensorboard and functools.partial(
        write_tensorboard, run_directory(tensorboard, task, config, seed), config
    )
    checkpoint = checkpoints and (
        run_directory(checkpoints, task, config, seed) + ".npz"
    )
    return write_log, checkpoint


def _resumable(checkpoint, callbacks):
    """`checkpoint`, or None (with a warning) when the run's callbacks keep
    state that a checkpoint does not hold."""
    if checkpoint is None or resume.resumable(callbacks):
        return checkpoint
    names = ", ".join(sorted({type(callback).__name__ for callback in callbacks}))
    print(
        f"warning: {checkpoint} not written: the run's callbacks ({names}) "
        "cannot resume midway",
        file=sys.stderr,
    )
    return None


def finishing(result, series, run_extras):
    """What a judged run's `result` gets from its log's `series`:
    `diverged_at` (`stats.diverged_at`) and each of `run_extras` at the
    judged best step."""
    found = {"diverged_at": diverged_at(series["step"], series["training_loss"])}
    found.update(_at_best_step(series, result.get("best_step"), run_extras))
    return found


def _at_best_step(series, best_step, names):
    """The logged value of each of `names` at `best_step` (None: the last)."""
    index = -1 if best_step is None else series["step"].index(best_step)
    return {name: series[name][index] for name in names}
