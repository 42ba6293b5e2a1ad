"""`python -m benchmarks.recurrent_speed`: runs `benchmarks.speed.recurrent_speed`."""

import sys

from benchmarks.speed.recurrent_speed import main

if __name__ == "__main__":
    sys.exit(main())
