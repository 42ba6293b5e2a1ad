"""Sequential MNIST: Madsen & Johansen's running product and sum (2020, §4.2,
app. D) and Trask et al.'s counting and addition (2018, app. C, table 10).

- runner.py: `python -m benchmarks.sequential_mnist`
- source.py: sequences of MNIST digits
- report.py: the tables and figures
- published/, results/, RESULTS.md
"""
