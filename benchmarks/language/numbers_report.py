"""The report of Trask et al.'s language-to-number task (app. D, table
11): per model, the run of lowest validation MAE over sizes, learning
rates and seeds, as the paper selects."""

import collections
import csv

import numpy as np

from benchmarks.core.formatting import format_number
from benchmarks.core.formatting import published_table
from benchmarks.core.task import TaskReport

SETS = ("train", "validation", "test")


def _published():
    path = published_table("language", "trask2018_table11.csv")
    with open(path) as handle:
        return {row["model"]: row for row in csv.DictReader(handle)}


def language_markdown(rows):
    published = _published()
    lines = ["### Language to number (Trask et al. app. D, table 11)"]
    by_steps = collections.defaultdict(lambda: collections.defaultdict(list))
    for row in rows:
        by_steps[row["max_steps"], row["split_seed"]][row["model"]].append(row)
    for (steps, split_seed), models in sorted(by_steps.items()):
        lines += [
            "",
            f"#### {steps:,} steps, split seed {split_seed}",
            "",
            "The run of lowest validation MAE per model (size, learning rate, "
            "seed), its MAE on each split (the paper's in brackets), and the "
            "median test MAE of all its runs.",
            "",
            "| model | runs | chosen | train MAE | validation MAE | test MAE "
            "| median test MAE |",
            "|---|---:|---|---:|---:|---:|---:|",
        ]
        for model, members in sorted(models.items()):
            best = min(members, key=lambda row: row["validation_mae"])
            paper = published.get(model, {})
            cells = [
                f"{format_number(best[f'{name}_mae'])}"
                + (f" ({paper[f'{name}_mae']})" if paper else "")
                for name in SETS
            ]
            chosen = (
                f"{best['size']} units, lr {best['learning_rate']:g}, "
                f"seed {best['seed']}"
            )
            median = format_number(float(np.median([r["test_mae"] for r in members])))
            lines.append(
                f"| {model} | {len(members)} | {chosen} | "
                + " | ".join(cells)
                + f" | {median} |"
            )
    return "\n".join(lines) + "\n"


REPORTS = (TaskReport(("language_to_number",), language_markdown),)
