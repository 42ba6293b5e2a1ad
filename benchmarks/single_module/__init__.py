"""Mistry et al.'s Single Module Arithmetic Task (2022, §6.5, tables 9-12,
figures 14-20).

- task.py: the task, top to bottom: its command line, its jobs, each
  job's run and `TASK` (`python -m benchmarks.single_module`);
  `evaluate_unit(MyUnit, ...)`, a unit of one's own through the task
  from Python
- modules.py: the survey's modules and their protocols (tables 5-8)
- report.py: the tables and figures (`benchmarks.static_arithmetic.success`);
  claims.py: the results page's claims of its own
- since_survey.py: the units published since the survey that take arguments
- published/: the survey's tables
- results/: the rows, reports and figures; RESULTS.md: what they show
"""

from benchmarks.single_module.task import evaluate_unit

__all__ = ["evaluate_unit"]
