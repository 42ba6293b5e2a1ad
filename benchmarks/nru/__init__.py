"""Chandar et al.'s NRU paper (2019): copying memory, variable copy and
denoising (figures 1-4), permuted sequential MNIST (table 3) and character-level
Penn Treebank (table 2).

- task.py: the task: its command line and `TASK` (`python -m benchmarks.nru`);
  `evaluate_unit(MyCell, ...)`, a unit or cell of one's own through a task
  from Python; definitions.py: the tasks and models
- runner.py: the jobs and each job's run (TensorFlow); ptb.py: the Penn
  Treebank runs (state carried, `model.fit`)
- pixels.py, corpus.py: the batch sources (the synthetic tasks' are shared:
  `benchmarks.data.sequences`)
- report.py, tables.py: the figures and tables
- published/, results/, RESULTS.md
"""

from benchmarks.nru.task import evaluate_unit

__all__ = ["evaluate_unit"]
