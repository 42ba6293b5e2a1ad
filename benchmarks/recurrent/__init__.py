"""Trask et al.'s recurrent arithmetic task (2018, app. B, tables 8 and 9).

- runner.py: `python -m benchmarks.recurrent` (its `--task mnist_*` hands over
  to `benchmarks.sequential_mnist`)
- source.py: the sequences' batch source
- report.py: tables 8 and 9 beside ours
- published/, results/, RESULTS.md
"""
