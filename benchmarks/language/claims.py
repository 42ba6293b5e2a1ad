"""The claims of the language folder's tasks (`benchmarks.claims`):
`program_table FILE`, the program-evaluation table of a file's runs (MAE
and accuracy per operand digits, mean ± 2σ)."""

from benchmarks.core.claim_rows import Claim
from benchmarks.core.claim_rows import rows
from benchmarks.language import programs_report


def program_table(path):
    """The table of a file of program-evaluation runs (one task, one length)."""
    found = programs_report.experiments(rows(path))
    if len(found) != 1:
        raise ValueError(f"{path} holds {len(found)} program experiments, not 1.")
    return "\n".join(programs_report.program_table(next(iter(found.values()))))


CLAIMS = {"program_table": Claim(program_table, table=True)}
