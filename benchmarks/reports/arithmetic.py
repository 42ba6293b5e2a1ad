"""The report of the arithmetic tasks: the success tables
(`benchmarks.reports.success`), the varied-parameter figures
(`benchmarks.reports.varied_parameters`) and the gates
(`benchmarks.reports.gates`), registered for the tasks of `success.TITLES`."""

from benchmarks.core.formatting import load_pyplot
from benchmarks.core.formatting import save_figure
from benchmarks.core.report_registry import register
from benchmarks.reports import success
from benchmarks.reports import varied_parameters
from benchmarks.reports.gates import gate_figure
from benchmarks.reports.gates import gate_markdown


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
    text += "\n" + success.relative_scores_markdown(
        [r for r in rows if r["task"] == "trask_static"],
        f"{success.TITLES['trask_static']}: scores relative to the untrained model, "
        "ours / paper (table 7)",
        success.load_trask_table7(),
    )
    inside, total = success.agreement(summaries, published)
    if total:
        text += (
            f"\nThe success rate differs from the paper's at p < 0.05 (⚑, "
            f"two-sided Fisher exact test against the paper's rate times its "
            f"seeds) in {len(success.flagged(summaries, published))} of {total} "
            "configurations.\n"
        )
        text += (
            f"\nThe published success rate lies inside our 95 % interval in "
            f"{inside} of {total} configurations.\n"
        )
        text += success.continuous_agreement(summaries, published)
    text += varied_parameters.varied_markdown(rows)
    return text + gate_markdown(rows, success.unit_of, success.SYMBOLS)


def figure_report(rows, directory):
    pyplot = load_pyplot()
    written = success.figures(
        success.summarize(rows), success.load_published(), directory
    )

    def save(figure, name):
        return save_figure(pyplot, figure, directory, name)

    written += varied_parameters.varied_figure(rows, pyplot, save)
    return written + gate_figure(rows, success.unit_of, pyplot, save)


register(success.TITLES, markdown_report, figure_report)
