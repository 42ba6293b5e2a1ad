"""The static arithmetic tasks' family: what the Single Module Task
(`benchmarks.single_module`), Madsen's arithmetic task and Trask's static
task (`benchmarks.arithmetic`) report alike, beside `core/`, which is the
same for every task.

- success.py: success rates, "solved at" and sparsity errors with their
  intervals beside the papers' published values, Trask's scores, figures
- comparison.py: a unit of one's own beside the survey's modules
- claims.py: the results pages' claims over those reports
"""
