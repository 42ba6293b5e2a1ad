"""Sequential MNIST: Madsen & Johansen's running product and sum (2020, §4.2,
app. D) and Trask et al.'s counting and addition (2018, app. C, table 10).

- runner.py: `python -m benchmarks.sequential_mnist`; `evaluate_unit(MyCell,
  ...)`, a recurrent cell of one's own through a task from Python
- source.py: sequences of MNIST digits
- report.py: the tables and figures
- published/, results/, RESULTS.md
"""

from benchmarks.core.units import runner_attributes

__getattr__ = runner_attributes(__name__, ("evaluate_unit",))
