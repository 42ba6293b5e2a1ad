"""Units used recurrently (Trask et al. 2018, app. B).

`--task trask`: Trask's recurrent arithmetic task. x_t ∈ R^10 ~ U[1, 2];
a and b sum two subsets of the inputs over every step (subset ratio 0.25,
overlap 0.5, positions drawn per seed, as Madsen & Johansen's algorithm 1);
the target is a, a + b, a − b, a · b, a / b, a² or √a. Models train on
sequences of 10 steps and are tested on fresh sequences of 10
(interpolation) and 1 000 (extrapolation). Every model has a hidden size of
2 (the paper's "minimally required size"): an LSTM, GRU, or RNN with tanh
or ReLU followed by a linear layer, or a recurrent NAC followed by a NAC,
a recurrent NALU followed by a NALU (app. B, tables 8-9).

    python -m benchmarks.recurrent --task trask --model all --operation all \\
        --seeds 0-9 --output FILE.jsonl

The units inside a network over MNIST digits (Trask app. C, Madsen §4.2)
are `python -m benchmarks.sequential_mnist`.

The paper gives neither steps, batch size, optimizer nor input range;
ours are those of Madsen & Johansen's reference script for this task
(stable-nalu `experiments/simple_function_recurrent.py`): Adam with
default parameters, batch 128, 100 000 steps (preset `paper`; `quick`:
10 000), U[1, 2] (`--range` changes it). Its models start from a learned
initial state (zero at first); ours start from the fixed zero state (the
NAC and NALU cells from the identity of their operation, 0), or learn it
with `--initial-state learned`.

A unit or a recurrent cell of one's own goes where the models' do:
`--model my_units.py:MyUnit` (or `MODULE:NAME`), NAME a class or a
factory called with the hidden size (2). A Keras RNN cell runs in
`keras.layers.RNN` followed by a linear layer, as table 9's Keras RNNs;
a layer runs as the recurrent NAC and NALU do, used recurrently
(`keras_nalm.layers.ArithmeticCell`: h_t = layer([x_t, h_{t-1}]), from
its `identity_value`, else 0) and feeding the same layer with one
output. It trains with Adam at 1e-3 unless `--learning-rate`,
`--clip-value` or `--regularizer-warmup` say otherwise, and its rows name
it with a digest of its own source (`benchmarks.core.units`). A run whose
loss stops being finite says so on its line (`diverged at step N`), and
the report says so in place of its scores.
"""

import argparse
import functools

from benchmarks.core import arguments
from benchmarks.core import sweep
from benchmarks.core import units
from benchmarks.core.rows import optimizer_name
from benchmarks.core.runs import Engine
from benchmarks.core.runs import RunSpec
from benchmarks.core.runs import optimizer_factory
from benchmarks.core.task import Task
from benchmarks.recurrent import claims
from benchmarks.recurrent import models
from benchmarks.recurrent import report

#: Trask table 9's models, then Madsen & Johansen's units in the same places.
MODELS = tuple(models.MODELS)
OPERATIONS = models.OPERATIONS
DEFAULT_RANGE = models.DEFAULT_RANGE


def one_interval(text):
    """An argparse type: a `value_range` of one interval (the recurrent
    source draws from one)."""
    value = arguments.value_range(text)
    if ";" in value:
        raise argparse.ArgumentTypeError(f"expected one interval low,high: {text!r}")
    return value


def trask_only(text):
    """An argparse type: `trask`, the one task of this command."""
    if text != "trask":
        raise argparse.ArgumentTypeError(
            f"{text!r} is no task of this command (trask); the sequential "
            "MNIST tasks are python -m benchmarks.sequential_mnist"
        )
    return text


def build_parser():
    parser = arguments.new_parser("python -m benchmarks.recurrent", __doc__)
    parser.add_argument(
        "--task",
        type=trask_only,
        default="trask",
        help="trask (the sequential MNIST tasks are python -m "
        "benchmarks.sequential_mnist)",
    )
    arguments.add_names_argument(
        parser,
        "--model",
        MODELS,
        "models",
        note=arguments.OWN_UNIT_HELP.replace(
            "Keras layer class", "Keras RNN cell class"
        ).replace("output size", "hidden size"),
        own_units=True,
    )
    arguments.add_names_argument(parser, "--operation", OPERATIONS, "operations")
    parser.add_argument(
        "--range",
        type=one_interval,
        default=DEFAULT_RANGE.to_text(),
        help="the inputs' range, one interval low,high (default 1,2; the "
        "paper does not give it); one that starts below 0 takes '=' "
        "(--range=-1,1)",
    )
    parser.add_argument(
        "--initial-state",
        choices=("fixed", "learned"),
        default="fixed",
        help="the recurrent units' initial state: fixed (default, the rows so "
        "far: the unit's identity, 0) or learned (a trainable weight that "
        "starts there, as the reference code learns it); the Keras RNNs keep "
        "theirs fixed",
    )
    arguments.add_optimizer_argument(parser)
    arguments.add_protocol_arguments(parser, "1e-3, unclipped; the NAU's warm-up")
    arguments.add_generator_argument(parser)
    arguments.add_common_arguments(parser, default_seeds="0-9")
    return parser


def parse_arguments(argv=None):
    return build_parser().parse_args(argv)


def jobs(args):
    """The jobs of the parsed command line (`parse_arguments`)."""
    presets = {"paper": models.PAPER_STEPS, "quick": models.QUICK_STEPS}
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
            if args.initial_state != "fixed" and model in models.UNIT_MODELS:
                config["initial_state"] = args.initial_state
            config.update(arguments.protocol_fields(args, units.is_unit_spec(model)))
            jobs += sweep.jobs_over_seeds(config, args.seeds)
    return jobs


def run_spec(config):
    """The RunSpec of a job's configuration (a dict)."""
    from benchmarks.recurrent import runner

    return RunSpec(
        program_key=(
            config["task"],
            config["model"],
            optimizer_name(config),
            *arguments.protocol_key(config),
            config.get("initial_state", "fixed"),
        ),
        build_model=functools.partial(
            runner.build_model,
            config["model"],
            config.get("initial_state", "fixed") == "learned",
            config.get("model_digest"),
        ),
        make_source=functools.partial(runner.source, config),
        make_optimizer=optimizer_factory(
            config, **arguments.optimizer_arguments(config)
        ),
        make_callbacks=functools.partial(runner.callbacks, config),
        steps=config["steps"],
        redraw_by_building="model_digest" in config,
    )


#: Trask's recurrent arithmetic task: `python -m benchmarks.recurrent`.
TASK = Task(
    name="recurrent",
    rows=models.TASKS,
    parse_arguments=parse_arguments,
    jobs=jobs,
    train=Engine(run_spec),
    row_task=lambda args: f"recurrent_{args.task}",
    own_units=units.named_in("model"),
    reports=report.REPORTS,
    claims=claims.CLAIMS,
    named=claims.NAMED,
)


def evaluate_unit(unit, output=None, **options):
    """Runs a unit or recurrent cell of one's own through Trask's recurrent
    arithmetic task; returns its rows (also appended to `output`, a
    JSON-lines file, when given).

    `unit` is a Keras layer or RNN cell class or a module-level factory,
    called with the hidden size (2) and, for a layer, with 1 for the
    output (as on the command line, `--model`); `options` are the
    command's options as keywords (`operation="add"`, `seeds="0-4"`,
    `preset="quick"`, `learning_rate=1e-2`, ...; see `python -m
    benchmarks.recurrent --help`):
    `evaluate_unit(MyUnit, operation="add", preset="quick", seeds="0-2")`.
    """
    return units.evaluate(TASK, {"model": unit}, output, options)
