"""The report of the sequential MNIST tasks (Madsen & Johansen 2020, §4.2,
app. D, figures 4 and 13-15): success per test length against the solved
accumulator's threshold."""

import collections
import math

import numpy as np

from benchmarks.reports import register
from benchmarks.reports.success import format_number
from keras_nalm.evaluation import solved_accumulator_threshold
from keras_nalm.evaluation import wilson_interval

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


def _success(rows, length, limit):
    if limit is None:
        return "—"
    wins = sum(row["test_mse"][length] < limit for row in rows)
    _, low, high = wilson_interval(wins, len(rows))
    return f"{wins}/{len(rows)} [{100 * low:.0f}, {100 * high:.0f}] %"


def _section(task, steps, rows):
    limits = thresholds(rows)
    shown = [str(n) for n in SHOWN_LENGTHS[task] if str(n) in rows[0]["test_mse"]]
    lines = [
        "",
        f"#### {task}, {steps:,} steps",
        "",
        "Success per test length (runs below the threshold / runs, Wilson 95 % "
        "interval); thresholds from the solved-accumulator runs.",
        "",
        "| model | λ_z | " + " | ".join(shown) + " |",
        "|---|---:|" + "---:|" * len(shown),
        "| threshold | | "
        + " | ".join(format_number(limits.get(n)) for n in shown)
        + " |",
    ]
    groups = collections.defaultdict(list)
    for row in rows:
        groups[row["model"], row["input_regularization"]].append(row)
    for (model, rz), members in sorted(groups.items()):
        cells = [_success(members, n, limits.get(n)) for n in shown]
        lines.append(f"| {model} | {rz:g} | " + " | ".join(cells) + " |")
    if not limits:
        lines.append("\n(Fewer than two solved-accumulator runs: no threshold.)")
    lines += ["", "Median test MSE:", "", "| model | λ_z | " + " | ".join(shown) + " |"]
    lines.append("|---|---:|" + "---:|" * len(shown))
    for (model, rz), members in sorted(groups.items()):
        medians = [
            format_number(float(np.median([r["test_mse"][n] for r in members])))
            for n in shown
        ]
        lines.append(f"| {model} | {rz:g} | " + " | ".join(medians) + " |")
    return lines


def sequential_mnist_markdown(rows):
    lines = ["### Sequential MNIST (Madsen & Johansen §4.2, figures 4 and 13-15)"]
    groups = collections.defaultdict(list)
    for row in rows:
        groups[row["task"], row["max_steps"], row["mnist"]].append(row)
    for (task, steps, _), members in sorted(groups.items()):
        lines += _section(task, steps, members)
    return "\n".join(lines) + "\n"


register(("mnist_product", "mnist_sum"), sequential_mnist_markdown)
