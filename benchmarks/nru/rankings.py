"""The shape of the NRU paper's table 1 (Chandar et al. 2019: in how many
of its 7 tasks each model is among the top 1 and the top 2), computed from
our rows: each file is one task, its models ranked among those that ran it.

Ranks: a synthetic task (copy, variable copy, denoising) by the fraction of
runs that converged (`synthetic_report.converged_at`), then the median step
at which they did, then the median best validation cross-entropy; psMNIST
by the mean test accuracy at the best validation step; the Penn Treebank
by the mean test BPC. The paper does not say how it ranked its figures;
this order is ours."""

import collections
import csv
import math

import numpy as np

from benchmarks.core.claim_rows import spaced
from benchmarks.core.formatting import published_table
from benchmarks.nru.definitions import MODELS
from benchmarks.nru.definitions import in_table_order
from benchmarks.nru.synthetic_report import TASK_TITLES
from benchmarks.nru.synthetic_report import converged_at


def _synthetic_key(members):
    steps = [converged_at(row) for row in members]
    reached = [step for step in steps if step is not None]
    return (
        -len(reached) / len(members),
        float(np.median(reached)) if reached else math.inf,
        float(np.median([row["best_cross_entropy"] for row in members])),
    )


def _key(task, members):
    if task == "psmnist":
        return (-float(np.mean([row["accuracy"] for row in members])),)
    if task == "ptb":
        bpcs = [row["bpc"] for row in members]
        return (float(np.mean(bpcs)) if None not in bpcs else math.inf,)
    return _synthetic_key(members)


def ranking(rows):
    """[(model, key)] of one task's rows, best first."""
    by_model = collections.defaultdict(list)
    for row in rows:
        by_model[row["model"]].append(row)
    tasks = {row["task"] for row in rows}
    if len(tasks) != 1:
        raise ValueError(f"A ranking is of one task; these rows hold {sorted(tasks)}.")
    task = tasks.pop()
    keyed = [(model, _key(task, members)) for model, members in by_model.items()]
    return sorted(keyed, key=lambda item: item[1])


def top(ranked, places):
    """The models whose key is among the `places` best keys (ties share)."""
    keys = sorted({key for _, key in ranked})[:places]
    return [model for model, key in ranked if key in keys]


def _task_name(rows):
    """A task's title; a synthetic task's with its length of run."""
    row = rows[0]
    if row["task"] in TASK_TITLES:
        steps = spaced(row["max_steps"])
        return f"{TASK_TITLES[row['task']]} T = {row['T']}, {steps} steps"
    return {"psmnist": "psMNIST", "ptb": "Penn Treebank"}.get(row["task"], row["task"])


def _published():
    with open(published_table("nru", "chandar2019_table1.csv")) as handle:
        return {row["model"]: row for row in csv.DictReader(handle)}


def table_one(tasks):
    """Markdown: per model, the tasks it ran and in how many it is top 1
    and top 2 (ours), beside the paper's table 1; then each task's order.
    `tasks`: [rows of one task]."""
    rankings = [(_task_name(rows), ranking(rows)) for rows in tasks]
    counts = collections.defaultdict(lambda: [0, 0, 0])
    for _, ranked in rankings:
        for model, _ in ranked:
            counts[model][0] += 1
        for place, column in ((1, 1), (2, 2)):
            for model in top(ranked, place):
                counts[model][column] += 1
    published = _published()
    lines = [
        "| model | tasks run | top 1 (ours) | top 2 (ours) | top 1 (paper, of 7) "
        "| top 2 (paper, of 7) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for model in (*MODELS, *(m for m in counts if m not in MODELS)):
        ran, first, second = counts.get(model, (0, 0, 0))
        paper = published.get(model, {})
        lines.append(
            f"| {model} | {ran} | {first} | {second} | {paper.get('top1', '-')} "
            f"| {paper.get('top2', '-')} |"
        )
    lines += ["", "Order per task (best first):", ""]
    lines += [
        f"- {name}: {', '.join(model for model, _ in ranked)}"
        for name, ranked in rankings
    ]
    return "\n".join(lines)


def _published_metrics():
    """{(task, model): the paper's number}: psMNIST's test accuracy (table
    3) and the Penn Treebank's test BPC (table 2)."""
    found = {}
    for task, table, column in (
        ("psmnist", "chandar2019_table3.csv", "test_accuracy"),
        ("ptb", "chandar2019_table2.csv", "bpc"),
    ):
        with open(published_table("nru", table)) as handle:
            for row in csv.DictReader(handle):
                if row.get(column):
                    found[task, row["model"]] = row[column]
    return found


def _task_cell(task, members, paper):
    """Our result of one model on one task, and the paper's where it gives
    one: runs converged ("2 of 3"), psMNIST's mean test accuracy ("91.2 %
    · 94.5 %"), the Penn Treebank's mean test BPC ("1.62 · 1.47")."""
    if not members:
        return "—"
    if task == "psmnist":
        ours = f"{100 * np.mean([row['accuracy'] for row in members]):.1f} %"
        return ours + (f" · {paper} %" if paper else "")
    if task == "ptb":
        ours = f"{np.mean([row['bpc'] for row in members]):.2f}"
        return ours + (f" · {paper}" if paper else "")
    reached = sum(converged_at(row) is not None for row in members)
    return f"{reached} of {len(members)}"


def _column_name(rows):
    """A task's column: "copying memory T = 100 (converged)", "psMNIST
    (test accuracy)", "Penn Treebank (test BPC)"."""
    task = rows[0]["task"]
    if task in TASK_TITLES:
        return f"{TASK_TITLES[task]} T = {rows[0]['T']} (converged)"
    return {"psmnist": "psMNIST (test accuracy)", "ptb": "Penn Treebank (test BPC)"}[
        task
    ]


def task_table(tasks):
    """Markdown: a row per model, a column per task (`tasks`: [rows of one
    task]), each cell our result beside the paper's where it prints one
    (`_task_cell`)."""
    published = _published_metrics()
    names = [_column_name(rows) for rows in tasks]
    models = in_table_order({row["model"] for rows in tasks for row in rows})
    lines = [
        "| model | " + " | ".join(names) + " |",
        "|---|" + "---:|" * len(names),
    ]
    for model in models:
        cells = []
        for rows in tasks:
            task = rows[0]["task"]
            members = [row for row in rows if row["model"] == model]
            cells.append(_task_cell(task, members, published.get((task, model))))
        lines.append(f"| {model} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
