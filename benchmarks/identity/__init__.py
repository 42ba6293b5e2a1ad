"""Trask et al.'s identity extrapolation (2018, §1, app. A, table 5).

- task.py: the task, top to bottom: its command line, its jobs and `TASK`
  (`python -m benchmarks.identity`); activations.py: table 5's
  non-linearities
- runner.py: the MLPs, their source and judge (TensorFlow)
- report.py: table 5 beside ours; claims.py: the results page's claims
- published/, results/, RESULTS.md
"""
