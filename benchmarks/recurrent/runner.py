"""Units used recurrently (Trask et al. 2018, app. B).

`--task trask`: Trask's recurrent arithmetic task. x_t ∈ R^10 ~ U[1, 2];
a and b sum two subsets of the inputs over every step (subset ratio 0.25,
overlap 0.5, positions drawn per seed, as Madsen & Johansen's algorithm 1);
the target is a, a + b, a − b, a · b, a / b, a² or √a. Models train on
sequences of 10 steps and are tested on fresh sequences of 10
(interpolation) and 1 000 (extrapolation). Every model has a hidden size of
2 (the paper's "minimally required size"): an LSTM, GRU, or RNN with tanh
or ReLU followed by a linear layer, or a recurrent NAC followed by a NAC,
a recurrent NALU followed by a NALU (app. B, tables 8-9).

    python -m benchmarks.recurrent --task trask --model all --operation all \\
        --seeds 0-9 --output FILE.jsonl

`--task mnist_count|mnist_add|mnist_product|mnist_sum` runs the units
inside a network over MNIST digits: `benchmarks.sequential_mnist.runner`, whose
options those tasks take.

The paper gives neither steps, batch size, optimizer nor input range;
ours are those of Madsen & Johansen's reference script for this task
(stable-nalu `experiments/simple_function_recurrent.py`): Adam with
default parameters, batch 128, 100 000 steps (preset `paper`; `quick`:
10 000), U[1, 2] (`--range` changes it). Its models start from a learned
initial state (zero at first); ours start from the fixed zero state (the
NAC and NALU cells from the identity of their operation, 0).
"""

import argparse
import functools
import sys

import keras

from benchmarks import registry
from benchmarks.core import sweep
from benchmarks.core.rows import generator_name
from benchmarks.core.rows import optimizer_name
from benchmarks.core.runs import RunSpec
from benchmarks.core.runs import add_generator_argument
from benchmarks.core.runs import add_optimizer_argument
from benchmarks.core.runs import check_steps
from benchmarks.core.runs import engine_chunk
from benchmarks.core.runs import optimizer_factory
from benchmarks.data.arithmetic_task import ArithmeticTask
from benchmarks.data.arithmetic_task import Range
from benchmarks.recurrent.source import DEFAULT_RANGE
from benchmarks.recurrent.source import INPUT_SIZE
from benchmarks.recurrent.source import RecurrentArithmeticBatches
from keras_nalm import callbacks as C
from keras_nalm import layers as L

PAPER_STEPS = {"trask": 100_000}
QUICK_STEPS = {"trask": 10_000}
HIDDEN_SIZE = 2
#: Trask table 9's targets, in its order.
TRASK_OPERATIONS = ("a", "add", "sub", "mul", "div", "squared", "root")
SUBSET_RATIO, OVERLAP_RATIO = 0.25, 0.5


def _keras_rnn(layer):
    """A Keras recurrent layer of hidden size 2 and a linear output."""
    return lambda: [layer(), keras.layers.Dense(1)]


def _unit_rnn(unit_class, output_class=None):
    """A recurrent unit of hidden size 2 feeding the same unit (or
    `output_class`)."""
    return lambda: [
        keras.layers.RNN(L.ArithmeticCell(unit_class(HIDDEN_SIZE))),
        (output_class or unit_class)(1),
    ]


#: Trask table 9's models (app. B), each a function returning its layers.
MODELS = {
    "lstm": _keras_rnn(lambda: keras.layers.LSTM(HIDDEN_SIZE)),
    "gru": _keras_rnn(lambda: keras.layers.GRU(HIDDEN_SIZE)),
    "rnn_tanh": _keras_rnn(lambda: keras.layers.SimpleRNN(HIDDEN_SIZE)),
    "rnn_relu": _keras_rnn(
        lambda: keras.layers.SimpleRNN(HIDDEN_SIZE, activation="relu")
    ),
    "nac": _unit_rnn(L.NAC),
    "nalu": _unit_rnn(L.NALU),
    # Beyond the paper: Madsen & Johansen's units in the same places.
    "nau": _unit_rnn(L.NAU),
    "nau_nmu": _unit_rnn(L.NAU, L.NMU),
}


#: The sparsity regularizer's warm-up of the models with NAU/NMU (λ̂, and
#: its start and end at the paper preset's 100 000 steps, scaled with the
#: steps): the NAU's λ̂ of Madsen table 4, the NMU's with it; the
#: schedule is ours (the paper has no NAU).
WARMUPS = {"nau": (10.0, 10_000, 50_000), "nau_nmu": (10.0, 10_000, 50_000)}


def _callbacks(config, seed):
    if config["model"] not in WARMUPS:
        return []
    strength, start, end = WARMUPS[config["model"]]
    scale = config["steps"] / PAPER_STEPS[config["task"].removeprefix("recurrent_")]
    return [C.RegularizerWarmup(round(start * scale), round(end * scale), strength)]


def build_model(name):
    """The model `name` on sequences of 10 inputs per step."""
    x = inputs = keras.Input((None, INPUT_SIZE))
    for layer in MODELS[name]():
        x = layer(x)
    return keras.Model(inputs, x, name=f"recurrent_{name}")


def _source(config, seed):
    task = ArithmeticTask.draw(
        seed,
        config["operation"],
        input_size=INPUT_SIZE,
        subset_ratio=SUBSET_RATIO,
        overlap_ratio=OVERLAP_RATIO,
    )
    value_range = Range.parse(config.get("range", DEFAULT_RANGE.to_text()))
    return RecurrentArithmeticBatches(
        task, value_range, algorithm=generator_name(config)
    )


def run_spec(config):
    """The RunSpec of a job's configuration (a dict)."""
    return RunSpec(
        program_key=(config["task"], config["model"], optimizer_name(config)),
        build_model=functools.partial(build_model, config["model"]),
        make_source=functools.partial(_source, config),
        make_optimizer=optimizer_factory(config),
        make_callbacks=functools.partial(_callbacks, config),
        steps=config["steps"],
    )


#: The sweep's worker entry point for a task's jobs:
#: `run_chunk_for(task, tensorboard=None)` -> (jobs -> rows).
run_chunk_for = functools.partial(engine_chunk, run_spec)


def jobs_for(args):
    presets = {"paper": PAPER_STEPS, "quick": QUICK_STEPS}
    steps = check_steps(args.max_steps or presets[args.preset][args.task])
    jobs = []
    for model in sweep.expand_names(args.model, MODELS, "models"):
        for operation in sweep.expand_names(
            args.operation, TRASK_OPERATIONS, "operations"
        ):
            config = {
                "task": f"recurrent_{args.task}",
                "model": model,
                "operation": operation,
                "preset": args.preset,
                "steps": steps,
                "optimizer": args.optimizer,
                "generator": args.generator,
            }
            value_range = Range.parse(args.range)
            if value_range != DEFAULT_RANGE:  # rows made before --range lack it
                config["range"] = value_range.to_text()
            jobs += [
                sweep.Job(tuple(sorted(config.items())), seed) for seed in args.seeds
            ]
    return jobs


#: The sequential MNIST tasks, which `benchmarks.sequential_mnist` runs; this
#: command hands them over to it.
MNIST_TASKS = tuple(
    task
    for task, folder in registry.TASK_FOLDERS.items()
    if folder == "sequential_mnist"
)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    task_parser = argparse.ArgumentParser(add_help=False)
    task_parser.add_argument("--task")
    task = task_parser.parse_known_args(argv)[0].task
    if task in MNIST_TASKS:
        mnist_runner = registry.runner(task)
        return mnist_runner.main(argv, prog="python -m benchmarks.recurrent")
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.recurrent", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--task",
        choices=(*PAPER_STEPS, *MNIST_TASKS),
        default="trask",
        help="trask, or a sequential MNIST task (it takes the options of "
        "python -m benchmarks.sequential_mnist)",
    )
    parser.add_argument("--model", default="all", help="a model, an a,b list or all")
    parser.add_argument(
        "--operation", default="all", help="an operation, an a,b list or all"
    )
    parser.add_argument(
        "--range",
        default=DEFAULT_RANGE.to_text(),
        help="the inputs' range, one interval 'low,high' (default 1,2; the "
        "paper does not give it)",
    )
    add_optimizer_argument(parser)
    add_generator_argument(parser)
    sweep.add_common_arguments(parser, default_seeds="0-9")
    args = parser.parse_args(argv)
    run_chunk = run_chunk_for(f"recurrent_{args.task}", tensorboard=args.tensorboard)
    sweep.run_from_args(jobs_for(args), run_chunk, args)
    return 0
