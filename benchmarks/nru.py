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

import keras

from benchmarks import sweep
from benchmarks.runs import RunSpec
from benchmarks.runs import add_optimizer_argument
from benchmarks.runs import check_steps
from benchmarks.runs import optimizer_factory
from benchmarks.runs import run_jobs
from keras_nalm import layers as L
from keras_nalm.initializers import ChronoBias
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
#: The NRU of the authors' copy and denoising configurations.
NRU_SIZE = {"units": 80, "memory_size": 64, "num_heads": 4}


def _lstm(units, chrono_max):
    return keras.layers.LSTM(units, return_sequences=True)


def _lstm_chrono(units, chrono_max):
    return keras.layers.LSTM(
        units,
        return_sequences=True,
        unit_forget_bias=False,
        bias_initializer=ChronoBias(chrono_max, "ifco"),
    )


def _gru(units, chrono_max):
    return keras.layers.GRU(units, return_sequences=True)


def _janet(units, chrono_max):
    cell = L.JANETCell(units, bias_initializer=ChronoBias(chrono_max, "fc"))
    return keras.layers.RNN(cell, return_sequences=True)


def _rnn(initializer):
    def make(units, chrono_max):
        cell = L.NormalizedRNNCell(units, recurrent_initializer=initializer)
        return keras.layers.RNN(cell, return_sequences=True)

    return make


def _nru(units, chrono_max):
    cell = L.NRUCell(
        units,
        memory_size=NRU_SIZE["memory_size"],
        num_heads=NRU_SIZE["num_heads"],
    )
    return keras.layers.RNN(cell, return_sequences=True)


#: Each model's recurrent layer, from (units, chrono T_max).
RECURRENT = {
    "nru": _nru,
    "lstm": _lstm,
    "lstm_chrono": _lstm_chrono,
    "gru": _gru,
    "janet": _janet,
    "rnn_orth": _rnn("orthogonal"),
    "rnn_id": _rnn("identity"),
}
MODELS = tuple(RECURRENT)


def build_model(model, units, source_shape, classes, chrono_max):
    """The recurrent layer of `units` and a linear read-out per step."""
    inputs = keras.Input(source_shape)
    states = RECURRENT[model](units, chrono_max)(inputs)
    return keras.Model(inputs, keras.layers.Dense(classes)(states), name=model)


def parameter_count(model, units, source_shape, classes):
    built = build_model(model, units, source_shape, classes, chrono_max=10)
    return sum(int(keras.ops.size(w)) for w in built.trainable_weights)


@functools.cache
def matched_units(model, source_shape, classes):
    """The NRU's units, or the units that bring `model`'s parameter count
    closest to the NRU's (counts grow with the units)."""
    if model == "nru":
        return NRU_SIZE["units"]
    target = parameter_count("nru", NRU_SIZE["units"], source_shape, classes)
    low, high = 1, 4_096
    while low < high:  # the smallest units whose count reaches the target
        middle = (low + high) // 2
        if parameter_count(model, middle, source_shape, classes) < target:
            low = middle + 1
        else:
            high = middle
    candidates = [units for units in (low - 1, low) if units >= 1]
    return min(
        candidates,
        key=lambda u: abs(parameter_count(model, u, source_shape, classes) - target),
    )


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
