"""The report builders of the tasks, registered by task name.

`benchmarks.report` groups the rows of result files by their `task` and
hands each group to the builder registered for it (`report_for`).
"""

import dataclasses
from typing import Callable

REGISTRY = {}


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


def register(tasks, markdown, figures=None):
    """Registers the builders of the rows of `tasks` (reported together)."""
    report = TaskReport(tuple(tasks), markdown, figures)
    for task in report.tasks:
        REGISTRY[task] = report


def report_for(task):
    """The `TaskReport` of `task`, or a clear error."""
    if task not in REGISTRY:
        raise ValueError(
            f"No report is registered for task {task!r}; known: {sorted(REGISTRY)}."
        )
    return REGISTRY[task]
