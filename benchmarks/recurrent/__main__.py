"""`python -m benchmarks.recurrent`: the runner of this folder."""

import sys

from benchmarks.recurrent.runner import main

sys.exit(main())
