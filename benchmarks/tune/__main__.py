"""`python -m benchmarks.tune`: the runner of this folder."""

import sys

from benchmarks.tune.runner import main

sys.exit(main())
