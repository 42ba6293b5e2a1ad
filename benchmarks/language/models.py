"""Trask et al.'s language to number and program evaluation tasks (2018,
app. D and E): their steps and their models' names and output layers, read
by the command line before TensorFlow loads and by the runner."""

from benchmarks.core.lazy import layer
from benchmarks.core.lazy import lazy

PAPER_STEPS = {
    "language_to_number": 300_000,
    "program_add": 100_000,
    "program_if": 100_000,
}
QUICK_STEPS = {"language_to_number": 10_000, "program_add": 5_000, "program_if": 5_000}
#: The rows' tasks this folder runs (`benchmarks.registry`).
TASKS = tuple(PAPER_STEPS)

#: The program families of the program tasks.
PROGRAM_TASKS = {"program_add": "add", "program_if": "if"}
LANGUAGE_MODELS = ("lstm", "lstm_summed", "lstm_nac", "lstm_nalu")
PROGRAM_MODELS = (
    "lstm",
    "ugrnn",
    "dnc",
    "lstm_nac",
    "lstm_nalu",
    "nac_rnn",
    "nalu_rnn",
)
#: The output layer of each model, called with its size (1).
HEADS = {
    "lstm": lazy("keras.layers:Dense"),
    "ugrnn": lazy("keras.layers:Dense"),
    "lstm_summed": lazy("keras.layers:Dense"),
    "lstm_nac": layer("NAC"),
    "lstm_nalu": layer("NALU"),
    "dnc": lazy("keras.layers:Dense"),
    "nac_rnn": layer("NAC"),
    "nalu_rnn": layer("NALU"),
}
