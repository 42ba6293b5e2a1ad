"""The one registry of the papers' tasks: which folder runs and reports each.

A row's `task` field names its task; `TASK_FOLDERS` maps it to the folder
(`benchmarks/<folder>/`) whose `runner` trains it (`run_chunk_for(task)`)
and whose `report` module lists its report (`REPORTS`). `benchmarks.reproduce`,
`benchmarks.report` and `benchmarks.claims` find every task through here,
importing a task's folder only when one of its rows needs it, so that no
runner imports another.
"""

import importlib

from benchmarks.core.report_registry import report_in

#: task (the rows' `task` field) -> its folder in `benchmarks/`.
TASK_FOLDERS = {
    "single_module": "single_module",
    "arithmetic": "arithmetic",
    "function": "arithmetic",
    "trask_static": "arithmetic",
    "identity": "identity",
    "recurrent_trask": "recurrent",
    "mnist_product": "sequential_mnist",
    "mnist_sum": "sequential_mnist",
    "mnist_count": "sequential_mnist",
    "mnist_add": "sequential_mnist",
    "language_to_number": "language",
    "program_add": "language",
    "program_if": "language",
    "copy": "nru",
    "variable_copy": "nru",
    "denoise": "nru",
    "psmnist": "nru",
    "ptb": "nru",
}


def folder_of(task):
    """The folder of `task`, or a clear error naming the known tasks."""
    if task not in TASK_FOLDERS:
        raise ValueError(f"Unknown task {task!r}; known: {sorted(TASK_FOLDERS)}.")
    return TASK_FOLDERS[task]


def _module(task, name):
    return importlib.import_module(f"benchmarks.{folder_of(task)}.{name}")


def runner(task):
    """The runner module of `task` (`main`, `run_spec`, `run_chunk_for`)."""
    return _module(task, "runner")


def run_chunk_for(task):
    """The worker entry point of `task`'s sweeps: a list of jobs -> rows."""
    return runner(task).run_chunk_for(task)


def report_for(task):
    """The `TaskReport` of `task`, among its folder's `report.REPORTS`."""
    return report_in(_module(task, "report").REPORTS, task)
