"""`python -m benchmarks.single_module` (its options: `cli`, or `--help`)."""

import sys

from benchmarks.core.command import run_command

sys.exit(run_command("single_module"))
