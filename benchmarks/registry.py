"""The one registry of the papers' tasks: the task folders.

Each folder `benchmarks/<folder>/` declares its task once, as `TASK` in
its `task` module (`benchmarks.core.task.Task`, which imports no
TensorFlow): the rows' tasks it writes, its command, its sweeps' worker
entry point, its reports, its published tables and its claims.
`benchmarks.reproduce`, `benchmarks.report` and `benchmarks.claims` find
every task through here, importing a task's runner or report only when
one of its rows needs it, so that no runner imports another. A new task
folder is one line of `TASK_FOLDERS`.
"""

import importlib

from benchmarks.core.lazy import Lazy
from benchmarks.core.report_registry import report_in

TASK_FOLDERS = (
    "single_module",
    "arithmetic",
    "identity",
    "recurrent",
    "sequential_mnist",
    "language",
    "nru",
)
#: The claims of the lab's folders that are no task: the measurements
#: (`speed/`) and the hyper-parameter searches (`tune/`).
OTHER_FOLDER_CLAIMS = (
    Lazy("benchmarks.speed.claims:CLAIMS"),
    Lazy("benchmarks.tune.claims:CLAIMS"),
)


def declared():
    """The `Task` of every folder, in `TASK_FOLDERS`' order."""
    return [
        importlib.import_module(f"benchmarks.{folder}.task").TASK
        for folder in TASK_FOLDERS
    ]


def tasks():
    """{task (the rows' `task` field): its folder}."""
    return {
        task: declaration.folder
        for declaration in declared()
        for task in declaration.rows
    }


def probes():
    """{task of a probe's rows: its folder} (`Task.probes`)."""
    return {
        task: declaration.folder
        for declaration in declared()
        for task in declaration.probes
    }


def task_of(task):
    """The `Task` (folder declaration) that writes rows of `task`, or a
    clear error naming the known tasks."""
    for declaration in declared():
        if task in declaration.rows:
            return declaration
    if task in probes():
        raise ValueError(
            f"{task!r} rows are a probe's of benchmarks/{probes()[task]}/, "
            "not a training run's: no sweep or report makes them."
        )
    raise ValueError(f"Unknown task {task!r}; known: {sorted(tasks())}.")


def folder_of(task):
    """The folder of `task`, or a clear error naming the known tasks."""
    return task_of(task).folder


def run_chunk_for(task):
    """The worker entry point of `task`'s sweeps: a list of jobs -> rows."""
    return task_of(task).run_chunk_for(task)


def published():
    """The papers' tables of every task that declares them, as one
    `benchmarks.core.success.Published`."""
    from benchmarks.core.success import Published

    return Published(
        [
            table
            for declaration in declared()
            if declaration.published is not None
            for table in declaration.published.target()
        ]
    )


def report_for(task):
    """The `TaskReport` of `task`, among its folder's reports."""
    return report_in(task_of(task).reports.target(), task)


def claims():
    """{name: `benchmarks.core.claim_rows.Claim`} that the task folders and
    the other folders (`OTHER_FOLDER_CLAIMS`) declare; a name declared
    twice is refused."""
    declarations = [task.claims for task in declared() if task.claims is not None]
    found = {}
    for declaration in [*declarations, *OTHER_FOLDER_CLAIMS]:
        for name, claim in declaration.target().items():
            if name in found:
                raise ValueError(f"Two folders declare the claim {name!r}.")
            found[name] = claim
    return found
