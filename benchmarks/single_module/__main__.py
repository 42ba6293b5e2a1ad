"""`python -m benchmarks.single_module`: the runner of this folder."""

import sys

from benchmarks.single_module.runner import main

sys.exit(main())
