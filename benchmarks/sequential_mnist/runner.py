"""The sequential MNIST tasks' runs: the CNN, the recurrent units around it,
their schedules and the worker entry point (the command line and its
documentation: `cli`)."""

import functools

import keras
import numpy as np

from benchmarks.core import units
from benchmarks.core.registration import register
from benchmarks.core.rows import generator_name
from benchmarks.data.loaders import cached_mnist
from benchmarks.sequential_mnist.sequences import MADSEN_TASKS
from benchmarks.sequential_mnist.sequences import PAPER_STEPS
from benchmarks.sequential_mnist.sequences import SEQUENCES
from benchmarks.sequential_mnist.sequences import targets
from benchmarks.sequential_mnist.source import MNISTSequences
from keras_nalm import callbacks as C
from keras_nalm import layers as L

#: The reference's sparsity regularizer (λ̂, start, end at paper scale).
WARMUP = (10.0, 10_000, 100_000)
BATCH_SIZE = 64
#: Held-out training digits for validation (the reference's last 5 000).
VALIDATION_DIGITS = 5_000
#: The fixed order in which the training split is divided.
SPLIT_SEED = 0


@register
class PerImage(keras.layers.Layer):
    """Applies an image model to every image of (batch, time, 28, 28, 1)
    sequences as one batch of batch · time images (no per-step loop, and
    any sequence length: `keras.layers.TimeDistributed` on a dynamic time
    axis fails in `predict` after a change of length)."""

    def __init__(self, layer, **kwargs):
        super().__init__(**kwargs)
        if isinstance(layer, dict):
            layer = keras.saving.deserialize_keras_object(layer)
        self.layer = layer

    def build(self, input_shape):
        self.layer.build((None, *input_shape[2:]))

    def call(self, sequences):
        shape = keras.ops.shape(sequences)
        images = keras.ops.reshape(sequences, (-1, *sequences.shape[2:]))
        outputs = self.layer(images)
        return keras.ops.reshape(outputs, (shape[0], shape[1], outputs.shape[-1]))

    def compute_output_shape(self, input_shape):
        image_shape = self.layer.compute_output_shape((None, *input_shape[2:]))
        return (*input_shape[:2], image_shape[-1])

    def get_config(self):
        config = super().get_config()
        config["layer"] = keras.saving.serialize_keras_object(self.layer)
        return config


def digit_cnn(outputs=1, activation=None):
    """The reference's CNN: `outputs` numbers per image."""
    return keras.Sequential(
        [
            keras.layers.Conv2D(20, 5, activation="relu"),
            keras.layers.MaxPooling2D(2),
            keras.layers.Conv2D(50, 5, activation="relu"),
            keras.layers.MaxPooling2D(2),
            keras.layers.Flatten(),
            keras.layers.Dense(500, activation="relu"),
            keras.layers.Dense(outputs, activation=activation),
        ],
        name="digit_cnn",
    )


def _unit(model, task, rz):
    """The recurrent unit of `model` (None: the LSTM)."""
    solved = {"trainable": False, "kernel_initializer": "ones"}
    units = {
        "nmu": lambda: L.NMU(1, input_regularization=rz),
        "nac_mul_nmu": lambda: L.NACMul(1, weight="linear", input_regularization=rz),
        "nac_mul_sigmoid": lambda: L.NACMul(1, weight="sigmoid"),
        "nac_mul": lambda: L.NACMul(1),
        "nalu": lambda: L.NALU(1),
        "nau": lambda: L.NAU(1, input_regularization=rz),
        "nac": lambda: L.NAC(1, input_regularization=rz),
        "solved": lambda: (
            L.NMU(1, **solved) if task == "mnist_product" else L.NAU(1, **solved)
        ),
    }
    return units[model]() if model in units else None


#: Trask's Keras recurrent cores (hidden size 10, then a linear output).
KERAS_CORES = {
    "lstm": keras.layers.LSTM,
    "gru": keras.layers.GRU,
    "rnn_tanh": keras.layers.SimpleRNN,
    "rnn_relu": lambda units, **kw: keras.layers.SimpleRNN(units, "relu", **kw),
}
TRASK_HIDDEN = 10
#: Models with a sparsity regularizer to warm up.
SPARSITY_REGULARIZED = ("nmu", "nac_mul_nmu", "nau")


#: The activation of the CNN's ten outputs in Trask's tasks, by head
#: (`sequences.cnn_head`).
HEAD_ACTIVATIONS = {"linear": None, "softmax": "softmax"}


def build_model(model, task, rz, digest=None, head="linear", every_step=False):
    """CNN per image, then the recurrent unit: an output per step (Madsen's
    tasks; Trask's with `every_step`) or after the sequence (Trask's, the
    CNN ending in ten outputs with `head`, a key of `HEAD_ACTIVATIONS`).
    `model` may name a unit or a recurrent cell of one's own (checked
    against its source's `digest`; a layer used recurrently,
    `units.build_cell`), run in `keras.layers.RNN` where the task's unit
    runs."""
    inputs = keras.Input((None, 28, 28, 1))
    outputs = 10 if task == "mnist_count" else 1
    madsen = task in MADSEN_TASKS
    every_step = madsen or every_step
    if madsen:
        digits = _digits(inputs)
    else:
        digits = PerImage(digit_cnn(10, HEAD_ACTIVATIONS[head]))(inputs)
    if units.is_unit_spec(model):
        cell = units.build_cell(model, outputs, digest)
        return keras.Model(
            inputs, keras.layers.RNN(cell, return_sequences=every_step)(digits)
        )
    if madsen:
        return keras.Model(inputs, _madsen_core(model, task, rz)(digits))
    if model in KERAS_CORES:
        hidden = KERAS_CORES[model](TRASK_HIDDEN, return_sequences=every_step)
        return keras.Model(inputs, keras.layers.Dense(outputs)(hidden(digits)))
    unit = {"nac": L.NAC, "nalu": L.NALU}[model](outputs)
    core = keras.layers.RNN(L.ArithmeticCell(unit), return_sequences=every_step)
    return keras.Model(inputs, core(digits))


def _digits(inputs):
    return PerImage(digit_cnn())(inputs)


def _madsen_core(model, task, rz):
    unit = _unit(model, task, rz)
    if unit is None:
        return keras.layers.LSTM(1, return_sequences=True)
    return L.ArithmeticRNN(unit, return_sequences=True)


def split_training(images, labels, validation_digits=None):
    """(train, validation): a fixed shuffle of the training split, the last
    `validation_digits` (default 5 000, or an eighth of a split of fewer
    than 40 000) held out."""
    if validation_digits is None:
        validation_digits = min(VALIDATION_DIGITS, len(labels) // 8)
    order = np.random.default_rng(SPLIT_SEED).permutation(len(labels))
    images, labels = images[order], labels[order]
    cut = len(labels) - validation_digits
    return (images[:cut], labels[:cut]), (images[cut:], labels[cut:])


@functools.lru_cache(maxsize=2)
def _mnist(source, path, data_dir):
    data = cached_mnist(source, path, data_dir)
    return split_training(*data["train"]) + (data["test"],)


def make_source(config, seed=None):
    """The task's sequences of the configuration's MNIST."""
    train, validation, test = _mnist(
        config["mnist"], config.get("mnist_path"), config.get("data_dir")
    )
    task = SEQUENCES[config["task"]]
    every_step = targets(config) == "every-step"
    return MNISTSequences(
        train,
        task["operation"],
        task["length"],
        validation=validation,
        test=test,
        test_lengths=task["test_lengths"],
        digits=task["digits"],
        cumulative=every_step,
        test_prefixes=config["task"] in MADSEN_TASKS,
        batch_size=BATCH_SIZE,
        algorithm=generator_name(config),
    )


def callbacks(config, seed):
    """The run's regularizer warm-up, if its model has one. Early stopping
    (Madsen §4.2: on the validation digits) is the judge's: it reads the
    run's logged evaluations at the step of the lowest validation MSE
    (`MNISTSequences.judge`), so no callback keeps the best weights and a
    run stays resumable midway (`--checkpoints`)."""
    warmup = config.get("regularizer_warmup")
    if warmup is None and config["model"] in SPARSITY_REGULARIZED:
        warmup = WARMUP
    if warmup is None:
        return []
    strength, start, end = warmup
    scale = config["steps"] / PAPER_STEPS[config["task"]]
    return [C.RegularizerWarmup(round(start * scale), round(end * scale), strength)]
