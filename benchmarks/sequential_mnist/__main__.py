"""`python -m benchmarks.sequential_mnist` (its options: `cli`, or `--help`)."""

import sys

from benchmarks.core.command import run_command
from benchmarks.sequential_mnist.task import TASK

sys.exit(run_command(TASK.command))
