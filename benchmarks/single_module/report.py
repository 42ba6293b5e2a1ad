"""The report of the Single Module Task: success, "solved at" and sparsity
error per configuration with their intervals beside the survey's tables
9-12, the counts of configurations that differ, and figures like Mistry
figures 14-17 (`benchmarks.core.success`)."""

from benchmarks.core import comparison
from benchmarks.core import success
from benchmarks.core.report_registry import TaskReport

#: Our committed rows of the survey's modules, beside which a unit of
#: one's own is reported (`benchmarks.core.comparison`), by input size.
COMMITTED_ROWS = (
    "single_module/results/paper_threefry2x32.jsonl",
    "single_module/results/input_size_10.jsonl",
    "single_module/results/input_size_100.jsonl",
)


def markdown_report(rows):
    summaries, published = success.summarize(rows), success.load_published()
    text = success.markdown(summaries, published)
    text += "\n\n" + success.agreement_markdown(summaries, published)
    own = comparison.markdown(rows, COMMITTED_ROWS)
    return text + ("\n\n" + own if own else "")


def figure_report(rows, directory):
    paths = success.figures(
        success.summarize(rows), success.load_published(), directory
    )
    return paths + comparison.figures(rows, COMMITTED_ROWS, directory)


REPORTS = (TaskReport(("single_module",), markdown_report, figure_report),)
