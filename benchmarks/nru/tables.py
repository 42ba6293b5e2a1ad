"""The NRU paper's tables (Chandar et al. 2019): character-level PTB
(table 2: test BPC and accuracy at the best validation epoch) and psMNIST
(table 3: validation and test accuracy at the best validation step), ours
(mean over seeds, min-max) beside the published values. Models the paper
reports that a file has no row of keep their published row."""

import collections
import csv
import operator

from benchmarks.core.formatting import published_table
from benchmarks.core.task import TaskReport
from benchmarks.nru.definitions import in_table_order
from benchmarks.nru.synthetic_report import mean_range
from benchmarks.static_arithmetic import success


def _published(name):
    with open(published_table("nru", name)) as handle:
        return {row["model"]: row for row in csv.DictReader(handle)}


def _groups(rows):
    """{(scale description): {model: [rows]}} in the paper's model order,
    then the others by name (two versions of a cell of one's own are two
    models, `success.unit_labels`)."""
    found = collections.defaultdict(lambda: collections.defaultdict(list))
    label = success.unit_labels(rows, name=operator.itemgetter("model"))
    for row in rows:
        found[_scale(row)][label(row)].append(row)
    return {
        scale: {m: models[m] for m in in_table_order(models)}
        for scale, models in sorted(found.items())
    }


def _scale(row):
    if row["task"] == "ptb":
        characters = f"{row['ptb_characters']:,}" if row["ptb_characters"] else "all"
        return (
            f"{characters} training characters, {row['epochs']} epochs, "
            f"models at 1/{row['ptb_scale']} of the paper's units"
        )
    return f"{row['max_steps']:,} steps, MNIST from {row['mnist']}"


def _table(rows, title, published, columns):
    """`columns`: [(heading, row key, published key, scale)]."""
    lines = [f"### {title}"]
    for scale, models in _groups(rows).items():
        lines += ["", f"#### {scale}", ""]
        headings = " | ".join(f"{h} (ours) | {h} (paper)" for h, *_ in columns)
        lines += [
            f"| model | runs | parameters | {headings} |",
            "|---|---:|---:|" + "---:|---:|" * len(columns),
        ]
        for model in (*models, *(m for m in published if m not in models)):
            members = models.get(model, [])
            cells = []
            for _, key, paper_key, factor in columns:
                cells += [_our_cell(members, key, factor)]
                cells += [published.get(model, {}).get(paper_key, "-")]
            parameters = f"{members[0]['parameters']:,}" if members else "-"
            lines.append(
                f"| {model} | {len(members)} | {parameters} | "
                + " | ".join(cells)
                + " |"
            )
    return "\n".join(lines) + "\n"


def _our_cell(members, key, factor):
    """Mean (min-max) of the runs that finished, and how many diverged."""
    values = [row[key] * factor for row in members if row.get(key) is not None]
    diverged = len(members) - len(values)
    if not members:
        return "not run"
    if not values:
        return "diverged"
    return mean_range(values) + (f", {diverged} diverged" if diverged else "")


def ptb_markdown(rows):
    return _table(
        rows,
        "Character-level Penn Treebank (Chandar et al. 2019, table 2)",
        _published("chandar2019_table2.csv"),
        [
            ("test BPC", "bpc", "bpc", 1),
            ("test accuracy %", "accuracy", "accuracy", 100),
        ],
    )


def psmnist_markdown(rows):
    return _table(
        rows,
        "Permuted sequential MNIST (Chandar et al. 2019, table 3)",
        _published("chandar2019_table3.csv"),
        [
            ("valid %", "validation_accuracy", "validation_accuracy", 100),
            ("test %", "accuracy", "test_accuracy", 100),
        ],
    )


REPORTS = (
    TaskReport(("ptb",), ptb_markdown),
    TaskReport(("psmnist",), psmnist_markdown),
)
