"""Tables (and figures) from sweep results, next to the papers' numbers.

    python -m benchmarks.report FILE.jsonl [FILE.jsonl ...] \\
        [--output report.md] [--figures DIR]

Rows (`benchmarks.core.rows.Row`) are grouped by their task, and each group is
reported by its folder's report (`benchmarks.registry.report_for`): for the
arithmetic tasks the success rate with its Wilson interval, the mean
"solved at" step (gamma fit, profile-likelihood interval) and the mean
sparsity error (beta fit on [0, 0.5]) per configuration, as Madsen &
Johansen (2020) table 2 and Mistry et al. (2022) tables 9-12 do, with the
published values (each task folder's `published/`) beside ours; for the identity
experiment Trask's table 5. `--figures DIR` draws the figures (needs
matplotlib: `pip install -e "./benchmarks[plots]"`). The directories of `--output` and
`--figures` are made when they do not exist, as a sweep's `--output`'s.
"""

import os
import sys

from benchmarks.core.arguments import new_parser
from benchmarks.core.rows import read_checked_rows
from benchmarks.registry import report_for


def build(rows, figures=None):
    """The markdown of every task in `rows` (and figure paths, when
    `figures` names a directory)."""
    reports = {}
    for row in rows:
        reports.setdefault(report_for(row["task"]), []).append(row)
    sections, paths = [], []
    for task_report, members in reports.items():
        sections.append(task_report.markdown(members))
        if figures and task_report.figures is not None:
            paths += task_report.figures(members, figures)
    return "\n".join(sections), paths


def main(argv=None):
    parser = new_parser("python -m benchmarks.report", __doc__)
    parser.add_argument("files", nargs="+", help="JSON-lines files of sweeps")
    parser.add_argument("--output", help="write the markdown here (default: stdout)")
    parser.add_argument("--figures", help="a directory for PNG figures")
    args = parser.parse_args(argv)
    if args.output and os.path.isdir(args.output):
        parser.error(f"--output {args.output} is a directory; give a file")
    if args.output:
        os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    try:
        text, paths = build(read_checked_rows(args.files), args.figures)
    except ValueError as error:  # not rows, or a task without a report
        parser.error(str(error))
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        print(text)
    for path in paths:
        print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
