"""The claims of the language folder's tasks (`benchmarks.claims`):
`program_table FILE`, the program-evaluation table of a file's runs (MAE
and accuracy per operand digits, mean ± 2σ); `running_prediction FILE
NUMBER SPEC`, a chosen run's prediction after each word of a number, from
the output of `benchmarks.language.running_prediction`."""

import json

from benchmarks.core.claim_rows import Claim
from benchmarks.core.claim_rows import file_path
from benchmarks.core.claim_rows import pretty
from benchmarks.core.claim_rows import rows
from benchmarks.language import programs_report


def program_table(path):
    """The table of a file of program-evaluation runs (one task, one length)."""
    found = programs_report.experiments(rows(path))
    if len(found) != 1:
        raise ValueError(f"{path} holds {len(found)} program experiments, not 1.")
    return "\n".join(programs_report.program_table(next(iter(found.values()))))


def running_prediction(path, number, spec):
    """The prediction after each word of NUMBER in a file of running
    predictions (a line naming the run, then one JSON line per number),
    formatted by the format spec SPEC, or as the pages write numbers for
    `-` ("2.0, 42.7, 180.1")."""
    with open(file_path(path), encoding="utf-8") as handle:
        entries = [json.loads(line) for line in handle.read().splitlines()[1:]]
    for entry in entries:
        if entry["number"] == int(number):
            values = [value for _, value in entry["running"]]
            return ", ".join(
                pretty(v) if spec == "-" else f"{v:{spec}}" for v in values
            )
    raise ValueError(f"{path} has no running prediction of {number}.")


CLAIMS = {
    "program_table": Claim(program_table, table=True),
    "running_prediction": Claim(running_prediction),
}


ADD_20K = "language/results/programs/add_20k.jsonl"
PROGRAM_ADD_QUICK = "language/results/programs/program_add_quick.jsonl"
PROGRAM_IF_QUICK = "language/results/programs/program_if_quick.jsonl"
QUICK = "language/results/quick.jsonl"
QUICK_OUTPUT_SCALE_1000 = "language/results/quick_output_scale_1000.jsonl"
RUNNING_LSTM_NALU = "language/results/running_lstm_nalu.txt"
RUNNING_LSTM_SUMMED = "language/results/running_lstm_summed.txt"
TRASK2018_TABLE11 = "language/published/trask2018_table11.csv"

#: The named claims of the pages over the rows of the language tasks (a page's
#: `<!--=lang.NAME-->` stands for the expression; `benchmarks.claims`).
NAMED = {
    "lang.add20k.lstm": f"range {ADD_20K} mae.1-2 model=lstm",
    "lang.add20k.lstm_nac.1": f"percent_range {ADD_20K} accuracy.1-2 model=lstm_nac",
    "lang.add20k.lstm_nac.2": f"range {ADD_20K} mae.1-2 model=lstm_nac",
    "lang.add20k.lstm_nalu": f"below {ADD_20K} mae.1-2 1 model=lstm_nalu",
    "lang.add20k.mae.3": f"range {ADD_20K} mae.3",
    "lang.add20k.mae.6": f"range {ADD_20K} mae.6",
    "lang.add20k.ugrnn": f"below {ADD_20K} mae.1-2 1 model=ugrnn",
    "lang.add20k.ugrnn.2.1": (
        f"percent_range {ADD_20K} accuracy.1-2 model=ugrnn seed=2"
    ),
    "lang.add20k.ugrnn.2.2": f"range {ADD_20K} mae.1-2 model=ugrnn seed=2",
    "lang.add.accuracy.3": f"percent_range {PROGRAM_ADD_QUICK} accuracy.3",
    "lang.add.nalu_rnn": f"maximum {PROGRAM_ADD_QUICK} mae.1-2 model=nalu_rnn",
    "lang.add.ugrnn": f"below {PROGRAM_ADD_QUICK} mae.1-2 10 model=ugrnn",
    "lang.if.accuracy.1-2": f"percent_range {PROGRAM_IF_QUICK} accuracy.1-2",
    "lang.if.accuracy.3": f"percent_range {PROGRAM_IF_QUICK} accuracy.3",
    "lang.if.lstm_nac": f"mean {PROGRAM_IF_QUICK} mae.1-2 model=lstm_nac",
    "lang.if.mae.1-2.dnc": f"mean {PROGRAM_IF_QUICK} mae.1-2 model=dnc",
    "lang.if.nac_rnn": f"range {PROGRAM_IF_QUICK} mae.1-2 model=nac_rnn",
    "lang.if.nalu_rnn.2": (
        f"percent_range {PROGRAM_IF_QUICK} accuracy.4 model=nalu_rnn seed=2"
    ),
    "lang.lstm.16.0.01.0": (
        f"value {QUICK} test_mae .1f model=lstm size=16 learning_rate=0.01 seed=0"
    ),
    "lang.lstm_nalu.0+1.1": (
        f"percent_range {ADD_20K} accuracy.1-2 model=lstm_nalu seed=0|1"
    ),
    "lang.lstm_nalu.0+1.2": f"range {ADD_20K} mae.1-2 model=lstm_nalu seed=0|1",
    "lang.lstm_nalu.2": f"range {ADD_20K} mae.1-2 model=lstm_nalu seed=2",
    "lang.lstm_nalu.16": (
        f"value {QUICK} test_mae .1f model=lstm_nalu size=16 learning_rate=0.01 seed=0"
    ),
    "lang.lstm_summed": (
        f"at_best {QUICK_OUTPUT_SCALE_1000} test_mae validation_mae model=lstm_summed"
    ),
    "lang.median.tmae.lstm": f"median {QUICK} test_mae model=lstm",
    "lang.min": f"minutes {QUICK}",
    "lang.min.add20k": f"minutes {ADD_20K}",
    "lang.nalu.222": f"running_prediction {RUNNING_LSTM_NALU} 222 -",
    "lang.nalu.999": f"running_prediction {RUNNING_LSTM_NALU} 999 -",
    "lang.pub.lstm_summed.1": (
        f"paper {TRASK2018_TABLE11} test_mae .1f model=lstm_summed"
    ),
    "lang.pub.lstm_summed.2": (
        f"paper {TRASK2018_TABLE11} validation_mae .1f model=lstm_summed"
    ),
    "lang.pub.tmae.lstm": f"paper {TRASK2018_TABLE11} test_mae .1f model=lstm",
    "lang.pub.vmae.lstm": f"paper {TRASK2018_TABLE11} validation_mae .1f model=lstm",
    "lang.runs.add20k": f"runs {ADD_20K}",
    "lang.runs.if": f"runs {PROGRAM_IF_QUICK}",
    "lang.runs.lstm_nalu": f"runs {QUICK} model=lstm_nalu",
    "lang.scaled.lstm_nac": (
        f"at_best {QUICK_OUTPUT_SCALE_1000} test_mae validation_mae model=lstm_nac"
    ),
    "lang.scaled.lstm_nalu": (
        f"at_best {QUICK_OUTPUT_SCALE_1000} test_mae validation_mae model=lstm_nalu"
    ),
    "lang.scaled.tmae.lstm": (
        f"at_best {QUICK_OUTPUT_SCALE_1000} test_mae validation_mae model=lstm"
    ),
    "lang.summed.222": f"running_prediction {RUNNING_LSTM_SUMMED} 222 .1f",
    "lang.summed.999": f"running_prediction {RUNNING_LSTM_SUMMED} 999 .1f",
    "lang.table11": f"report_table {QUICK}",
    "lang.table.add": f"program_table {PROGRAM_ADD_QUICK}",
    "lang.table.if": f"program_table {PROGRAM_IF_QUICK}",
    "lang.tmae.lstm_nac": f"median {QUICK} test_mae model=lstm_nac",
    "lang.tmae.lstm_nalu.1": (
        f"at_best {QUICK} test_mae validation_mae model=lstm_nalu"
    ),
    "lang.tmae.lstm_nalu.2": f"maximum {QUICK} test_mae model=lstm_nalu",
    "lang.tmae.lstm_nalu.3": f"median {QUICK} test_mae model=lstm_nalu",
    "lang.tmae.lstm_summed.1": (
        f"at_best {QUICK} test_mae validation_mae model=lstm_summed"
    ),
    "lang.tmae.lstm_summed.2": f"median {QUICK} test_mae model=lstm_summed",
    "lang.tmae.vmae.lstm": f"at_best {QUICK} test_mae validation_mae model=lstm",
    "lang.vmae.35.lstm": f"below {QUICK} validation_mae 35 model=lstm",
    "lang.vmae.lstm_nalu.1": (
        f"at_best {QUICK} validation_mae validation_mae model=lstm_nalu"
    ),
    "lang.vmae.lstm_nalu.2": f"below {QUICK} validation_mae 35 model=lstm_nalu",
    "lang.vmae.lstm_nalu.3": f"below {QUICK} validation_mae 400 model=lstm_nalu",
    "lang.vmae.lstm_summed": (
        f"at_best {QUICK} validation_mae validation_mae model=lstm_summed"
    ),
    "lang.vmae.vmae.lstm": (
        f"at_best {QUICK} validation_mae validation_mae model=lstm"
    ),
}
