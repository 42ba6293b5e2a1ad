"""The report of the arithmetic dataset task, the §1.1 function and Trask's
static task: the success tables (`benchmarks.static_arithmetic.success`), Trask's
relative scores, the varied-parameter figures (`varied_parameters`) and the
gates (`gates`)."""

import csv

from benchmarks.arithmetic import varied_parameters
from benchmarks.arithmetic.gates import gate_figure
from benchmarks.arithmetic.gates import gate_markdown
from benchmarks.arithmetic.models import PAPER_STEPS
from benchmarks.core.formatting import load_pyplot
from benchmarks.core.formatting import published_table
from benchmarks.core.formatting import save_figure
from benchmarks.core.task import TaskReport
from benchmarks.static_arithmetic import comparison
from benchmarks.static_arithmetic import success

#: Our committed rows of table 4's models, beside which a unit of one's
#: own is reported (`benchmarks.static_arithmetic.comparison`).
COMMITTED_ROWS = (
    "arithmetic/results/table2_paper.jsonl",
    "arithmetic/results/function/paper.jsonl",
)


def madsen_table(name):
    """A `PublishedTask.load` of Madsen & Johansen's table `name` (e.g.
    "table2"): {(operation, model, "1,2"): row}, each row naming its table."""

    def load():
        with open(published_table("arithmetic", f"madsen2020_{name}.csv")) as f:
            return {
                (row["operation"], row["model"], "1,2"): {
                    **row,
                    "table": f"Madsen table {name.removeprefix('table')}",
                }
                for row in csv.DictReader(f)
            }

    return load


def _tables(*loads):
    """The rows of several tables, a later table's rows replacing an
    earlier one's."""
    return lambda: {key: row for load in loads for key, row in load().items()}


def trask_table(number):
    """{(operation, model): row} of Trask et al. app. B, table 7 (scores
    relative to a random model) or app. F, table 12 (raw MSEs, with the
    NALU of imaginary activations as `nalu_complex` and the random model's
    column as `random`)."""
    with open(published_table("arithmetic", f"trask2018_table{number}.csv")) as f:
        return {(r["operation"], r["model"]): r for r in csv.DictReader(f)}


#: The tasks as the reports read them. Madsen's arithmetic dataset task:
#: table 6 (every model on every operation of app. C.7), table 2 (the main
#: models, whose rows table 6 repeats and which name them, read after it)
#: and table 5 (the gating models of app. C.5), 100 seeds at 100 inputs;
#: the §1.1 function: table 1, 100 seeds at 4 inputs; Trask's static task:
#: its title (its tables are relative scores, `trask_table`).
PUBLISHED = (
    success.PublishedTask(
        "arithmetic",
        "Arithmetic dataset task (Madsen & Johansen tables 2, 5 and 6)",
        seeds=100,
        input_size=100,
        load=_tables(*map(madsen_table, ("table6", "table2", "table5"))),
        steps=PAPER_STEPS["arithmetic"],
        command="python -m benchmarks.arithmetic --task arithmetic --model",
    ),
    success.PublishedTask(
        "function",
        "Function (x1 + x2)(x1 + x2 + x3 + x4) (Madsen & Johansen table 1)",
        seeds=100,
        input_size=4,
        load=madsen_table("table1"),
        steps=PAPER_STEPS["function"],
        command="python -m benchmarks.arithmetic --task function --model",
    ),
    success.PublishedTask(
        "trask_static", "Trask et al.'s static task (app. B, tables 6-7)"
    ),
)
TRASK_TITLE = PUBLISHED[-1].title


def markdown_report(rows):
    """The tables of the arithmetic tasks, the relative scores and the
    agreement count."""
    summaries = success.summarize(rows)
    published = success.Published(PUBLISHED)
    text = success.markdown(summaries, published)
    text += "\n" + success.relative_scores_markdown(
        [r for r in rows if r["task"] == "arithmetic"],
        "Madsen's arithmetic task: scores relative to the untrained model "
        "(the measure of Trask et al.'s table 7)",
    )
    trask_rows = [r for r in rows if r["task"] == "trask_static"]
    text += "\n" + success.relative_scores_markdown(
        [r for r in trask_rows if r["model"] != "nalu_complex"],
        f"{TRASK_TITLE}: scores relative to the untrained model, "
        "ours / paper (table 7)",
        trask_table(7),
    )
    text += "\n" + success.relative_scores_markdown(
        [r for r in trask_rows if r["model"] != "nalu"],
        f"{TRASK_TITLE}: raw MSEs with the NALU of imaginary "
        "activations (app. F), ours / paper (table 12)",
        trask_table(12),
        score=success.raw_mse,
    )
    text += success.agreement_markdown(summaries, published)
    text += varied_parameters.varied_markdown(rows)
    text += gate_markdown(rows, success.unit_of, success.SYMBOLS)
    own = comparison.markdown(rows, COMMITTED_ROWS, published)
    return text + ("\n\n" + own if own else "")


def figure_report(rows, directory):
    pyplot = load_pyplot()
    published = success.Published(PUBLISHED)
    summaries = success.summarize(rows)
    written = success.figures(summaries, published, directory)
    written.append(
        success.rate_figure(summaries, published, directory, "arithmetic_rates")
    )

    def save(figure, name):
        return save_figure(pyplot, figure, directory, name)

    written += varied_parameters.varied_figure(rows, pyplot, save)
    written += gate_figure(rows, success.unit_of, pyplot, save)
    return written + comparison.figures(rows, COMMITTED_ROWS, directory, published)


REPORTS = (
    TaskReport(
        ("arithmetic", "function", "trask_static"), markdown_report, figure_report
    ),
)
