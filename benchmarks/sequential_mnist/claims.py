"""The claims of the sequential MNIST tasks (`benchmarks.claims`):
`ratio_to_solved FILE LENGTHS FIELD=VALUE ...`, a matched model's median
test MSE over the solved accumulator's, its range over the sequence
lengths ("8,10-14") and the models; `solved_threshold FILE LENGTHS`, the
success thresholds the report draws from the file's solved-accumulator
runs at those lengths ("0.51, 28.7")."""

import collections
import statistics

from benchmarks.core.claim_rows import Claim
from benchmarks.core.claim_rows import matching
from benchmarks.core.claim_rows import pretty
from benchmarks.core.claim_rows import span


def _lengths(spec):
    """ "1-7,9,15-20" -> [1, ..., 7, 9, 15, ..., 20]."""
    lengths = []
    for part in spec.split(","):
        low, _, high = part.partition("-")
        lengths += range(int(low), int(high or low) + 1)
    return lengths


def ratio_to_solved(path, lengths, *filters):
    """The range, over the sequence `lengths` ("8,10-14") and the models
    matched, of a model's median test MSE over its matching runs divided by
    the solved accumulator's (`model=solved`) of the same file
    ("1.6-2.4")."""

    def medians(runs):
        return {
            length: statistics.median(row["test_mse"][str(length)] for row in runs)
            for length in _lengths(lengths)
        }

    models = collections.defaultdict(list)
    for row in matching(path, filters):
        models[row["model"]].append(row)
    solved = medians(matching(path, ["model=solved"]))
    return span(
        [
            ours[length] / solved[length]
            for ours in map(medians, models.values())
            for length in ours
        ]
    )


def solved_threshold(path, lengths):
    """The report's success threshold at each of the sequence `lengths`
    ("1,10"), from the file's solved-accumulator runs: "0.51, 28.7"."""
    from benchmarks.sequential_mnist.report import thresholds

    found = thresholds(matching(path, ["model=solved"]))
    missing = [n for n in _lengths(lengths) if str(n) not in found]
    if missing:
        raise ValueError(f"{path} gives no threshold at length {missing[0]}.")
    return ", ".join(pretty(found[str(n)]) for n in _lengths(lengths))


CLAIMS = {
    "ratio_to_solved": Claim(ratio_to_solved),
    "solved_threshold": Claim(solved_threshold),
}
