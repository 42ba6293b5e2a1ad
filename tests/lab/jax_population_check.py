"""Checks of `keras_nalm.jax_population` on Keras's JAX backend, run by
`tests/lab/test_jax_population.py` in a subprocess:

    KERAS_BACKEND=jax python -m tests.lab.jax_population_check

Prints one JSON object: `alone_vs_together`, the largest relative
difference between three NMU runs (each its own range) trained as one
population and each trained alone; `switches`, each run's iNALU
regularizer switch after training, and `expected`, which runs' losses lay
below the switch's threshold.
"""

import json
import sys

import keras
import numpy as np

import keras_nalm
from benchmarks.core.ranges import Range
from benchmarks.data.arithmetic_batches_jax import JaxArithmeticBatches
from benchmarks.data.arithmetic_task import single_module_task
from keras_nalm.callbacks import INALURegularizerSwitch
from keras_nalm.callbacks import RegularizerWarmup
from keras_nalm.jax_population import JaxPopulationTrainer

RANGES = (("1,2", "2,6"), ("-2,-1", "-6,-2"), ("0.1,0.2", "0.2,2"))


def _model(layer):
    def build():
        inputs = keras.Input((2,))
        return keras.Model(inputs, layer()(inputs))

    return build


def _trainer(layer, ranges, seeds, learning_rate, operation="mul"):
    task = single_module_task(operation, 2)
    sources = [
        JaxArithmeticBatches(task, Range.parse(i), Range.parse(e)) for i, e in ranges
    ]
    return JaxPopulationTrainer(
        _model(layer),
        sources,
        seeds,
        lambda: keras_nalm.optimizers.TorchAdam(learning_rate),
        steps_per_call=500,
        evaluation_data=[s.evaluation_data(seed) for s, seed in zip(sources, seeds)],
    )


def _weights(trainer, run):
    return [np.asarray(w.numpy()[run]) for w in trainer.weights]


def _relative(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return float(np.max(np.abs(a - b) / (np.abs(b) + 1e-6)))


def alone_vs_together():
    """Runs never mix: a population's runs equal the same runs alone, in
    their training losses (their own batches) and evaluations (their own
    sets) at every evaluation, and in their last weights."""
    layer = lambda: keras_nalm.layers.NMU(units=1)  # noqa: E731
    seeds = [0, 1, 2]
    warmup = [RegularizerWarmup(500, 1_500, 10.0)]
    together = _trainer(layer, RANGES, seeds, 1e-2)
    logs = together.train(2_000, callbacks=warmup)
    worst = 0.0
    for run, (ranges, seed) in enumerate(zip(RANGES, seeds)):
        alone = _trainer(layer, [ranges], [seed], 1e-2)
        (log,) = alone.train(2_000, callbacks=warmup)
        # the first training loss is None (the record before training)
        losses = logs[run].series["training_loss"][1:], log.series["training_loss"][1:]
        worst = max(worst, _relative(*losses))
        for key in ("interpolation_mse", "extrapolation_mse"):
            worst = max(worst, _relative(logs[run].series[key], log.series[key]))
        for a, b in zip(_weights(together, run), _weights(alone, 0)):
            worst = max(worst, _relative(a, b))
    return worst


def switches():
    """Each run's schedule reads its own state: with a learning rate of 0,
    a run's loss stays its initial one, and its switch turns on only where
    that loss is below the threshold."""
    layer = lambda: keras_nalm.layers.INALU(units=1)  # noqa: E731
    seeds = [0, 1, 2]
    trainer = _trainer(layer, RANGES, seeds, 0.0, operation="add")
    logs = trainer.train(500)
    losses = [log.series["interpolation_mse"][-1] for log in logs]
    threshold = float(np.median(losses))

    def callbacks():
        return [
            INALURegularizerSwitch(
                min_step=0, loss_threshold=threshold, monitor="interpolation_mse"
            )
        ]

    evaluation = [s.evaluation_data(seed) for s, seed in zip(trainer.sources, seeds)]
    trainer.restart(seeds, trainer.sources, evaluation)
    trainer.train(1_000, callbacks=[callbacks() for _ in seeds])
    paths = [v.path for v in trainer.model.non_trainable_variables]
    index = next(i for i, p in enumerate(paths) if "inalu_regularization" in p)
    found = np.ravel(trainer.controls[index].numpy())
    return [float(v) for v in found], [float(loss < threshold) for loss in losses]


def main():
    found, expected = switches()
    print(
        json.dumps(
            {
                "alone_vs_together": alone_vs_together(),
                "switches": found,
                "expected": expected,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
