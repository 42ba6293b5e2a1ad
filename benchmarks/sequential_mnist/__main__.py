"""`python -m benchmarks.sequential_mnist`: the runner of this folder."""

import sys

from benchmarks.sequential_mnist.runner import main

sys.exit(main())
