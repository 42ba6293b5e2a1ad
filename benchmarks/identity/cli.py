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

from benchmarks.core import arguments
from benchmarks.identity import task

#: Table 5's non-linearities.
ACTIVATIONS = tuple(task.ACTIVATIONS)
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
    arguments.add_generator_argument(parser)
    parser.add_argument("--schedule", choices=SCHEDULES, default="constant")
    parser.add_argument("--defaults", choices=DEFAULTS, default="keras")
    return parser


def parse_arguments(argv=None):
    return build_parser().parse_args(argv)
