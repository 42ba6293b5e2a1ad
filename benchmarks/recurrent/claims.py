"""The claims of Trask's scores (`benchmarks.claims`): tables 7 and 12 of
the static task (rows of the arithmetic folder's `trask_static` task, scored
against the same model untrained) and tables 9 and 6 of the recurrent task
(this folder's rows, scored against the untrained LSTMs of the file's
experiment):

- `score FILE interpolation|extrapolation FIELD=VALUE ...`: the score,
  median over seeds, of the matching configuration, or the range over
  several ("26.3-40.1");
- `seeds_below FILE interpolation|extrapolation BOUND FIELD=VALUE ...`:
  how many matching runs, each scored on its own, score below BOUND ("2
  of 3");
- `raw_mse FILE interpolation|extrapolation FIELD=VALUE ...`: the raw MSE
  of tables 6 and 12, median over seeds (a diverged run infinite),
  likewise;
- `untrained_mse FILE interpolation|extrapolation FIELD=VALUE ...`: the
  untrained LSTMs' mean MSE (the recurrent task's "random" of table 9).
"""

import collections

from benchmarks.core.claim_rows import Claim
from benchmarks.core.claim_rows import matching
from benchmarks.core.claim_rows import rows
from benchmarks.core.claim_rows import span
from benchmarks.recurrent import report
from benchmarks.static_arithmetic import success


def _scores(path, test, filters, per_seed=False):
    """Trask's scores of the configurations the matching rows make (of
    each seed's run, `per_seed`), each as its report computes it."""
    groups = collections.defaultdict(list)
    for row in matching(path, filters):
        experiment = report.experiment_of(row)
        seed = row["seed"] if per_seed else None
        groups[success.unit_of(row), row["operation"], experiment, seed].append(row)
    if rows(path)[0]["task"] != "recurrent_trask":
        return [success.relative_score(members, test) for members in groups.values()]
    untrained = collections.defaultdict(list)
    for row in rows(path):
        untrained[report.experiment_of(row)].append(row)
    random = {key: report.random_lstm_mse(found) for key, found in untrained.items()}
    return [
        report.score(members, test, random[experiment][operation, test])
        for (_, operation, experiment, _), members in groups.items()
    ]


def seeds_below(path, test, bound, *filters):
    """How many of the matching runs score below `bound` on the `test`
    set, each run scored on its own ("2 of 3")."""
    scores = _scores(path, test, filters, per_seed=True)
    return f"{sum(score < float(bound) for score in scores)} of {len(scores)}"


def score(path, test, *filters):
    """The score on the `test` set of the configuration the filters match
    ("0.03"), or the range of several ("26.3-40.1"); "∞" for diverged."""
    return span(_scores(path, test, filters))


def raw_mse(path, test, *filters):
    """The median MSE over seeds on the `test` set of the configuration the
    filters match ("0.0067"), or the range of several; "∞" for diverged."""
    groups = collections.defaultdict(list)
    for row in matching(path, filters):
        groups[success.unit_of(row), row["operation"]].append(row)
    return span([success.raw_mse(members, test) for members in groups.values()])


def untrained_mse(path, test, *filters):
    """The untrained LSTMs' mean MSE on the `test` set (table 9's
    "randomly initialized LSTM") of the matching rows' operation(s)."""
    found = report.random_lstm_mse(matching(path, filters))
    values = [mse for (_, name), mse in found.items() if name == test]
    if not values:
        raise ValueError(f"No untrained LSTM of {path} matches {' '.join(filters)}.")
    return span(values)


CLAIMS = {
    "score": Claim(score),
    "seeds_below": Claim(seeds_below),
    "raw_mse": Claim(raw_mse),
    "untrained_mse": Claim(untrained_mse),
}
