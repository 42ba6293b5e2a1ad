"""The reports of the MNIST sequence tasks: Madsen & Johansen's (2020,
§4.2, app. D, figures 4 and 13-15), success per test length against the
solved accumulator's threshold; Trask et al.'s counting and addition
(app. C, table 10)."""

import collections
import csv
import dataclasses
import math
import operator
import os

import numpy as np
import scipy.stats

from benchmarks.core.formatting import format_number
from benchmarks.core.formatting import load_pyplot
from benchmarks.core.formatting import published_table
from benchmarks.core.formatting import save_figure
from benchmarks.core.rows import with_committed
from benchmarks.core.stats import solved_accumulator_threshold
from benchmarks.core.stats import wilson_interval
from benchmarks.core.task import TaskReport
from benchmarks.sequential_mnist.sequences import TARGETS
from benchmarks.sequential_mnist.sequences import cnn_head
from benchmarks.sequential_mnist.sequences import targets
from benchmarks.static_arithmetic import success

#: The lengths shown per task (every length is in the rows).
SHOWN_LENGTHS = {
    "mnist_product": (1, 2, 3, 4, 5, 10, 15, 20),
    "mnist_sum": (1, 10, 100, 1000),
}


def thresholds(rows):
    """{length: threshold} from the `solved` rows (at least two)."""
    solved = [row for row in rows if row["model"] == "solved"]
    if len(solved) < 2:
        return {}
    lengths = solved[0]["test_mse"]
    return {
        length: solved_accumulator_threshold(
            [row["test_mse"][length] for row in solved]
        )
        for length in lengths
        if all(math.isfinite(row["test_mse"][length]) for row in solved)
    }


def first_solved_step(row, length, limit):
    """The first evaluated step whose test MSE at `length` is below
    `limit` (the reference's "solved at"), or None (never, or a row
    without the series)."""
    series = row.get("test_mse_series", {}).get(length)
    if series is None:
        return None
    return next(
        (step for step, mse in zip(row["evaluation_steps"], series) if mse < limit),
        None,
    )


def mean_interval(values, confidence=0.95):
    """(mean, low, high): the Student t interval of the mean of
    non-negative values, as the reference's plots, its low end cut at 0
    (NaN bounds for fewer than two values; all NaN for none)."""
    values = np.asarray(values, dtype=float)
    if len(values) == 0:
        return math.nan, math.nan, math.nan
    mean = float(np.mean(values))
    if len(values) < 2:
        return mean, math.nan, math.nan
    half = scipy.stats.t.ppf((1 + confidence) / 2, len(values) - 1)
    half *= np.std(values, ddof=1) / math.sqrt(len(values))
    return mean, max(0.0, mean - half), mean + half


@dataclasses.dataclass(frozen=True)
class LengthSummary:
    """A model's runs at one test length: success (wins, runs, Wilson
    interval), and over the successful runs the step first solved at and
    the sparsity error, each (mean, low, high)."""

    wins: int
    runs: int
    success: tuple
    solved_at: tuple
    sparsity: tuple


def summarize_length(rows, length, limit):
    """The `LengthSummary` of `rows` at `length` against `limit`."""
    solved = [row for row in rows if row["test_mse"][length] < limit]
    steps = [first_solved_step(row, length, limit) for row in solved]
    sparsity = [row.get("sparsity_error") for row in solved]
    return LengthSummary(
        wins=len(solved),
        runs=len(rows),
        success=wilson_interval(len(solved), len(rows)),
        solved_at=mean_interval([step for step in steps if step is not None]),
        sparsity=mean_interval([error for error in sparsity if error is not None]),
    )


def _success(summary):
    _, low, high = summary.success
    return f"{summary.wins}/{summary.runs} [{100 * low:.0f}, {100 * high:.0f}] %"


def _mean_cell(triple):
    mean, low, high = triple
    if math.isnan(mean):
        return "—"
    if math.isnan(low):
        return format_number(mean)
    return f"{format_number(mean)} [{format_number(low)}, {format_number(high)}]"


def _model_labels(rows):
    """row -> its model, two versions of a unit of one's own apart
    (`success.unit_labels`)."""
    return success.unit_labels(rows, name=operator.itemgetter("model"))


def _groups(rows):
    groups = collections.defaultdict(list)
    label = _model_labels(rows)
    for row in rows:
        groups[label(row), row["input_regularization"]].append(row)
    return sorted(groups.items())


def _table(title, header, groups, cell):
    lines = ["", title, "", header, "|---|---:|" + "---:|" * (header.count("|") - 3)]
    for (model, rz), cells in groups:
        lines.append(
            f"| {model} | {rz:g} | " + " | ".join(cell(c) for c in cells) + " |"
        )
    return lines


def _section(task, steps, rows):
    limits = thresholds(rows)
    shown = [str(n) for n in SHOWN_LENGTHS[task] if str(n) in rows[0]["test_mse"]]
    header = "| model | λ_z | " + " | ".join(shown) + " |"
    lines = [
        "",
        f"#### {task}, {steps:,} steps",
        "",
        "Success per test length (runs below the threshold / runs, Wilson 95 % "
        "interval); thresholds from the solved-accumulator runs.",
        "",
        header,
        "|---|---:|" + "---:|" * len(shown),
        "| threshold | | "
        + " | ".join(format_number(limits.get(n)) for n in shown)
        + " |",
    ]
    if not limits:
        lines.append(
            "\n(Fewer than two solved-accumulator runs: no threshold. They "
            f"are made at this budget by `python -m benchmarks.sequential_mnist "
            f"--task {task} --model solved --max-steps {steps} --seeds 0-2 "
            f"--mnist {rows[0]['mnist']} --output solved.jsonl`.)"
        )
    else:
        judged = [
            (key, [summarize_length(members, n, limits[n]) for n in shown])
            for key, members in _groups(rows)
        ]
        lines += [
            f"| {model} | {rz:g} | " + " | ".join(_success(c) for c in cells) + " |"
            for (model, rz), cells in judged
        ]
        lines += _table(
            "Solved at (the first evaluated step below the threshold; mean "
            "[95 % t interval] over the successful runs):",
            header,
            judged,
            lambda c: _mean_cell(c.solved_at),
        )
        lines += _table(
            "Sparsity error of the recurrent unit at the best step (eq. 17; "
            "mean [95 % t interval] over the successful runs):",
            header,
            judged,
            lambda c: _mean_cell(c.sparsity),
        )
    medians = [
        (key, [float(np.median([r["test_mse"][n] for r in members])) for n in shown])
        for key, members in _groups(rows)
    ]
    lines += _table("Median test MSE:", header, medians, format_number)
    return lines


def _by_experiment(rows):
    groups = collections.defaultdict(list)
    for row in rows:
        groups[row["task"], row["max_steps"], row["mnist"]].append(row)
    return sorted(groups.items())


#: Our committed rows, beside which a unit of one's own is reported
#: (relative to `benchmarks/`).
COMMITTED_ROWS = (
    tuple(
        f"sequential_mnist/results/{task}_quick.jsonl"
        for task in ("mnist_product", "mnist_sum", "mnist_count", "mnist_add")
    )
    + tuple(
        f"sequential_mnist/results/{name}_hub_12000steps.jsonl"
        for name in (
            "mnist_product",
            "mnist_sum",
            "mnist_count",
            "mnist_count_linear_head",
            "mnist_add",
        )
    )
    + ("sequential_mnist/results/mnist_add_every_step_hub.jsonl",)
)


def _same_task_and_digits(row):
    return row["task"], row["mnist"]


def _same_task_digits_head_and_targets(row):
    return row["task"], row["mnist"], cnn_head(row), targets(row)


def sequential_mnist_markdown(rows):
    """Success per length against the solved accumulator; with units of
    one's own, beside our committed rows of the task and digits (each
    budget its own section, `rows.with_committed`)."""
    rows = with_committed(rows, COMMITTED_ROWS, _same_task_and_digits)
    lines = ["### Sequential MNIST (Madsen & Johansen §4.2, figures 4 and 13-15)"]
    for (task, steps, _), members in _by_experiment(rows):
        lines += _section(task, steps, members)
    return "\n".join(lines) + "\n"


def sequential_mnist_figures(rows, directory):
    """One PNG per task and steps, shaped like Madsen's figures 4 and
    13-15: success rate, solved at and sparsity error against the test
    length, per model (and λ_z), with 95 % intervals."""
    pyplot = load_pyplot()
    os.makedirs(directory, exist_ok=True)
    written = []
    for (task, steps, mnist), members in _by_experiment(rows):
        limits = thresholds(members)
        lengths = sorted((n for n in members[0]["test_mse"] if n in limits), key=int)
        if not lengths:
            continue
        figure, axes = pyplot.subplots(1, 3, figsize=(15, 4.2))
        panels = (
            ("success", "success rate"),
            ("solved_at", "solved at (step)"),
            ("sparsity", "sparsity error"),
        )
        x = [int(n) for n in lengths]
        for index, ((model, rz), group) in enumerate(_groups(members)):
            if model == "solved":
                continue
            cells = [summarize_length(group, n, limits[n]) for n in lengths]
            for axis, (field, _) in zip(axes, panels):
                triples = np.array([getattr(c, field) for c in cells], dtype=float)
                mean, low, high = triples.T
                axis.plot(
                    x, mean, "o-", ms=3, color=f"C{index}", label=f"{model}, λ_z={rz:g}"
                )
                axis.fill_between(x, low, high, color=f"C{index}", alpha=0.15)
        for axis, (_, title) in zip(axes, panels):
            axis.set_title(title)
            axis.set_xlabel("test sequence length")
            if max(x) / min(x) > 50:
                axis.set_xscale("log")
        axes[0].set_ylim(-0.05, 1.05)
        axes[2].legend(fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5))
        figure.suptitle(
            f"{task}: {steps:,} steps, digits from {mnist} (lines: means; "
            "bands: 95 % intervals)"
        )
        written.append(save_figure(pyplot, figure, directory, f"{task}_{steps}"))
    return written


def _table10():
    with open(published_table("sequential_mnist", "trask2018_table10.csv")) as handle:
        return {(row["task"], row["model"]): row for row in csv.DictReader(handle)}


def _median_of(rows, field, length):
    return float(np.median([row[field][length] for row in rows]))


def _classified(row):
    """The share of single digits a row's model reads right: counting's
    `test_classification` (None in rows made before it was recorded),
    addition's accuracy at length 1 (one output: the digit itself)."""
    if row["task"] == "mnist_count":
        return row.get("test_classification")
    return row["test_accuracy"]["1"]


def _median_classified(rows):
    shares = [_classified(row) for row in rows]
    if None in shares:
        return "—"
    return f"{100 * float(np.median(shares)):.1f}"


def counting_markdown(rows):
    """Trask table 10: the digits classified at length 1 (the paper's
    "Classification"), the sequences counted or summed exactly at length
    1, MSE at 10, 100 and 1 000 (medians over seeds; the paper's in
    brackets), a section per CNN head and targets; with units of one's
    own, beside our committed rows of the task, digits, head and
    targets."""
    rows = with_committed(rows, COMMITTED_ROWS, _same_task_digits_head_and_targets)
    published = _table10()
    lines = ["### MNIST counting and addition (Trask et al. app. C, table 10)"]
    sections = collections.defaultdict(lambda: collections.defaultdict(list))
    label = _model_labels(rows)
    for row in rows:
        section = (row["task"], row["max_steps"], row["mnist"], cnn_head(row))
        sections[(*section, targets(row))][label(row)].append(row)
    for (task, steps, mnist, head, trained_on), models in sorted(
        sections.items(), key=_final_targets_first
    ):
        lines += [
            "",
            f"#### {task}, {steps:,} steps, digits from {mnist}, CNN head {head}, "
            f"{trained_on} targets",
            "",
            "| model | seeds | classified, length 1 (%) | exact, length 1 (%) "
            "| MSE, 10 | MSE, 100 | MSE, 1 000 |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for model, members in sorted(models.items()):
            paper = published.get((task, model), {})
            cells = [
                f"{_median_classified(members)} ({paper.get('accuracy_1', '—')})",
                f"{100 * _median_of(members, 'test_accuracy', '1'):.1f}",
            ]
            cells += [
                f"{format_number(_median_of(members, 'test_mse', n))} "
                f"({paper.get(f'mse_{n}', '—')})"
                for n in ("10", "100", "1000")
            ]
            lines.append(f"| {model} | {len(members)} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _final_targets_first(section):
    (*experiment, trained_on), _ = section
    return (*experiment, TARGETS.index(trained_on))


REPORTS = (
    TaskReport(
        ("mnist_product", "mnist_sum"),
        sequential_mnist_markdown,
        sequential_mnist_figures,
    ),
    TaskReport(("mnist_count", "mnist_add"), counting_markdown),
)
