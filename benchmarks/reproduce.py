"""Re-run a seeded sample of result rows and compare them with the file.

    python -m benchmarks.reproduce FILE.jsonl [--sample 8] [--seed 0]
    python -m benchmarks.reproduce FILE.jsonl --lines 12,40
    python -m benchmarks.reproduce FILE.jsonl --sample 1 --cheapest \\
        --tolerance 1e-5 --record benchmarks/results/reproductions.jsonl

Each sampled row's (configuration, seed) is trained again with the current
code, through its task's `train`, and compared field by field with the
stored row. `--cheapest` samples the rows of least `wall_seconds` instead
of a seeded random sample (a quick check of a file of hour-long runs);
`--lines` re-runs the rows of those lines (counted from 1).
`wall_seconds` and the provenance (`commit`, `dirty`, the packages'
`versions`, the `device`) are expected to differ; fields the stored row
lacks (added to rows since) are not compared.

Rows are re-run with one TensorFlow thread, as a sweep's worker runs
them. `--default-threads` re-runs them with TensorFlow's default
threads instead: the rows of an in-process sweep (`--workers 1`) whose
command built a model before training (the NRU runner's parameter
counts) were trained so until the command set its thread count before
listing its jobs (CHANGELOG, "Fixed"), though their `device` says one
thread per worker; the thread count changes the rounding of the results,
and training carries it into every later number.

A row made on another processor may differ in the last bits of its
floating-point results (another instruction set or order of summation).
With `--tolerance REL` such a row passes as `rounding` rather than
`identical`: every number that differs (in a field or a list) is within
REL of the stored one (relative), and a differing `best_step` is a tie:
the values the row takes at its best step (its MSEs, its sparsity error,
whether it solved) agree within REL, so two steps of equal value changed
places. Everything else must be equal.

Prints one JSON line per row (its `verdict`: identical, rounding or
differs) and exits with 1 if any row differs. `--record FILE` appends
those lines to FILE with the file, the code's commit, the device and the
date, as rows that the results pages count (`benchmarks.claims`).
"""

import argparse
import datetime
import json
import os
import random
import sys

from benchmarks import registry
from benchmarks.core import units
from benchmarks.core.rows import ROOT
from benchmarks.core.rows import NotRowsError
from benchmarks.core.rows import provenance
from benchmarks.core.rows import read_checked_rows
from benchmarks.core.rows import values_agree
from benchmarks.core.sweep import Job
from benchmarks.core.sweep import use_worker_threads

#: Fields that change between runs of the same configuration and seed
#: (`population`: how many runs trained with it; a row re-runs alone).
VOLATILE = ("wall_seconds", "commit", "dirty", "versions", "device", "population")
#: A differing step of lowest validation error is a tie when the row's
#: values at that step agree.
TIED_STEP = "best_step"


def rerun(row):
    """The row that the current code writes for `row`'s job. A unit of
    one's own is built from its source as it is today (the row's digest
    names the source it was made with, which the comparison keeps: a
    change of behaviour shows in the results)."""
    config = dict(row["config"])
    stored = {field: config[field] for field in config if field.endswith("_digest")}
    for field in stored:
        config[field] = units.digest(config[field.removesuffix("_digest")])
    job = Job.of(config, row["seed"])
    (new,) = registry.task_of(row["task"]).train(row["task"], [job])
    new["config"] = {**new["config"], **stored}
    return {**new, **{field: value for field, value in stored.items() if field in new}}


def differences(stored, new):
    """`{field: (stored, new)}` for every stored field that changed (NaN
    where NaN was stored is no change)."""
    return {
        key: (value, new.get(key))
        for key, value in stored.items()
        if key not in VOLATILE and not values_agree(value, new.get(key), 0.0)
    }


def verdict(changed, tolerance):
    """ "identical" (no field changed), "rounding" (every changed field
    within the relative `tolerance`, a changed best step a tie) or
    "differs"."""
    if not changed:
        return "identical"
    rounding = all(
        values_agree(stored, new, tolerance)
        for field, (stored, new) in changed.items()
        if field != TIED_STEP
    )
    return "rounding" if rounding and tolerance > 0 else "differs"


def _sample(stored, args):
    """The indices of the rows to re-run."""
    if args.lines:
        beyond = [line for line in args.lines if line > len(stored)]
        if beyond:
            raise ValueError(f"{args.file} has {len(stored)} rows, no line {beyond[0]}")
        return [line - 1 for line in args.lines]
    size = min(args.sample, len(stored))
    if args.cheapest:
        order = sorted(range(len(stored)), key=lambda i: stored[i]["wall_seconds"])
        return order[:size]
    return random.Random(args.seed).sample(range(len(stored)), size)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.reproduce", description=__doc__.split("\n")[0]
    )
    parser.add_argument("file", help="a JSON-lines results file")
    parser.add_argument("--sample", type=int, default=8, help="rows to re-run")
    parser.add_argument("--seed", type=int, default=0, help="seeds the sample")
    parser.add_argument(
        "--cheapest",
        action="store_true",
        help="sample the rows of least wall_seconds",
    )
    parser.add_argument(
        "--lines",
        type=_lines,
        help="re-run these lines of the file (1,5,9) instead of a sample",
    )
    parser.add_argument(
        "--tolerance",
        type=_tolerance,
        default=0.0,
        help="pass a row whose numbers differ by at most this much, relative "
        "(a differing best step then a tie), as rounding (default 0: exact)",
    )
    parser.add_argument(
        "--default-threads",
        action="store_true",
        help="re-run with TensorFlow's default threads, not one (rows of "
        "in-process sweeps made before the fix of their thread count)",
    )
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="append each row's line, with the file, commit, device and date",
    )
    args = parser.parse_args(argv)
    try:
        stored = read_checked_rows([args.file], required=("task", "config", "seed"))
    except NotRowsError as error:
        parser.exit(2, f"{parser.prog}: error: {error}\n")
    try:
        indices = sorted(_sample(stored, args))
        for task in {stored[index]["task"] for index in indices}:
            registry.task_of(task)  # a task whose runs can be made again
    except ValueError as error:
        parser.exit(2, f"{parser.prog}: error: {error}\n")
    if not args.default_threads:
        use_worker_threads()
    passed = True
    for index in indices:
        new = rerun(stored[index])
        changed = differences(stored[index], new)
        found = verdict(changed, args.tolerance)
        passed &= found != "differs"
        line = {"line": index + 1, "config": stored[index]["config"]}
        line.update(seed=stored[index]["seed"], verdict=found)
        line.update(tolerance=args.tolerance, differences=changed)
        print(json.dumps(line), flush=True)
        if args.record:
            _record(args.record, args.file, line, new)
    return 0 if passed else 1


def _lines(text):
    try:
        lines = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not lines such as 1,5,9")
    if min(lines) < 1:
        raise argparse.ArgumentTypeError("lines count from 1")
    return lines


def _tolerance(text):
    value = float(text)
    if not 0 <= value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not in [0, 1)")
    return value


def _record(path, rows_file, line, new):
    """Appends a row's line to the record `path`, naming the rows file
    (relative to the checkout), the code, the device and the date."""
    record = {
        "file": os.path.relpath(os.path.abspath(rows_file), ROOT),
        **line,
        **provenance(),
        "device": new.get("device"),
        "date": datetime.date.today().isoformat(),
    }
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(record, sort_keys=True) + "\n")


if __name__ == "__main__":
    sys.exit(main())
