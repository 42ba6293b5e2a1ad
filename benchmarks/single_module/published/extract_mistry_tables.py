"""Extracts Mistry et al. (2022) tables 9-12 from the paper's text.

Usage: python benchmarks/single_module/published/extract_mistry_tables.py PAPER.txt > \\
    benchmarks/single_module/published/mistry2022_single_module.csv

The text (a PDF extraction) lists each module's nine ranges in order and
prints the module's name just before its last range. For each range it
keeps the success rate, the means of "solved at" and sparsity error, and
the distances from each mean to its 95 % confidence bounds (`_upper`,
`_lower`); "—" (no run solved) and a NaN bound (one solved run) become
empty.
"""

import argparse
import csv
import re
import sys

TABLES = {"Table 9:": "add", "Table 10:": "sub", "Table 11:": "mul", "Table 12:": "div"}
MODULES = {
    "NAC+": "nac",
    "NAC•": "nac_mul",
    "G-NALU": "gnalu",
    "iNALU": "inalu",
    "NALU": "nalu",
    "NAU": "nau",
    "NMU": "nmu",
    "NPU": "npu",
    "Real NPU": "realnpu",
}
ROW = re.compile(r"^(U\[[-0-9.,]+\)) (\d+)%")
MEAN = re.compile(r"(\d+(?:\.\d+)?) · 10(−?\d+)")
#: A mean, or a bound's distance from it ("+8.2·102", "−NaN ·10−Inf").
VALUE = re.compile(
    r"(?P<mean>(\d+(?:\.\d+)?) · 10(−?\d+))"
    r"|(?P<sign>[+−])(?P<bound>NaN|\d+(?:\.\d+)?) ?·10(?P<power>−?\d+|−Inf)"
)
COLUMNS = ("mean", "upper", "lower")


def mean_value(match):
    mantissa, exponent = match.groups()
    return float(mantissa) * 10.0 ** int(exponent.replace("−", "-"))


def statistics(text):
    """[[mean, upper, lower] of "solved at", ... of the sparsity error],
    each a string ("" where missing)."""
    return (all_statistics(text) + [["", "", ""], ["", "", ""]])[:2]


def all_statistics(text):
    """[mean, upper, lower] of every printed mean in `text`, in order (a
    bound belongs to the mean before it), each a string ("" where none)."""
    found = []
    for match in VALUE.finditer(text):
        if match["mean"]:
            found.append([f"{mean_value(MEAN.match(match['mean'])):.3g}", "", ""])
        elif found and match["bound"] != "NaN":
            bound = float(match["bound"]) * 10.0 ** int(
                match["power"].replace("−", "-")
            )
            found[-1][1 if match["sign"] == "+" else 2] = f"{bound:.3g}"
    return found


def rows(lines):
    """(operation, module, range, success %, text after the range), in order."""
    operation, label, found = None, None, []
    for line in lines:
        line = line.strip()
        for marker, name in TABLES.items():
            if line.startswith(marker):
                operation = name
        if line in MODULES:
            label = MODULES[line]
        elif match := ROW.match(line):
            found.append([operation, label, match.group(1), int(match.group(2)), ""])
            label = None
        elif found:
            found[-1][4] += " " + line
    for index, row in enumerate(found):
        if row[1]:  # a module's name comes just before its ninth range
            for earlier in found[index - 8 : index]:
                earlier[1] = row[1]
    return found


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "paper", type=argparse.FileType(encoding="utf-8"), help="the paper as text"
    )
    with parser.parse_args(argv).paper as handle:
        lines = handle.read().splitlines()
    start = next(i for i, line in enumerate(lines) if "Appendix F. Results" in line)
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(
        [
            "operation",
            "module",
            "interpolation_range",
            "success_rate",
            *(
                f"{name}_{column}"
                for name in ("solved_at", "sparsity_error")
                for column in COLUMNS
            ),
        ]
    )
    for op, module, value_range, success, text in rows(lines[start:]):
        solved_at, sparsity = statistics(text)
        writer.writerow([op, module, value_range, success / 100, *solved_at, *sparsity])


if __name__ == "__main__":
    main(sys.argv[1:])
