"""The report of the arithmetic dataset task, the §1.1 function and Trask's
static task: the success tables (`benchmarks.core.success`), Trask's
relative scores, the varied-parameter figures (`varied_parameters`) and the
gates (`gates`)."""

from benchmarks.arithmetic import varied_parameters
from benchmarks.arithmetic.gates import gate_figure
from benchmarks.arithmetic.gates import gate_markdown
from benchmarks.core import comparison
from benchmarks.core import success
from benchmarks.core.formatting import load_pyplot
from benchmarks.core.formatting import save_figure
from benchmarks.core.report_registry import TaskReport

#: Our committed rows of table 4's models, beside which a unit of one's
#: own is reported (`benchmarks.core.comparison`).
COMMITTED_ROWS = (
    "arithmetic/results/table2_paper.jsonl",
    "arithmetic/results/function/paper.jsonl",
)


def markdown_report(rows):
    """The tables of the arithmetic tasks, the relative scores and the
    agreement count."""
    summaries = success.summarize(rows)
    published = success.load_published()
    text = success.markdown(summaries, published)
    text += "\n" + success.relative_scores_markdown(
        [r for r in rows if r["task"] == "arithmetic"],
        "Scores relative to the untrained model (Trask et al. table 7)",
    )
    trask_rows = [r for r in rows if r["task"] == "trask_static"]
    text += "\n" + success.relative_scores_markdown(
        [r for r in trask_rows if r["model"] != "nalu_complex"],
        f"{success.TITLES['trask_static']}: scores relative to the untrained model, "
        "ours / paper (table 7)",
        success.load_trask_table(7),
    )
    text += "\n" + success.relative_scores_markdown(
        [r for r in trask_rows if r["model"] != "nalu"],
        f"{success.TITLES['trask_static']}: raw MSEs with the NALU of imaginary "
        "activations (app. F), ours / paper (table 12)",
        success.load_trask_table(12),
        score=success.raw_mse,
    )
    text += success.agreement_markdown(summaries, published)
    text += varied_parameters.varied_markdown(rows)
    text += gate_markdown(rows, success.unit_of, success.SYMBOLS)
    own = comparison.markdown(rows, COMMITTED_ROWS)
    return text + ("\n\n" + own if own else "")


def figure_report(rows, directory):
    pyplot = load_pyplot()
    written = success.figures(
        success.summarize(rows), success.load_published(), directory
    )

    def save(figure, name):
        return save_figure(pyplot, figure, directory, name)

    written += varied_parameters.varied_figure(rows, pyplot, save)
    written += gate_figure(rows, success.unit_of, pyplot, save)
    return written + comparison.figures(rows, COMMITTED_ROWS, directory)


REPORTS = (
    TaskReport(
        ("arithmetic", "function", "trask_static"), markdown_report, figure_report
    ),
)
