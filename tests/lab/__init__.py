"""The tests of the lab (`benchmarks/`): collected with `--run-benchmarks`
or `--run-large` only (`tests/conftest.py`), in a checkout where the lab is
installed (`pip install -e ./benchmarks`)."""

import os

#: The checkout's root, where the lab's commands run.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
