"""`python -m benchmarks.throughput`: runs `benchmarks.speed.throughput`."""

import sys

from benchmarks.speed.throughput import main

if __name__ == "__main__":
    sys.exit(main())
