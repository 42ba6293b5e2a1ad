"""Keras Tuner searches over the tasks' models.

- runner.py: `python -m benchmarks.tune`
- hypermodels.py: the arithmetic task as a hyper-model
- results/, RESULTS.md
"""
