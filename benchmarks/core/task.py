"""A task folder's declaration: `Task`, and the `Command` it runs.

Each task folder declares its task once, as `TASK` in its `task.py`, which
imports no TensorFlow: the rows' tasks it writes, its command (the command
line it parses and the run it starts), its sweeps' worker entry point,
its reports, the papers' tables it publishes beside them and the claims
of the results pages over its rows. The pieces
that need TensorFlow are named by their import path (`Lazy`) and imported
when first used, so that a command answers `--help` and a mistake before
TensorFlow loads, and `benchmarks.registry` reads every folder's
declaration without importing a runner.
"""

import dataclasses

from benchmarks.core.lazy import Lazy


@dataclasses.dataclass(frozen=True)
class Command:
    """`python -m benchmarks.<folder>`: `parse_arguments(argv)` (no
    TensorFlow) and `run(args)`, which returns the exit status."""

    parse_arguments: Lazy
    run: Lazy


@dataclasses.dataclass(frozen=True)
class Task:
    """A task folder, declared once.

    `folder` is its folder under `benchmarks/`; `rows` the `task` values of
    the rows it writes; `command` its command line and run; `run_chunk_for(
    task, tensorboard=None, checkpoints=None)` its sweeps' worker entry
    point for the rows' `task` (jobs -> rows); `reports` its reports (a
    tuple of `TaskReport`); `published` the papers' tables its reports
    read (a tuple of `success.PublishedTask`; None: none); `claims` the
    claims of its own that the results pages make over its rows (a dict
    of `benchmarks.core.claim_rows.Claim` by name; None: none beyond
    those of `benchmarks.claims`); `probes` the `task` values of the rows
    its probes write (`python -m benchmarks.<folder>.<probe>`: a
    measurement of its models, no training run, which no sweep reruns).
    """

    folder: str
    rows: tuple
    command: Command
    run_chunk_for: Lazy
    reports: Lazy
    published: Lazy = None
    claims: Lazy = None
    probes: tuple = ()


def task_in(folder, rows, published=False, claims=False, probes=()):
    """The `Task` of `benchmarks/<folder>/` from its modules' names: the
    command line in `cli.parse_arguments`, the run in `runner.run`, the
    worker entry point in `runner.run_chunk_for`, the reports in
    `report.REPORTS`, with `published` the tables in `report.PUBLISHED`,
    with `claims` the claims in `claims.CLAIMS` and with `probes` the rows'
    tasks of its probes."""
    package = f"benchmarks.{folder}"
    return Task(
        folder=folder,
        rows=tuple(rows),
        command=Command(
            Lazy(f"{package}.cli:parse_arguments"), Lazy(f"{package}.runner:run")
        ),
        run_chunk_for=Lazy(f"{package}.runner:run_chunk_for"),
        reports=Lazy(f"{package}.report:REPORTS"),
        published=Lazy(f"{package}.report:PUBLISHED") if published else None,
        claims=Lazy(f"{package}.claims:CLAIMS") if claims else None,
        probes=tuple(probes),
    )
