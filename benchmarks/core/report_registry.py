"""How a task folder reports its rows: `TaskReport`.

Each task folder's `report` module lists its reports as `REPORTS` (a
tuple of `TaskReport`); `benchmarks.registry.report_for(task)` finds the
one of a row's task there. `benchmarks.report` groups the rows of result
files by their `task` and hands each group to its report.
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


def report_in(reports, task):
    """The `TaskReport` of `task` among `reports`, or a clear error."""
    for report in reports:
        if task in report.tasks:
            return report
    raise ValueError(f"No report of task {task!r} among {reports!r}.")
