"""The report of Trask et al.'s identity experiment (table 5)."""

import collections
import csv
import os

import numpy as np
from scipy import stats

from benchmarks.core.formatting import format_number
from benchmarks.core.formatting import load_pyplot
from benchmarks.core.formatting import published_table
from benchmarks.core.formatting import save_figure
from benchmarks.core.rows import generator_name
from benchmarks.core.task import TaskReport


def _published():
    with open(published_table("identity", "trask2018_table5.csv")) as handle:
        return {row["activation"]: row for row in csv.DictReader(handle)}


def _mean_with_interval(errors):
    mean = float(np.mean(errors))
    if len(errors) < 2 or np.std(errors) == 0:
        return mean, format_number(mean)
    low, high = stats.t.interval(
        0.95, len(errors) - 1, loc=mean, scale=stats.sem(errors)
    )
    return mean, f"{format_number(mean)} [{format_number(low)}, {format_number(high)}]"


def t_test(errors, published):
    """The p-value of a one-sample t-test of our errors against the paper's
    mean: two-sided, or, for a published bound "<b", that our mean exceeds
    b; None where our errors do not vary."""
    if len(errors) < 2 or np.std(errors) == 0:
        return None
    if published.startswith("<"):
        bound = float(published[1:])
        return stats.ttest_1samp(errors, bound, alternative="greater").pvalue
    return stats.ttest_1samp(errors, float(published)).pvalue


def _t_test_cell(errors, published):
    p = t_test(errors, published)
    return "—" if p is None else f"{p:.2g}{' ⚑' if p < 0.05 else ''}"


def percent_error(mean_absolute_error):
    """Table 5's "% error": the mean absolute error over the mean absolute
    value of the test integers -1000..1000 (about 500), in percent."""
    return mean_absolute_error / 5


def percent_errors(rows):
    """{activation: `percent_error` of its rows' mean absolute error}."""
    return {
        activation: percent_error(float(np.mean(errors)))
        for activation, errors in _errors_by_activation(rows).items()
    }


def _errors_by_activation(rows):
    groups = collections.defaultdict(list)
    for row in rows:
        groups[row["activation"]].append(row["mean_absolute_error"])
    return groups


def outside_published(rows):
    """{activation: whether the paper's mean differs from ours at p < 0.05}
    over rows of one setting (defaults, schedule, generator, steps)."""
    published = _published()
    flags = {}
    for activation, errors in _errors_by_activation(rows).items():
        p = t_test(errors, published[activation]["mean_absolute_error"])
        flags[activation] = p is not None and p < 0.05
    return flags


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
        test = _t_test_cell(errors, paper["mean_absolute_error"])
        lines.append(
            f"| {activation} | {defaults} | {schedule} | {generator} | {steps:,} "
            f"| {len(errors)} "
            f"| {error} | {paper['mean_absolute_error']} | {test} "
            f"| {format_number(percent_error(mean))} | {paper['error_percent']} |"
        )
    return "\n".join(lines) + "\n"


def identity_figure(rows, directory):
    """`identity_table5.png`: each activation's mean absolute error with
    its 95 % interval (dots, log scale) beside the paper's (crosses; a
    bound the paper prints, "<0.0001", at its value), as table 5 lists
    them; rows of one setting."""
    pyplot = load_pyplot()
    os.makedirs(directory, exist_ok=True)
    published = _published()
    errors = _errors_by_activation(rows)
    activations = [activation for activation in published if activation in errors]
    figure, axis = pyplot.subplots(figsize=(9, 4.2))
    for x, activation in enumerate(activations):
        values = errors[activation]
        mean = float(np.mean(values))
        low, high = (mean, mean)
        if len(values) > 1 and np.std(values) > 0:
            low, high = stats.t.interval(
                0.95, len(values) - 1, loc=mean, scale=stats.sem(values)
            )
        axis.errorbar(
            x,
            mean,
            yerr=[[mean - low], [high - mean]],
            fmt="o",
            ms=4,
            capsize=2,
            color="C0",
        )
        paper = published[activation]["mean_absolute_error"].lstrip("<")
        axis.scatter(x, float(paper), marker="x", s=30, color="C3")
    axis.set_yscale("log")
    axis.set_xticks(range(len(activations)), activations)
    axis.tick_params(axis="x", rotation=60)
    axis.set_ylabel("mean absolute error on −1 000…1 000")
    axis.set_title(
        "Learning the identity (dots: ours, 95 % CI; crosses: Trask et al. table 5)"
    )
    return [save_figure(pyplot, figure, directory, "identity_table5")]


REPORTS = (TaskReport(("identity",), identity_markdown, identity_figure),)
