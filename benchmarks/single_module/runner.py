"""The Single Module task's runs and the worker entry point (the modules and
their protocols: `task`; the command line and its documentation: `cli`)."""

import dataclasses
import functools

import keras

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
from benchmarks.data.arithmetic_batches import ArithmeticBatches
from benchmarks.data.arithmetic_task import SINGLE_MODULE_RANGES
from benchmarks.data.arithmetic_task import paired_extrapolation_range
from benchmarks.data.arithmetic_task import single_module_task
from benchmarks.single_module import cli
from benchmarks.single_module.task import MODULES
from benchmarks.single_module.task import MORE_INPUTS
from benchmarks.single_module.task import OPERATIONS
from benchmarks.single_module.task import VARIANTS
from benchmarks.single_module.task import Module
from benchmarks.single_module.task import regularizer_warmup

PRESET_TIME_SCALE = {"paper": 1.0, "quick": 0.2}
#: §6.5's text says epsilon = 1e-5; the reference script that writes the
#: thresholds (`generate_exp_thresholds.r`) uses 1e-4, but the file its plots
#: read is not in the repository. The published success rates agree with
#: 1e-5: over all 207 configurations of tables 9-12, the paper's rate lies
#: in our 95 % interval for 170 with 1e-5 and for 152 with 1e-4.
THRESHOLD_EPSILON = 1e-5


def _build_model(layer_factory, input_size):
    inputs = keras.Input((input_size,), name="x")
    return keras.Model(inputs, layer_factory()(inputs), name="single_module")


def _source(config, seed):
    return ArithmeticBatches(
        single_module_task(config["operation"], config["input_size"]),
        Range.parse(config["interpolation_range"]),
        Range.parse(config["extrapolation_range"]),
        threshold_epsilon=THRESHOLD_EPSILON,
        threshold_model="mistry",
        algorithm=generator_name(config),
        fixed_threshold=config.get("fixed_threshold"),
    )


def module_for(name, input_size):
    """The `Module` (layer and protocol) of `name` at `input_size` inputs;
    a unit of one's own (`benchmarks.core.units`) with the survey's plain
    Adam at 1e-3 and no callbacks."""
    if units.is_unit_spec(name):
        return Module(functools.partial(units.build_unit, name, 1), OPERATIONS)
    if input_size > 2 and name in MORE_INPUTS:
        return MORE_INPUTS[name]
    return {**MODULES, **VARIANTS}[name]


def module_of(config):
    """The `Module` of a job's configuration: `module_for` with the
    protocol options the configuration gives (`arguments.protocol_fields`)
    and, for a unit of one's own, the check of its source's digest."""
    module = module_for(config["module"], config["input_size"])
    if "module_digest" in config:
        layer = functools.partial(
            units.build_unit, config["module"], 1, config["module_digest"]
        )
        module = dataclasses.replace(module, layer=layer)
    optimizer = {**module.optimizer, **arguments.optimizer_arguments(config)}
    module = dataclasses.replace(module, optimizer=optimizer)
    if "regularizer_warmup" in config:
        strength, start, end = config["regularizer_warmup"]
        module = dataclasses.replace(
            module, callbacks=regularizer_warmup(strength, start, end)
        )
    return module


def run_spec(config):
    """The RunSpec of a job's configuration (a dict)."""
    name, operation = config["module"], config["operation"]
    module = module_of(config)
    scale = config["steps"] / module.paper_steps
    return RunSpec(
        program_key=(
            "single_module",
            name,
            optimizer_name(config),
            *arguments.protocol_key(config),
        ),
        build_model=functools.partial(_build_model, module.layer, config["input_size"]),
        make_source=functools.partial(_source, config),
        make_optimizer=optimizer_factory(config, **module.optimizer),
        make_callbacks=functools.partial(module.callbacks, operation, scale),
        steps=config["steps"],
        redraw_by_building="module_digest" in config,
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
    if args.interpolation_range == "all":
        pairs = [(i.to_text(), e.to_text()) for i, e in SINGLE_MODULE_RANGES]
    else:
        interpolation = Range.parse(args.interpolation_range)
        extrapolation = (
            Range.parse(args.extrapolation_range)
            if args.extrapolation_range
            else paired_extrapolation_range(interpolation)
        )
        pairs = [(interpolation.to_text(), extrapolation.to_text())]
    jobs = []
    for operation in args.operation:
        for name in args.module:
            module = module_for(name, args.input_size)
            if operation not in module.operations:
                continue  # the survey does not run this module on it
            steps = args.max_steps or round(
                module.paper_steps * PRESET_TIME_SCALE[args.preset]
            )
            for interpolation, extrapolation in pairs:
                config = {
                    **units.name_fields(name, "module"),
                    "operation": operation,
                    "input_size": args.input_size,
                    "interpolation_range": interpolation,
                    "extrapolation_range": extrapolation,
                    "preset": args.preset,
                    "steps": steps,
                    "optimizer": args.optimizer,
                    "generator": args.generator,
                    **arguments.protocol_fields(args, units.is_unit_spec(name)),
                }
                if args.threshold is not None:
                    config["fixed_threshold"] = args.threshold
                jobs += sweep.jobs_over_seeds(config, args.seeds)
    if not jobs:
        raise SystemExit(
            f"The survey runs none of {','.join(args.module)} on "
            f"{','.join(args.operation)}; see tables 9-12 (task.MODULES) for "
            "which module runs which operation."
        )
    return jobs


#: The command (`python -m benchmarks.single_module`): parse, jobs, sweep, rows.
COMMAND = SweepCommand(
    cli.parse_arguments,
    jobs_for,
    run_chunk_for,
    row_task=lambda args: "single_module",
    own_units=units.named_in("module"),
)
run, main = COMMAND.run, COMMAND.main


def evaluate_unit(unit, output=None, **options):
    """Runs a unit of one's own through the Single Module Task; returns its
    rows (also appended to `output`, a JSON-lines file, when given).

    `unit` is a Keras layer class or a module-level factory, called with
    the output size (1); `options` are the command's options as keywords
    (`operation="mul"`, `interpolation_range="1,2"`, `seeds="0-4"`,
    `preset="quick"`, `learning_rate=1e-2`, `regularizer_warmup=(10, 20000,
    35000)`, `workers=2`, ...; see `python -m benchmarks.single_module
    --help`). The unit trains as the object given in this process (with
    `workers=1`, the default) and is named in the rows by its module and
    name with a digest of its source file, as on the command line.

    Example:

    ```python
    from benchmarks.single_module import evaluate_unit
    rows = evaluate_unit(MyUnit, operation="mul", preset="quick", seeds="0-4")
    ```
    """
    return units.evaluate(
        {"module": unit}, cli.parse_arguments, run, jobs_for, output, options
    )
