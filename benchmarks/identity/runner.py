"""The identity task's runs: the MLPs, their source and judge (imported
when the task trains; the command line, its jobs and the task: `task`).

It also shows a task of one's own on the common runner: `IdentitySource`
below (a batch source and its judge) is all the task needs."""

import keras
import numpy as np

from benchmarks.identity.activations import ACTIVATIONS
from keras_nalm.engine import BatchSource
from keras_nalm.engine import uniform
from keras_nalm.optimizers import TorchAdam

BATCH_SIZE = 64
LEARNING_RATE = 0.01
TRAINING_RANGE = (-5.0, 5.0)
TEST_INTEGERS = np.arange(-1000, 1001, dtype=np.float32)[:, None]


class IdentitySource(BatchSource):
    """x = y ~ U[-5, 5] drawn in-graph; judged by the mean absolute error
    on the integers -1 000 ... 1 000 (Trask table 5)."""

    def __init__(self, algorithm):
        super().__init__(BATCH_SIZE, algorithm)

    @property
    def metrics(self):
        return []

    def __call__(self, seed):
        x = uniform((self.batch_size, 1), seed, self.algorithm, *TRAINING_RANGE)
        return x, x

    def judge(self, model, log):
        predictions = model.predict(TEST_INTEGERS, verbose=0)
        error = float(np.mean(np.abs(predictions - TEST_INTEGERS)))
        return {"mean_absolute_error": error, "error_percent": error / 500 * 100}


def _dense(units, fan_in, defaults, activation=None):
    if defaults == "keras":
        return keras.layers.Dense(units, activation=activation)
    bound = 1.0 / np.sqrt(fan_in)  # torch.nn.Linear.reset_parameters
    uniform = keras.initializers.RandomUniform(-bound, bound)
    return keras.layers.Dense(
        units,
        activation=activation,
        kernel_initializer=uniform,
        bias_initializer=uniform,
    )


def build_mlp(activation, defaults="keras"):
    """Three hidden layers of 8 units with `activation`, then a linear unit,
    initialised as `defaults` (`task.DEFAULTS`) would."""
    x = inputs = keras.Input((1,))
    for fan_in in (1, 8, 8):
        if activation == "prelu":
            slope = keras.initializers.Constant(0.25)
            x = _dense(8, fan_in, defaults)(x)
            x = keras.layers.PReLU(alpha_initializer=slope, shared_axes=[1])(x)
        else:
            x = _dense(8, fan_in, defaults, ACTIVATIONS[activation])(x)
    outputs = _dense(1, 8, defaults)(x)
    return keras.Model(inputs, outputs, name=f"identity_{activation}")


def adam(schedule, defaults="keras"):
    rate = LEARNING_RATE
    if schedule == "halving":
        rate = keras.optimizers.schedules.ExponentialDecay(LEARNING_RATE, 1_000, 0.5)
    if defaults == "pytorch":
        return TorchAdam(rate)
    return keras.optimizers.Adam(rate)
