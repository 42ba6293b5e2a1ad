"""The claims of Madsen & Johansen's arithmetic task (`benchmarks.claims`):

- `gates FILES`: figure 9 as a table, runs (solved) by where the second
  layer's gate ends;
- `varied FILES FIELD=VALUE ...`: figures 3, 7 and 8 as a table, the ×
  task's statistics by the one parameter a row varies, of the files'
  matching rows.
"""

from benchmarks.arithmetic.gates import gate_table
from benchmarks.arithmetic.varied_parameters import varied_table
from benchmarks.core.claim_rows import Claim
from benchmarks.core.claim_rows import all_rows
from benchmarks.core.claim_rows import files_rows
from benchmarks.static_arithmetic import success


def _on_lines_of_its_own(table):
    """A table that may be empty, written on lines of its own."""
    return f"\n{table}\n" if table else ""


def varied(*arguments):
    table = varied_table(files_rows(arguments))
    return _on_lines_of_its_own(table)


def gates(*paths):
    return _on_lines_of_its_own(
        gate_table(all_rows(paths), success.unit_of, success.SYMBOLS)
    )


CLAIMS = {"gates": Claim(gates), "varied": Claim(varied)}
