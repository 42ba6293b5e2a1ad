"""The claims of the language folder's tasks (`benchmarks.claims`):
`program_table FILE`, the program-evaluation table of a file's runs (MAE
and accuracy per operand digits, mean ± 2σ); `running_prediction FILE
NUMBER SPEC`, a chosen run's prediction after each word of a number, from
the output of `benchmarks.language.running_prediction`."""

import json

from benchmarks.core.claim_rows import Claim
from benchmarks.core.claim_rows import file_path
from benchmarks.core.claim_rows import pretty
from benchmarks.core.claim_rows import rows
from benchmarks.language import programs_report


def program_table(path):
    """The table of a file of program-evaluation runs (one task, one length)."""
    found = programs_report.experiments(rows(path))
    if len(found) != 1:
        raise ValueError(f"{path} holds {len(found)} program experiments, not 1.")
    return "\n".join(programs_report.program_table(next(iter(found.values()))))


def running_prediction(path, number, spec):
    """The prediction after each word of NUMBER in a file of running
    predictions (a line naming the run, then one JSON line per number),
    formatted by the format spec SPEC, or as the pages write numbers for
    `-` ("2.0, 42.7, 180.1")."""
    with open(file_path(path), encoding="utf-8") as handle:
        entries = [json.loads(line) for line in handle.read().splitlines()[1:]]
    for entry in entries:
        if entry["number"] == int(number):
            values = [value for _, value in entry["running"]]
            return ", ".join(
                pretty(v) if spec == "-" else f"{v:{spec}}" for v in values
            )
    raise ValueError(f"{path} has no running prediction of {number}.")


CLAIMS = {
    "program_table": Claim(program_table, table=True),
    "running_prediction": Claim(running_prediction),
}
