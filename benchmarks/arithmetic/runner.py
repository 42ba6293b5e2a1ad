"""The arithmetic dataset task's runs and the worker entry point (the models
of Madsen table 4 and the others the command offers, with their schedules:
`task`; the command line and its documentation: `cli`)."""

import dataclasses
import functools

import keras

from benchmarks.arithmetic import cli
from benchmarks.arithmetic.task import HIDDEN_SIZE
from benchmarks.arithmetic.task import MODELS
from benchmarks.arithmetic.task import PAPER_STEPS
from benchmarks.arithmetic.task import QUICK_STEPS
from benchmarks.arithmetic.task import Model
from benchmarks.core import arguments
from benchmarks.core import sweep
from benchmarks.core import units
from benchmarks.core.lazy import layer
from benchmarks.core.ranges import Range
from benchmarks.core.rows import generator_name
from benchmarks.core.rows import optimizer_name
from benchmarks.core.runs import RunSpec
from benchmarks.core.runs import SweepCommand
from benchmarks.core.runs import engine_chunk
from benchmarks.core.runs import optimizer_factory
from benchmarks.data.arithmetic_batches import ArithmeticBatches
from benchmarks.data.arithmetic_task import ArithmeticTask
from benchmarks.data.arithmetic_task import function_task
from keras_nalm import callbacks as C
from keras_nalm.layers.nalu import GatedLayer

THRESHOLD_EPSILON = 1e-5  # eq. 16


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


def _build_model(model, input_size, hidden_size):
    """Table 4's two layers: input -> hidden_size -> 1."""
    inputs = keras.Input((input_size,), name="x")
    hidden = model.first(hidden_size)(inputs)
    return keras.Model(inputs, model.second(1)(hidden), name="arithmetic")


def _callbacks(model, scale, seed):
    if model.strength is None:
        return []
    start, end = (round(step * scale) for step in model.warmup)
    return [C.RegularizerWarmup(start, end, max_strength=model.strength)]


#: Interpolation samples over which figure 9's gate is averaged.
GATE_SAMPLES = 1_000


def _log_extras(model, evaluation):
    """Figure 9's `gate` for a model whose second layer is gated: that
    gate's mean over interpolation inputs (the reference logs layer 2's
    `gate/mean` and plots it at the best step)."""
    if not isinstance(model.second(1), GatedLayer):
        return {}
    inputs = evaluation["interpolation"][0][:GATE_SAMPLES]

    def mean_gate(network):
        first, second = network.layers[-2:]
        return float(keras.ops.mean(second.gate(first(inputs))))

    return {"gate": mean_gate}


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


def _source(config, seed):
    """The seed's task (and subsets) on the configuration's ranges."""
    return ArithmeticBatches(
        _task(config, seed),
        Range.parse(config["interpolation_range"]),
        Range.parse(config["extrapolation_range"]),
        threshold_epsilon=THRESHOLD_EPSILON,
        threshold_model="madsen",
        algorithm=generator_name(config),
    )


def run_spec(config):
    """The RunSpec of a job's configuration (a dict)."""
    model = model_of(config)
    scale = config["steps"] / PAPER_STEPS[config["task"]]
    return RunSpec(
        program_key=(
            config["task"],
            config["model"],
            config.get("first_layer"),
            optimizer_name(config),
            *arguments.protocol_key(config),
        ),
        build_model=functools.partial(
            _build_model,
            model,
            config["input_size"],
            config.get("hidden_size", HIDDEN_SIZE),
        ),
        make_source=functools.partial(_source, config),
        # Adam with default parameters (app. C.2), PyTorch's unless --optimizer
        make_optimizer=optimizer_factory(
            config, **arguments.optimizer_arguments(config)
        ),
        make_callbacks=functools.partial(_callbacks, model, scale),
        make_log_extras=functools.partial(_log_extras, model),
        steps=config["steps"],
        redraw_by_building=any(
            f"{field}_digest" in config for field in ("model", "first_layer")
        ),
    )


#: The sweep's worker entry point for a task's jobs:
#: `run_chunk_for(task, tensorboard=None, checkpoints=None)` -> (jobs -> rows).
run_chunk_for = functools.partial(
    engine_chunk,
    run_spec,
    extra_fields={"threshold_epsilon": THRESHOLD_EPSILON},
)


def jobs_for(args):
    """The jobs of the parsed command line (`cli.parse_arguments`)."""
    presets = {"paper": PAPER_STEPS, "quick": QUICK_STEPS}
    steps = args.max_steps or presets[args.preset][args.task]
    if args.task == "function":
        args.operation, args.input_size = ["mul"], 4
        args.subset_ratio = args.overlap_ratio = None
    own_first = args.first_layer is not None
    jobs = []
    for name in args.model:
        for operation in args.operation:
            config = {
                "task": args.task,
                **units.name_fields(name, "model"),
                "operation": operation,
                "input_size": args.input_size,
                "subset_ratio": args.subset_ratio,
                "overlap_ratio": args.overlap_ratio,
                "interpolation_range": args.interpolation_range,
                "extrapolation_range": args.extrapolation_range,
                "preset": args.preset,
                "steps": steps,
                "optimizer": args.optimizer,
                "generator": args.generator,
            }
            if args.hidden_size != HIDDEN_SIZE:  # rows of the default lack it
                config["hidden_size"] = args.hidden_size
            if own_first:
                config.update(units.name_fields(args.first_layer, "first_layer"))
            own = own_first or units.is_unit_spec(name)
            config.update(arguments.protocol_fields(args, own))
            jobs += sweep.jobs_over_seeds(config, args.seeds)
    return jobs


#: The command (`python -m benchmarks.arithmetic`): parse, jobs, sweep, rows.
COMMAND = SweepCommand(
    cli.parse_arguments,
    jobs_for,
    run_chunk_for,
    own_units=units.named_in("model", "first_layer"),
    tasks=cli.TASKS,
)
run, main = COMMAND.run, COMMAND.main


def evaluate_unit(unit=None, first_layer=None, model=None, output=None, **options):
    """Runs units of one's own through Madsen's arithmetic task (or, with
    `task="function"`, the §1.1 function); returns the rows (also appended
    to `output`, a JSON-lines file, when given).

    `unit`, a Keras layer class or a module-level factory called with the
    output size, is the output layer after table 4's NAU; `first_layer`
    (called with the hidden size) replaces the first layer, of `unit`'s
    model or of `model` (table 4's names, e.g. `model="nmu"`). `options`
    are the command's options as keywords (`operation="mul"`,
    `seeds="0-9"`, `preset="quick"`, `learning_rate=1e-2`, ...; `python -m
    benchmarks.arithmetic --help`).
    """
    if (unit is None) == (model is None):
        raise ValueError("give one of `unit` (a unit of one's own) or `model`")
    return units.evaluate(
        {"model": unit, "first_layer": first_layer},
        cli.parse_arguments,
        run,
        jobs_for,
        output,
        {"model": model, **options},
    )
