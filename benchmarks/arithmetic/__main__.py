"""`python -m benchmarks.arithmetic` (its options: `cli`, or `--help`)."""

import sys

from benchmarks.arithmetic.task import TASK
from benchmarks.core.command import run_command

sys.exit(run_command(TASK.command))
