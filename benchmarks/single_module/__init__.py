"""Mistry et al.'s Single Module Arithmetic Task (2022, §6.5, tables 9-12,
figures 14-20).

- runner.py: `python -m benchmarks.single_module`
- report.py: the tables and figures (`benchmarks.core.success`)
- published/: the survey's tables
- results/: the rows, reports and figures; RESULTS.md: what they show
"""
