"""`python -m benchmarks.language` (its options: `--help`)."""

import sys

from benchmarks.core.sweep import main
from benchmarks.language.task import TASK

sys.exit(main(TASK))
