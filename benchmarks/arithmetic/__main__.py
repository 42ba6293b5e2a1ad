"""`python -m benchmarks.arithmetic` (its options: `--help`)."""

import sys

from benchmarks.arithmetic.task import TASK
from benchmarks.core.sweep import main

sys.exit(main(TASK))
