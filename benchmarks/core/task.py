"""A task: one value, built from references to its folder's functions and
tables.

Each task folder ends its `task.py` with `TASK = Task(...)`, and
`benchmarks.registry.TASKS` lists them. `python -m benchmarks.<folder>`
is `benchmarks.core.sweep.main(TASK)`: it parses the command line
(`parse_arguments`), lists the jobs (`jobs`), runs the sweep, which hands
the jobs to `train`, and appends the rows. A task's module imports no
TensorFlow: what needs it is imported inside the function that trains
(`benchmarks.core.runs.Engine` does so for the tasks trained by the
engine), so that `--help`
and a mistake answer before TensorFlow loads.
"""

import dataclasses
from typing import Callable


@dataclasses.dataclass(frozen=True)
class TaskReport:
    """How to report the rows of some tasks, together.

    `markdown(rows)` returns the tables (markdown) of the rows of `tasks`;
    `figures(rows, directory)` writes figures and returns their paths
    (None: no figures).
    """

    tasks: tuple
    markdown: Callable
    figures: Callable = None


def task_of_arguments(args):
    """The rows' task that a command line names (`--task`)."""
    return args.task


def no_units(args):
    return ()


@dataclasses.dataclass(frozen=True)
class Task:
    """A task folder's task.

    `name` is its folder (`python -m benchmarks.<name>`); `rows` the `task`
    values of the rows it writes. `parse_arguments(argv)` reads its
    command line (no TensorFlow); `jobs(args)` lists the parsed command
    line's jobs (`benchmarks.core.sweep.Job`); `train(task, jobs,
    tensorboard=None, checkpoints=None)` trains jobs of one compiled
    program and returns their rows, of the rows' `task` (a module-level
    function or a `benchmarks.core.runs.Engine`: the sweep sends it to its workers).
    `row_task(args)` is the rows' task of a command line (default: its
    `--task`); an output may hold rows of that task only, or with
    `mixed_outputs` of any of `rows`. `own_units(args)`: the units of
    one's own the command line names (`benchmarks.core.units`), each built
    once before any run. `reports` its reports (`TaskReport`s),
    `published` the papers' tables they read
    (`benchmarks.static_arithmetic.success.PublishedTask`), `claims` the
    claims its results pages make over its rows ({name:
    `benchmarks.core.claim_rows.Claim`}), `named` the named claims of
    the pages over its rows ({name: expression}, `benchmarks.claims`),
    `probes` the rows' tasks of its
    probes (a measurement of its models, no training run, which no sweep
    reruns).
    """

    name: str
    rows: tuple
    parse_arguments: Callable
    jobs: Callable
    train: Callable
    row_task: Callable = task_of_arguments
    mixed_outputs: bool = False
    own_units: Callable = no_units
    reports: tuple = ()
    published: tuple = ()
    claims: dict = dataclasses.field(default_factory=dict)
    named: dict = dataclasses.field(default_factory=dict)
    probes: tuple = ()

    def report_for(self, task):
        """The `TaskReport` of the rows' `task`, or a clear error."""
        for report in self.reports:
            if task in report.tasks:
                return report
        raise ValueError(f"benchmarks/{self.name}/ has no report of task {task!r}.")
