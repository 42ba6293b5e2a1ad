"""The arithmetic dataset task's runs and the worker entry point (the models
of Madsen table 4 and the others the command offers, with their schedules:
`task`; the command line and its documentation: `cli`)."""

import dataclasses

import keras

from benchmarks.arithmetic.models import MODELS
from benchmarks.arithmetic.models import THRESHOLD_EPSILON
from benchmarks.arithmetic.models import Model
from benchmarks.core import units
from benchmarks.core.lazy import layer
from benchmarks.core.ranges import Range
from benchmarks.core.rows import generator_name
from benchmarks.data.arithmetic_batches import ArithmeticBatches
from benchmarks.data.arithmetic_task import ArithmeticTask
from benchmarks.data.arithmetic_task import function_task
from keras_nalm import callbacks as C
from keras_nalm.layers.nalu import GatedLayer


def model_of(config):
    """The `Model` of a job's configuration: a table's, or a unit of one's
    own as the output layer after table 4's NAU; with `--first-layer`'s
    unit first, and the protocol options the configuration gives."""
    name = config["model"]
    if units.is_unit_spec(name):
        model = Model(layer("NAU"), _own_layer(config, "model"))
    else:
        model = MODELS[name]
    if "first_layer" in config:
        model = dataclasses.replace(model, first=_own_layer(config, "first_layer"))
    if "regularizer_warmup" in config:
        strength, start, end = config["regularizer_warmup"]
        model = dataclasses.replace(model, strength=strength, warmup=(start, end))
    return model


def _own_layer(config, field):
    """(units) -> a layer of the unit of one's own that `config[field]` names,
    checked against its digest."""
    spec, digest = config[field], config[f"{field}_digest"]
    return lambda size: units.build_unit(spec, size, digest)


def build_model(model, input_size, hidden_size):
    """Table 4's two layers: input -> hidden_size -> 1."""
    inputs = keras.Input((input_size,), name="x")
    hidden = model.first(hidden_size)(inputs)
    return keras.Model(inputs, model.second(1)(hidden), name="arithmetic")


def callbacks(model, scale, seed):
    if model.strength is None:
        return []
    start, end = (round(step * scale) for step in model.warmup)
    return [C.RegularizerWarmup(start, end, max_strength=model.strength)]


#: Interpolation samples over which figure 9's gate is averaged.
GATE_SAMPLES = 1_000


def log_extras(model, own, evaluation):
    """Figure 9's `gate` for a model whose second layer is gated: that
    gate's mean over interpolation inputs (the reference logs layer 2's
    `gate/mean` and plots it at the best step); for a model with a unit
    of one's own (`own`), the sparsity error where the unit defines it
    (`units.strict_sparsity`)."""
    extras = units.strict_sparsity(evaluation) if own else {}
    if not isinstance(model.second(1), GatedLayer):
        return extras
    inputs = evaluation["interpolation"][0][:GATE_SAMPLES]

    def mean_gate(network):
        first, second = network.layers[-2:]
        return float(keras.ops.mean(second.gate(first(inputs))))

    return {**extras, "gate": mean_gate}


def _task(config, seed):
    if config["task"] == "function":
        return function_task()
    return ArithmeticTask.draw(
        seed,
        config["operation"],
        input_size=config["input_size"],
        subset_ratio=config["subset_ratio"],
        overlap_ratio=config["overlap_ratio"],
    )


def source(config, seed):
    """The seed's task (and subsets) on the configuration's ranges."""
    return ArithmeticBatches(
        _task(config, seed),
        Range.parse(config["interpolation_range"]),
        Range.parse(config["extrapolation_range"]),
        threshold_epsilon=THRESHOLD_EPSILON,
        threshold_model="madsen",
        algorithm=generator_name(config),
    )
