"""`python -m benchmarks.recurrent` (its options: `cli`, or `--help`)."""

import sys

from benchmarks.core.command import run_command
from benchmarks.recurrent.task import TASK

sys.exit(run_command(TASK.command))
