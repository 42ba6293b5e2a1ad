"""`python -m benchmarks.identity`: the runner of this folder."""

import sys

from benchmarks.identity.runner import main

sys.exit(main())
