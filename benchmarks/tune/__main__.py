"""`python -m benchmarks.tune` (its options: `--help`).

A search is not a sweep: Keras Tuner chooses each trial from those before
it and keeps trials in its `--directory`, not rows, so `tune` is a
command (`run_command`), not a `Task` of `benchmarks.registry`.
"""

import sys

from benchmarks.core.command import run_command
from benchmarks.tune.cli import parse_arguments


def run(args):
    """The search of the parsed command line (imports TensorFlow)."""
    from benchmarks.tune import runner

    return runner.run(args)


sys.exit(run_command(parse_arguments, run))
