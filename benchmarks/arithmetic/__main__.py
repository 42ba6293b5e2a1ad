"""`python -m benchmarks.arithmetic`: the runner of this folder."""

import sys

from benchmarks.arithmetic.runner import main

sys.exit(main())
