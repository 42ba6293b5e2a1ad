"""`python -m benchmarks.identity` (its options: `cli`, or `--help`)."""

import sys

from benchmarks.core.command import run_command
from benchmarks.identity.task import TASK

sys.exit(run_command(TASK.command))
