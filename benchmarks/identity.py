"""Learning the identity (Trask et al. 2018, §1 and app. A, table 5).

An MLP with 3 hidden layers of 8 units, one non-linearity throughout,
learns y = x from x ~ U[-5, 5] with Adam (learning rate 0.01, 10 000 steps,
as the NALU paper describes it; the batch size, 64, is not given there) and
is scored by its mean absolute error on the integers -1 000 ... 1 000 (500
is the error of predicting 0). One JSON line per (activation, seed).

    python -m benchmarks.identity --activation all --seeds 0-99 --output FILE

It also shows `InGraphTrainer` on a synthetic task of one's own: the batch
function below is all the task needs.
"""

import argparse
import functools
import sys
import time

import keras
import numpy as np
import tensorflow as tf

from benchmarks import sweep
from benchmarks.runs import reinitialize_model
from keras_nalm.xla_engine import InGraphTrainer

PAPER_STEPS = 10_000
QUICK_STEPS = 2_000
BATCH_SIZE = 64
TRAINING_RANGE = (-5.0, 5.0)
TEST_INTEGERS = np.arange(-1000, 1001, dtype=np.float32)[:, None]
#: Table 5's non-linearities, with PyTorch's defaults where Keras' differ
#: (LeakyReLU slope 0.01; PReLU one shared slope starting at 0.25).
#: PyTorch's Threshold needs a threshold and a value that the paper does
#: not give; we use 1 and 0.
ACTIVATIONS = {
    "hard_tanh": keras.activations.hard_tanh,
    "relu6": "relu6",
    "softsign": "softsign",
    "tanh": "tanh",
    "sigmoid": "sigmoid",
    "threshold": functools.partial(
        keras.activations.threshold, threshold=1.0, default_value=0.0
    ),
    "selu": "selu",
    "elu": "elu",
    "soft_shrink": keras.activations.soft_shrink,
    "relu": "relu",
    "leaky_relu": functools.partial(keras.activations.leaky_relu, negative_slope=0.01),
    "tanh_shrink": keras.activations.tanh_shrink,
    "softplus": "softplus",
    "prelu": "prelu",
    "none": None,
}


def identity_batches(seed):
    """x = y ~ U[-5, 5], drawn in-graph from the (seed, step) counter."""
    x = tf.random.stateless_uniform(
        (BATCH_SIZE, 1), seed, *TRAINING_RANGE, alg="threefry"
    )
    return x, x


def build_mlp(activation):
    layers = [keras.Input((1,))]
    for _ in range(3):
        if activation == "prelu":
            slope = keras.initializers.Constant(0.25)
            prelu = keras.layers.PReLU(alpha_initializer=slope, shared_axes=[1])
            layers += [keras.layers.Dense(8), prelu]
        else:
            layers.append(keras.layers.Dense(8, activation=ACTIVATIONS[activation]))
    layers.append(keras.layers.Dense(1))
    return keras.Sequential(layers, name=f"identity_{activation}")


_TRAINERS = {}


def _trainer(activation, seed):
    if activation not in _TRAINERS:
        _TRAINERS.clear()
        trainer = InGraphTrainer(build_mlp(activation), identity_batches, seed)
        trainer.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
        _TRAINERS[activation] = trainer
    trainer = _TRAINERS[activation]
    trainer.restart(seed)
    reinitialize_model(trainer.model, seed)
    return trainer


def run_chunk(jobs):
    environment = sweep.environment()
    rows = []
    for job in jobs:
        config = dict(job.config)
        began = time.perf_counter()
        trainer = _trainer(config["activation"], job.seed)
        trainer.fit(steps=config["steps"], steps_per_epoch=config["steps"], verbose=0)
        predictions = trainer.model.predict(TEST_INTEGERS, verbose=0)
        error = float(np.mean(np.abs(predictions - TEST_INTEGERS)))
        rows.append(
            {
                "task": "identity",
                "config": config,
                **config,
                "seed": job.seed,
                "max_steps": config["steps"],
                "mean_absolute_error": error,
                "error_percent": error / 500 * 100,
                "wall_seconds": time.perf_counter() - began,
                **environment,
            }
        )
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.identity", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--activation", default="all", help="a name, a,b list or all")
    sweep.add_common_arguments(parser, default_seeds="0-99")
    args = parser.parse_args(argv)
    names = (
        list(ACTIVATIONS) if args.activation == "all" else args.activation.split(",")
    )
    unknown = set(names) - set(ACTIVATIONS)
    if unknown:
        parser.error(f"unknown activations {sorted(unknown)}: {list(ACTIVATIONS)}")
    steps = args.max_steps or (PAPER_STEPS if args.preset == "paper" else QUICK_STEPS)
    jobs = [
        sweep.Job(
            tuple(
                sorted({"activation": a, "preset": args.preset, "steps": steps}.items())
            ),
            seed,
        )
        for a in names
        for seed in args.seeds
    ]
    sweep.run_sweep(jobs, run_chunk, args.output, args.workers, args.quiet)
    return 0


if __name__ == "__main__":
    sys.exit(main())
