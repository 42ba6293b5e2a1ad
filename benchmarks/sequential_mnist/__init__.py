"""Sequential MNIST: Madsen & Johansen's running product and sum (2020, §4.2,
app. D) and Trask et al.'s counting and addition (2018, app. C, table 10).

- task.py: the task, top to bottom: its command line, its jobs and `TASK`
  (`python -m benchmarks.sequential_mnist`); `evaluate_unit(MyCell, ...)`,
  a unit or recurrent cell of one's own through a task from Python
- sequences.py: the tasks' operations, digits and lengths
- runner.py: each job's model and run (TensorFlow); source.py: sequences
  of MNIST digits
- report.py: the tables and figures; claims.py: the results page's claims
- published/, results/, RESULTS.md
"""

from benchmarks.sequential_mnist.task import evaluate_unit

__all__ = ["evaluate_unit"]
