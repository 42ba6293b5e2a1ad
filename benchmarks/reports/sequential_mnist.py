"""The reports of the MNIST sequence tasks: Madsen & Johansen's (2020,
§4.2, app. D, figures 4 and 13-15), success per test length against the
solved accumulator's threshold; Trask et al.'s counting and addition
(app. C, table 10)."""

import collections
import csv
import math
import os

import numpy as np

from benchmarks.reports import register
from benchmarks.reports.success import PUBLISHED
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


def _table10():
    with open(os.path.join(PUBLISHED, "trask2018_table10.csv")) as handle:
        return {(row["task"], row["model"]): row for row in csv.DictReader(handle)}


def _median_of(rows, field, length):
    return float(np.median([row[field][length] for row in rows]))


def counting_markdown(rows):
    """Trask table 10: accuracy at length 1, MSE at 10, 100 and 1 000
    (medians over seeds; the paper's in brackets)."""
    published = _table10()
    lines = ["### MNIST counting and addition (Trask et al. app. C, table 10)"]
    groups = collections.defaultdict(list)
    for row in rows:
        groups[row["task"], row["max_steps"], row["mnist"], row["model"]].append(row)
    sections = sorted({key[:3] for key in groups})
    for task, steps, mnist in sections:
        lines += [
            "",
            f"#### {task}, {steps:,} steps, digits from {mnist}",
            "",
            "| model | seeds | accuracy, length 1 (%) "
            "| MSE, 10 | MSE, 100 | MSE, 1 000 |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for (t, s, m, model), members in sorted(groups.items()):
            if (t, s, m) != (task, steps, mnist):
                continue
            paper = published.get((task, model), {})
            cells = [
                f"{100 * _median_of(members, 'test_accuracy', '1'):.1f} "
                f"({paper.get('accuracy_1', '—')})"
            ]
            cells += [
                f"{format_number(_median_of(members, 'test_mse', n))} "
                f"({paper.get(f'mse_{n}', '—')})"
                for n in ("10", "100", "1000")
            ]
            lines.append(f"| {model} | {len(members)} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


register(("mnist_count", "mnist_add"), counting_markdown)
