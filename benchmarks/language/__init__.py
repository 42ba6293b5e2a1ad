"""Trask et al.'s language to number (2018, app. D, table 11) and program
evaluation (app. E, figure 6).

- task.py: the task, top to bottom: its command line, its jobs and `TASK`
  (`python -m benchmarks.language`); models.py: the steps and models
- runner.py: each job's model and run (TensorFlow)
- vocabulary.py: number words and programs (plain Python); numbers.py,
  programs.py: their batch sources
- report.py, programs_report.py: the tables and figures; running_prediction.py:
  the running predictions of a trained model
- published/, results/, RESULTS.md
"""
