"""Trask et al.'s identity extrapolation (2018, §1, app. A, table 5).

- runner.py: `python -m benchmarks.identity`
- report.py: table 5 beside ours
- published/, results/, RESULTS.md
"""
