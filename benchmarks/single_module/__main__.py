"""`python -m benchmarks.single_module` (its options: `--help`)."""

import sys

from benchmarks.core.sweep import main
from benchmarks.single_module.task import TASK

sys.exit(main(TASK))
