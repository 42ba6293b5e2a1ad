"""`python -m benchmarks.identity` (its options: `--help`)."""

import sys

from benchmarks.core.sweep import main
from benchmarks.identity.task import TASK

sys.exit(main(TASK))
