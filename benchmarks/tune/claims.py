"""The claims of the Keras Tuner searches (`benchmarks.claims`), over a
search's log (`python -m benchmarks.tune ... > FILE`: a JSON line per
finished trial, `ReportingTuner`, then the summary of the best):

- `tuning_trial FILE RANK FIELD SPEC`: FIELD of the trial ranked RANK by
  its score (1: the best), `score` or a hyper-parameter (`learning_rate`),
  formatted by the format spec SPEC (".3f": "0.020"; ".0%": "10 %");
- `tuning_scores FILE FIELD=VALUE ...`: "low-high" of the scores of the
  trials whose hyper-parameters match (`unit=nau|nac`);
- `tuning_table FILE`: a row per unit, its trials and its best trial.
"""

import json

from benchmarks.core.claim_rows import Claim
from benchmarks.core.claim_rows import file_path
from benchmarks.core.claim_rows import selected
from benchmarks.core.claim_rows import span


def read_trials(path):
    """The finished trials of a search's log (a file path), in the order
    they ran."""
    with open(path, encoding="utf-8") as handle:
        trials = [json.loads(line) for line in handle if line.startswith("{")]
    if not trials:
        raise ValueError(f"{path} logs no trial.")
    return trials


def _trials(path):
    """The finished trials of a search's log named relative to
    `benchmarks/`, best (lowest score) first."""
    return sorted(read_trials(file_path(path)), key=lambda trial: trial["score"])


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


def tuning_table(path):
    """A row per unit: its trials, its best score, and that trial's hidden
    size, learning rate and optimizer."""
    best = {}
    counts = {}
    for trial in _trials(path):  # best first
        unit = trial["values"]["unit"]
        best.setdefault(unit, trial)
        counts[unit] = counts.get(unit, 0) + 1
    lines = [
        "| unit | trials | best score | hidden size | learning rate | optimizer |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for unit, trial in best.items():
        values = trial["values"]
        lines.append(
            f"| {unit} | {counts[unit]} | {trial['score']:.2f} "
            f"| {values['hidden_size']} | {values['learning_rate']:.2g} "
            f"| {values['optimizer']} |"
        )
    return "\n".join(lines)


CLAIMS = {
    "tuning_table": Claim(tuning_table, table=True),
    "tuning_trial": Claim(tuning_trial),
    "tuning_scores": Claim(tuning_scores),
}


ARITHMETIC_MUL_BAYESIAN_20 = "tune/results/arithmetic_mul_bayesian_20.txt"

#: The named claims of the pages over the rows of the searches (a page's
#: `<!--=tune.NAME-->` stands for the expression; `benchmarks.claims`).
NAMED = {
    "tune.1.learning_rat": (
        f"tuning_trial {ARITHMETIC_MUL_BAYESIAN_20} 1 learning_rate .3f"
    ),
    "tune.1.regularizer_": (
        f"tuning_trial {ARITHMETIC_MUL_BAYESIAN_20} 1 regularizer_strength .2g"
    ),
    "tune.1.warmup_lengt": (
        f"tuning_trial {ARITHMETIC_MUL_BAYESIAN_20} 1 warmup_length .0%"
    ),
    "tune.1.warmup_start": (
        f"tuning_trial {ARITHMETIC_MUL_BAYESIAN_20} 1 warmup_start .0%"
    ),
    "tune.2.learning_rat": (
        f"tuning_trial {ARITHMETIC_MUL_BAYESIAN_20} 2 learning_rate .3f"
    ),
    "tune.scores.nau+nac": (f"tuning_scores {ARITHMETIC_MUL_BAYESIAN_20} unit=nau|nac"),
    "tune.table": f"tuning_table {ARITHMETIC_MUL_BAYESIAN_20}",
    "tune.trial.1.score": f"tuning_trial {ARITHMETIC_MUL_BAYESIAN_20} 1 score .3g",
}
