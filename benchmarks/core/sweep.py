"""Resumable multi-seed sweeps: one JSON line per finished (configuration, seed).

Shared by every runner (`benchmarks/<task>/runner.py`). A sweep is a list of
jobs (a configuration and a seed). Each job is one
`benchmarks.core.runs.train_run`, which writes one row
(`benchmarks.core.rows.Row`).

Resuming: the output file is read first and every job whose row is there
is skipped. Rows are appended by the parent process only, each with one
`write` of a whole line followed by `fsync`; a line cut short by a kill is
dropped on the next start. A sweep killed at any moment and restarted
therefore finishes with every job exactly once.

Workers: `--workers N` starts N processes, each with one intra-op and one
inter-op thread (a tiny model runs fastest on one thread per core). Each
job is sent on its own and its row written as soon as it finishes, so a
kill loses only the runs in progress. A worker keeps its compiled program
while the configuration stays the same (`benchmarks.core.runs`): between seeds
only the weights, the optimizer state, the seed, the evaluation sets and
the source's variables change.

Clusters: `--cluster ADDRESS` sends each job to a running Dask
distributed scheduler (`pip install 'keras-nalm[cluster]'`) instead; its
workers need `keras-nalm` installed (`benchmarks` is part of the package;
no PYTHONPATH): `python -m distributed.cli.dask_worker ADDRESS --nthreads
1`, from any directory. The submitting process still writes every row:
a job whose worker dies is re-run by the scheduler on another worker, a
row that arrives twice is written once, and a sweep whose submitter or
scheduler was killed resumes like any other. Each worker keeps its
compiled programs between jobs, as a pool worker does.
"""

import argparse
import dataclasses
import hashlib
import json
import multiprocessing
import os
import sys
import time

from benchmarks.core.rows import NotRowsError
from benchmarks.core.rows import parse_rows
from benchmarks.core.rows import provenance
from benchmarks.core.rows import row_key

PRESETS = ("paper", "quick")
#: How long `--cluster` tries to reach its scheduler.
CONNECT_SECONDS = 20


def parse_seeds(text):
    """`"0-24"`, `"3"` or `"0,5,7-9"` to a sorted list of ints."""
    seeds = set()
    try:
        for part in text.split(","):
            low, _, high = part.partition("-")
            seeds.update(range(int(low), int(high or low) + 1))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"Cannot read seeds {text!r}: write e.g. 0-24 or 0,3,5-9."
        ) from None
    if not seeds or min(seeds) < 0:
        raise argparse.ArgumentTypeError(f"Seeds must be >= 0, got {text!r}.")
    return sorted(seeds)


def expand_names(text, known, what):
    """`"all"` or an `a,b` list to names among `known`; exits naming the
    unknown ones (`what`: "models", "operations", ...)."""
    names = list(known) if text == "all" else text.split(",")
    unknown = [name for name in names if name not in known]
    if unknown:
        raise SystemExit(f"Unknown {what} {unknown}: {list(known)}.")
    return names


def positive_int(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {text!r}")
    return value


def tensorboard_directory(text):
    """`--tensorboard`'s directory, once the tensorboard package (which
    `tf.summary` writes with) is known to be installed."""
    try:
        import tensorboard  # noqa: F401
    except ImportError:
        raise argparse.ArgumentTypeError(
            "--tensorboard needs the tensorboard package: "
            "pip install -e '.[tuner]' (or pip install tensorboard)"
        ) from None
    return text


def positive_list(kind):
    """An argparse type: `a,b,...` of positive `kind` values."""

    def parse(text):
        try:
            values = [kind(value) for value in text.split(",")]
        except ValueError:
            values = []
        if not values or min(values) <= 0:
            raise argparse.ArgumentTypeError(
                f"expected positive {kind.__name__}s separated by commas: {text!r}"
            )
        return values

    return parse


def add_common_arguments(parser, default_seeds):
    parser.add_argument("--preset", choices=PRESETS, default="paper")
    parser.add_argument("--seeds", type=parse_seeds, default=parse_seeds(default_seeds))
    parser.add_argument(
        "--max-steps",
        type=positive_int,
        default=None,
        help="overrides the preset's steps; the schedules scale with them",
    )
    parser.add_argument("--workers", type=positive_int, default=1)
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        default=None,
        help="a Dask scheduler (tcp://host:8786) to run the jobs on, "
        "instead of --workers local processes",
    )
    parser.add_argument("--output", required=True, help="a JSON-lines file")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument(
        "--tensorboard",
        type=tensorboard_directory,
        metavar="DIR",
        help="write each run's logged series (losses, evaluations, the units' "
        "control variables, sparsity error) and learned expression as "
        "TensorBoard summaries under DIR/task/model-config/seed_N",
    )


@dataclasses.dataclass(frozen=True)
class Job:
    """One run: `config` (a hashable, JSON-able dict as a tuple) and a seed."""

    config: tuple
    seed: int

    @property
    def key(self):
        return json.dumps([dict(self.config), self.seed], sort_keys=True)


class OutputError(ValueError):
    """An output file that does not hold a sweep's rows; it is left as it was."""


_ANOTHER_OUTPUT = (
    "give --output a new file or one that holds this runner's rows (the file "
    "was not changed)."
)


def _is_partial_row(tail):
    """Whether `tail` (the bytes after the last newline) is a row cut off by
    a killed run: the start of a JSON object that does not parse."""
    if not tail.startswith(b'{"'):
        return False
    try:
        json.loads(tail)
    except ValueError:
        return True
    return False


def finished_keys(path):
    """Keys of the complete rows in `path`.

    A row cut off by a killed run (a partial last line) is cut away; a file
    that holds anything but rows raises `OutputError` and is not changed.
    """
    if not os.path.exists(path):
        return set()
    if os.path.isdir(path):
        raise OutputError(f"{path} is a directory; --output names a file.")
    with open(path, "rb") as handle:
        data = handle.read()
    complete = data[: data.rfind(b"\n") + 1]
    try:
        keys = {row_key(row) for row in parse_rows(path, complete)}
    except NotRowsError as error:
        raise OutputError(f"{error}: {_ANOTHER_OUTPUT}") from None
    tail = data[len(complete) :]
    if tail:
        if not _is_partial_row(tail):
            number = complete.count(b"\n") + 1
            raise OutputError(
                f"{path}, line {number}, is not a row of a sweep (nor a row cut "
                f"off by a killed run): {_ANOTHER_OUTPUT}"
            )
        with open(path, "r+b") as handle:
            handle.truncate(len(complete))
    return keys


def append_row(path, row):
    """Appends `row` as one line with a single write, then syncs it."""
    line = (json.dumps(row, sort_keys=True) + "\n").encode("utf-8")
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(descriptor, line)
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _init_worker():
    """One intra-op and one inter-op thread, unless TensorFlow already runs
    in this process (a sweep called from Python), whose settings stay."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf

    try:
        tf.config.threading.set_intra_op_parallelism_threads(1)
        tf.config.threading.set_inter_op_parallelism_threads(1)
    except RuntimeError:
        pass


def _progress(written, total, elapsed):
    """ "k/n runs, elapsed, estimated time left" on stderr, one line
    rewritten in place; nothing when stderr is not a terminal (a log)."""
    if not written or not sys.stderr.isatty():
        return
    left = elapsed / written * (total - written)
    text = f"{written}/{total} runs, {elapsed:.0f} s, about {left:.0f} s left"
    print(f"\r{text}", end="\n" if written == total else "", file=sys.stderr)


def _run_in_cluster_worker(run_chunk, jobs):
    _init_worker()
    return run_chunk(jobs)


def _cluster_results(address, run_chunk, jobs):
    """Each job's rows from a Dask cluster, as they finish."""
    try:
        from distributed import Client
        from distributed import KilledWorker
        from distributed import as_completed
        from distributed.client import FutureCancelledError
        from distributed.comm.core import CommClosedError
    except ImportError:
        raise SystemExit(
            "--cluster needs Dask distributed: pip install 'keras-nalm[cluster]'"
        ) from None
    try:
        client = Client(address, timeout=f"{CONNECT_SECONDS}s")
    except OSError as error:
        raise SystemExit(
            f"Cannot reach a Dask scheduler at {address}: {error}"
        ) from None
    with client:
        futures = [
            client.submit(
                _run_in_cluster_worker,
                run_chunk,
                [job],
                key=f"sweep-job-{hashlib.sha1(job.key.encode()).hexdigest()}",
            )
            for job in jobs
        ]
        try:
            for future in as_completed(futures):
                yield future.result()
        except (FutureCancelledError, KilledWorker, CommClosedError) as error:
            raise SystemExit(
                f"The cluster at {address} failed ({type(error).__name__}: "
                f"{error}). The rows written so far are kept: run the same "
                "command again to resume."
            ) from None


def _pool_results(run_chunk, jobs, workers):
    """Each job's rows from `workers` local processes (or this one), as
    they finish."""
    singles = [[job] for job in jobs]
    if workers == 1:
        _init_worker()
        yield from map(run_chunk, singles)
        return
    pool = multiprocessing.get_context("spawn").Pool(workers, initializer=_init_worker)
    try:
        yield from pool.imap_unordered(run_chunk, singles)
    finally:
        pool.terminate()


def run_sweep(jobs, run_chunk, output, workers=1, quiet=False, cluster=None):
    """Runs the jobs not yet in `output` and appends a row for each.

    `run_chunk(list of Job) -> list of rows`, given one job at a time,
    must be a module-level function (it is sent to worker processes).
    `cluster`, a Dask scheduler's address, runs the jobs there instead of
    on `workers` local processes. Returns the number of rows written.
    """
    provenance()  # read (and cached) now, before the jobs: edits made
    # while an in-process sweep runs are not the code it imported
    done = finished_keys(output)  # checks the file before any training
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    pending = [job for job in jobs if job.key not in done]
    if not quiet:
        where = f"on {cluster}" if cluster else f"with {workers} worker(s)"
        print(
            f"{len(jobs) - len(pending)} of {len(jobs)} runs already in {output}; "
            f"running {len(pending)} {where}.",
            file=sys.stderr,
        )
    if cluster:
        results = _cluster_results(cluster, run_chunk, pending)
    else:
        results = _pool_results(run_chunk, pending, workers)
    began, written = time.perf_counter(), 0
    for rows in results:
        for row in rows:
            key = row_key(row)
            if key in done:  # a job the cluster ran twice
                continue
            append_row(output, row)
            done.add(key)
            written += 1
        if not quiet:
            _progress(written, len(pending), time.perf_counter() - began)
    return written


def run_from_args(jobs, run_chunk, args):
    """`run_sweep` with a runner's `add_common_arguments` options."""
    if args.cluster and args.workers != 1:
        raise SystemExit("Give --cluster or --workers, not both.")
    try:
        return run_sweep(
            jobs,
            run_chunk,
            args.output,
            args.workers,
            args.quiet,
            cluster=args.cluster,
        )
    except OutputError as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
