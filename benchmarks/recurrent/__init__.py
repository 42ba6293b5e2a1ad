"""Trask et al.'s recurrent arithmetic task (2018, app. B, tables 8 and 9).

- task.py: the task, top to bottom: its command line, its jobs and `TASK`
  (`python -m benchmarks.recurrent`); `evaluate_unit(MyUnit, ...)`, a unit
  or cell of one's own through the task from Python; models.py: table 9's
  models
- runner.py: each job's run (TensorFlow); source.py: the sequences' batch
  source
- report.py: tables 8 and 9 beside ours; claims.py: the results page's
  claims of its own
- published/, results/, RESULTS.md
"""

from benchmarks.recurrent.task import evaluate_unit

__all__ = ["evaluate_unit"]
