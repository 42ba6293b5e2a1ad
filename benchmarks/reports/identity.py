"""The report of Trask et al.'s identity experiment (table 5)."""

import collections
import csv
import os

import numpy as np
from scipy import stats

from benchmarks.reports import register
from benchmarks.reports.success import PUBLISHED
from benchmarks.reports.success import format_number
from benchmarks.rows import generator_name


def _published():
    with open(os.path.join(PUBLISHED, "trask2018_table5.csv")) as handle:
        return {row["activation"]: row for row in csv.DictReader(handle)}


def _mean_with_interval(errors):
    mean = float(np.mean(errors))
    if len(errors) < 2 or np.std(errors) == 0:
        return mean, format_number(mean)
    low, high = stats.t.interval(
        0.95, len(errors) - 1, loc=mean, scale=stats.sem(errors)
    )
    return mean, f"{format_number(mean)} [{format_number(low)}, {format_number(high)}]"


def _t_test(errors, published):
    """A one-sample t-test of our errors against the paper's mean: two-sided,
    or, for a published bound "<b", that our mean exceeds b."""
    if len(errors) < 2 or np.std(errors) == 0:
        return "—"
    if published.startswith("<"):
        bound = float(published[1:])
        p = stats.ttest_1samp(errors, bound, alternative="greater").pvalue
    else:
        p = stats.ttest_1samp(errors, float(published)).pvalue
    return f"{p:.2g}{' ⚑' if p < 0.05 else ''}"


def identity_markdown(rows):
    """Trask table 5: mean absolute error on -1000..1000, per activation,
    with a one-sample t-test against the published mean (⚑: p < 0.05)."""
    published = _published()
    groups = collections.defaultdict(list)
    for row in rows:
        key = (
            row["activation"],
            row.get("defaults", "keras"),
            row.get("schedule", "constant"),
            generator_name(row),
            row["max_steps"],
        )
        groups[key].append(row["mean_absolute_error"])
    lines = [
        "### Learning the identity (Trask et al. table 5)",
        "",
        "| activation | defaults | learning rate | generator | steps | seeds "
        "| mean absolute error (95 % CI) | paper | p (t-test) | % error | paper |",
        "|---|---|---|---|---:|---:|---|---:|---:|---:|---:|",
    ]
    order = list(published)
    for (activation, defaults, schedule, generator, steps), errors in sorted(
        groups.items(), key=lambda item: (order.index(item[0][0]), item[0][1:])
    ):
        mean, error = _mean_with_interval(errors)
        paper = published[activation]
        test = _t_test(errors, paper["mean_absolute_error"])
        lines.append(
            f"| {activation} | {defaults} | {schedule} | {generator} | {steps:,} "
            f"| {len(errors)} "
            f"| {error} | {paper['mean_absolute_error']} | {test} "
            f"| {format_number(mean / 5)} | {paper['error_percent']} |"
        )
    return "\n".join(lines) + "\n"


register(("identity",), identity_markdown)
