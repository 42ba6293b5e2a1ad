"""The reports of this folder's tasks, registered by importing this module:
language to number (`numbers_report`) and the programs (`programs_report`)."""

from benchmarks.language import numbers_report  # noqa: F401
from benchmarks.language import programs_report  # noqa: F401
