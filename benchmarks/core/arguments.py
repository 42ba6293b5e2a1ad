"""The runners' command lines, checked before anything heavy is imported.

Every `benchmarks/<task>/cli.py` builds its parser from these pieces and
imports neither TensorFlow nor Keras, so that `--help` and a mistake answer
at once: a mistake is one line on stderr (`Parser.error`) and exit status 2,
with nothing run. Names the runners need at run time only (the generators,
the optimizers) are listed here as plain strings; the tests check them
against the tables that use them.
"""

import argparse
import importlib.util

from benchmarks.data.arithmetic_task import Range

PRESETS = ("paper", "quick")
#: Runs are evaluated every LOG_INTERVAL steps (the papers' interval).
LOG_INTERVAL = 1_000
#: `keras_nalm.engine.ALGORITHMS`, the batches' random generators.
GENERATORS = ("threefry2x32", "threefry2x32_13", "threefry", "philox")
DEFAULT_GENERATOR = "threefry2x32"
#: The keys of `benchmarks.core.runs.OPTIMIZERS`.
OPTIMIZERS = ("torch_adam", "adam", "adam_1e-8")
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
    if not seeds or min(seeds) < 0:
        raise argparse.ArgumentTypeError(f"seeds must be >= 0, got {text!r}")
    return sorted(seeds)


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


def names(known, what, groups=None):
    """An argparse type: `all`, a group of `groups` ({word: names}) or an
    `a,b` list of `known` names, as a list; an unknown name is refused with
    the list of `known` ones (`what`: "models", "operations", ...)."""
    groups = {"all": tuple(known), **(groups or {})}

    def parse(text):
        if text in groups:
            return list(groups[text])
        chosen = text.split(",")
        unknown = [name for name in chosen if name not in known]
        if unknown:
            raise argparse.ArgumentTypeError(
                f"unknown {what}: {', '.join(unknown)}; known: {', '.join(known)}"
                f" (or {' or '.join(groups)})"
            )
        return chosen

    return parse


def names_help(known, text=""):
    """A help text that lists `known` names."""
    return f"{text}one of {', '.join(known)}; an a,b list or all"


def add_names_argument(parser, flag, known, what, groups=None, note="", **kwargs):
    """`flag`: `all` (the default, unless `kwargs` give one), a group of
    `groups` or an `a,b` list of `known` names, listed in `--help` (with
    `note` after them)."""
    kwargs.setdefault("default", list((groups or {}).get("all", known)))
    parser.add_argument(
        flag,
        type=names(known, what, groups),
        help=names_help(known) + note,
        **kwargs,
    )


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
        choices=OPTIMIZERS,
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
    parser.add_argument("--output", required=True, help="a JSON-lines file")
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


def check_common_arguments(parser, args):
    """The sweep options that depend on each other."""
    if args.cluster and args.workers != 1:
        parser.error("give --cluster or --workers, not both")


def check_names_of_task(parser, args, known, flag="--model"):
    """Replaces the value of `flag` (`all` or an `a,b` list; None stays
    None) by the names it stands for among `known`, the models of
    `args.task`."""
    attribute = flag.lstrip("-").replace("-", "_")
    if getattr(args, attribute) is None:
        return
    try:
        chosen = names(known, f"models for {args.task}")(getattr(args, attribute))
    except argparse.ArgumentTypeError as error:
        parser.error(f"argument {flag}: {error}")
    setattr(args, attribute, chosen)
