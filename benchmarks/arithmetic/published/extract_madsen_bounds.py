"""Adds the 95 % bounds of Madsen & Johansen (2020) tables 1, 2, 5 and 6 to
their CSV files, read from the paper's text.

Usage: python benchmarks/arithmetic/published/extract_madsen_bounds.py PAPER.txt

Each table's rows are found in order ("93% +4% −7%" opens a row) and
matched to the CSV's rows in order; the script stops if a row's success
rate, median or mean read from the text differs from the CSV's (typed by
hand), so the two readings check each other. It writes the distances from
each mean to its bounds (`solved_at_upper`, `solved_at_lower`,
`sparsity_error_upper`, `sparsity_error_lower`), as the survey's file has
them.
"""

import argparse
import csv
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
#: The survey's table reader, beside the Single Module Task's tables.
sys.path.insert(0, os.path.join(HERE, "..", "..", "single_module", "published"))

from extract_mistry_tables import all_statistics  # noqa: E402

#: Each table's text: from its caption to the first line after it.
TABLES = {
    "table1": ("Table 1: Comparison", "2 INTRODUCING"),
    "table2": ("Table 2: Comparison", "Finally, for a fair comparison"),
    "table5": ("Table 5: Comparison", "C.6 REGULARIZATION"),
    "table6": ("Table 6: Comparison", "D SEQUENTIAL MNIST"),
}
ROW = re.compile(r"(\d+)% \+\d+%\s*−\d+%")
BOUNDS = ("solved_at_upper", "solved_at_lower", "sparsity_error_upper")
BOUNDS += ("sparsity_error_lower",)


def table_rows(text, start, end):
    """(success %, [[median, "", ""], [mean, upper, lower], [sparsity,
    upper, lower]] or []) of each row of the table between the markers."""
    begin = text.index(start)
    region = text[begin : text.index(end, begin)]
    starts = list(ROW.finditer(region))
    ends = [match.start() for match in starts[1:]] + [len(region)]
    return [
        (int(match.group(1)), all_statistics(region[match.end() : stop]))
        for match, stop in zip(starts, ends)
    ]


def _same(typed, read):
    if typed == "" or read == "":
        return typed == read
    return math.isclose(float(typed), float(read), rel_tol=1e-9)


def with_bounds(rows, read):
    """The CSV's rows with the bound columns; raises ValueError where the
    text and the CSV disagree."""
    if len(rows) != len(read):
        raise ValueError(f"{len(rows)} rows in the CSV, {len(read)} in the text.")
    for row, (success, values) in zip(rows, read):
        median, mean, sparsity = values or [["", "", ""]] * 3
        typed = (row["success_rate"], row["solved_at_median"], row["solved_at_mean"])
        typed += (row["sparsity_error_mean"],)
        found = (f"{success / 100}", median[0], mean[0], sparsity[0])
        if not all(map(_same, typed, found)):
            raise ValueError(f"{row['operation']} {row['model']}: {typed} vs {found}")
        row.update(zip(BOUNDS, [*mean[1:], *sparsity[1:]]))
    return rows


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "paper", type=argparse.FileType(encoding="utf-8"), help="the paper as text"
    )
    with parser.parse_args(argv).paper as handle:
        text = handle.read()
    for name, (start, end) in TABLES.items():
        csv_path = os.path.join(HERE, f"madsen2020_{name}.csv")
        with open(csv_path, encoding="utf-8") as handle:
            reader = csv.DictReader(handle)
            fields = [f for f in reader.fieldnames if f not in BOUNDS] + list(BOUNDS)
            rows = with_bounds(list(reader), table_rows(text, start, end))
        with open(csv_path, "w", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, fields, lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)


if __name__ == "__main__":
    main(sys.argv[1:])
