"""The report of Trask et al.'s recurrent arithmetic task (app. B, tables
8 and 9)."""

import collections
import csv
import os

import numpy as np

from benchmarks.core.formatting import format_number
from benchmarks.core.formatting import load_pyplot
from benchmarks.core.formatting import published_table
from benchmarks.core.formatting import save_figure
from benchmarks.core.rows import is_own
from benchmarks.core.rows import with_committed
from benchmarks.core.task import TaskReport
from benchmarks.recurrent.models import DEFAULT_RANGE
from benchmarks.static_arithmetic import success

#: Table 9's columns and rows, in its order (models beyond it follow).
OPERATIONS = ("a", "add", "sub", "mul", "div", "squared", "root")
OPERATION_LABELS = ("a", "a + b", "a − b", "a · b", "a / b", "a²", "√a")
PAPER_MODELS = ("lstm", "gru", "rnn_tanh", "rnn_relu", "nac", "nalu")
SETS = ("interpolation", "extrapolation")
#: Scores above this print as ">999.9", as in table 9.
MAX_SCORE = 999.9


def _published(name):
    with open(published_table("recurrent", name)) as handle:
        return {(row["model"], row["operation"]): row for row in csv.DictReader(handle)}


def random_lstm_mse(rows):
    """Per (operation, set): the mean MSE of the untrained LSTMs (table 9's
    "randomly initialized LSTM", 100 on its scale)."""
    initial = collections.defaultdict(list)
    for row in rows:
        if row["model"] == "lstm":
            for name in SETS:
                initial[row["operation"], name].append(row[f"initial_{name}_mse"])
    return {key: float(np.mean(values)) for key, values in initial.items()}


def score(members, name, random):
    """Table 9's score of a configuration's runs on the `name` set: 100 ×
    the median MSE over seeds / the untrained LSTMs' mean MSE (`random`,
    from `random_lstm_mse`)."""
    return (
        100.0 * success.median_over_seeds([r[f"{name}_mse"] for r in members]) / random
    )


def _score(value):
    return f">{MAX_SCORE}" if value > MAX_SCORE else f"{value:.1f}"


def experiment_of(row):
    """(steps, input range): rows of one experiment are reported together."""
    return row["max_steps"], row.get("range", DEFAULT_RANGE.to_text())


#: Our committed rows of the task, beside which a unit of one's own is
#: reported (relative to `benchmarks/`).
COMMITTED_ROWS = (
    "recurrent/results/trask_paper.jsonl",
    "recurrent/results/trask_paper_range_0.1_0.2.jsonl",
)


def _groups(rows):
    """{(experiment, model, operation): rows}; two versions of a unit of
    one's own are two models (`success.unit_labels`)."""
    groups = collections.defaultdict(list)
    label = success.unit_labels(rows)
    for row in rows:
        groups[experiment_of(row), label(row), row["operation"]].append(row)
    return groups


def _diverged(members, value):
    """`value` (a cell's text), or where runs diverged (a loss that is not
    finite: `diverged_at`), "diverged at step N" when all did, the value
    and how many did when some did."""
    steps = [r["diverged_at"] for r in members if r.get("diverged_at") is not None]
    if not steps:
        return value
    if len(steps) == len(members):
        return f"diverged at step {min(steps):,}"
    return f"{value} ({len(steps)} of {len(members)} diverged)"


def _models(groups, experiment):
    found = {model for (e, model, _) in groups if e == experiment}
    return [m for m in PAPER_MODELS if m in found] + sorted(found - set(PAPER_MODELS))


def _table9(groups, experiment, random, published):
    lines = []
    for name in SETS:
        lines += [
            "",
            f"{name.capitalize()} (ours / paper; median over seeds):",
            "",
            "| model | seeds | " + " | ".join(OPERATION_LABELS) + " |",
            "|---|---:|" + "---:|" * len(OPERATIONS),
        ]
        for model in _models(groups, experiment):
            cells, seeds = [], set()
            for operation in OPERATIONS:
                members = groups.get((experiment, model, operation), [])
                if members:
                    seeds.add(len(members))
                paper = published.get((model, operation), {}).get(name, "")
                baseline = random.get((operation, name))
                ours = (
                    _score(score(members, name, baseline))
                    if members and baseline is not None
                    else "—"
                )
                cells.append(f"{_diverged(members, ours)} / {paper or '—'}")
            count = "/".join(str(n) for n in sorted(seeds))
            lines.append(f"| {model} | {count} | " + " | ".join(cells) + " |")
    return lines


def _table8(groups, experiment, published):
    lines = [
        "",
        "Raw MSEs (median over seeds; T training, I interpolation, "
        "E extrapolation; the paper's in brackets, table 8 gives NAC and "
        "NALU only):",
        "",
        "| model | | " + " | ".join(OPERATION_LABELS) + " |",
        "|---|---|" + "---:|" * len(OPERATIONS),
    ]
    for model in _models(groups, experiment):
        for label, key, paper_key in (
            ("T", "training_loss", "training"),
            ("I", "interpolation_mse", "interpolation"),
            ("E", "extrapolation_mse", "extrapolation"),
        ):
            cells = []
            for operation in OPERATIONS:
                members = groups.get((experiment, model, operation), [])
                ours = (
                    _diverged(
                        members,
                        format_number(
                            success.median_over_seeds([r[key] for r in members])
                        ),
                    )
                    if members
                    else "—"
                )
                paper = published.get((model, operation), {}).get(paper_key)
                cells.append(f"{ours} ({paper})" if paper else ours)
            lines.append(f"| {model} | {label} | " + " | ".join(cells) + " |")
    return lines


def _own_note(rows, committed, groups):
    """Where `rows` hold units of one's own: their budgets beside our
    committed rows', and the command that runs our models at theirs (as
    many seeds as the most of a model of `groups` there)."""
    own = sorted({experiment_of(row) for row in rows if is_own(row)})
    ours = sorted({experiment_of(row) for row in committed})
    if not own:
        return []
    lines = [
        "",
        "Units of one's own: "
        + "; ".join(f"{steps:,} steps, U[{r}]" for steps, r in own)
        + ". Our committed rows beside them: "
        + ("; ".join(f"{steps:,} steps, U[{r}]" for steps, r in ours) or "none")
        + ". Each budget is its own table; scores of different budgets are "
        "not comparable run for run.",
    ]
    for steps, value_range in own:
        if (steps, value_range) not in ours:
            seeds = max(
                len(members)
                for (experiment, _, _), members in groups.items()
                if experiment == (steps, value_range)
            )
            lines.append(
                f"Our models at {steps:,} steps: `python -m benchmarks.recurrent "
                f"--task trask --model all --operation all --range={value_range} "
                f"--max-steps {steps} --seeds 0-{seeds - 1} --output "
                f"ours_{steps}.jsonl`, then give both files to "
                "`python -m benchmarks.report`."
            )
    return lines


def recurrent_markdown(rows):
    """Trask tables 9 (scores against a random LSTM) and 8 (raw MSEs); with
    units of one's own, beside our committed rows of their input range
    (`rows.with_committed`)."""
    given = len(rows)
    rows = with_committed(rows, COMMITTED_ROWS, lambda row: experiment_of(row)[1])
    committed = rows[given:]
    groups = _groups(rows)
    table9 = _published("trask2018_table9.csv")
    table8 = _published("trask2018_table8.csv")
    lines = ["### Recurrent arithmetic (Trask et al. app. B, tables 8 and 9)"]
    lines += _own_note(rows, committed, groups)
    for experiment in sorted({experiment_of(row) for row in rows}):
        rows_of_experiment = [row for row in rows if experiment_of(row) == experiment]
        random, reference = random_lstm_mse(rows_of_experiment), "the same sets"
        if not random:
            random = random_lstm_mse(
                [row for row in rows if experiment_of(row)[1] == experiment[1]]
            )
            reference = "the same sets, from the rows of another budget"
        steps, value_range = experiment
        lines += [
            "",
            f"#### {steps:,} steps, inputs from U[{value_range}]",
            "",
            "Scores: 100 × MSE / MSE of the untrained LSTMs on "
            f"{reference} (100 = random, 0 = perfect).",
        ]
        lines += _table9(groups, experiment, random, table9)
        lines += _table8(groups, experiment, table8)
    return "\n".join(lines) + "\n"


def recurrent_figure(rows, directory):
    """`recurrent_table9_<steps>.png` per experiment: each model's table-9
    score per operation on the extrapolation set (dots; log scale, scores
    above 999.9 drawn at 1 000) beside the paper's (crosses)."""
    pyplot = load_pyplot()
    os.makedirs(directory, exist_ok=True)
    groups, published = _groups(rows), _published("trask2018_table9.csv")
    written = []
    for experiment in sorted({experiment_of(row) for row in rows}):
        random = random_lstm_mse([r for r in rows if experiment_of(r) == experiment])
        models = _models(groups, experiment)
        figure, axis = pyplot.subplots(figsize=(10, 4.5))
        for index, model in enumerate(models):
            offset = (index - (len(models) - 1) / 2) * 0.09
            label = model  # on the model's first dot
            for x, operation in enumerate(OPERATIONS):
                members = groups.get((experiment, model, operation))
                baseline = random.get((operation, "extrapolation"))
                if members and baseline:
                    ours = score(members, "extrapolation", baseline)
                    axis.scatter(
                        x + offset,
                        min(max(ours, 0.01), 1000),
                        color=f"C{index}",
                        s=16,
                        label=label,
                    )
                    label = None
                paper = published.get((model, operation), {}).get("extrapolation")
                if paper:
                    value = 1000 if paper.startswith(">") else max(float(paper), 0.01)
                    axis.scatter(x + offset, value, marker="x", color=f"C{index}")
        axis.set_yscale("log")
        axis.set_xticks(range(len(OPERATIONS)), OPERATION_LABELS)
        axis.set_ylabel("score (100: untrained LSTM; 0.01: at or below)")
        axis.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5))
        steps, value_range = experiment
        axis.set_title(
            f"Extrapolation, {steps:,} steps, U[{value_range}] "
            "(dots: ours; crosses: Trask et al. table 9)"
        )
        name = f"recurrent_table9_{steps}_{value_range.replace(',', '_')}"
        written.append(save_figure(pyplot, figure, directory, name))
    return written


REPORTS = (TaskReport(("recurrent_trask",), recurrent_markdown, recurrent_figure),)
