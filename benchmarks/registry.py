"""The one registry of the papers' tasks: `TASKS`, the `Task` of each
task folder.

Each folder `benchmarks/<folder>/` declares its task once, as `TASK` in
its `task` module (`benchmarks.core.task.Task`, which imports no
TensorFlow). `benchmarks.reproduce`, `benchmarks.report` and
`benchmarks.claims` find a row's task here by the row's `task` field. A
new task folder is one line of `TASKS`.
"""

from benchmarks.arithmetic import task as arithmetic
from benchmarks.identity import task as identity
from benchmarks.language import task as language
from benchmarks.nru import task as nru
from benchmarks.recurrent import task as recurrent
from benchmarks.sequential_mnist import task as sequential_mnist
from benchmarks.single_module import task as single_module
from benchmarks.static_arithmetic.success import Published

TASKS = (
    single_module.TASK,
    arithmetic.TASK,
    identity.TASK,
    recurrent.TASK,
    sequential_mnist.TASK,
    language.TASK,
    nru.TASK,
)


def tasks():
    """{task (the rows' `task` field): its folder}."""
    return {row_task: task.name for task in TASKS for row_task in task.rows}


def probes():
    """{task of a probe's rows: its folder} (`Task.probes`)."""
    return {probe: task.name for task in TASKS for probe in task.probes}


def task_of(row_task):
    """The `Task` that writes rows of `row_task`, or a clear error naming
    the known tasks."""
    for task in TASKS:
        if row_task in task.rows:
            return task
    if row_task in probes():
        raise ValueError(
            f"{row_task!r} rows are a probe's of benchmarks/{probes()[row_task]}/, "
            "not a training run's: no sweep or report makes them."
        )
    raise ValueError(f"Unknown task {row_task!r}; known: {sorted(tasks())}.")


def published():
    """The papers' tables of every task that declares them, as one
    `benchmarks.static_arithmetic.success.Published`."""
    return Published([table for task in TASKS for table in task.published])


def report_for(row_task):
    """The `TaskReport` of the rows of `row_task`."""
    return task_of(row_task).report_for(row_task)
