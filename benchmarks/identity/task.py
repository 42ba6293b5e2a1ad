"""Learning the identity (Trask et al. 2018, §1 and app. A, table 5).

An MLP with 3 hidden layers of 8 units, one non-linearity throughout,
learns y = x from x ~ U[-5, 5] with Adam (learning rate 0.01, 10 000 steps,
as the NALU paper describes it; the batch size, 64, is not given there) and
is scored by its mean absolute error on the integers -1 000 ... 1 000 (500
is the error of predicting 0). One JSON line per (activation, seed).

    python -m benchmarks.identity --activation all --seeds 0-99 --output FILE

`--defaults pytorch` builds the MLP and its optimizer as PyTorch would
(`torch.nn.Linear`'s weights and biases from U(-1/sqrt(fan_in),
1/sqrt(fan_in)), PyTorch's Adam); the default, `keras`, is Keras's
(Glorot-uniform kernels, zero biases, Keras's Adam). The paper's
non-linearities are PyTorch's modules, so its code presumably used
PyTorch's defaults; it does not say.

It also shows a task of one's own on the common runner: `IdentitySource`
below (a batch source and its judge) is all the task needs.
"""

import functools

from benchmarks.core import arguments
from benchmarks.core import sweep
from benchmarks.core.rows import generator_name
from benchmarks.core.runs import Engine
from benchmarks.core.runs import RunSpec
from benchmarks.core.task import Task
from benchmarks.identity import activations
from benchmarks.identity import claims
from benchmarks.identity import report

#: Table 5's non-linearities.
ACTIVATIONS = tuple(activations.ACTIVATIONS)
#: Learning-rate schedules: Adam's rate constant (the paper's description,
#: the default), or halved every 1 000 steps (Adam then converges; with a
#: constant rate it keeps the weights jittering, which the mean absolute
#: error on -1 000 ... 1 000 magnifies 200-fold).
SCHEDULES = ("constant", "halving")
#: Whose layer initialisation and Adam the MLP gets (see above).
DEFAULTS = ("keras", "pytorch")


def build_parser(prog="python -m benchmarks.identity"):
    parser = arguments.new_parser(prog, __doc__)
    arguments.add_names_argument(parser, "--activation", ACTIVATIONS, "activations")
    arguments.add_common_arguments(parser, default_seeds="0-99")
    arguments.add_population_argument(parser)
    arguments.add_generator_argument(parser)
    parser.add_argument("--schedule", choices=SCHEDULES, default="constant")
    parser.add_argument("--defaults", choices=DEFAULTS, default="keras")
    return parser


def parse_arguments(argv=None):
    return build_parser().parse_args(argv)


PAPER_STEPS = 10_000
QUICK_STEPS = 2_000


def jobs(args):
    """The jobs of the parsed command line (`parse_arguments`)."""
    steps = args.max_steps or (PAPER_STEPS if args.preset == "paper" else QUICK_STEPS)
    config = {"preset": args.preset, "steps": steps, "generator": args.generator}
    # rows of the default schedule and defaults carry neither key
    if args.schedule != "constant":
        config["schedule"] = args.schedule
    if args.defaults != "keras":
        config["defaults"] = args.defaults
    return [
        sweep.Job.of({**config, "activation": a}, seed)
        for a in args.activation
        for seed in args.seeds
    ]


def run_spec(config):
    """The RunSpec of a job's configuration (a dict)."""
    from benchmarks.identity import runner

    return RunSpec(
        program_key=("identity", config["activation"]),
        build_model=functools.partial(
            runner.build_mlp, config["activation"], config.get("defaults", "keras")
        ),
        make_source=lambda seed: runner.IdentitySource(generator_name(config)),
        make_optimizer=functools.partial(
            runner.adam,
            config.get("schedule", "constant"),
            config.get("defaults", "keras"),
        ),
        steps=config["steps"],
    )


#: Trask's identity task: `python -m benchmarks.identity`.
TASK = Task(
    name="identity",
    rows=("identity",),
    parse_arguments=parse_arguments,
    jobs=jobs,
    train=Engine(run_spec, populations=True),
    row_task=lambda args: "identity",
    reports=report.REPORTS,
    claims=claims.CLAIMS,
    named=claims.NAMED,
)
