"""Chandar et al.'s NRU paper (2019): copying memory, variable copy and
denoising (figures 1-4), permuted sequential MNIST (table 3) and character-level
Penn Treebank (table 2).

- runner.py: `python -m benchmarks.nru`; ptb.py: the Penn Treebank runs (state
  carried, `model.fit`)
- pixels.py, corpus.py: the batch sources (the synthetic tasks' are shared:
  `benchmarks.data.sequences`)
- report.py, tables.py: the figures and tables
- published/, results/, RESULTS.md
"""
