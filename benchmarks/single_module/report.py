"""The report of the Single Module Task: success, "solved at" and sparsity
error per configuration with their intervals beside the survey's tables
9-12, the counts of configurations that differ, and figures like Mistry
figures 14-17 (`benchmarks.static_arithmetic.success`)."""

import csv

from benchmarks.core.formatting import published_table
from benchmarks.core.task import TaskReport
from benchmarks.single_module.modules import PAPER_STEPS
from benchmarks.static_arithmetic import comparison
from benchmarks.static_arithmetic import success

#: Our committed rows of the survey's modules, beside which a unit of
#: one's own is reported (`benchmarks.static_arithmetic.comparison`), by input size.
COMMITTED_ROWS = (
    "single_module/results/paper_threefry2x32.jsonl",
    "single_module/results/input_size_10.jsonl",
    "single_module/results/input_size_100.jsonl",
)


#: Mistry et al.'s table of each operation in the Single Module Task.
MISTRY_TABLES = {"add": 9, "sub": 10, "mul": 11, "div": 12}


def mistry_tables():
    """{(operation, module, interpolation range): row} of Mistry et al.'s
    tables 9-12, each row naming its table."""
    table = {}
    with open(published_table("single_module", "mistry2022_single_module.csv")) as f:
        for row in csv.DictReader(f):
            value_range = row["interpolation_range"].strip("U[)").replace(" ", "")
            number = MISTRY_TABLES[row["operation"]]
            table[row["operation"], row["module"], value_range] = {
                **row,
                "table": f"Mistry table {number}",
            }
    return table


#: The task as the reports read it: 25 seeds per configuration, input size 2.
PUBLISHED = (
    success.PublishedTask(
        "single_module",
        "Single Module Task (Mistry et al. tables 9-12)",
        seeds=25,
        input_size=2,
        load=mistry_tables,
        steps=PAPER_STEPS,
        command="python -m benchmarks.single_module --module",
    ),
)


def markdown_report(rows):
    summaries, published = success.summarize(rows), success.Published(PUBLISHED)
    text = success.markdown(summaries, published)
    text += "\n\n" + success.agreement_markdown(summaries, published)
    own = comparison.markdown(rows, COMMITTED_ROWS, published)
    return text + ("\n\n" + own if own else "")


def figure_report(rows, directory):
    """The survey's figures 14-17 (one per operation), every unit's
    success per operation in one figure (`single_module_rates.png`) and
    a unit of one's own beside the committed rows."""
    published = success.Published(PUBLISHED)
    summaries = success.summarize(rows)
    paths = success.figures(summaries, published, directory)
    paths.append(
        success.rate_figure(summaries, published, directory, "single_module_rates")
    )
    return paths + comparison.figures(rows, COMMITTED_ROWS, directory, published)


REPORTS = (TaskReport(("single_module",), markdown_report, figure_report),)
