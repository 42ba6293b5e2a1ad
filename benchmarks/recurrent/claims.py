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


TRASK2018_TABLE8 = "recurrent/published/trask2018_table8.csv"
TRASK2018_TABLE9 = "recurrent/published/trask2018_table9.csv"
TRASK_PAPER = "recurrent/results/trask_paper.jsonl"
TRASK_PAPER_RANGE_0_1_0_2 = "recurrent/results/trask_paper_range_0.1_0.2.jsonl"

#: The named claims of the pages over the rows of Trask's recurrent tasks (a page's
#: `<!--=rec.NAME-->` stands for the expression; `benchmarks.claims`).
NAMED = {
    "rec.a+4.nalu.None": (
        f"score {TRASK_PAPER_RANGE_0_1_0_2} extrapolation "
        "operation=a|add|sub|mul|squared model=nalu initial_state=None"
    ),
    "rec.a+4.nalu.learned.1": (
        f"score {TRASK_PAPER} interpolation operation=a|add|sub|mul|squared model=nalu "
        "initial_state=learned"
    ),
    "rec.a+4.nalu.learned.2": (
        f"score {TRASK_PAPER_RANGE_0_1_0_2} extrapolation "
        "operation=a|add|sub|mul|squared model=nalu initial_state=learned"
    ),
    "rec.a+5.nalu.None.1": (
        f"score {TRASK_PAPER_RANGE_0_1_0_2} extrapolation "
        "operation=a|add|sub|mul|div|squared model=nalu initial_state=None"
    ),
    "rec.a+5.nalu.None.2": (
        f"score {TRASK_PAPER_RANGE_0_1_0_2} interpolation "
        "operation=a|add|mul|div|squared|root model=nalu initial_state=None"
    ),
    "rec.a+5.nalu.None.3": (
        f"score {TRASK_PAPER_RANGE_0_1_0_2} interpolation "
        "operation=a|add|sub|mul|squared|root model=nalu initial_state=None"
    ),
    "rec.a+5.nalu.learned": (
        f"score {TRASK_PAPER_RANGE_0_1_0_2} interpolation "
        "operation=a|add|sub|mul|squared|root model=nalu initial_state=learned"
    ),
    "rec.a+6.nalu.learned": (
        f"score {TRASK_PAPER_RANGE_0_1_0_2} extrapolation "
        "operation=a|add|sub|mul|div|squared|root model=nalu initial_state=learned"
    ),
    "rec.ex.0.01.a.nac": (
        f"seeds_below {TRASK_PAPER} extrapolation 0.01 operation=a model=nac"
    ),
    "rec.ex.0.1.a.nau": (
        f"seeds_below {TRASK_PAPER} extrapolation 0.1 operation=a model=nau"
    ),
    "rec.ex.0.1.add.nau": (
        f"seeds_below {TRASK_PAPER} extrapolation 0.1 operation=add model=nau"
    ),
    "rec.ex.0.01.sub.nac": (
        f"seeds_below {TRASK_PAPER} extrapolation 0.01 operation=sub model=nac"
    ),
    "rec.ex.a+3.lstm+3": (
        f"score {TRASK_PAPER} extrapolation operation=a|add|sub|root "
        "model=lstm|gru|rnn_tanh|rnn_relu"
    ),
    "rec.ex.a.nac": f"score {TRASK_PAPER} extrapolation operation=a model=nac",
    "rec.ex.a.nac.1": f"score {TRASK_PAPER} extrapolation operation=a model=nac seed=1",
    "rec.ex.a.nau": f"score {TRASK_PAPER} extrapolation operation=a model=nau",
    "rec.ex.a.nau.1": f"score {TRASK_PAPER} extrapolation operation=a model=nau seed=1",
    "rec.ex.add.nac.0": (
        f"score {TRASK_PAPER} extrapolation operation=add model=nac seed=0"
    ),
    "rec.ex.add.nau": f"score {TRASK_PAPER} extrapolation operation=add model=nau",
    "rec.ex.div.lstm+3": (
        f"score {TRASK_PAPER} extrapolation operation=div "
        "model=lstm|gru|rnn_tanh|rnn_relu"
    ),
    "rec.ex.div.nac": f"score {TRASK_PAPER} extrapolation operation=div model=nac",
    "rec.ex.div.nalu.None": (
        f"score {TRASK_PAPER} extrapolation operation=div model=nalu initial_state=None"
    ),
    "rec.ex.sub.nac": f"score {TRASK_PAPER} extrapolation operation=sub model=nac",
    "rec.ex.sub.nau": f"score {TRASK_PAPER} extrapolation operation=sub model=nau",
    "rec.h.abafa83": (
        f"hours {TRASK_PAPER} commit=abafa83a5a9bd955889c382b3208cdc011f7809c"
    ),
    "rec.h.small.158bf4c": (
        f"hours {TRASK_PAPER_RANGE_0_1_0_2} "
        "commit=158bf4cfcc61bdeb811178cc861ed7650f0a9244"
    ),
    "rec.in.a+2.lstm+3": (
        f"score {TRASK_PAPER} interpolation operation=a|add|root "
        "model=lstm|gru|rnn_tanh|rnn_relu"
    ),
    "rec.in.a+4.nalu.None": (
        f"score {TRASK_PAPER} interpolation operation=a|add|sub|mul|squared model=nalu "
        "initial_state=None"
    ),
    "rec.in.mul+squared": (
        f"untrained_mse {TRASK_PAPER} interpolation operation=mul|squared"
    ),
    "rec.in.sub.rnn_relu": (
        f"score {TRASK_PAPER} interpolation operation=sub model=rnn_relu"
    ),
    "rec.mul+squared": (
        f"score {TRASK_PAPER} interpolation operation=mul|squared "
        "model=lstm|gru|rnn_tanh"
    ),
    "rec.nac.squared": (
        f"median {TRASK_PAPER_RANGE_0_1_0_2} training_loss model=nac operation=squared"
    ),
    "rec.nalu.None.0+1": (
        f"range {TRASK_PAPER_RANGE_0_1_0_2} initial_interpolation_mse model=nalu "
        "initial_state=None seed=0|1"
    ),
    "rec.nalu.None.2": (
        f"range {TRASK_PAPER_RANGE_0_1_0_2} initial_interpolation_mse model=nalu "
        "initial_state=None seed=2"
    ),
    "rec.nalu.None.a": (
        f"median {TRASK_PAPER_RANGE_0_1_0_2} training_loss model=nalu "
        "initial_state=None operation=a"
    ),
    "rec.nalu.None.add": (
        f"median {TRASK_PAPER_RANGE_0_1_0_2} training_loss model=nalu "
        "initial_state=None operation=add"
    ),
    "rec.pub8.ex.nac.mul": (
        f"paper {TRASK2018_TABLE8} extrapolation - model=nac operation=mul"
    ),
    "rec.pub8.nac.mul": (
        f"paper {TRASK2018_TABLE8} training .2f model=nac operation=mul"
    ),
    "rec.pub8.nac.squared": (
        f"paper {TRASK2018_TABLE8} training .2f model=nac operation=squared"
    ),
    "rec.pub8.nalu.a+add": (
        f"paper {TRASK2018_TABLE8} training - model=nalu operation=a|add"
    ),
    "rec.pub9.ex.lstm": f"paper {TRASK2018_TABLE9} extrapolation .0f model=lstm",
    "rec.pub9.ex.nac.a": (
        f"paper {TRASK2018_TABLE9} extrapolation .1f model=nac operation=a"
    ),
    "rec.pub9.ex.nac.add": (
        f"paper {TRASK2018_TABLE9} extrapolation .1f model=nac operation=add"
    ),
    "rec.pub9.ex.nac.mul": (
        f"paper {TRASK2018_TABLE9} extrapolation - model=nac operation=mul"
    ),
    "rec.pub9.ex.nac.sub": (
        f"paper {TRASK2018_TABLE9} extrapolation .1f model=nac operation=sub"
    ),
    "rec.pub9.ex.nalu.a+4": (
        f"paper {TRASK2018_TABLE9} extrapolation .1f model=nalu "
        "operation=a|add|sub|mul|squared"
    ),
    "rec.pub9.ex.nalu.div": (
        f"paper {TRASK2018_TABLE9} extrapolation .1f model=nalu operation=div"
    ),
    "rec.pub9.in.lstm": f"paper {TRASK2018_TABLE9} interpolation .1f model=lstm",
    "rec.pub9.in.nalu.a+4": (
        f"paper {TRASK2018_TABLE9} interpolation .1f model=nalu "
        "operation=a|add|sub|mul|squared"
    ),
    "rec.pub9.in.nalu.sub": (
        f"paper {TRASK2018_TABLE9} interpolation .1f model=nalu operation=sub"
    ),
    "rec.pub9.lstm+2": (
        f"paper {TRASK2018_TABLE9} interpolation .1f model=lstm|gru|rnn_tanh "
        "operation=mul|squared"
    ),
    "rec.pub9.lstm+2.a+3": (
        f"paper {TRASK2018_TABLE9} extrapolation .0f model=lstm|gru|rnn_tanh "
        "operation=a|add|sub|root"
    ),
    "rec.pub9.lstm+3.div": (
        f"paper {TRASK2018_TABLE9} extrapolation .1f model=lstm|gru|rnn_tanh|rnn_relu "
        "operation=div"
    ),
    "rec.pub9.nac.1": (
        f"paper {TRASK2018_TABLE9} extrapolation .0f model=nac operation=mul|squared"
    ),
    "rec.pub9.nac.2": (
        f"paper {TRASK2018_TABLE9} extrapolation .1f model=nac operation=div|root"
    ),
    "rec.pub9.nalu.1": (
        f"paper {TRASK2018_TABLE9} extrapolation .1f model=nalu operation!=div"
    ),
    "rec.pub9.nalu.2": (
        f"paper {TRASK2018_TABLE9} interpolation .1f model=nalu operation!=div"
    ),
    "rec.pub9.rnn_relu.1": (
        f"paper {TRASK2018_TABLE9} extrapolation .0f model=rnn_relu operation=a|add|sub"
    ),
    "rec.pub9.rnn_relu.2": (
        f"paper {TRASK2018_TABLE9} extrapolation .0f model=rnn_relu operation=root"
    ),
    "rec.raw.in.add.nac": (
        f"raw_mse {TRASK_PAPER} interpolation operation=add model=nac"
    ),
    "rec.runs.abafa83": (
        f"runs {TRASK_PAPER} commit=abafa83a5a9bd955889c382b3208cdc011f7809c"
    ),
    "rec.small.158bf4c": (
        f"runs {TRASK_PAPER_RANGE_0_1_0_2} "
        "commit=158bf4cfcc61bdeb811178cc861ed7650f0a9244"
    ),
    "rec.small.a+6.lstm.1": (
        f"score {TRASK_PAPER_RANGE_0_1_0_2} extrapolation "
        "operation=a|add|sub|mul|div|squared|root model=lstm"
    ),
    "rec.small.a+6.lstm.2": (
        f"score {TRASK_PAPER_RANGE_0_1_0_2} interpolation "
        "operation=a|add|sub|mul|div|squared|root model=lstm"
    ),
    "rec.small.div.lstm": (
        f"score {TRASK_PAPER_RANGE_0_1_0_2} extrapolation operation=div model=lstm"
    ),
    "rec.small.ex.a.nac": (
        f"score {TRASK_PAPER_RANGE_0_1_0_2} extrapolation operation=a model=nac"
    ),
    "rec.small.ex.sub.nac": (
        f"score {TRASK_PAPER_RANGE_0_1_0_2} extrapolation operation=sub model=nac"
    ),
    "rec.small.nac.mul": (
        f"median {TRASK_PAPER_RANGE_0_1_0_2} training_loss model=nac operation=mul"
    ),
    "rec.sub.nalu.None": (
        f"score {TRASK_PAPER_RANGE_0_1_0_2} interpolation operation=sub model=nalu "
        "initial_state=None"
    ),
    "rec.table9": f"report_table {TRASK_PAPER} table=2",
    "rec.untrained.ex.mul": (
        f"untrained_mse {TRASK_PAPER} extrapolation operation=mul"
    ),
}
