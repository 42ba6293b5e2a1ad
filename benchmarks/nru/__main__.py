"""`python -m benchmarks.nru` (its options: `cli`, or `--help`)."""

import sys

from benchmarks.core.command import run_command
from benchmarks.nru.task import TASK

sys.exit(run_command(TASK.command))
