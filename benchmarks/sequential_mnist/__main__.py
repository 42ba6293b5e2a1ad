"""`python -m benchmarks.sequential_mnist` (its options: `--help`)."""

import sys

from benchmarks.core.sweep import main
from benchmarks.sequential_mnist.task import TASK

sys.exit(main(TASK))
