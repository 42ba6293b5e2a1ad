"""Numbers in words and programs (Trask et al. 2018, app. D table 11, app. E).

`--task language_to_number`: a model reads a number 0-999 written in
British English words ("two hundred and thirty five", one token per word)
and outputs its value. The split is the paper's: 169 training numbers (0-19
and a seeded sample of the rest, topped up so that every token is trained),
200 validation, 631 test (`benchmarks.data.language.split_numbers`). Models
(app. D, table 11): an embedding and an LSTM whose final state
(`lstm`) or summed states (`lstm_summed`) feed a linear output, or whose
summed states feed a NAC (`lstm_nac`) or a NALU (`lstm_nalu`): app. D
compares the NAC and NALU with the summed-state LSTM. (A NAC's output is
at most the sum of its inputs' magnitudes: 5 words of `size` LSTM states
in [-1, 1] bound it by 5 · size, below most numbers.)

`--task program_add|program_if` (app. E, figure 6): programs of Zaremba &
Sutskever's families (`print((a+b))`; `print((a+b) if c>d else (a-b))`)
read character by character, their printed integer the target
(`benchmarks.language.programs.ProgramBatches`). Models: `lstm` and `ugrnn` (Collins
et al. 2017, `benchmarks.models.UGRNNCell`) read out from their final
state, `lstm_nac` and `lstm_nalu` from the LSTM's states summed over the
characters (for the NAC, a recurrent NAC that adds its per-step outputs),
`dnc` (`benchmarks.models.DNCCell`, Graves et al. 2016: an LSTM controller
of `size` units with 16 memory slots of 16 and one read head, our choice)
read out from [h_t; r_t] at the last character, and `nac_rnn` and
`nalu_rnn`, the recurrent NAC and NALU reading the program themselves: the
unit is the recurrent cell over the characters' embeddings, h_t =
unit([e(x_t), h_{t-1}]) (`keras_nalm.layers.ArithmeticCell`, as app. B's
recurrent units), read out by a NAC or NALU. Not in the paper (app. E
gives no ranges, sizes or steps), chosen here and kept arguments: training
operands of 1-2 digits (`--train-digits`), extrapolation sets of 3, 4, 5
and 6 digits (`--test-digits`), 50 000 training programs, batch 64, MSE,
100 000 steps (`paper`; `quick`: 5 000). Rows carry, at the step of lowest
validation MAE, `mae` and `accuracy` (of the rounded prediction) per digit
count.

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
authors' recollection), the loss (MSE), PyTorch's Adam, one split
(`--split-seed`, default 0) for every run, and the unit of the prediction
(`--output-scale`, default 1: the output layer's value is the number;
1000: it is the number in thousands, which lets the NAC, whose output is
bounded by its inputs, reach 999).
"""

import argparse
import functools

import keras

from benchmarks import models as comparison_models
from benchmarks.core import sweep
from benchmarks.core.registration import register
from benchmarks.core.rows import optimizer_name
from benchmarks.core.runs import RunSpec
from benchmarks.core.runs import add_optimizer_argument
from benchmarks.core.runs import check_steps
from benchmarks.core.runs import engine_chunk
from benchmarks.core.runs import optimizer_factory
from benchmarks.language.numbers import NumberWords
from benchmarks.language.programs import ProgramBatches
from benchmarks.language.vocabulary import NUMBER_VOCABULARY
from benchmarks.language.vocabulary import PROGRAM_VOCABULARY
from keras_nalm import layers as L

PAPER_STEPS = {
    "language_to_number": 300_000,
    "program_add": 100_000,
    "program_if": 100_000,
}
QUICK_STEPS = {"language_to_number": 10_000, "program_add": 5_000, "program_if": 5_000}
PROGRAM_TASKS = {"program_add": "add", "program_if": "if"}


@register
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
    "ugrnn": lambda: keras.layers.Dense(1),
    "lstm_summed": lambda: keras.layers.Dense(1),
    "lstm_nac": lambda: L.NAC(1),
    "lstm_nalu": lambda: L.NALU(1),
    "dnc": lambda: keras.layers.Dense(1),
    "nac_rnn": lambda: L.NAC(1),
    "nalu_rnn": lambda: L.NALU(1),
}
#: The models whose recurrent layer is an arithmetic unit itself,
#: h_t = unit([x_t, h_{t-1}]) over the characters' embeddings (Trask et al.'s
#: recurrent NAC and NALU of app. B, reading the program).
RECURRENT_UNITS = {"nac_rnn": L.NAC, "nalu_rnn": L.NALU}
LANGUAGE_MODELS = ("lstm", "lstm_summed", "lstm_nac", "lstm_nalu")
PROGRAM_MODELS = (
    "lstm",
    "ugrnn",
    "dnc",
    "lstm_nac",
    "lstm_nalu",
    "nac_rnn",
    "nalu_rnn",
)
#: The DNC baseline's memory (app. E gives no sizes): slots, word size and
#: read heads of `benchmarks.models.DNCCell`, whose controller has `size` units.
DNC_MEMORY = {"memory_slots": 16, "word_size": 16, "read_heads": 1}


def models_of(task):
    return PROGRAM_MODELS if task in PROGRAM_TASKS else LANGUAGE_MODELS


def build_model(model, size, embedding, vocabulary=NUMBER_VOCABULARY, output_scale=1.0):
    """Embedding, a recurrent layer of `size` units (an LSTM; `ugrnn`:
    `benchmarks.models.UGRNNCell`), and the model's output on its final
    state (`lstm`, `ugrnn`) or on its states summed over the tokens (the
    others: app. D compares the NAC and NALU with the summed-state LSTM),
    multiplied by `output_scale` (a fixed unit of the prediction)."""
    inputs = keras.Input((None,), dtype="int32")
    vectors = keras.layers.Embedding(len(vocabulary) + 1, embedding, mask_zero=True)(
        inputs
    )
    if model == "lstm":
        state = keras.layers.LSTM(size)(vectors)
    elif model == "ugrnn":
        state = keras.layers.RNN(comparison_models.UGRNNCell(size))(vectors)
    elif model == "dnc":
        state = keras.layers.RNN(comparison_models.DNCCell(size, **DNC_MEMORY))(vectors)
    elif model in RECURRENT_UNITS:
        cell = L.ArithmeticCell(RECURRENT_UNITS[model](size))
        state = keras.layers.RNN(cell)(vectors)
    else:
        state = SumOverTime()(keras.layers.LSTM(size, return_sequences=True)(vectors))
    outputs = HEADS[model]()(state)
    if output_scale != 1.0:
        outputs = keras.layers.Rescaling(output_scale, name="output_unit")(outputs)
    return keras.Model(inputs, outputs, name=model)


def running_predictions(model, ids):
    """The prediction of a language model of `build_model` after each token
    of `ids` (int array `(n, tokens)`): its output layer applied to the
    LSTM's state at each step (final-state models) or to the states summed
    so far (the others), times its output scale. Returns `(n, tokens)`
    floats; the last real token's value is the model's prediction, and
    padding steps repeat it (summed states) or are not meaningful."""
    layers = {type(layer): layer for layer in model.layers}
    embedding = layers[keras.layers.Embedding]
    recurrent = layers.get(keras.layers.LSTM) or layers[keras.layers.RNN]
    summed = SumOverTime in layers
    scaled = model.layers[-1].name == "output_unit"
    head = model.layers[-2 if scaled else -1]
    stepwise = type(recurrent).from_config(
        {**recurrent.get_config(), "return_sequences": True}
    )
    vectors = embedding(ids)
    stepwise.build(vectors.shape)
    stepwise.set_weights(recurrent.get_weights())
    states = stepwise(vectors, mask=embedding.compute_mask(ids))
    if summed:
        mask = keras.ops.cast(keras.ops.not_equal(ids, 0), states.dtype)
        states = keras.ops.cumsum(states * mask[..., None], axis=1)
    n, tokens = ids.shape
    flat = keras.ops.reshape(states, (n * tokens, -1))
    values = keras.ops.reshape(head(flat), (n, tokens))
    if scaled:
        values = values * model.layers[-1].scale
    return keras.ops.convert_to_numpy(values)


def make_source(config):
    if config["task"] not in PROGRAM_TASKS:
        return NumberWords(config["split_seed"])
    return ProgramBatches(
        PROGRAM_TASKS[config["task"]],
        train_digits=config["train_digits"],
        test_digits=config["test_digits"],
        train_size=config["train_size"],
        batch_size=config["batch_size"],
        data_seed=config["split_seed"],
    )


def run_spec(config):
    """The RunSpec of a job's configuration (a dict)."""
    return RunSpec(
        program_key=(
            tuple(config.get("test_digits", ())),
            config["task"],
            config["model"],
            config["size"],
            config["embedding"],
            config["learning_rate"],
            optimizer_name(config),
            config.get("output_scale", 1.0),
        ),
        build_model=functools.partial(
            build_model,
            config["model"],
            config["size"],
            config["embedding"],
            PROGRAM_VOCABULARY
            if config["task"] in PROGRAM_TASKS
            else NUMBER_VOCABULARY,
            config.get("output_scale", 1.0),
        ),
        make_source=lambda seed: make_source(config),
        make_optimizer=optimizer_factory(config, learning_rate=config["learning_rate"]),
        steps=config["steps"],
    )


#: The sweep's worker entry point for a task's jobs:
#: `run_chunk_for(task, tensorboard=None)` -> (jobs -> rows).
run_chunk_for = functools.partial(engine_chunk, run_spec)


def jobs_for(args):
    steps = check_steps(
        args.max_steps
        or (PAPER_STEPS if args.preset == "paper" else QUICK_STEPS)[args.task]
    )
    jobs = []
    if args.task not in PROGRAM_TASKS:
        task_options = {"output_scale": args.output_scale}
    else:
        if len(args.train_digits) != 2 or args.train_digits[0] > args.train_digits[1]:
            raise SystemExit(
                f"--train-digits takes low,high with low <= high: {args.train_digits}."
            )
        task_options = {
            "train_digits": list(args.train_digits),
            "test_digits": list(args.test_digits),
            "train_size": args.train_size,
            "batch_size": args.batch_size,
        }
    for model in sweep.expand_names(args.model, models_of(args.task), "models"):
        for size in args.size:
            for learning_rate in args.learning_rate:
                config = {
                    "task": args.task,
                    "model": model,
                    "size": size,
                    "learning_rate": learning_rate,
                    "embedding": args.embedding,
                    "split_seed": args.split_seed,
                    **task_options,
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
    parser.add_argument(
        "--output-scale",
        type=float,
        default=1.0,
        help="language_to_number: the models predict the number in this unit "
        "(a fixed factor after the output layer; default 1, as nothing in "
        "app. D scales the targets)",
    )
    parser.add_argument(
        "--split-seed",
        type=int,
        default=0,
        help="the language split's seed; programs: the data sets' seed",
    )
    parser.add_argument(
        "--train-digits",
        type=sweep.positive_list(int),
        default=[1, 2],
        help="programs: the operands' digits in training, low,high (default 1,2)",
    )
    parser.add_argument(
        "--test-digits",
        type=sweep.positive_list(int),
        default=[3, 4, 5, 6],
        help="programs: the digits of each extrapolation set (default 3,4,5,6)",
    )
    parser.add_argument(
        "--train-size",
        type=sweep.positive_int,
        default=50_000,
        help="programs: training programs",
    )
    parser.add_argument(
        "--batch-size", type=sweep.positive_int, default=64, help="programs: batch"
    )
    add_optimizer_argument(parser)
    sweep.add_common_arguments(parser, default_seeds="0-9")
    args = parser.parse_args(argv)
    run_chunk = run_chunk_for(args.task, tensorboard=args.tensorboard)
    sweep.run_from_args(jobs_for(args), run_chunk, args)
    return 0
