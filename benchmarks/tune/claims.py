"""The claims of the Keras Tuner searches (`benchmarks.claims`), over a
search's log (`python -m benchmarks.tune ... > FILE`: a JSON line per
finished trial, `ReportingTuner`, then the summary of the best):

- `tuning_trial FILE RANK FIELD SPEC`: FIELD of the trial ranked RANK by
  its score (1: the best), `score` or a hyper-parameter (`learning_rate`),
  formatted by the format spec SPEC (".3f": "0.020"; ".0%": "10 %");
- `tuning_scores FILE FIELD=VALUE ...`: "low-high" of the scores of the
  trials whose hyper-parameters match (`unit=nau|nac`).
"""

import json

from benchmarks.core.claim_rows import Claim
from benchmarks.core.claim_rows import file_path
from benchmarks.core.claim_rows import selected
from benchmarks.core.claim_rows import span


def _trials(path):
    """The finished trials of a search's log, best (lowest score) first."""
    with open(file_path(path), encoding="utf-8") as handle:
        lines = [json.loads(line) for line in handle if line.startswith("{")]
    if not lines:
        raise ValueError(f"{path} logs no trial.")
    return sorted(lines, key=lambda trial: trial["score"])


def tuning_trial(path, rank, field, spec):
    trials = _trials(path)
    if not 1 <= int(rank) <= len(trials):
        raise ValueError(f"{path} logs {len(trials)} trials, not one ranked {rank}.")
    trial = trials[int(rank) - 1]
    value = trial["score"] if field == "score" else trial["values"].get(field)
    if value is None:
        raise ValueError(f"The trial ranked {rank} in {path} has no {field!r}.")
    return format(value, spec).replace("%", " %")


def tuning_scores(path, *filters):
    trials = [trial for trial in _trials(path) if selected([trial["values"]], filters)]
    if not trials:
        raise ValueError(f"No trial of {path} matches {' '.join(filters)}.")
    return span([trial["score"] for trial in trials])


CLAIMS = {
    "tuning_trial": Claim(tuning_trial),
    "tuning_scores": Claim(tuning_scores),
}
