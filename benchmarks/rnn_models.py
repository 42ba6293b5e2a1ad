"""The recurrent models of the NRU paper's comparisons (Chandar et al.
2019, §4), each a recurrent layer and a linear read-out per step, sized to
about the same parameter count. Backend-neutral (no batch sources), so that
`benchmarks.recurrent_speed` can build them on JAX and PyTorch too."""

import functools

import keras

from keras_nalm import layers as L
from keras_nalm.initializers import ChronoBias

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
