"""The recurrent models of the NRU paper's comparisons (Chandar et al.
2019, "Experiments"), each a recurrent layer and a linear read-out per step, sized to
about the same parameter count. Backend-neutral (no batch sources), so that
`benchmarks.recurrent_speed` can build them on JAX and PyTorch too."""

import dataclasses
import functools

import keras

from keras_nalm import layers as L
from keras_nalm.initializers import ChronoBias
from keras_nalm.utils import trainable_parameter_count


@dataclasses.dataclass(frozen=True)
class Setting:
    """What a task asks of its models: sequences of `length` steps of
    `features` inputs, `classes` logits per step (`per_step`) or after the
    last step, and the NRU of the authors' configuration for the task
    (`nru_units`, `memory_size`, `num_heads`), to whose parameter count the
    other models are matched."""

    length: int
    features: int
    classes: int
    per_step: bool = True
    nru_units: int = 80
    memory_size: int = 64
    num_heads: int = 4


def synthetic_setting(length):
    """Copy and denoising: 10 one-hot symbols, 9 classes per step, the
    authors' NRU (hidden 80, memory 64, 4 heads: ~23.5 k parameters)."""
    return Setting(length, features=10, classes=9)


#: psMNIST: one pixel per step, 10 classes after the last, the authors' NRU
#: (hidden 212, memory 256, 4 heads: ~165 k parameters).
PSMNIST = Setting(784, 1, 10, per_step=False, nru_units=212, memory_size=256)


def _lstm(units, chrono_max, setting):
    return keras.layers.LSTM(units, return_sequences=setting.per_step)


def _lstm_chrono(units, chrono_max, setting):
    return keras.layers.LSTM(
        units,
        return_sequences=setting.per_step,
        unit_forget_bias=False,
        bias_initializer=ChronoBias(chrono_max, "ifco"),
    )


def _gru(units, chrono_max, setting):
    return keras.layers.GRU(units, return_sequences=setting.per_step)


def _janet(units, chrono_max, setting):
    cell = L.JANETCell(units, bias_initializer=ChronoBias(chrono_max, "fc"))
    return keras.layers.RNN(cell, return_sequences=setting.per_step)


def _rnn(initializer):
    def make(units, chrono_max, setting):
        cell = L.NormalizedRNNCell(units, recurrent_initializer=initializer)
        return keras.layers.RNN(cell, return_sequences=setting.per_step)

    return make


def _nru(units, chrono_max, setting):
    cell = L.NRUCell(
        units, memory_size=setting.memory_size, num_heads=setting.num_heads
    )
    return keras.layers.RNN(cell, return_sequences=setting.per_step)


#: Each model's recurrent layer, from (units, chrono T_max, setting).
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


def build_model(model, units, setting, chrono_max):
    """The recurrent layer of `units` and a linear read-out (per step, or
    of the last state)."""
    inputs = keras.Input((setting.length, setting.features))
    states = RECURRENT[model](units, chrono_max, setting)(inputs)
    outputs = keras.layers.Dense(setting.classes)(states)
    return keras.Model(inputs, outputs, name=model)


def parameter_count(model, units, setting):
    built = build_model(model, units, setting, chrono_max=10)
    return trainable_parameter_count(built)


@functools.cache
def matched_units(model, setting):
    """The NRU's units, or the units that bring `model`'s parameter count
    closest to the NRU's (counts grow with the units)."""
    if model == "nru":
        return setting.nru_units
    target = parameter_count("nru", setting.nru_units, setting)
    low, high = 1, 4_096
    while low < high:  # the smallest units whose count reaches the target
        middle = (low + high) // 2
        if parameter_count(model, middle, setting) < target:
            low = middle + 1
        else:
            high = middle
    candidates = [units for units in (low - 1, low) if units >= 1]
    return min(
        candidates, key=lambda u: abs(parameter_count(model, u, setting) - target)
    )
