"""One training run of any task with the in-graph engine.

A `RunSpec` says everything a run needs apart from its seed: the model,
the optimizer, the callbacks, and the batch source, which also judges the
run (`keras_nalm.engine.BatchSource`). `train_run(spec, seed)` trains it
with `keras_nalm.engine.InGraphTrainer` and returns the source's
judgement. Trainers are cached per process and reused for every seed with
the same compiled program: between runs only the weights (re-drawn with
`keras_nalm.utils.reinitialize_model`), the optimizer state, the seed, the
evaluation sets and the source's variables change.
"""

import dataclasses
import functools
import hashlib
import json
import math
import os
import sys
import time
from typing import Callable

import keras

from benchmarks.core import resume
from benchmarks.core import rows
from benchmarks.core import sweep
from benchmarks.core import units
from benchmarks.core.arguments import LOG_INTERVAL
from benchmarks.core.arguments import OPTIMIZERS
from keras_nalm.describe import describe
from keras_nalm.engine.trainer import EvaluationLog
from keras_nalm.engine.trainer import InGraphTrainer
from keras_nalm.layers import UnitBase
from keras_nalm.utils import reinitialize_model
from keras_nalm.utils import walk_layers


def optimizer_factory(config, **arguments):
    """A factory of the configuration's optimizer with `arguments` (rows made
    before configurations named one used Keras's Adam)."""
    optimizer = OPTIMIZERS[rows.optimizer_name(config)]
    return lambda: optimizer(**arguments)


def no_callbacks(seed):
    return []


def no_log_extras(evaluation):
    return {}


@dataclasses.dataclass(frozen=True)
class RunSpec:
    """Everything one run needs apart from its seed.

    `build_model()` returns an uncompiled model; `make_source(seed)` the
    run's batch source (which draws the training batches, gives the
    evaluation sets and judges the run); `make_optimizer()` a fresh
    optimizer; `make_callbacks(seed)` the unit-specific callbacks (warm-up,
    beta growth, iNALU); `make_log_extras(evaluation)` further quantities
    to log at every evaluation (`{name: function(model)}`, given the run's
    evaluation sets, e.g. a gate's mean), each recorded in the row at the
    judged `best_step` (its last value when the source judges none).
    `jit_compile=False` runs the training loop as a
    TensorFlow graph without XLA (faster for convolutions on CPU, where
    XLA's are slower than oneDNN's). Runs with equal `program_key` share
    a compiled program (with the source's own `program_key`): everything
    but the seed and the source's variables must then agree.
    `redraw_by_building=True` draws each seed's weights by building the
    model anew under `keras.utils.set_random_seed(seed)` and copying them
    in, for a layer of one's own that `reinitialize_model` cannot redraw
    (its weights' initializers are not attributes it can read).
    """

    program_key: tuple
    build_model: Callable
    make_source: Callable
    make_optimizer: Callable
    steps: int
    make_callbacks: Callable = no_callbacks
    make_log_extras: Callable = no_log_extras
    steps_per_call: int = LOG_INTERVAL
    jit_compile: bool = True
    redraw_by_building: bool = False


_TRAINERS = {}


def _trainer(spec, source, seed, evaluation):
    """The process's trainer of the spec's program, set for a new run: its
    seed and evaluation sets, fresh weights and optimizer, and the units'
    control variables at their first values (a previous run's would
    otherwise show before the callbacks set them)."""
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
    if spec.redraw_by_building:
        keras.utils.set_random_seed(seed)
        trainer.model.set_weights(spec.build_model().get_weights())
    else:
        reinitialize_model(trainer.model, seed)
    for variable in _control_variables(trainer.model):
        variable.assign(first_controls[variable.path])
    return trainer


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


def run_directory(root, task_name, config, seed):
    """`root/task/model-hash/seed_N`: one TensorBoard run per job."""
    name = config.get("model", config.get("module", "run"))
    digest = hashlib.sha1(json.dumps(config, sort_keys=True).encode()).hexdigest()
    return os.path.join(root, task_name, f"{name}-{digest[:8]}", f"seed_{seed}")


def train_run(spec, seed, write_log=None, checkpoint=None):
    """Trains one seed; returns the source's judgement plus `wall_seconds`.
    `write_log(log, model)`, when given, receives the run's evaluation log
    (which then also records the units' control variables) and model.
    `checkpoint`, a file, makes the run resumable
    (`benchmarks.core.resume`): it is saved there at every evaluation,
    a run stopped midway continues from it, and it is removed once the run
    ends. A run whose callbacks keep state of their own is not saved."""
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
    trainer.fit(
        steps=spec.steps,
        steps_per_epoch=spec.steps_per_call,
        initial_epoch=restored.epoch,
        callbacks=callbacks,
        verbose=0,
    )
    result = trainer.source.judge(trainer.model, log)
    result.update(_at_best_step(log.series, result.get("best_step"), run_extras))
    result["wall_seconds"] = elapsed()
    if write_log is not None:
        write_log(log, trainer.model)
    if saver is not None:
        saver.remove()
    return result


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


def _at_best_step(series, best_step, names):
    """The logged value of each of `names` at `best_step` (None: the last)."""
    index = -1 if best_step is None else series["step"].index(best_step)
    return {name: series[name][index] for name in names}


def run_jobs(
    make_spec, task_name, extra_fields, jobs, tensorboard=None, checkpoints=None
):
    """Trains each job (a `sweep.Job`) and returns its row (`rows.Row`).

    `make_spec(config)` gives the job's RunSpec; `extra_fields` (a dict)
    is added to every row; `tensorboard` (a directory) receives each run's
    series (`run_directory`); `checkpoints` (a directory) each run's
    checkpoint while it trains (`run_directory` + `.npz`), from which a
    stopped run resumes. Used through `functools.partial` as a sweep's
    worker entry point.
    """
    environment = rows.environment()

    def run(job):
        config = dict(job.config)
        write_log = tensorboard and functools.partial(
            write_tensorboard,
            run_directory(tensorboard, task_name, config, job.seed),
            config,
        )
        checkpoint = checkpoints and (
            run_directory(checkpoints, task_name, config, job.seed) + ".npz"
        )
        result = train_run(make_spec(config), job.seed, write_log, checkpoint)
        return rows.make_row(
            task_name, config, job.seed, result, extra_fields, environment
        )

    return [run(job) for job in jobs]


def engine_chunk(
    make_spec, task_name, extra_fields=None, tensorboard=None, checkpoints=None
):
    """A sweep's worker entry point (jobs -> rows) for a task trained by the
    engine: `run_jobs` with the task's `make_spec` and `extra_fields`, and
    the command line's `run_options`."""
    return functools.partial(
        run_jobs,
        make_spec,
        task_name,
        extra_fields or {},
        tensorboard=tensorboard,
        checkpoints=checkpoints,
    )


def run_options(args):
    """The worker options of a parsed sweep command line
    (`arguments.add_common_arguments`), for `engine_chunk`."""
    return {"tensorboard": args.tensorboard, "checkpoints": args.checkpoints}


def _task_of_arguments(args):
    return args.task


def _no_own_units(args):
    return ()


@dataclasses.dataclass(frozen=True)
class SweepCommand:
    """A task's command, declared once by its runner: the parsed command
    line -> jobs -> sweep -> rows, the same path for every task.

    `parse_arguments(argv)` is the folder's `cli.parse_arguments`;
    `jobs_for(args)` the jobs (`sweep.Job`); `run_chunk_for(task,
    tensorboard=None, checkpoints=None)` the sweep's worker entry point for
    the rows' `task`, which `row_task(args)` names (default `args.task`);
    `own_units(args)` the units of one's own the command names
    (`benchmarks.core.units`), each built once before any run so that one
    that cannot be used is refused in one line; `tasks` the rows' tasks
    the command runs (default: `row_task(args)` alone), the only ones an
    output it appends to may hold.
    """

    parse_arguments: Callable
    jobs_for: Callable
    run_chunk_for: Callable
    row_task: Callable = _task_of_arguments
    own_units: Callable = _no_own_units
    tasks: tuple = ()

    def run(self, args):
        """Runs the sweep of the parsed command line; returns the exit
        status."""
        # before the jobs, which may build models (the NRU's parameter
        # counts): an in-process sweep's runs then have the one thread of
        # a pool's worker, not TensorFlow's default
        sweep.use_worker_threads()
        units.check_units(self.own_units(args))
        task = self.row_task(args)
        run_chunk = self.run_chunk_for(task, **run_options(args))
        tasks = self.tasks or (task,)
        sweep.run_from_args(self.jobs_for(args), run_chunk, args, tasks)
        return 0

    def main(self, argv=None):
        """The command in this process (`main(["--seeds", "0", ...])`)."""
        return self.run(self.parse_arguments(argv))
