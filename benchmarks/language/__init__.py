"""Trask et al.'s language to number (2018, app. D, table 11) and program
evaluation (app. E, figure 6).

- runner.py: `python -m benchmarks.language`
- vocabulary.py: number words and programs (plain Python); numbers.py,
  programs.py: their batch sources
- report.py, programs_report.py: the tables and figures; running_prediction.py:
  the running predictions of a trained model
- published/, results/, RESULTS.md
"""
