"""The Single Module Arithmetic Task (Mistry et al. 2022, §6.5, app. D).

One module, y = x1 ∘ x2 (input size 2; 10 or 100 adds redundant inputs),
trained with Adam (PyTorch's, as the reference code; `--optimizer adam` for
Keras's) on batches of 128 from the interpolation range and judged
on the paired extrapolation range (table 3) against the epsilon-perfect
model of §6.5 (epsilon 1e-5, see THRESHOLD_EPSILON).

    python -m benchmarks.single_module --module nmu --operation mul \\
        --interpolation-range=1,2 --seeds 0-24 --output nmu_mul.jsonl

`--module all`, `--operation all` and `--interpolation-range all` expand to
every module that the survey runs on an operation (tables 9-12) and every
range of table 3. Preset `paper`: 50 000 steps and the module settings of
tables 5-8; `quick`: the same protocol compressed 5x in time (10 000
steps, every schedule 5x earlier), for CI and a first look. With
`--input-size 10` or `100` (figures 18-20) the NAU follows the reference's
schedule for those sizes (`MORE_INPUTS`: 100 000 steps, lambda over
50 000 -> 75 000).

A unit of one's own runs where the survey's modules do:

    python -m benchmarks.single_module --module my_units.py:MyUnit \
        --operation mul --preset quick --seeds 0-4 --output mine.jsonl
    python -m benchmarks.report mine.jsonl

`--module` takes `MODULE:NAME` (an importable module) or
`path/to/file.py:NAME`, NAME a Keras layer class or a factory called with
the output size (1), beside or instead of the survey's names; it runs on
every `--operation`. It trains with Adam at 1e-3, unclipped and without a
regularizer schedule, unless `--learning-rate`, `--clip-value` or
`--regularizer-warmup` say otherwise (those also override the survey's
modules' protocols). Its rows name it by its path and a digest of its
source file, so a changed unit is run anew; the report puts it beside the
survey's published rates and our committed rows on the same ranges.
"""

from benchmarks.core import arguments
from benchmarks.data.arithmetic_task import SINGLE_MODULE_RANGES
from benchmarks.single_module import task

OPERATIONS = task.OPERATIONS
#: The survey's modules (tables 9-12), `--module all`.
MODULES = tuple(task.MODULES)
#: The variants that test a hypothesis about a difference from the survey.
VARIANTS = tuple(task.VARIANTS)
#: Table 3's interpolation ranges, `--interpolation-range all`.
INTERPOLATION_RANGES = tuple(i.to_text() for i, _ in SINGLE_MODULE_RANGES)


def build_parser(prog="python -m benchmarks.single_module"):
    parser = arguments.new_parser(prog, __doc__)
    arguments.add_names_argument(
        parser,
        "--module",
        MODULES + VARIANTS,
        "modules",
        groups={"all": MODULES},
        note=" (all: the survey's, without the variants)" + arguments.OWN_UNIT_HELP,
        own_units=True,
    )
    arguments.add_names_argument(parser, "--operation", OPERATIONS, "operations")
    parser.add_argument(
        "--interpolation-range",
        type=lambda text: "all" if text == "all" else arguments.value_range(text),
        default="all",
        help=f"all: table 3's ranges ({'; '.join(INTERPOLATION_RANGES)}), or "
        + arguments.RANGE_HELP,
    )
    parser.add_argument(
        "--extrapolation-range",
        type=arguments.value_range,
        default=None,
        help="default: table 3's pair of --interpolation-range (needs one "
        "range); " + arguments.RANGE_HELP,
    )
    parser.add_argument("--input-size", type=int, choices=(2, 10, 100), default=2)
    arguments.add_optimizer_argument(parser)
    arguments.add_protocol_arguments(parser, "the module's, tables 5-8")
    parser.add_argument(
        "--threshold",
        type=arguments.positive_float,
        default=None,
        metavar="MSE",
        help="judge success by this fixed extrapolation MSE instead of the "
        "epsilon-perfect model's (the division paper's protocol: 1e-5)",
    )
    arguments.add_generator_argument(parser)
    arguments.add_common_arguments(parser, default_seeds="0-24")
    return parser


def parse_arguments(argv=None, prog="python -m benchmarks.single_module"):
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    if args.extrapolation_range and args.interpolation_range == "all":
        parser.error(
            "--extrapolation-range needs one --interpolation-range (all takes "
            "table 3's pairs)"
        )
    return args
