"""The claims of the Single Module Task beyond its success rates, which
`benchmarks.claims` computes for every task judged by success
(`benchmarks.core.success`): `range_grid FILES`, the successes per unit,
operation and input size (rows) and range of Mistry's table 3 (columns),
blank where every seed succeeded, of the files' rows (those matching the
claim's FIELD=VALUE filters, if it has any)."""

from benchmarks.core import success
from benchmarks.core.claim_rows import Claim
from benchmarks.core.claim_rows import matching
from benchmarks.core.claim_rows import paths_and_filters
from benchmarks.data.arithmetic_task import SINGLE_MODULE_RANGES


def range_grid(*arguments):
    """Successes per (unit, operation, inputs) and Mistry's table 3 range,
    blank where every seed succeeded."""
    paths, filters = paths_and_filters(arguments)
    rows = [row for path in paths for row in matching(path, filters)]
    ranges = [interpolation.to_text() for interpolation, _ in SINGLE_MODULE_RANGES]
    grid = {}
    for s in success.summarize(rows):
        key = s.key
        row = (key.unit, success.SYMBOLS.get(key.operation, key.operation))
        cells = grid.setdefault((*row, key.input_size), {})
        cells[key.interpolation] = "" if s.solved == s.seeds else str(s.solved)
    lines = [
        "| unit, operation, inputs | "
        + " | ".join(success.range_label(text) for text in ranges)
        + " |",
        "|---|" + "---:|" * len(ranges),
    ]
    for (unit, symbol, inputs), cells in grid.items():
        values = " | ".join(cells.get(text, "—") for text in ranges)
        lines.append(f"| {unit}, {symbol}, {inputs} | {values} |")
    return "\n".join(lines)


CLAIMS = {"range_grid": Claim(range_grid, table=True)}
