"""Re-run a seeded sample of result rows and compare them with the file.

    python -m benchmarks.reproduce FILE.jsonl [--sample 8] [--seed 0]
    python -m benchmarks.reproduce FILE.jsonl --sample 1 --cheapest

Each sampled row's (configuration, seed) is trained again with the current
code, through the runner of its task, and compared field by field with the
stored row. `--cheapest` samples the rows of least `wall_seconds` instead
of a seeded random sample (a quick check of a file of hour-long runs).
`wall_seconds` and the provenance (`commit`, `dirty`, the packages'
`versions`) are expected to differ; fields the stored row lacks (added to
rows since) are not compared. Prints one JSON line per row and exits with
1 if any row differs.
"""

import argparse
import json
import random
import sys

from benchmarks import registry
from benchmarks.core.rows import NotRowsError
from benchmarks.core.rows import read_checked_rows
from benchmarks.core.sweep import Job

#: Fields that change between runs of the same configuration and seed.
VOLATILE = ("wall_seconds", "commit", "dirty", "versions")


def rerun(row):
    """The row that the current code writes for `row`'s job."""
    job = Job.of(row["config"], row["seed"])
    (new,) = registry.run_chunk_for(row["task"])([job])
    return new


def differences(stored, new):
    """`{field: (stored, new)}` for every stored field that changed."""
    return {
        key: (value, new.get(key))
        for key, value in stored.items()
        if key not in VOLATILE and new.get(key) != value
    }


def _sample(stored, args):
    """The indices of the rows to re-run."""
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
    args = parser.parse_args(argv)
    try:
        stored = read_checked_rows([args.file], required=("task", "config", "seed"))
    except NotRowsError as error:
        parser.exit(2, f"{parser.prog}: error: {error}\n")
    indices = sorted(_sample(stored, args))
    identical = True
    for index in indices:
        changed = differences(stored[index], rerun(stored[index]))
        identical &= not changed
        line = {"line": index + 1, "config": stored[index]["config"]}
        line.update(seed=stored[index]["seed"], identical=not changed)
        print(json.dumps({**line, "differences": changed}), flush=True)
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
