"""The reports of this folder's tasks: language to number
(`numbers_report`) and the programs (`programs_report`)."""

from benchmarks.language import numbers_report
from benchmarks.language import programs_report

REPORTS = numbers_report.REPORTS + programs_report.REPORTS
