"""Resumable multi-seed sweeps: one JSON line per finished (configuration, seed).

`main(task)` is every task's command (`python -m benchmarks.<folder>`):
parse, jobs, sweep, train, rows. A sweep is a list of jobs (a
configuration and a seed); the task's `train` turns jobs into rows
(`benchmarks.core.rows.Row`), one per job.

Resuming: the output file is read first and every job whose row is there
is skipped. Rows are appended by the parent process only: the rows of
one finished batch (one run, or a population's runs) with one `write` of
whole lines followed by `fsync`, so a kill never leaves part of a
population written; a line cut short by a kill is dropped on the next
start. A sweep killed at any moment and restarted therefore finishes with
every job exactly once.

One writer: a sweep holds an exclusive lock on its output (`flock`, which
the system releases whatever ends the process) from before it reads the
file until it ends; a second sweep on the same file is refused in one line
that names the process holding it, and the file is not changed. A row
whose write fails after its run is not lost: it goes to `OUTPUT.unwritten`
(or, if that fails too, to stderr), and the sweep stops saying so.

Workers: `--workers N` starts N processes (at most one per pending run,
per core and per `MEMORY_PER_WORKER` of available memory, with a note
when capped), each with one intra-op and one inter-op thread (a tiny model
runs fastest on one thread per core). Each job is sent on its own and its
row written as soon as it finishes, so a kill loses only the runs in
progress. A worker ends within a second of its parent, whatever killed
the parent. A worker keeps its compiled program while the configuration
stays the same (`benchmarks.core.runs`): between seeds only the weights,
the optimizer state, the seed, the evaluation sets and the source's
variables change.

Populations: a task whose `train` is an `Engine` with `populations`
(the static tasks) trains the pending jobs of equal keys
together, as populations of one compiled program
(`keras_nalm.engine.population.PopulationTrainer`), at most
`--population N` runs each (default `DEFAULT_POPULATION`, fewer where
memory is short: `MEMORY_PER_RUN`) and split so that every worker has
one; `--population 1` trains one run at a time. A population's rows are
written when it ends: a kill loses its unfinished runs, never a written
one. A cluster gets one job at a time.

Clusters: `--cluster ADDRESS` sends each job to a running Dask
distributed scheduler (`pip install -e './benchmarks[cluster]'`) instead;
its workers need the library and the lab installed from a checkout of the
same commit (`pip install -e . -e ./benchmarks`; no PYTHONPATH): `python
-m distributed.cli.dask_worker ADDRESS --nthreads 1`, from any directory.
The submitting process still writes every row: a job whose worker dies
is re-run by the scheduler on another worker, a row that arrives twice is
written once, and a sweep whose submitter or scheduler was killed resumes
like any other. Each worker keeps its
compiled programs between jobs, as a pool worker does.
"""

import concurrent.futures
import contextlib
import dataclasses
import fcntl
import functools
import hashlib
import json
import multiprocessing
import os
import signal
import stat
import sys
import tempfile
import threading
import time

from benchmarks.core import units
from benchmarks.core.command import import_tensorflow_quietly
from benchmarks.core.command import stopping
from benchmarks.core.rows import NotRowsError
from benchmarks.core.rows import parse_rows
from benchmarks.core.rows import provenance
from benchmarks.core.rows import row_key

#: How long `--cluster` tries to reach its scheduler.
CONNECT_SECONDS = 20
#: Memory a worker process takes (TensorFlow and a compiled run: about
#: 0.8 GB measured on the Single Module Task), for capping `--workers`.
MEMORY_PER_WORKER = 2**30
#: Runs in a population unless `--population` says otherwise: 256, above
#: the survey's 225 (9 ranges × 25 seeds) of a configuration.
DEFAULT_POPULATION = 256
#: Memory one run of a population holds at most, for capping its size:
#: its evaluation sets (Madsen's 100-input task: 2 × 10 000 × 100 floats,
#: 8 MB, as NumPy and as a variable) and the batched step's buffers.
MEMORY_PER_RUN = 32 * 2**20


@dataclasses.dataclass(frozen=True)
class Job:
    """One run: `config` (a hashable, JSON-able dict as a tuple) and a seed."""

    config: tuple
    seed: int

    @classmethod
    def of(cls, config, seed):
        """The job of `config` (a dict) and `seed`."""
        return cls(tuple(sorted(config.items())), seed)

    @property
    def key(self):
        return json.dumps([dict(self.config), self.seed], sort_keys=True)


def jobs_over_seeds(config, seeds):
    """The jobs of `config` (a dict), one per seed."""
    return [Job.of(config, seed) for seed in seeds]


class OutputError(ValueError):
    """An output file that does not hold a sweep's rows; it is left as it was."""


_ANOTHER_OUTPUT = (
    "give --output a new file or one that holds this runner's rows (the file "
    "was not changed)."
)


def _first_key(line):
    """`{"name":` of a JSON line (rows are written with sorted keys, so all
    the rows of one task begin with the same one)."""
    return line[: line.find(b'":') + 2] if line.startswith(b'{"') else None


def _is_partial_row(tail, complete):
    """Whether `tail` (the bytes after the last newline) is provably a row
    of this file cut off by a killed run: the start of a JSON object that
    does not parse and begins with the first key of the file's last
    complete row (a file without complete rows has none to match)."""
    lines = complete.splitlines()
    if not lines or _first_key(tail) is None:
        return False
    if _first_key(tail) != _first_key(lines[-1]):
        return False
    try:
        json.loads(tail)
    except ValueError:
        return True
    return False


def output_problem(path):
    """Why `path` cannot be a sweep's output (None: it can): a directory, a
    device, fifo or socket (a sweep would read it whole), a link to
    nothing, or a file or directory that cannot be written. Changes
    nothing (a trial file it makes is removed at once)."""
    if os.path.islink(path) and not os.path.exists(path):
        return f"{path} is a link to nothing; give a file"
    if os.path.exists(path):
        mode = os.stat(path).st_mode
        if stat.S_ISDIR(mode):
            return f"{path} is a directory; --output names a file"
        if not stat.S_ISREG(mode):
            return (
                f"{path} is not a regular file (a device, fifo or socket); "
                "--output names a file"
            )
        try:
            with open(path, "ab"):
                pass
        except OSError as error:
            return f"{path} cannot be written: {error.strerror}"
        return None
    parent = os.path.dirname(os.path.abspath(path))
    while not os.path.exists(parent):
        parent = os.path.dirname(parent)
    if not os.path.isdir(parent) or not _can_create_in(parent):
        return f"{path} cannot be created: {parent} is not a writable directory"
    return None


def _can_create_in(directory):
    """Whether a file can be made in `directory` (tried, then removed: a
    file system such as /proc refuses what its permissions allow)."""
    if not os.access(directory, os.W_OK | os.X_OK):
        return False
    try:
        descriptor, trial = tempfile.mkstemp(dir=directory, prefix=".nalm-trial-")
    except OSError:
        return False
    os.close(descriptor)
    os.remove(trial)
    return True


def finished_keys(path, tasks=None):
    """Keys of the complete rows in `path`.

    A row cut off by a killed run (a partial last line,
    `_is_partial_row`) is cut away; a path that cannot be an output
    (`output_problem`), a file that holds anything but rows, or (with
    `tasks`, those of the sweep's command) rows of another task raises
    `OutputError`, and the file is not changed.
    """
    problem = output_problem(path)
    if problem:
        raise OutputError(f"{problem} (nothing was changed).")
    if not os.path.exists(path):
        return set()
    with open(path, "rb") as handle:
        data = handle.read()
    complete = data[: data.rfind(b"\n") + 1]
    try:
        rows = parse_rows(path, complete)
    except NotRowsError as error:
        raise OutputError(f"{error}: {_ANOTHER_OUTPUT}") from None
    others = sorted({str(row.get("task")) for row in rows} - set(tasks or ()))
    if tasks and others:
        raise OutputError(
            f"{path} holds rows of the task {', '.join(others)}, which this "
            f"command does not run: {_ANOTHER_OUTPUT}"
        )
    keys = {row_key(row) for row in rows}
    tail = data[len(complete) :]
    if tail:
        if not _is_partial_row(tail, complete):
            number = complete.count(b"\n") + 1
            raise OutputError(
                f"{path}, line {number}, is not a row of a sweep (nor a row cut "
                f"off by a killed run): {_ANOTHER_OUTPUT}"
            )
        with open(path, "r+b") as handle:
            handle.truncate(len(complete))
    return keys


def append_rows(path, rows):
    """Appends `rows`, one line each, with a single write, then syncs them."""
    lines = "".join(json.dumps(row, sort_keys=True) + "\n" for row in rows)
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(descriptor, lines.encode("utf-8"))
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def append_row(path, row):
    """Appends `row` as one line with a single write, then syncs it."""
    append_rows(path, [row])


def _keep_rows(path, rows, error):
    """Saves finished rows whose write to `path` failed (`error`) beside it,
    or on stderr, and stops the sweep saying where they are."""
    kept = f"{path}.unwritten"
    try:
        append_rows(kept, rows)
    except OSError:
        for row in rows:
            print(json.dumps(row, sort_keys=True), file=sys.stderr)
        kept = "the lines above"
    raise SystemExit(
        f"error: cannot write finished rows to {path} ({error.strerror}); they "
        f"are kept in {kept}. The rows written before are kept: run the same "
        "command again to resume."
    )


def _lock_holder(descriptor):
    """The process that holds a lock on the file open as `descriptor`, from
    /proc/locks (None where unknown)."""
    status = os.fstat(descriptor)
    inode = f"{os.major(status.st_dev):02x}:{os.minor(status.st_dev):02x}:"
    inode += str(status.st_ino)
    try:
        with open("/proc/locks") as handle:
            for line in handle:
                fields = line.split()
                if len(fields) > 5 and fields[5] == inode:
                    return int(fields[4])
    except (OSError, ValueError):
        pass
    return None


@contextlib.contextmanager
def sole_writer(path):
    """Holds an exclusive lock on `path` (created if missing) while the
    block runs; raises `OutputError` naming the holder when another process
    holds it."""
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _lock_holder(descriptor)
            who = f"process {holder}" if holder else "another process"
            raise OutputError(
                f"{path} is being written by another sweep ({who}); run this "
                "one when it ends, or give another --output (the file was not "
                "changed)."
            ) from None
        yield
    finally:
        os.close(descriptor)  # releases the lock


def _available_memory():
    """Bytes of memory available to new processes (None where unknown)."""
    try:
        with open("/proc/meminfo") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def capped_workers(workers, runs):
    """`workers`, at most one per run (of `runs`, when there are any), per
    core and per `MEMORY_PER_WORKER` of available memory: (the number, why
    it was capped or None)."""
    limits = [(runs, f"{runs} run(s) to do")] if runs else []
    cores = (
        len(os.sched_getaffinity(0))
        if hasattr(os, "sched_getaffinity")
        else (os.cpu_count() or 1)
    )
    limits.append((cores, f"{cores} core(s)"))
    memory = _available_memory()
    if memory is not None:
        fit = max(1, memory // MEMORY_PER_WORKER)
        limits.append((fit, f"{memory / 2**30:.1f} GiB available, about 1 a worker"))
    number, reason = min(limits, key=lambda limit: limit[0])
    if number >= workers:
        return workers, None
    return max(1, number), reason


def use_worker_threads():
    """One intra-op and one inter-op thread, as every run of a sweep has
    (the rows' `device` says so), unless TensorFlow already runs in this
    process (a sweep called from Python), whose settings stay and which
    the rows' `device` then names. A command calls it before its first
    TensorFlow operation: once one has run, TensorFlow keeps its threads.
    """
    import_tensorflow_quietly()
    import tensorflow as tf

    try:
        tf.config.threading.set_intra_op_parallelism_threads(1)
        tf.config.threading.set_inter_op_parallelism_threads(1)
    except RuntimeError:
        pass


def _exit_with(parent):
    """Ends this process once `parent` is no longer its parent."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def _init_pool_worker():
    """`use_worker_threads` in a pool's process, which leaves Ctrl-C to the
    parent (it stops the pool; a worker would print its own traceback) and
    ends with it (a parent killed outright cannot stop its pool)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with, args=(os.getppid(),), daemon=True).start()
    use_worker_threads()


def _progress(written, total, elapsed):
    """ "k/n runs, elapsed, estimated time left" on stderr, one line
    rewritten in place; nothing when stderr is not a terminal (a log)."""
    if not written or not sys.stderr.isatty():
        return
    left = elapsed / written * (total - written)
    text = f"{written}/{total} runs, {elapsed:.0f} s, about {left:.0f} s left"
    # ESC[K clears what a longer previous line left after the text
    print(f"\r{text}\x1b[K", end="\n" if written == total else "", file=sys.stderr)


def _run_in_cluster_worker(train, jobs):
    use_worker_threads()
    return train(jobs)


def _cluster_results(address, train, jobs):
    """Each job's rows from a Dask cluster, as they finish."""
    try:
        from distributed import Client
        from distributed import KilledWorker
        from distributed import as_completed
        from distributed.client import FutureCancelledError
        from distributed.comm.core import CommClosedError
    except ImportError:
        raise SystemExit(
            "--cluster needs Dask distributed: pip install -e './benchmarks[cluster]'"
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
                train,
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


def _pool_results(train, batches, workers):
    """Each batch's rows (a list of jobs) from `workers` local processes,
    as they finish."""
    pool = concurrent.futures.ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_init_pool_worker,
    )
    try:
        futures = [pool.submit(train, batch) for batch in batches]
        for future in concurrent.futures.as_completed(futures):
            yield future.result()
    except concurrent.futures.process.BrokenProcessPool:
        raise SystemExit(
            "A worker process of the sweep died (killed, or out of memory). "
            "The rows written so far are kept: run the same command again to "
            "resume."
        ) from None
    finally:
        _terminate(pool)


def _terminate(pool):
    """Stops a process pool at once, as `multiprocessing.Pool.terminate`
    does: queued runs cancelled, workers killed (a worker that dies makes
    `ProcessPoolExecutor` fail where `Pool` waits forever for its run;
    the executor has no public terminate before Python 3.14)."""
    workers = list((pool._processes or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in workers:
        process.terminate()


def population_batches(jobs, key, population, workers):
    """`jobs` as the lists that train together: those of equal `key(job)`
    in lists of at most `population`; where there are fewer groups than
    `workers`, each split in `workers` lists (every worker busy); one job
    a list where `key` is None."""
    if key is None or population == 1:
        return [[job] for job in jobs]
    groups = {}
    for job in jobs:
        groups.setdefault(key(job), []).append(job)
    batches = []
    for group in groups.values():
        share = -(-len(group) // workers) if len(groups) < workers else len(group)
        size = min(population, share)
        batches += [group[i : i + size] for i in range(0, len(group), size)]
    return batches


def capped_population(population, workers):
    """`population` (None: `DEFAULT_POPULATION`), at most what
    `MEMORY_PER_RUN` lets each worker hold of the available memory."""
    population = population or DEFAULT_POPULATION
    memory = _available_memory()
    if memory is None:
        return population
    return max(1, min(population, memory // (workers * MEMORY_PER_RUN)))


def run_sweep(
    jobs,
    train,
    output,
    workers=1,
    quiet=False,
    cluster=None,
    tasks=None,
    population_key=None,
    population=None,
):
    """Runs the jobs not yet in `output` and appends a row for each (an
    output that holds rows of a task not among `tasks` is refused).

    `train(list of Job) -> list of rows` must be a module-level function
    (it is sent to worker processes); it is given one job at a time, or
    the jobs of equal `population_key(job)` together, at most
    `population` (`population_batches`, `capped_population`).
    `cluster`, a Dask scheduler's address, runs the jobs there, one at a
    time, instead of on `workers` local processes. Returns the number of
    rows written.
    """
    provenance()  # read (and cached) now, before the jobs: edits made
    # while an in-process sweep runs are not the code it imported
    problem = output_problem(output)
    if problem:
        raise OutputError(f"{problem} (nothing was changed).")
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    with sole_writer(output):
        done = finished_keys(output, tasks)  # checks the file before training
        pending = [job for job in jobs if job.key not in done]
        in_process = workers == 1
        if not cluster:
            asked = workers
            workers, reason = capped_workers(workers, len(pending))
            if reason and not quiet:
                print(
                    f"note: --workers {asked} capped at {workers}: {reason}.",
                    file=sys.stderr,
                )
        if not quiet:
            where = f"on {cluster}" if cluster else f"with {workers} worker(s)"
            print(
                f"{len(jobs) - len(pending)} of {len(jobs)} runs already in "
                f"{output}; running {len(pending)} {where}.",
                file=sys.stderr,
            )
        if cluster:
            results = _cluster_results(cluster, train, pending)
            return _write_rows(results, output, done, len(pending), quiet)
        size = capped_population(population, workers)
        batches = population_batches(pending, population_key, size, workers)
        if in_process:
            use_worker_threads()
            results = (train(batch) for batch in batches)
        else:
            results = _pool_results(train, batches, workers)
        return _write_rows(results, output, done, len(pending), quiet)


def _write_rows(results, output, done, total, quiet):
    """Appends each finished row of `results` not yet in `done` to `output`;
    returns the number written."""
    began, written = time.perf_counter(), 0
    for rows in results:
        fresh = _not_done(rows, done)  # a job the cluster ran twice is dropped
        try:
            append_rows(output, fresh)
        except OSError as error:
            _keep_rows(output, fresh, error)
        written += len(fresh)
        if not quiet:
            for row in fresh:
                if row.get("diverged_at") is not None:
                    _say_diverged(row)
            _progress(written, total, time.perf_counter() - began)
    return written


def _not_done(rows, done):
    """The rows whose jobs are not in `done`, which then holds them."""
    fresh = []
    for row in rows:
        key = row_key(row)
        if key not in done:
            done.add(key)
            fresh.append(row)
    return fresh


def _say_diverged(row):
    """A line on a run whose loss stopped being finite (its row's
    `diverged_at`)."""
    config = row.get("config", {})
    name = config.get("model") or config.get("module") or row.get("task")
    print(
        f"note: {name}, {row.get('operation', '')} seed {row['seed']}: diverged "
        f"at step {row['diverged_at']:,} (its loss is not finite).",
        file=sys.stderr,
    )


def main(task, argv=None):
    """`python -m benchmarks.<folder>` of a `benchmarks.core.task.Task`:
    parses the command line (`argv`, default: the process's), lists its
    jobs and trains those whose rows are not yet in `--output`, each by
    `task.train`, appending a row for each; returns the exit status. In
    Python: `main(TASK, ["--seeds", "0", "--output", "rows.jsonl"])`."""
    args = task.parse_arguments(argv)
    with stopping(args) as outcome:
        # before the jobs, which may build models (the NRU's parameter
        # counts): an in-process sweep's runs then have the one thread of
        # a pool's worker, not TensorFlow's default
        use_worker_threads()
        units.check_units(task.own_units(args))
        row_task = task.row_task(args)
        train = functools.partial(
            task.train,
            row_task,
            tensorboard=args.tensorboard,
            checkpoints=args.checkpoints,
        )
        tasks = task.rows if task.mixed_outputs else (row_task,)
        try:
            run_sweep(
                task.jobs(args),
                train,
                args.output,
                args.workers,
                args.quiet,
                cluster=args.cluster,
                tasks=tasks,
                population_key=(
                    task.train.population_key
                    if getattr(task.train, "populations", False)
                    else None
                ),
                population=getattr(args, "population", 1),
            )
        except OutputError as error:
            print(f"error: {error}", file=sys.stderr)
            raise SystemExit(2) from None
    return outcome.status
