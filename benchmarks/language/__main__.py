"""`python -m benchmarks.language` (its options: `cli`, or `--help`)."""

import sys

from benchmarks.core.command import run_command

sys.exit(run_command("language"))
