"""The one registry of the papers' tasks: the task folders.

Each folder `benchmarks/<folder>/` declares in its `task` module (which
imports no TensorFlow) the rows' tasks it runs (`TASKS`); its `runner`
trains them (`run_chunk_for(task)`) and its `report` module lists their
reports (`REPORTS`). `benchmarks.reproduce`, `benchmarks.report` and
`benchmarks.claims` find every task through here, importing a task's
runner or report only when one of its rows needs it, so that no runner
imports another. A new task folder is one line of `TASK_FOLDERS`.
"""

import importlib

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


def _module(folder, name):
    return importlib.import_module(f"benchmarks.{folder}.{name}")


def tasks():
    """{task (the rows' `task` field): its folder}, from the folders'
    `task.TASKS`."""
    return {
        task: folder
        for folder in TASK_FOLDERS
        for task in _module(folder, "task").TASKS
    }


def folder_of(task):
    """The folder of `task`, or a clear error naming the known tasks."""
    known = tasks()
    if task not in known:
        raise ValueError(f"Unknown task {task!r}; known: {sorted(known)}.")
    return known[task]


def runner(task):
    """The runner module of `task` (`run`, `main`, `run_chunk_for`)."""
    return _module(folder_of(task), "runner")


def run_chunk_for(task):
    """The worker entry point of `task`'s sweeps: a list of jobs -> rows."""
    return runner(task).run_chunk_for(task)


def published():
    """The papers' tables of every task whose folder's report declares them
    (`report.PUBLISHED`), as one `benchmarks.core.success.Published`."""
    from benchmarks.core.success import Published

    declared = []
    for folder in TASK_FOLDERS:
        declared += getattr(_module(folder, "report"), "PUBLISHED", ())
    return Published(declared)


def report_for(task):
    """The `TaskReport` of `task`, among its folder's `report.REPORTS`."""
    return report_in(_module(folder_of(task), "report").REPORTS, task)
