"""The reports of this folder's tasks, registered by importing this module:
the synthetic tasks' figures (`synthetic_report`) and the psMNIST and Penn
Treebank tables (`tables`)."""

from benchmarks.nru import synthetic_report  # noqa: F401
from benchmarks.nru import tables  # noqa: F401
