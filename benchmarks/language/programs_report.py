"""The report of Trask et al.'s program evaluation (app. E, figure 6): per
task, training length and model, the MAE and the accuracy of the rounded
result on each range of operand digits (the training range first, then
the extrapolation ranges), mean ± 2 standard deviations over the runs, and
a figure shaped like figure 6 (MAE against the operands' digits, one band
per model). The paper gives no numbers, only the figure."""

import collections

import numpy as np

from benchmarks.core.formatting import format_number
from benchmarks.core.formatting import load_pyplot
from benchmarks.core.formatting import save_figure
from benchmarks.core.task import TaskReport

TITLES = {"program_add": "Addition programs", "program_if": "If-then-else programs"}


def experiments(rows):
    """{(task, steps): {model: [rows]}}, models in first-seen order."""
    found = collections.defaultdict(dict)
    for row in rows:
        found[row["task"], row["max_steps"]].setdefault(row["model"], []).append(row)
    return dict(sorted(found.items()))


def _band(values):
    """mean ± 2σ over the runs (σ with ddof 1; the mean alone for one)."""
    values = np.asarray(values, dtype=float)
    text = format_number(float(values.mean()))
    if len(values) > 1:
        text += f" ± {format_number(2 * float(values.std(ddof=1)))}"
    return text


def program_table(models):
    """The markdown table of one experiment, `{model: [rows]}`: MAE and
    accuracy per range of operand digits, mean ± 2σ over the runs."""
    ranges = list(next(iter(models.values()))[0]["mae"])
    lines = [
        "| model | runs | "
        + " | ".join(f"MAE {r}" for r in ranges)
        + " | "
        + " | ".join(f"acc. {r}" for r in ranges)
        + " |",
        "|---|---:|" + "---:|" * (2 * len(ranges)),
    ]
    for model, members in models.items():
        maes = [_band([row["mae"][r] for row in members]) for r in ranges]
        accuracies = [_band([row["accuracy"][r] for row in members]) for r in ranges]
        lines.append(
            f"| {model} | {len(members)} | " + " | ".join(maes + accuracies) + " |"
        )
    return lines


def programs_markdown(rows):
    lines = ["### Program evaluation (Trask et al. 2018, app. E, figure 6)"]
    for (task, steps), models in experiments(rows).items():
        first = next(iter(models.values()))[0]
        lines += [
            "",
            f"#### {TITLES.get(task, task)}, {steps:,} steps",
            "",
            "MAE, then accuracy of the rounded result, per number of operand "
            f"digits (training: {list(first['mae'])[0]}); mean ± 2σ over the "
            "runs, at each run's step of lowest validation MAE.",
            "",
            *program_table(models),
        ]
    return "\n".join(lines) + "\n"


def programs_figures(rows, directory):
    pyplot = load_pyplot()
    paths = []
    for (task, steps), models in experiments(rows).items():
        figure, axis = pyplot.subplots(figsize=(6.5, 4.2))
        for model, members in models.items():
            ranges = list(members[0]["mae"])
            values = np.array([[row["mae"][r] for r in ranges] for row in members])
            mean = values.mean(axis=0)
            spread = 2 * values.std(axis=0, ddof=1) if len(members) > 1 else 0 * mean
            positions = np.arange(len(ranges))
            axis.plot(positions, mean, marker="o", label=f"{model} ({len(members)})")
            axis.fill_between(
                positions, np.maximum(mean - spread, 1e-3), mean + spread, alpha=0.2
            )
        axis.set_xticks(positions, ranges)
        axis.set_yscale("log")
        axis.set_xlabel("operand digits (training range first)")
        axis.set_ylabel("MAE (mean ± 2σ)")
        axis.set_title(f"{TITLES.get(task, task)}, {steps:,} steps")
        axis.legend()
        paths.append(save_figure(pyplot, figure, directory, f"{task}_{steps}"))
    return paths


REPORTS = (TaskReport(tuple(TITLES), programs_markdown, programs_figures),)
