"""Keras Tuner searches over a benchmark task's models (`benchmarks.tune.hypermodels`).

    python -m benchmarks.tune --task arithmetic --operation mul \\
        --tuner bayesian --max-trials 20 --steps 50000 --directory tuning
    python -m benchmarks.tune --task copy --T 100 --tuner random ...

Each trial trains one model with the in-graph engine for `--steps` steps
(Hyperband: up to `--steps`, in epochs of `--steps-per-epoch`) and is
scored by the task's own judgement: for the arithmetic task
(`benchmarks.tune.hypermodels.ArithmeticHyperModel`) log10 of the extrapolation MSE
at the best interpolation step; for the NRU paper's copy, variable copy
and denoising tasks (`SequenceHyperModel`) the lowest validation
cross-entropy. Every finished trial prints one JSON line (`{"trial",
"tuner", "score", "values"}`); at the end the best trials'
hyper-parameters are printed beside the paper's settings. The tuner's
directory holds the state: running the same command again resumes the
search (`--overwrite` starts afresh).

Distributed (Keras Tuner's chief/worker mode): the same command on every
machine, with `KERASTUNER_ORACLE_IP` and `KERASTUNER_ORACLE_PORT` the
chief's address and `KERASTUNER_TUNER_ID` `chief` on the chief (which
runs no trials, serves the oracle and prints the result when the workers
are done) and `tuner0`, `tuner1`, ... on the workers.
"""

import hashlib
import json
import os

from benchmarks.core import arguments
from benchmarks.data.arithmetic_task import OPERATIONS
from benchmarks.nru.definitions import MODELS as SEQUENCE_MODELS
from benchmarks.nru.definitions import SYNTHETIC_TASKS
from benchmarks.tune import units

#: The arithmetic units a search chooses from (`benchmarks.tune.units`).
ARITHMETIC_UNITS = tuple(units.ARITHMETIC_UNITS)
TUNERS = ("random", "bayesian", "hyperband")
#: The file in a project's directory that records the search's settings.
SEARCH_FILE = "search.json"


def search_settings(args):
    """The settings that define a search: a project is resumed only with
    the same ones (`--max-trials` may grow; `--overwrite` starts afresh)."""
    settings = {
        "task": args.task,
        "tuner": args.tuner,
        "models": args.models,
        "steps": args.steps,
        "steps_per_epoch": args.steps_per_epoch,
        "executions_per_trial": args.executions_per_trial,
        "seed": args.seed,
    }
    if args.task == "arithmetic":
        settings["operation"] = args.operation
    else:
        settings["T"] = args.T
    return settings


def default_project_name(settings):
    """`task_operation-or-T_tuner_` and a hash of the other settings."""
    detail = settings.get("operation", f"T{settings.get('T')}")
    digest = hashlib.sha1(json.dumps(settings, sort_keys=True).encode()).hexdigest()
    return f"{settings['task']}_{detail}_{settings['tuner']}_{digest[:8]}"


def build_parser(prog="python -m benchmarks.tune"):
    parser = arguments.new_parser(prog, __doc__)
    parser.add_argument(
        "--task", choices=("arithmetic", *SYNTHETIC_TASKS), default="arithmetic"
    )
    parser.add_argument(
        "--operation",
        choices=tuple(OPERATIONS),
        default="mul",
        help="arithmetic: the operation",
    )
    parser.add_argument(
        "--T", type=arguments.positive_int, default=100, help="sequences: T"
    )
    parser.add_argument(
        "--models",
        default=None,
        help="the units (arithmetic: "
        f"{', '.join(ARITHMETIC_UNITS)}) or models (sequences: "
        f"{', '.join(SEQUENCE_MODELS)}) to choose from, an a,b list "
        "(default: all)",
    )
    parser.add_argument("--tuner", choices=TUNERS, default="random")
    parser.add_argument("--max-trials", type=arguments.positive_int, default=20)
    parser.add_argument(
        "--steps",
        type=arguments.positive_int,
        default=50_000,
        help="a trial's step budget (Hyperband: the largest); a multiple of "
        "--steps-per-epoch",
    )
    parser.add_argument("--steps-per-epoch", type=arguments.positive_int, default=1_000)
    parser.add_argument(
        "--executions-per-trial", type=arguments.positive_int, default=1
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--directory", required=True)
    parser.add_argument(
        "--project-name",
        default=None,
        help="default: the task, the operation or T, the tuner and a hash of "
        "the search's other settings",
    )
    parser.add_argument("--overwrite", action="store_true")
    parser.add_argument(
        "--tensorboard",
        type=arguments.tensorboard_directory,
        metavar="DIR",
        help="write each trial's logged series (losses, evaluations, control "
        "variables) and learned expression under DIR/task/model-hash/seed_N",
    )
    return parser


def _check_project(parser, args, settings):
    """Refuses to resume a project that another search made."""
    path = os.path.join(args.directory, args.project_name, SEARCH_FILE)
    if args.overwrite or not os.path.exists(path):
        return
    try:
        with open(path, encoding="utf-8") as handle:
            recorded = json.load(handle)
    except (OSError, ValueError):
        recorded = None
    if recorded != json.loads(json.dumps(settings)):
        parser.error(
            f"{os.path.dirname(path)} holds a search with other settings "
            f"({recorded}); give another --project-name, the same settings, "
            "or --overwrite"
        )


def parse_arguments(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    known = ARITHMETIC_UNITS if args.task == "arithmetic" else SEQUENCE_MODELS
    arguments.check_names_of_task(parser, args, known, flag="--models")
    if args.steps % args.steps_per_epoch:
        parser.error(
            f"--steps ({args.steps:,}) must be a multiple of --steps-per-epoch "
            f"({args.steps_per_epoch:,})"
        )
    settings = search_settings(args)
    args.project_name = args.project_name or default_project_name(settings)
    _check_project(parser, args, settings)
    return args
