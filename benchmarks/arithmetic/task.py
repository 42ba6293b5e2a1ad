"""The arithmetic dataset task (Madsen & Johansen 2020, §4.1, app. C).

Two layers with a hidden size of 2 (table 4) learn t = a ∘ b, a and b the
sums of two overlapping subsets of 100 inputs (algorithm 1, table 3), from
batches of 128 drawn from U[1,2]; a run is solved when its extrapolation
MSE on U[2,6] at the best validation step is below that of the
epsilon-perfect model (eq. 16, epsilon 1e-5). Each seed also draws the
subsets' position.

    python -m benchmarks.arithmetic --model nmu --operation mul \\
        --seeds 0-99 --output nmu_mul.jsonl

Preset `paper`: 5 000 000 steps and table 4's regularizer schedules;
`quick`: 100 000 steps with every schedule compressed by the same factor
(50x). `--max-steps` compresses or stretches the schedules the same way.
`--hidden-size` widens the first layer (figure 3; rows of table 4's size 2
carry no `hidden_size` field, and the reports name other sizes). Beside
table 4's models, `--model` takes table 5's gating models (app. C.5:
`nac_nalu`, `nac_nalu_separate`, `nau_gated_nau_nmu`; published values in
the report; the rows of a model whose second layer is gated carry figure
9's `gate`, its mean over 1 000 interpolation inputs at the best step),
figure 7's ablations of the NMU model (app. C.3:
`nmu_no_sparse`, `nmu_no_clamp`, `nmu_no_sparse_no_clamp`, with
`--hidden-size` 2-10 as the reference's ablation script), table 6's
`gated_nau_nmu` (and `gated_nau_nmu_subtracted_gate`, with the
reference's gate numerics), `nac_mul_sigmoid` and `nac_mul_nmu`, and
figure 3's `nau_nac_mul_nmu` (the NAC•,NMU after an NAU, as the
reference's hidden-size script runs it; table 4 puts a NAC+ before it).

`--task trask_static` is Trask et al.'s static task (app. B, tables 6-7)
with the protocol we had to choose: the paper fixes only the input size
(100), the hidden size (2) and the models (`--model trask`: the MLPs of
`TRASK_ACTIVATIONS`, NAC and NALU; app. F's table 12 has the NALU with
imaginary activations, `nalu_complex`, beside them); its ranges,
subsets, optimizer, batch and steps are not published, so this task
takes Madsen's dataset (U[1,2] -> U[2,6], subset ratio 0.25, overlap
0.5, batch 128), PyTorch's Adam at 1e-3 and 100 000 steps (`paper`;
`quick`: 10 000), all arguments. The report scores each run against the
same model untrained, as table 7, and gives table 12's raw MSEs.

A unit of one's own goes where table 4's units do: `--model
my_units.py:MyUnit` (or `MODULE:NAME`) is the output layer, after table
4's NAU with `--hidden-size` units, and `--first-layer MODULE:NAME`
replaces the first layer of every `--model` (ours too); NAME is a Keras
layer class or a factory called with the layer's output size. Such a
model trains with Adam at 1e-3 (the survey's plain protocol) and no
schedule unless `--learning-rate`, `--clip-value` or
`--regularizer-warmup` say otherwise; its rows name each unit
`MODULE:NAME` with a digest of its own source, and the report puts it beside table 4's
models on the same configuration.

`--task function` is the §1.1 function t = (x1 + x2)(x1 + x2 + x3 + x4)
of table 1 (input size 4, the subset options unused): the reference ran it
for 200 000 steps (`paper`; `quick`: 20 000) with table 4's models and
default schedules, so the NMU's sparsity regularizer (from step 10^6)
never starts.
"""

import argparse
import functools

from benchmarks.arithmetic import claims
from benchmarks.arithmetic import models
from benchmarks.arithmetic import report
from benchmarks.core import arguments
from benchmarks.core import sweep
from benchmarks.core import units
from benchmarks.core.rows import optimizer_name
from benchmarks.core.runs import Engine
from benchmarks.core.runs import RunSpec
from benchmarks.core.runs import optimizer_factory
from benchmarks.core.task import Task
from benchmarks.data.arithmetic_task import OPERATIONS

TASKS = models.TASKS
TRASK_ACTIVATIONS = models.TRASK_ACTIVATIONS
#: The models of `--model` (`models.MODELS`).
MODELS = tuple(models.MODELS)
TRASK_MODELS = models.TRASK_MODELS
TRASK_TABLE12_MODELS = models.TRASK_TABLE12_MODELS
HIDDEN_SIZE = models.HIDDEN_SIZE


def ratio(text):
    """An argparse type: a fraction in [0, 1]."""
    value = arguments.non_negative_float(text)
    if value > 1:
        raise argparse.ArgumentTypeError(f"expected a fraction in [0, 1], got {text!r}")
    return value


def build_parser(prog="python -m benchmarks.arithmetic"):
    parser = arguments.new_parser(prog, __doc__)
    parser.add_argument("--task", choices=TASKS, default="arithmetic")
    arguments.add_names_argument(
        parser,
        "--model",
        MODELS,
        "models",
        groups={"trask": TRASK_MODELS, "trask_table12": TRASK_TABLE12_MODELS},
        note=", or trask (table 7's), trask_table12 (table 12's)"
        + arguments.OWN_UNIT_HELP
        + ": the output layer, after table 4's NAU",
        own_units=True,
        required=True,
    )
    parser.add_argument(
        "--first-layer",
        type=arguments.names((), "first layers", own_units=True),
        default=None,
        metavar="MODULE:NAME",
        help="a unit of one's own (MODULE:NAME or path/to/file.py:NAME) as "
        "the first layer of every --model, called with the hidden size",
    )
    arguments.add_names_argument(
        parser,
        "--operation",
        tuple(OPERATIONS),
        "operations",
        note=" (default mul)",
        default=["mul"],
    )
    parser.add_argument(
        "--interpolation-range",
        type=arguments.value_range,
        default="1,2",
        help=arguments.RANGE_HELP,
    )
    parser.add_argument(
        "--extrapolation-range",
        type=arguments.value_range,
        default="2,6",
        help=arguments.RANGE_HELP,
    )
    parser.add_argument("--input-size", type=arguments.positive_int, default=100)
    parser.add_argument(
        "--hidden-size",
        type=arguments.positive_int,
        default=HIDDEN_SIZE,
        help="units of the first layer (table 4: 2; Madsen figure 3 varies it)",
    )
    parser.add_argument("--subset-ratio", type=ratio, default=0.25)
    parser.add_argument("--overlap-ratio", type=ratio, default=0.5)
    arguments.add_optimizer_argument(parser)
    arguments.add_protocol_arguments(parser, "1e-3, unclipped, table 4's schedules")
    arguments.add_generator_argument(parser)
    arguments.add_common_arguments(parser, default_seeds="0-99")
    arguments.add_population_argument(parser)
    return parser


def parse_arguments(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.subset_ratio == 0:
        parser.error("--subset-ratio must be > 0")
    if args.first_layer is not None:
        if len(args.first_layer) != 1:
            parser.error("--first-layer takes one unit")
        (args.first_layer,) = args.first_layer
    return args


def jobs(args):
    """The jobs of the parsed command line (`parse_arguments`)."""
    presets = {"paper": models.PAPER_STEPS, "quick": models.QUICK_STEPS}
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


def run_spec(config):
    """The RunSpec of a job's configuration (a dict)."""
    from benchmarks.arithmetic import runner

    model = runner.model_of(config)
    own = any(f"{field}_digest" in config for field in ("model", "first_layer"))
    scale = config["steps"] / models.PAPER_STEPS[config["task"]]
    return RunSpec(
        program_key=(
            config["task"],
            config["model"],
            config.get("first_layer"),
            optimizer_name(config),
            *arguments.protocol_key(config),
        ),
        build_model=functools.partial(
            runner.build_model,
            model,
            config["input_size"],
            config.get("hidden_size", HIDDEN_SIZE),
        ),
        make_source=functools.partial(runner.source, config),
        # Adam with default parameters (app. C.2), PyTorch's unless --optimizer
        make_optimizer=optimizer_factory(
            config, **arguments.optimizer_arguments(config)
        ),
        make_callbacks=functools.partial(runner.callbacks, model, scale),
        make_log_extras=functools.partial(runner.log_extras, model, own),
        steps=config["steps"],
        redraw_by_building=own,
    )


#: Madsen's arithmetic task, his §1.1 function and Trask's static task:
#: `python -m benchmarks.arithmetic --task arithmetic|function|trask_static`.
TASK = Task(
    name="arithmetic",
    rows=TASKS,
    parse_arguments=parse_arguments,
    jobs=jobs,
    train=Engine(
        run_spec, {"threshold_epsilon": models.THRESHOLD_EPSILON}, populations=True
    ),
    own_units=units.named_in("model", "first_layer"),
    mixed_outputs=True,
    reports=report.REPORTS,
    published=report.PUBLISHED,
    claims=claims.CLAIMS,
    named=claims.NAMED,
)


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
    own = {"model": unit, "first_layer": first_layer}
    return units.evaluate(TASK, own, output, {"model": model, **options})
