"""Mistry et al.'s Single Module Arithmetic Task (2022, §6.5, tables 9-12,
figures 14-20).

- runner.py: `python -m benchmarks.single_module`; `evaluate_unit(MyUnit, ...)`,
  a unit of one's own through the task from Python
- report.py: the tables and figures (`benchmarks.core.success`)
- published/: the survey's tables
- results/: the rows, reports and figures; RESULTS.md: what they show
"""

from benchmarks.core.units import runner_attributes

__getattr__ = runner_attributes(__name__, ("evaluate_unit",))
