"""`python -m benchmarks.nru` (its options: `--help`)."""

import sys

from benchmarks.core.sweep import main
from benchmarks.nru.task import TASK

sys.exit(main(TASK))
