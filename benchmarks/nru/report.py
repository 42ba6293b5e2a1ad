"""The reports of this folder's tasks: the synthetic tasks' figures
(`synthetic_report`) and the psMNIST and Penn Treebank tables (`tables`)."""

from benchmarks.nru import synthetic_report
from benchmarks.nru import tables

REPORTS = synthetic_report.REPORTS + tables.REPORTS
