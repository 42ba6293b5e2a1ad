"""`python -m benchmarks.recurrent` (its options: `--help`)."""

import sys

from benchmarks.core.sweep import main
from benchmarks.recurrent.task import TASK

sys.exit(main(TASK))
