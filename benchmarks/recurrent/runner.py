"""The recurrent tasks' runs: Trask's recurrent arithmetic task (its models,
schedules and worker entry point) and the hand-over of the sequential MNIST
tasks (the command line and its documentation: `cli`)."""

import keras

from benchmarks.core import units
from benchmarks.core.ranges import Range
from benchmarks.core.rows import generator_name
from benchmarks.data.arithmetic_task import ArithmeticTask
from benchmarks.recurrent.models import DEFAULT_RANGE
from benchmarks.recurrent.models import HIDDEN_SIZE
from benchmarks.recurrent.models import MODELS
from benchmarks.recurrent.models import PAPER_STEPS
from benchmarks.recurrent.source import INPUT_SIZE
from benchmarks.recurrent.source import RecurrentArithmeticBatches
from keras_nalm import callbacks as C

SUBSET_RATIO, OVERLAP_RATIO = 0.25, 0.5


#: The sparsity regularizer's warm-up of the models with NAU/NMU (λ̂, and
#: its start and end at the paper preset's 100 000 steps, scaled with the
#: steps): the NAU's λ̂ of Madsen table 4, the NMU's with it; the
#: schedule is ours (the paper has no NAU).
WARMUPS = {"nau": (10.0, 10_000, 50_000), "nau_nmu": (10.0, 10_000, 50_000)}


def callbacks(config, seed):
    warmup = config.get("regularizer_warmup") or WARMUPS.get(config["model"])
    if warmup is None:
        return []
    strength, start, end = warmup
    scale = config["steps"] / PAPER_STEPS[config["task"].removeprefix("recurrent_")]
    return [C.RegularizerWarmup(round(start * scale), round(end * scale), strength)]


def _own_rnn(spec, digest):
    """A unit of one's own, in the places of table 9's: a recurrent cell
    (Keras's RNN cell protocol) built with the hidden size in
    `keras.layers.RNN` with a linear output, as the Keras RNNs; or a layer
    used recurrently (`ArithmeticCell`) feeding the same layer with one
    output, as the recurrent NAC and NALU (`units.build_cell`)."""

    def layers(learned=False):
        from keras_nalm.layers import ArithmeticCell

        cell = units.build_cell(spec, HIDDEN_SIZE, digest, learned)
        if isinstance(cell, ArithmeticCell):
            return [keras.layers.RNN(cell), units.build_unit(spec, 1, digest)]
        return [keras.layers.RNN(cell), keras.layers.Dense(1)]

    return layers


def build_model(name, learned_initial_state=False, digest=None):
    """The model `name` on sequences of 10 inputs per step (`name` a unit
    or cell of one's own with its source's `digest`, `_own_rnn`)."""
    x = inputs = keras.Input((None, INPUT_SIZE))
    own = units.is_unit_spec(name)
    layers = _own_rnn(name, digest) if own else MODELS[name]
    for layer in layers(True) if learned_initial_state else layers():
        x = layer(x)
    return keras.Model(inputs, x, name="recurrent_own" if own else f"recurrent_{name}")


def source(config, seed):
    task = ArithmeticTask.draw(
        seed,
        config["operation"],
        input_size=INPUT_SIZE,
        subset_ratio=SUBSET_RATIO,
        overlap_ratio=OVERLAP_RATIO,
    )
    value_range = Range.parse(config.get("range", DEFAULT_RANGE.to_text()))
    return RecurrentArithmeticBatches(
        task, value_range, algorithm=generator_name(config)
    )
