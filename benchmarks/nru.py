"""The NRU paper's synthetic tasks (Chandar et al. 2019, §5).

    python -m benchmarks.nru --task copy --T 100 \\
        --model nru,lstm,lstm_chrono,gru,janet,rnn_orth,rnn_id \\
        --seeds 0-2 --preset paper --workers 2 --output FILE.jsonl

Tasks: `copy` (copying memory, lag T), `variable_copy` (the lag drawn in
[1, T] for each batch) and `denoise` (10 digits among T noise steps),
batch sources of `keras_nalm.sources`, trained online (a fresh batch every
step) through the in-graph engine and evaluated every 1 000 steps on a fixed
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
`keras_nalm.layers.NormalizedRNNCell`). Every other model gets the number of
units that brings its parameter count closest to the NRU's (about 23.5 k,
as in the paper); the runner prints each model's count.

Training (§4 of the paper): Adam with learning rate 1e-3 (PyTorch's, as
the authors'), gradients clipped to a global norm of 1 (`--clip-norm`),
batch 10, 200 000 steps (`paper`, the authors' configuration; `quick`:
2 000). Chosen here and kept arguments: T_max of the chrono initialisation is
the sequence length (`--chrono-max` overrides it); the noise symbol of the
denoising task is the blank.
"""

import argparse
import functools
import sys

from benchmarks import sweep
from benchmarks.rnn_models import MODELS
from benchmarks.rnn_models import build_model
from benchmarks.rnn_models import matched_units
from benchmarks.rnn_models import parameter_count
from benchmarks.runs import RunSpec
from benchmarks.runs import add_optimizer_argument
from benchmarks.runs import check_steps
from benchmarks.runs import optimizer_factory
from benchmarks.runs import run_jobs
from keras_nalm.sources import CopySource
from keras_nalm.sources import DenoisingSource

#: Each task's batch source, from (T, batch size).
SOURCES = {
    "copy": lambda T, batch: CopySource(T, batch_size=batch),
    "variable_copy": lambda T, batch: CopySource(
        T, batch_size=batch, variable_lag=True
    ),
    "denoise": lambda T, batch: DenoisingSource(T, batch_size=batch),
}
TASKS = tuple(SOURCES)
PAPER_STEPS, QUICK_STEPS = 200_000, 2_000
BATCH_SIZE = 10


def make_source(config):
    return SOURCES[config["task"]](config["T"], config["batch_size"])


def run_spec(config):
    """The RunSpec of a job's configuration (a dict)."""
    source = make_source(config)
    shape = (source.length, 10)
    return RunSpec(
        program_key=tuple(sorted(config.items())),
        build_model=functools.partial(
            build_model,
            config["model"],
            config["units"],
            shape,
            source.classes,
            config["chrono_max"] or source.length,
        ),
        make_source=lambda seed: make_source(config),
        make_optimizer=optimizer_factory(
            config,
            learning_rate=config["learning_rate"],
            global_clipnorm=config["clip_norm"],
        ),
        steps=config["steps"],
    )


def jobs_for(args):
    steps = check_steps(
        args.max_steps or (PAPER_STEPS if args.preset == "paper" else QUICK_STEPS)
    )
    jobs = []
    for T in args.T:
        source = SOURCES[args.task](T, BATCH_SIZE)
        shape = (source.length, 10)
        for model in sweep.expand_names(args.model, MODELS, "models"):
            units = matched_units(model, shape, source.classes)
            if not args.quiet:
                count = parameter_count(model, units, shape, source.classes)
                print(f"{args.task} T={T} {model}: {units} units, {count} parameters")
            config = {
                "task": args.task,
                "T": T,
                "model": model,
                "units": units,
                "batch_size": BATCH_SIZE,
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
    add_optimizer_argument(parser)
    sweep.add_common_arguments(parser, default_seeds="0-2")
    args = parser.parse_args(argv)
    run_chunk = functools.partial(
        run_jobs, run_spec, args.task, {}, tensorboard=args.tensorboard
    )
    sweep.run_sweep(
        jobs_for(args), run_chunk, args.output, args.workers, args.quiet, chunk_size=1
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
