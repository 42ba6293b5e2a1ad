"""The report of the Single Module Task: success, "solved at" and sparsity
error per configuration with their intervals beside the survey's tables
9-12, the counts of configurations that differ, and figures like Mistry
figures 14-17 (`benchmarks.core.success`)."""

from benchmarks.core import success
from benchmarks.core.report_registry import register


def markdown_report(rows):
    summaries, published = success.summarize(rows), success.load_published()
    text = success.markdown(summaries, published)
    return text + "\n\n" + success.agreement_markdown(summaries, published)


def figure_report(rows, directory):
    return success.figures(success.summarize(rows), success.load_published(), directory)


register(("single_module",), markdown_report, figure_report)
