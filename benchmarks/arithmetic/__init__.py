"""Madsen & Johansen's arithmetic dataset task (2020, §4.1, tables 2, 5, 6,
figures 3, 7-9), their §1.1 function (table 1) and Trask et al.'s static task
(2018, app. B, table 7).

- task.py: the task, top to bottom: its command line, its jobs and `TASK`
  (`python -m benchmarks.arithmetic`, tasks `arithmetic`, `function`,
  `trask_static`); `evaluate_unit(MyUnit, ...)`, a unit of one's own
  through the task from Python
- models.py: table 4's models and the steps; runner.py, layers.py: each
  job's run (TensorFlow)
- report.py, gates.py, varied_parameters.py: the tables and figures;
  claims.py: the results page's claims of its own
- published/: the papers' tables
- results/: the rows, reports and figures; RESULTS.md: what they show
"""

from benchmarks.arithmetic.task import evaluate_unit

__all__ = ["evaluate_unit"]
