"""Madsen & Johansen's arithmetic dataset task (2020, §4.1, tables 2, 5, 6,
figures 3, 7-9), their §1.1 function (table 1) and Trask et al.'s static task
(2018, app. B, table 7).

- runner.py: `python -m benchmarks.arithmetic` (tasks `arithmetic`, `function`,
  `trask_static`); `evaluate_unit(MyUnit, ...)`, a unit of one's own
  through the task from Python
- report.py, gates.py, varied_parameters.py: the tables and figures
- published/: the papers' tables
- results/: the rows, reports and figures; RESULTS.md: what they show
"""

from benchmarks.core.units import runner_attributes

__getattr__ = runner_attributes(__name__, ("evaluate_unit",))
