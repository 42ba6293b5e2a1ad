"""The recurrent tasks' runs: Trask's recurrent arithmetic task (its models,
schedules and worker entry point) and the hand-over of the sequential MNIST
tasks (the command line and its documentation: `cli`)."""

import functools

import keras

from benchmarks import registry
from benchmarks.core import arguments
from benchmarks.core import sweep
from benchmarks.core import units
from benchmarks.core.ranges import Range
from benchmarks.core.rows import generator_name
from benchmarks.core.rows import optimizer_name
from benchmarks.core.runs import RunSpec
from benchmarks.core.runs import SweepCommand
from benchmarks.core.runs import engine_chunk
from benchmarks.core.runs import optimizer_factory
from benchmarks.data.arithmetic_task import ArithmeticTask
from benchmarks.recurrent import cli
from benchmarks.recurrent.cli import DEFAULT_RANGE
from benchmarks.recurrent.source import INPUT_SIZE
from benchmarks.recurrent.source import RecurrentArithmeticBatches
from benchmarks.recurrent.task import HIDDEN_SIZE
from benchmarks.recurrent.task import MODELS
from benchmarks.recurrent.task import UNIT_MODELS
from keras_nalm import callbacks as C

PAPER_STEPS = {"trask": 100_000}
QUICK_STEPS = {"trask": 10_000}
#: Trask table 9's targets, in its order.
TRASK_OPERATIONS = cli.OPERATIONS
SUBSET_RATIO, OVERLAP_RATIO = 0.25, 0.5


#: The sparsity regularizer's warm-up of the models with NAU/NMU (λ̂, and
#: its start and end at the paper preset's 100 000 steps, scaled with the
#: steps): the NAU's λ̂ of Madsen table 4, the NMU's with it; the
#: schedule is ours (the paper has no NAU).
WARMUPS = {"nau": (10.0, 10_000, 50_000), "nau_nmu": (10.0, 10_000, 50_000)}


def _callbacks(config, seed):
    warmup = config.get("regularizer_warmup") or WARMUPS.get(config["model"])
    if warmup is None:
        return []
    strength, start, end = warmup
    scale = config["steps"] / PAPER_STEPS[config["task"].removeprefix("recurrent_")]
    return [C.RegularizerWarmup(round(start * scale), round(end * scale), strength)]


def _own_cell_rnn(spec, digest):
    """A recurrent cell of one's own (Keras's RNN cell protocol: `state_size`,
    `call(inputs, states)`), built with the hidden size, in
    `keras.layers.RNN`, and a linear output, as the Keras RNNs of table 9."""
    return lambda: [
        keras.layers.RNN(units.build_unit(spec, HIDDEN_SIZE, digest)),
        keras.layers.Dense(1),
    ]


def build_model(name, learned_initial_state=False, digest=None):
    """The model `name` on sequences of 10 inputs per step (`name` a cell
    of one's own with its source's `digest`, `_own_cell_rnn`)."""
    x = inputs = keras.Input((None, INPUT_SIZE))
    own = units.is_unit_spec(name)
    layers = _own_cell_rnn(name, digest) if own else MODELS[name]
    for layer in layers(True) if learned_initial_state else layers():
        x = layer(x)
    return keras.Model(inputs, x, name="recurrent_own" if own else f"recurrent_{name}")


def _source(config, seed):
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


def run_spec(config):
    """The RunSpec of a job's configuration (a dict)."""
    return RunSpec(
        program_key=(
            config["task"],
            config["model"],
            optimizer_name(config),
            *arguments.protocol_key(config),
            config.get("initial_state", "fixed"),
        ),
        build_model=functools.partial(
            build_model,
            config["model"],
            config.get("initial_state", "fixed") == "learned",
            config.get("model_digest"),
        ),
        make_source=functools.partial(_source, config),
        make_optimizer=optimizer_factory(
            config, **arguments.optimizer_arguments(config)
        ),
        make_callbacks=functools.partial(_callbacks, config),
        steps=config["steps"],
        redraw_by_building="model_digest" in config,
    )


#: The sweep's worker entry point for a task's jobs:
#: `run_chunk_for(task, tensorboard=None, checkpoints=None)` -> (jobs -> rows).
run_chunk_for = functools.partial(engine_chunk, run_spec)


def jobs_for(args):
    """The jobs of the parsed command line (`cli.parse_arguments`)."""
    presets = {"paper": PAPER_STEPS, "quick": QUICK_STEPS}
    steps = args.max_steps or presets[args.preset][args.task]
    jobs = []
    for model in args.model:
        for operation in args.operation:
            config = {
                "task": f"recurrent_{args.task}",
                **units.name_fields(model, "model"),
                "operation": operation,
                "preset": args.preset,
                "steps": steps,
                "optimizer": args.optimizer,
                "generator": args.generator,
            }
            if args.range != DEFAULT_RANGE.to_text():  # older rows lack it
                config["range"] = args.range
            if args.initial_state != "fixed" and model in UNIT_MODELS:
                config["initial_state"] = args.initial_state
            config.update(arguments.protocol_fields(args, units.is_unit_spec(model)))
            jobs += sweep.jobs_over_seeds(config, args.seeds)
    return jobs


#: The command of Trask's recurrent task: parse, jobs, sweep, rows.
COMMAND = SweepCommand(
    cli.parse_arguments,
    jobs_for,
    run_chunk_for,
    row_task=lambda args: f"recurrent_{args.task}",
    own_units=units.named_in("model"),
)


def run(args):
    """Runs the sweep of the parsed command line (a sequential MNIST task's
    by `benchmarks.sequential_mnist`); returns the exit status."""
    if args.task in cli.MNIST_TASKS:
        return registry.task_of(args.task).command.run(args)
    return COMMAND.run(args)


def main(argv=None):
    """The command, in this process: `main(["--model", "nac", ...])`."""
    return run(cli.parse_arguments(argv))
