"""`python -m benchmarks.language`: the runner of this folder."""

import sys

from benchmarks.language.runner import main

sys.exit(main())
