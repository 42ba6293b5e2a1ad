"""The runners' command lines, checked before anything heavy is imported.

Every task's command line (`benchmarks/<task>/task.py`) builds its parser
from these pieces and imports neither TensorFlow nor Keras, so that
`--help` and a mistake answer at once: a mistake is one line on stderr
(`Parser.error`) and exit status 2, with nothing run. The optimizers are a
table of lazy references (`benchmarks.core.lazy`); the generators' names
are read from the library's `keras_nalm/engine/algorithms.py` without
importing the library (which loads Keras).
"""

import argparse
import importlib.util
import os
import runpy

from benchmarks.core import units
from benchmarks.core.lazy import lazy
from benchmarks.core.ranges import Range
from benchmarks.core.sweep import output_problem

PRESETS = ("paper", "quick")
#: Runs are evaluated every LOG_INTERVAL steps (the papers' interval).
LOG_INTERVAL = 1_000


def _engine_algorithms():
    """`keras_nalm/engine/algorithms.py`'s names, run as a file: importing
    it as a module would import `keras_nalm`, and with it Keras."""
    package = importlib.util.find_spec("keras_nalm").submodule_search_locations[0]
    return runpy.run_path(os.path.join(package, "engine", "algorithms.py"))


_ALGORITHMS = _engine_algorithms()
#: `keras_nalm.engine.ALGORITHMS`, the batches' random generators.
GENERATORS = _ALGORITHMS["ALGORITHMS"]
DEFAULT_GENERATOR = _ALGORITHMS["DEFAULT_ALGORITHM"]
#: The optimizers a run can train with. `torch_adam` (the default) is Adam
#: as PyTorch computes it, epsilon 1e-8 on the bias-corrected moment: the
#: optimizer of every reference implementation of the arithmetic tasks, with
#: which the Single Module Task agrees with the survey in more configurations
#: (benchmarks/results/README.md). `adam` is Keras's Adam (epsilon 1e-7 on the
#: uncorrected moment), which made the first committed results; `adam_1e-8`
#: Keras's Adam with epsilon 1e-8 (TensorFlow 1's AdamOptimizer), to tell the
#: epsilon's value from its placement.
OPTIMIZERS = {
    "torch_adam": lazy("keras_nalm.optimizers:TorchAdam"),
    "adam": lazy("keras.optimizers:Adam"),
    "adam_1e-8": lazy("keras.optimizers:Adam", epsilon=1e-8),
}
DEFAULT_OPTIMIZER = "torch_adam"


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line: `prog: error: ...`,
    whose description keeps its line breaks, and which runs its `checks`
    (`check(parser, args)`, for options that depend on each other) on the
    parsed arguments."""

    def __init__(self, **kwargs):
        super().__init__(formatter_class=argparse.RawDescriptionHelpFormatter, **kwargs)
        self.checks = []

    def parse_args(self, args=None, namespace=None):
        parsed = super().parse_args(args, namespace)
        for check in self.checks:
            check(self, parsed)
        return parsed

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message.rstrip('.')} (see --help)\n")


def new_parser(prog, doc):
    """A `Parser` named `prog`, described by `doc` (a cli's docstring)."""
    return Parser(prog=prog, description=doc.strip())


def parse_seeds(text):
    """`"0-24"`, `"3"` or `"0,5,7-9"` to a sorted list of ints."""
    seeds = set()
    try:
        for part in text.split(","):
            low, _, high = part.partition("-")
            seeds.update(range(int(low), int(high or low) + 1))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"cannot read seeds {text!r}: write e.g. 0-24 or 0,3,5-9"
        ) from None
    reversed_ranges = [
        part for part in text.split(",") if "-" in part and _is_reversed(part)
    ]
    if reversed_ranges:
        raise argparse.ArgumentTypeError(
            f"the seed range {reversed_ranges[0]!r} is reversed: write "
            "LOW-HIGH, e.g. 0-5"
        )
    if not seeds or min(seeds) < 0:
        raise argparse.ArgumentTypeError(f"seeds must be >= 0, got {text!r}")
    return sorted(seeds)


def _is_reversed(part):
    low, _, high = part.partition("-")
    return bool(low and high) and int(low) > int(high)


_KIND_NAMES = {int: "an integer", float: "a number"}


def _positive(kind, text):
    try:
        value = kind(text)
    except ValueError:
        value = 0
    if not value > 0:  # also refuses nan
        raise argparse.ArgumentTypeError(
            f"expected {_KIND_NAMES[kind]} > 0, got {text!r}"
        )
    return value


def positive_int(text):
    return _positive(int, text)


def positive_float(text):
    return _positive(float, text)


def non_negative_float(text):
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {text!r}")
    return value


def positive_list(kind):
    """An argparse type: `a,b,...` of positive `kind` values."""

    def parse(text):
        try:
            values = [kind(value) for value in text.split(",")]
        except ValueError:
            values = []
        if not values or not min(values) > 0:
            raise argparse.ArgumentTypeError(
                f"expected positive {kind.__name__}s separated by commas: {text!r}"
            )
        return values

    return parse


def multiple_of(interval):
    """An argparse type: a positive multiple of `interval` (steps)."""

    def parse(text):
        value = positive_int(text)
        if value % interval:
            raise argparse.ArgumentTypeError(
                f"expected a multiple of {interval:,} (runs are evaluated every "
                f"{interval:,} steps), got {text!r}"
            )
        return value

    return parse


#: How to write `value_range` arguments, for help texts.
RANGE_HELP = (
    "low,high, or a union low,high;low,high; a range that starts below 0 "
    "takes '=' (e.g. --interpolation-range=-2,-1)"
)


def value_range(text):
    """An argparse type: a range `low,high` or a union `low,high;low,high`,
    as its canonical text."""
    try:
        return Range.parse(text).to_text()
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def names(known, what, groups=None, own_units=False):
    """An argparse type: `all`, a group of `groups` ({word: names}) or an
    `a,b` list of `known` names, as a list; an unknown name is refused with
    the list of `known` ones (`what`: "models", "operations", ...).
    `own_units`: a list item may also name a unit of one's own
    (`MODULE:NAME` or `FILE.py:NAME`, `benchmarks.core.units`), kept as its
    label `MODULE:NAME` (`units.normalize_spec`)."""
    groups = {"all": tuple(known), **(groups or {})}

    def parse(text):
        if text in groups:
            return list(groups[text])
        chosen = [_own_unit(name) if own_units else name for name in text.split(",")]
        unknown = [
            name
            for name in chosen
            if name not in known and not (own_units and units.is_unit_spec(name))
        ]
        if unknown:
            hint = ""
            if own_units and any(units.looks_like_unit(name) for name in unknown):
                hint = f"; {units.COLON_HINT}"
            raise argparse.ArgumentTypeError(
                f"unknown {what}: {', '.join(unknown)}; known: {', '.join(known)}"
                f" (or {' or '.join(groups)}){hint}"
            )
        return chosen

    return parse


def _own_unit(text):
    if not units.is_unit_spec(text):
        return text
    try:
        return units.normalize_spec(text)
    except units.UnitError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def names_help(known, text=""):
    """A help text that lists `known` names."""
    return f"{text}one of {', '.join(known)}; an a,b list or all"


def add_names_argument(
    parser, flag, known, what, groups=None, note="", own_units=False, **kwargs
):
    """`flag`: `all` (the default, unless `kwargs` give one), a group of
    `groups` or an `a,b` list of `known` names, listed in `--help` (with
    `note` after them); `own_units`: also units of one's own (`names`)."""
    kwargs.setdefault("default", list((groups or {}).get("all", known)))
    parser.add_argument(
        flag,
        type=names(known, what, groups, own_units),
        help=names_help(known) + note,
        **kwargs,
    )


#: The help of a list that also takes units of one's own.
OWN_UNIT_HELP = (
    "; or a unit of one's own, MODULE:NAME or path/to/file.py:NAME (NAME a "
    "Keras layer class or a factory called with the output size)"
)
#: The protocol of a unit of one's own where no option gives one: the
#: survey's plain Adam at 1e-3, unclipped, without a regularizer schedule.
OWN_UNIT_LEARNING_RATE = 1e-3


def regularizer_warmup(text):
    """An argparse type: `LAMBDA,START,END` (lambda-hat, the steps at the
    paper preset's scale) as a list [float, int, int]."""
    parts = text.split(",")
    try:
        strength, start, end = float(parts[0]), int(parts[1]), int(parts[2])
        if len(parts) != 3:
            raise ValueError
    except (ValueError, IndexError):
        raise argparse.ArgumentTypeError(
            f"expected LAMBDA,START,END (e.g. 10,20000,35000), got {text!r}"
        ) from None
    if not (strength >= 0 and 0 <= start < end):
        raise argparse.ArgumentTypeError(
            f"expected LAMBDA >= 0 and 0 <= START < END, got {text!r}"
        )
    return [strength, start, end]


def add_protocol_arguments(parser, defaults):
    """`--learning-rate`, `--clip-value`, `--clip-norm` and
    `--regularizer-warmup`, each
    overriding the task's protocol (`defaults`: what applies without them,
    for the help); a unit of one's own trains with Adam at 1e-3, unclipped,
    without a schedule unless they are given."""
    parser.add_argument(
        "--learning-rate",
        type=positive_float,
        default=None,
        help=f"Adam's learning rate (default: {defaults}; 1e-3 for a unit of "
        "one's own)",
    )
    parser.add_argument(
        "--clip-value",
        type=positive_float,
        default=None,
        help="clip each gradient element to [-V, V] (default: as the "
        "learning rate; none for a unit of one's own)",
    )
    parser.add_argument(
        "--clip-norm",
        type=positive_float,
        default=None,
        help="clip the gradients' global norm to N (default: none)",
    )
    parser.add_argument(
        "--regularizer-warmup",
        type=regularizer_warmup,
        metavar="LAMBDA,START,END",
        default=None,
        help="keras_nalm.callbacks.RegularizerWarmup to lambda-hat LAMBDA "
        "between steps START and END of the paper preset (scaled with the "
        "preset and --max-steps), for units with a regularizer_scale variable "
        "(default: as the learning rate; none for a unit of one's own)",
    )


def protocol_fields(args, own_unit):
    """The configuration's fields of the protocol options that were given
    (and the learning rate of a unit of one's own, always), so that the
    rows of the tasks' own protocols keep their configurations."""
    fields = {}
    if own_unit or args.learning_rate is not None:
        fields["learning_rate"] = args.learning_rate or OWN_UNIT_LEARNING_RATE
    if args.clip_value is not None:
        fields["clip_value"] = args.clip_value
    if args.clip_norm is not None:
        fields["clip_norm"] = args.clip_norm
    if args.regularizer_warmup is not None:
        fields["regularizer_warmup"] = args.regularizer_warmup
    return fields


def optimizer_arguments(config):
    """Adam's arguments that a configuration's protocol options give."""
    names = {
        "learning_rate": "learning_rate",
        "clip_value": "clipvalue",
        "clip_norm": "global_clipnorm",
    }
    return {names[field]: config[field] for field in names if field in config}


def protocol_key(config):
    """What of a configuration's protocol and unit a compiled program holds
    (its optimizer's settings, the unit's source), for `RunSpec.program_key`."""
    return tuple(
        config.get(field)
        for field in ("learning_rate", "clip_value", "clip_norm")
        + tuple(f"{name}_digest" for name in ("module", "model", "first_layer"))
    )


def output_path(text):
    """`--output`: a regular file that can be written, or a path where one
    can be made (`sweep.output_problem`), checked before anything runs."""
    problem = output_problem(text)
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return text


def tensorboard_directory(text):
    """`--tensorboard`'s directory, once the tensorboard package (which
    `tf.summary` writes with) is known to be installed."""
    if importlib.util.find_spec("tensorboard") is None:
        raise argparse.ArgumentTypeError(
            "--tensorboard needs the tensorboard package: "
            "pip install -e '.[tuner]' (or pip install tensorboard)"
        )
    return text


def add_generator_argument(parser):
    parser.add_argument(
        "--generator",
        choices=GENERATORS,
        default=DEFAULT_GENERATOR,
        help="the batches' random generator (default: threefry2x32, "
        "Threefry-2x32-20 in TensorFlow integer ops; threefry: TensorFlow's)",
    )


def add_optimizer_argument(parser):
    parser.add_argument(
        "--optimizer",
        choices=tuple(OPTIMIZERS),
        default=DEFAULT_OPTIMIZER,
        help="torch_adam: PyTorch's Adam (default); adam: keras.optimizers.Adam; "
        "adam_1e-8: keras.optimizers.Adam(epsilon=1e-8)",
    )


def add_common_arguments(parser, default_seeds, step_interval=LOG_INTERVAL):
    """The options of every sweep: preset, seeds, steps, workers, output
    (and their check, `check_common_arguments`)."""
    parser.checks.append(check_common_arguments)
    parser.add_argument("--preset", choices=PRESETS, default="paper")
    parser.add_argument("--seeds", type=parse_seeds, default=parse_seeds(default_seeds))
    parser.add_argument(
        "--max-steps",
        type=multiple_of(step_interval) if step_interval else positive_int,
        default=None,
        help="overrides the preset's steps; the schedules scale with them"
        + (f" (a multiple of {step_interval:,})" if step_interval else ""),
    )
    parser.add_argument("--workers", type=positive_int, default=1)
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        default=None,
        help="a Dask scheduler (tcp://host:8786) to run the jobs on, "
        "instead of --workers local processes",
    )
    parser.add_argument(
        "--output",
        type=output_path,
        required=True,
        help="a JSON-lines file (made, with its directory, when missing); the "
        "rows of the same command found there are not run again",
    )
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument(
        "--tensorboard",
        type=tensorboard_directory,
        metavar="DIR",
        help="write each run's logged series (losses, evaluations, the units' "
        "control variables, sparsity error) and learned expression as "
        "TensorBoard summaries under DIR/task/model-config/seed_N",
    )
    parser.add_argument(
        "--checkpoints",
        metavar="DIR",
        help="save each run at every evaluation under "
        "DIR/task/model-config/seed_N.npz, so that a run stopped midway "
        "resumes there when the command is given again (removed when the "
        "run ends; runs with the iNALU's callbacks are not saved)",
    )


def add_population_argument(parser):
    """`--population N`: at most N runs of one program trained together
    (a static task's default: `benchmarks.core.sweep.DEFAULT_POPULATION`,
    sized to memory); 1 trains one run at a time."""
    parser.add_argument(
        "--population",
        type=positive_int,
        default=None,
        metavar="N",
        help="train at most N runs of one compiled program together, as one "
        "population (default 256, fewer where memory is short; 1: one run at "
        "a time). Rows give their population's size (none: one at a time)",
    )


def check_common_arguments(parser, args):
    """The sweep options that depend on each other."""
    if args.cluster and args.workers != 1:
        parser.error("give --cluster or --workers, not both")


def check_names_of_task(parser, args, known, flag="--model", own_units=False):
    """Replaces the value of `flag` (`all` or an `a,b` list; None stays
    None) by the names it stands for among `known`, the models of
    `args.task` (and, with `own_units`, units of one's own)."""
    attribute = flag.lstrip("-").replace("-", "_")
    if getattr(args, attribute) is None:
        return
    try:
        what = f"models for {args.task}"
        chosen = names(known, what, own_units=own_units)(getattr(args, attribute))
    except argparse.ArgumentTypeError as error:
        parser.error(f"argument {flag}: {error}")
    setattr(args, attribute, chosen)
