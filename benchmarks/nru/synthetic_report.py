"""The report of the NRU paper's synthetic tasks (Chandar et al. 2019, "Experiments"):
per task, T and training length, each model's validation cross-entropy at
the end and at its best, the step at which it converged, and figures shaped
like the paper's figures 1, 2 and 4 (cross-entropy against steps, the
random baseline drawn) and 3 (steps to converge)."""

import collections
import operator
import os

import numpy as np

from benchmarks.core.formatting import format_number
from benchmarks.core.formatting import load_pyplot
from benchmarks.core.formatting import save_figure
from benchmarks.core.rows import with_committed
from benchmarks.core.task import TaskReport
from benchmarks.nru.definitions import in_table_order
from benchmarks.static_arithmetic import success

#: A run has converged at the first evaluation whose validation
#: cross-entropy is below this fraction of the random baseline (the paper
#: does not define the criterion of its figure 3; chosen here).
CONVERGED = 0.1
TASK_TITLES = {
    "copy": "Copying memory",
    "variable_copy": "Variable copying",
    "denoise": "Denoising",
}


def converged_at(row):
    """The first evaluated step with validation cross-entropy below
    CONVERGED x the random baseline, or None."""
    limit = CONVERGED * row["random_baseline"]
    for step, value in zip(
        row["evaluation_steps"], row["validation_cross_entropy_series"]
    ):
        if value < limit:
            return step
    return None


#: Our committed rows of the synthetic tasks, beside which a unit or cell
#: of one's own is reported (relative to `benchmarks/`).
COMMITTED_ROWS = tuple(
    f"nru/results/{name}.jsonl"
    for name in (
        "copy_T100",
        "copy_T100_200k",
        "copy_T200",
        "denoise_T100",
        "variable_copy_T100",
        "variable_copy_T100_200k",
    )
)


def _experiments(rows):
    """{(task, T, steps): {model: [rows]}}, models in the paper's order,
    then the others by name (two versions of a cell of one's own are two
    models, `success.unit_labels`)."""
    found = collections.defaultdict(lambda: collections.defaultdict(list))
    label = success.unit_labels(rows, name=operator.itemgetter("model"))
    for row in rows:
        found[row["task"], row["T"], row["max_steps"]][label(row)].append(row)
    for key, models in sorted(found.items()):
        yield key, {m: models[m] for m in in_table_order(models)}


def mean_range(values):
    values = np.asarray(values, dtype=float)
    text = format_number(float(values.mean()))
    if len(values) > 1:
        text += f" ({format_number(values.min())}-{format_number(values.max())})"
    return text


def _convergence_cell(members):
    steps = [converged_at(row) for row in members]
    reached = [step for step in steps if step is not None]
    if not reached:
        return f"0 of {len(steps)}"
    return f"{len(reached)} of {len(steps)}, median {int(np.median(reached)):,}"


def nru_markdown(rows):
    lines = ["### The NRU paper's synthetic tasks (Chandar et al. 2019)"]
    rows = with_committed(rows, COMMITTED_ROWS, lambda row: (row["task"], row["T"]))
    for (task, T, steps), models in _experiments(rows):
        baseline = next(iter(models.values()))[0]["random_baseline"]
        lines += [
            "",
            f"#### {TASK_TITLES.get(task, task)}, T = {T}, {steps:,} steps",
            "",
            f"Validation cross-entropy per scored step (natural log; 1 000 "
            f"fixed sequences; random baseline {baseline:.3f}): mean over "
            f"seeds (min-max). Converged: the first evaluation (every 1 000 "
            f"steps) below {CONVERGED:g} x the random baseline.",
            "",
            "| model | runs | parameters | final | best | final accuracy "
            "| converged at |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for model, members in models.items():
            lines.append(
                f"| {model} | {len(members)} | {members[0]['parameters']:,} | "
                f"{mean_range([r['cross_entropy'] for r in members])} | "
                f"{mean_range([r['best_cross_entropy'] for r in members])} | "
                f"{mean_range([r['accuracy'] for r in members])} | "
                f"{_convergence_cell(members)} |"
            )
    return "\n".join(lines) + "\n"


def _curves(pyplot, task, T, steps, models, directory):
    figure, axis = pyplot.subplots(figsize=(7.5, 4.5))
    baseline = next(iter(models.values()))[0]["random_baseline"]
    for index, (model, members) in enumerate(models.items()):
        x = np.asarray(members[0]["evaluation_steps"])
        curves = np.array([r["validation_cross_entropy_series"] for r in members])
        axis.plot(
            x, curves.mean(0), color=f"C{index}", label=f"{model} ({len(members)})"
        )
        if len(members) > 1:
            axis.fill_between(
                x, curves.min(0), curves.max(0), color=f"C{index}", alpha=0.15
            )
    axis.axhline(baseline, color="k", ls="--", lw=1, label="random baseline")
    axis.set_ylim(0, 1.6 * baseline)
    axis.set_xlabel("training step")
    axis.set_ylabel("validation cross-entropy")
    axis.set_title(
        f"{TASK_TITLES.get(task, task)}, T = {T} (lines: mean over seeds; "
        "bands: min-max)",
        fontsize=10,
    )
    axis.legend(fontsize=8)
    return save_figure(pyplot, figure, directory, f"{task}_T{T}_{steps}")


def _convergence(pyplot, experiments, directory):
    """Figure 3's shape: the median step to converge of each model per
    experiment over its converged runs, labelled with how many converged of
    how many ran (no bar: none converged)."""
    figure, axis = pyplot.subplots(figsize=(8, 4.5))
    names = in_table_order({m for _, models in experiments for m in models})
    width = 0.8 / len(names)
    labels, labelled = [], set()
    for position, ((task, T, steps), models) in enumerate(experiments):
        labels.append(f"{task}\nT = {T}")
        for index, model in enumerate(names):
            runs = models.get(model, [])
            reached = [s for s in map(converged_at, runs) if s is not None]
            if reached:
                bar = axis.bar(
                    position + index * width,
                    np.median(reached),
                    width,
                    color=f"C{index}",
                    label=None if model in labelled else model,
                )
                axis.bar_label(bar, [f"{len(reached)}/{len(runs)}"], fontsize=7)
                labelled.add(model)
    axis.set_xticks([p + 0.4 - width / 2 for p in range(len(labels))], labels)
    axis.set_ylabel("steps to converge (median over seeds)")
    axis.set_title(
        f"Steps until the validation cross-entropy < {CONVERGED:g} x baseline"
    )
    axis.legend(fontsize=8)
    return save_figure(pyplot, figure, directory, "steps_to_converge")


def nru_figures(rows, directory):
    pyplot = load_pyplot()
    os.makedirs(directory, exist_ok=True)
    experiments = list(_experiments(rows))
    written = [
        _curves(pyplot, task, T, steps, models, directory)
        for (task, T, steps), models in experiments
    ]
    written.append(_convergence(pyplot, experiments, directory))
    return written


REPORTS = (TaskReport(tuple(TASK_TITLES), nru_markdown, nru_figures),)
