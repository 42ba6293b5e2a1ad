"""`python -m benchmarks.tune` (its options: `cli`, or `--help`)."""

import sys

from benchmarks.core.command import run_command
from benchmarks.core.lazy import Lazy
from benchmarks.core.task import Command

#: The tuner writes trials, not rows: a command, not a task of the registry.
COMMAND = Command(
    Lazy("benchmarks.tune.cli:parse_arguments"), Lazy("benchmarks.tune.runner:run")
)
sys.exit(run_command(COMMAND))
