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

`--task mnist_count|mnist_add|mnist_product|mnist_sum` runs the units
inside a network over MNIST digits: `benchmarks.sequential_mnist.runner`, whose
options those tasks take.

The paper gives neither steps, batch size, optimizer nor input range;
ours are those of Madsen & Johansen's reference script for this task
(stable-nalu `experiments/simple_function_recurrent.py`): Adam with
default parameters, batch 128, 100 000 steps (preset `paper`; `quick`:
10 000), U[1, 2] (`--range` changes it). Its models start from a learned
initial state (zero at first); ours start from the fixed zero state (the
NAC and NALU cells from the identity of their operation, 0), or learn it
with `--initial-state learned`.

A recurrent cell of one's own goes where the models' cells do: `--model
my_cells.py:MyCell` (or `MODULE:NAME`), NAME a Keras RNN cell class or a
factory called with the hidden size (2), runs in `keras.layers.RNN`
followed by a linear layer, as table 9's Keras RNNs; it trains with Adam
at 1e-3 unless `--learning-rate`, `--clip-value` or `--regularizer-warmup`
say otherwise, and its rows name it with a digest of its source file.
"""

import argparse
import sys

from benchmarks.core import arguments
from benchmarks.core.ranges import Range
from benchmarks.recurrent import task
from benchmarks.sequential_mnist import cli as sequential_mnist_cli

#: The inputs' range is not given in the paper; the reference code of
#: Madsen & Johansen (stable-nalu, `SimpleFunctionRecurrentDataset`) draws
#: U[1, 2].
DEFAULT_RANGE = Range.parse("1,2")

#: Trask table 9's models, then Madsen & Johansen's units in the same places.
MODELS = tuple(task.MODELS)
#: Trask table 9's targets, in its order.
OPERATIONS = ("a", "add", "sub", "mul", "div", "squared", "root")
#: The sequential MNIST tasks, handed over to `benchmarks.sequential_mnist`.
MNIST_TASKS = sequential_mnist_cli.TASKS
PROG = "python -m benchmarks.recurrent"


def one_interval(text):
    """An argparse type: a `value_range` of one interval (the recurrent
    source draws from one)."""
    value = arguments.value_range(text)
    if ";" in value:
        raise argparse.ArgumentTypeError(f"expected one interval low,high: {text!r}")
    return value


def build_parser():
    parser = arguments.new_parser(PROG, __doc__)
    parser.add_argument(
        "--task",
        choices=("trask", *MNIST_TASKS),
        default="trask",
        help="trask, or a sequential MNIST task (it takes the options of "
        "python -m benchmarks.sequential_mnist)",
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
    argv = sys.argv[1:] if argv is None else list(argv)
    task_parser = argparse.ArgumentParser(add_help=False)
    task_parser.add_argument("--task")
    if task_parser.parse_known_args(argv)[0].task in MNIST_TASKS:
        return sequential_mnist_cli.parse_arguments(argv, prog=PROG)
    return build_parser().parse_args(argv)
