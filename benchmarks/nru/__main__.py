"""`python -m benchmarks.nru`: the runner of this folder."""

import sys

from benchmarks.nru.runner import main

sys.exit(main())
