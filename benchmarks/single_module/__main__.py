"""`python -m benchmarks.single_module` (its options: `cli`, or `--help`)."""

import sys

from benchmarks.core.command import run_command
from benchmarks.single_module.task import TASK

sys.exit(run_command(TASK.command))
