"""The runs of a task trained by the in-graph engine.

A `RunSpec` says everything a run needs apart from its seed: the model,
the optimizer, the callbacks, and the batch source, which also judges the
run (`keras_nalm.engine.BatchSource`). A task's `Engine(make_spec)` is its
`Task.train`: it trains each job's `make_spec(config)` and returns the
rows. This module imports no TensorFlow, so that a task's module can
declare its `Engine`; the training itself (`benchmarks.core.training`) is
imported when the first job trains.
"""

import dataclasses
import hashlib
import json
import os
from typing import Callable

from benchmarks.core import rows
from benchmarks.core.arguments import LOG_INTERVAL
from benchmarks.core.arguments import OPTIMIZERS


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


def run_directory(root, task_name, config, seed):
    """`root/task/model-hash/seed_N`: one TensorBoard run per job."""
    name = config.get("model", config.get("module", "run"))
    digest = hashlib.sha1(json.dumps(config, sort_keys=True).encode()).hexdigest()
    return os.path.join(root, task_name, f"{name}-{digest[:8]}", f"seed_{seed}")


@dataclasses.dataclass(frozen=True)
class Engine:
    """`Task.train` of a task trained by the engine: `make_spec(config)`
    gives a job's `RunSpec`; `extra_fields` (a dict) is added to every
    row. `engine(task, jobs, tensorboard=None, checkpoints=None)` trains
    each job (a `sweep.Job`) and returns its row (`rows.Row`, of the rows'
    `task`); `tensorboard` (a directory) receives each run's series,
    `checkpoints` (a directory) each run's checkpoint while it trains,
    from which a stopped run resumes (`run_directory`).

    With `populations=True` (the static tasks), jobs given together train
    as populations of one program each (`training.train_population`),
    unless TensorBoard series or checkpoints are asked for; the sweep
    gives together the jobs of equal `population_key`: one configuration
    but for the seed and the fields of `varies_per_run` (the Single
    Module's ranges)."""

    make_spec: Callable
    extra_fields: dict = dataclasses.field(default_factory=dict)
    populations: bool = False
    varies_per_run: tuple = ()

    def __call__(self, task, jobs, tensorboard=None, checkpoints=None):
        from benchmarks.core import training

        environment = rows.environment()
        if self.populations and len(jobs) > 1 and not (tensorboard or checkpoints):
            return self._populations(task, jobs, environment)
        found = []
        for job in jobs:
            config = dict(job.config)
            spec = self.make_spec(config)
            logs = training.logging_for(
                task, config, job.seed, tensorboard, checkpoints
            )
            run = training.start_run(spec, job.seed, *logs)
            run.trainer.fit(steps=spec.steps, **run.fit_options)
            result = run.finish()
            row = rows.make_row(
                task, config, job.seed, result, self.extra_fields, environment
            )
            found.append(row)
        return found

    def _populations(self, task, jobs, environment):
        """The jobs' rows, trained in populations of one program each
        (`benchmarks.core.training.populations`); a run that cannot be
        in one trains alone."""
        from benchmarks.core import training

        configs = [dict(job.config) for job in jobs]
        runs = [
            training.PopulationRun.of(self.make_spec(config), job.seed)
            for config, job in zip(configs, jobs)
        ]
        results = {}
        for group in training.populations(runs):
            if len(group) == 1 and group[0].callbacks is None:
                index = runs.index(group[0])
                results[index] = training.train_run(group[0].spec, group[0].seed)
                continue
            for run, result in zip(group, training.train_population(group)):
                results[runs.index(run)] = result
        return [
            rows.make_row(
                task, config, job.seed, results[i], self.extra_fields, environment
            )
            for i, (config, job) in enumerate(zip(configs, jobs))
        ]

    def population_key(self, job):
        """Jobs with equal keys may train together: the same configuration
        but for the seed and the fields in `varies_per_run`."""
        config = {
            name: value for name, value in job.config if name not in self.varies_per_run
        }
        return json.dumps(config, sort_keys=True)
