"""Numbers in words (Trask et al. 2018, app. D, table 11).

`--task language_to_number`: a model reads a number 0-999 written in
British English words ("two hundred and thirty five", one token per word)
and outputs its value. The split is the paper's: 169 training numbers (0-19
and a seeded sample of the rest, topped up so that every token is trained),
200 validation, 631 test (`keras_nalm.language.split_numbers`). Models
(app. D, table 11): an embedding and an LSTM whose final state
(`lstm`) or summed states (`lstm_summed`) feed a linear output, or whose
summed states feed a NAC (`lstm_nac`) or a NALU (`lstm_nalu`): app. D
compares the NAC and NALU with the summed-state LSTM. (A NAC's output is
at most the sum of its inputs' magnitudes: 5 words of `size` LSTM states
in [-1, 1] bound it by 5 · size, below most numbers.)

    python -m benchmarks.language --task language_to_number --model all \\
        --size 16,32 --learning-rate 0.01,0.001 --seeds 0-9 --preset paper \\
        --output FILE.jsonl

Training (app. D): Adam on the whole training set every step, 300 000
steps (`paper`; `quick`: 10 000), evaluated every 1 000 steps; each run
reports its train, validation and test MAE at its best validation step,
and the report chooses, per model, the size, learning rate and seed of the
lowest validation MAE (the paper selects over sizes {16, 32}, learning
rates {0.01, 0.001} and 10 initialisations). Not in the paper, chosen here
and kept arguments: the embedding size (`--embedding`, default 256, the
authors' recollection), the loss (MSE), PyTorch's Adam, and one split
(`--split-seed`, default 0) for every run.
"""

import argparse
import functools
import sys

import keras

from benchmarks import sweep
from benchmarks.rows import optimizer_name
from benchmarks.runs import RunSpec
from benchmarks.runs import add_optimizer_argument
from benchmarks.runs import check_steps
from benchmarks.runs import optimizer_factory
from benchmarks.runs import run_jobs
from keras_nalm import layers as L
from keras_nalm.language import NUMBER_VOCABULARY
from keras_nalm.sources import NumberWords

PAPER_STEPS = {"language_to_number": 300_000}
QUICK_STEPS = {"language_to_number": 10_000}


@keras.saving.register_keras_serializable(package="keras_nalm_benchmarks")
class SumOverTime(keras.layers.Layer):
    """The sum of a sequence's steps, masked steps (padding) left out."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True

    def call(self, sequences, mask=None):
        if mask is not None:
            sequences = sequences * keras.ops.cast(mask, sequences.dtype)[..., None]
        return keras.ops.sum(sequences, axis=1)

    def compute_mask(self, inputs, mask=None):
        return None

    def compute_output_shape(self, input_shape):
        return (input_shape[0], input_shape[2])


#: The output layer of each model.
HEADS = {
    "lstm": lambda: keras.layers.Dense(1),
    "lstm_summed": lambda: keras.layers.Dense(1),
    "lstm_nac": lambda: L.NAC(1),
    "lstm_nalu": lambda: L.NALU(1),
}
MODELS = tuple(HEADS)


def build_model(model, size, embedding):
    """Embedding, LSTM of `size` units, and the model's output on its final
    state (`lstm`) or on its states summed over the words (the others:
    app. D compares the NAC and NALU with the summed-state LSTM)."""
    inputs = keras.Input((None,), dtype="int32")
    vectors = keras.layers.Embedding(
        len(NUMBER_VOCABULARY) + 1, embedding, mask_zero=True
    )(inputs)
    if model == "lstm":
        state = keras.layers.LSTM(size)(vectors)
    else:
        state = SumOverTime()(keras.layers.LSTM(size, return_sequences=True)(vectors))
    return keras.Model(inputs, HEADS[model]()(state), name=model)


def run_spec(config):
    """The RunSpec of a job's configuration (a dict)."""
    return RunSpec(
        program_key=(
            config["task"],
            config["model"],
            config["size"],
            config["embedding"],
            config["learning_rate"],
            optimizer_name(config),
        ),
        build_model=functools.partial(
            build_model, config["model"], config["size"], config["embedding"]
        ),
        make_source=lambda seed: NumberWords(config["split_seed"]),
        make_optimizer=optimizer_factory(config, learning_rate=config["learning_rate"]),
        steps=config["steps"],
    )


def jobs_for(args):
    steps = check_steps(
        args.max_steps
        or (PAPER_STEPS if args.preset == "paper" else QUICK_STEPS)[args.task]
    )
    jobs = []
    for model in sweep.expand_names(args.model, MODELS, "models"):
        for size in args.size:
            for learning_rate in args.learning_rate:
                config = {
                    "task": args.task,
                    "model": model,
                    "size": size,
                    "learning_rate": learning_rate,
                    "embedding": args.embedding,
                    "split_seed": args.split_seed,
                    "preset": args.preset,
                    "steps": steps,
                    "optimizer": args.optimizer,
                }
                jobs += [
                    sweep.Job(tuple(sorted(config.items())), seed)
                    for seed in args.seeds
                ]
    return jobs


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.language", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--task", choices=tuple(PAPER_STEPS), default="language_to_number"
    )
    parser.add_argument("--model", default="all", help="a model, an a,b list or all")
    parser.add_argument(
        "--size",
        type=sweep.positive_list(int),
        default=[16, 32],
        help="the LSTM's units, a list (app. D: 16,32)",
    )
    parser.add_argument(
        "--learning-rate",
        type=sweep.positive_list(float),
        default=[0.01, 0.001],
        help="Adam's learning rates, a list (app. D: 0.01,0.001)",
    )
    parser.add_argument("--embedding", type=sweep.positive_int, default=256)
    parser.add_argument("--split-seed", type=int, default=0)
    add_optimizer_argument(parser)
    sweep.add_common_arguments(parser, default_seeds="0-9")
    args = parser.parse_args(argv)
    run_chunk = functools.partial(
        run_jobs, run_spec, args.task, {}, tensorboard=args.tensorboard
    )
    sweep.run_from_args(jobs_for(args), run_chunk, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
