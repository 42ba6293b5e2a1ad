"""Re-run a seeded sample of result rows and compare them with the file.

    python -m benchmarks.reproduce FILE.jsonl [--sample 8] [--seed 0]

Each sampled row's (configuration, seed) is trained again with the current
code, through the runner of its task, and compared field by field with the
stored row. `wall_seconds` and the provenance (`commit`, `dirty`) are
expected to differ; fields the stored row lacks (added to rows since) are
not compared. Prints one JSON line per row and exits with 1 if any row
differs.
"""

import argparse
import functools
import json
import random
import sys

from benchmarks import arithmetic
from benchmarks import char_ptb
from benchmarks import identity
from benchmarks import language
from benchmarks import nru
from benchmarks import recurrent
from benchmarks import sequential_mnist
from benchmarks import single_module
from benchmarks.core.rows import read_rows
from benchmarks.core.runs import run_jobs
from benchmarks.core.sweep import Job


def _engine(run_spec, task, extra_fields=None):
    """The worker entry point of an engine-trained task (`run_jobs`), with
    the fields every row of its runner carries besides the judge's."""
    return functools.partial(run_jobs, run_spec, task, extra_fields or {})


_THRESHOLD = {"threshold_epsilon": arithmetic.THRESHOLD_EPSILON}
#: task -> run_chunk(list of jobs) -> rows, as its runner's sweep calls it
RUNNERS = {
    "single_module": _engine(
        single_module.run_spec,
        "single_module",
        {"threshold_epsilon": single_module.THRESHOLD_EPSILON},
    ),
    "arithmetic": _engine(arithmetic.run_spec, "arithmetic", _THRESHOLD),
    "function": _engine(arithmetic.run_spec, "function", _THRESHOLD),
    "trask_static": _engine(arithmetic.run_spec, "trask_static", _THRESHOLD),
    "identity": _engine(identity.run_spec, "identity"),
    "recurrent_trask": _engine(recurrent.run_spec, "recurrent_trask"),
    **{
        task: _engine(sequential_mnist.run_spec, task)
        for task in ("mnist_product", "mnist_sum", "mnist_count", "mnist_add")
    },
    **{
        task: _engine(language.run_spec, task)
        for task in ("language_to_number", *language.PROGRAM_TASKS)
    },
    **{task: _engine(nru.run_spec, task) for task in nru.TASKS if task != "ptb"},
    "ptb": char_ptb.run_ptb_jobs,
}
#: Fields that change between runs of the same configuration and seed.
VOLATILE = ("wall_seconds", "commit", "dirty")


def rerun(row):
    """The row that the current code writes for `row`'s job."""
    job = Job(tuple(sorted(row["config"].items())), row["seed"])
    (new,) = RUNNERS[row["task"]]([job])
    return new


def differences(stored, new):
    """`{field: (stored, new)}` for every stored field that changed."""
    return {
        key: (value, new.get(key))
        for key, value in stored.items()
        if key not in VOLATILE and new.get(key) != value
    }


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.reproduce", description=__doc__.split("\n")[0]
    )
    parser.add_argument("file", help="a JSON-lines results file")
    parser.add_argument("--sample", type=int, default=8, help="rows to re-run")
    parser.add_argument("--seed", type=int, default=0, help="seeds the sample")
    args = parser.parse_args(argv)
    stored = read_rows([args.file])
    indices = sorted(
        random.Random(args.seed).sample(
            range(len(stored)), min(args.sample, len(stored))
        )
    )
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
