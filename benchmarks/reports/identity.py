"""The report of Trask et al.'s identity experiment (table 5)."""

import collections
import csv
import os

from scipy import stats

from benchmarks.reports import register
from benchmarks.reports.success import PUBLISHED


def identity_markdown(rows):
    """Trask table 5: mean absolute error on -1000..1000, per activation."""
    with open(os.path.join(PUBLISHED, "trask2018_table5.csv")) as handle:
        published = {row["activation"]: row for row in csv.DictReader(handle)}
    groups = collections.defaultdict(list)
    for row in rows:
        groups[(row["activation"], row["max_steps"])].append(row["mean_absolute_error"])
    lines = [
        "### Learning the identity (Trask et al. table 5)",
        "",
        "| activation | steps | seeds | mean absolute error (95 % CI) | paper "
        "| % error | paper |",
        "|---|---:|---:|---|---:|---:|---:|",
    ]
    order = list(published)
    for (activation, steps), errors in sorted(
        groups.items(), key=lambda item: (order.index(item[0][0]), item[0][1])
    ):
        mean = sum(errors) / len(errors)
        if len(errors) > 1:
            low, high = stats.t.interval(
                0.95, len(errors) - 1, loc=mean, scale=stats.sem(errors)
            )
            error = f"{mean:.2f} [{low:.2f}, {high:.2f}]"
        else:
            error = f"{mean:.2f}"
        paper = published[activation]
        lines.append(
            f"| {activation} | {steps:,} | {len(errors)} | {error} "
            f"| {paper['mean_absolute_error']} | {mean / 5:.1f} "
            f"| {paper['error_percent']} |"
        )
    return "\n".join(lines) + "\n"


register(("identity",), identity_markdown)
