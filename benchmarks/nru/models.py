"""The recurrent models of the NRU paper's comparisons (Chandar et al.
2019, "Experiments"), each a recurrent layer and a linear read-out per step, sized to
about the same parameter count. Backend-neutral (no batch sources), so that
`benchmarks.speed.recurrent_speed` can build them on JAX and PyTorch too."""

import dataclasses
import functools

import keras

from benchmarks.core import units as own_units
from benchmarks.nru.definitions import RECURRENT
from keras_nalm import layers as L
from keras_nalm.initializers import ChronoBias
from keras_nalm.initializers import LinearBias
from keras_nalm.utils import trainable_parameter_count


@dataclasses.dataclass(frozen=True)
class Setting:
    """What a task asks of its models: sequences of `length` steps of
    `features` inputs, `classes` logits per step (`per_step`) or after the
    last step, and the NRU of the authors' configuration for the task
    (`nru_units`, `memory_size`, `num_heads`), to whose parameter count the
    other models are matched. `embedding` > 0: the inputs are token ids
    (of `classes` symbols) read through an embedding of that size;
    `stateful_batch`: the recurrent layer is stateful for batches of that
    size (truncated backpropagation through time with the state carried);
    `head_relu`: the NRU's write and erase heads end in a ReLU;
    `sru_sizes`: the SRU of the NRU authors' configuration for the task
    (units, statistics, recurrent units), whose proportions the matched SRU
    keeps; `eurnn_units`: the EURNN's units where the paper fixes them
    instead of matching its parameters; `nru_bias`: the NRU's biases,
    `"zeros"` or `"linear"` (the authors' `nn.Linear`,
    `keras_nalm.initializers.LinearBias`)."""

    length: int
    features: int
    classes: int
    per_step: bool = True
    nru_units: int = 80
    memory_size: int = 64
    num_heads: int = 4
    embedding: int = 0
    stateful_batch: int = None
    head_relu: bool = False
    sru_sizes: tuple = (60, 55, 16)
    eurnn_units: int = None
    nru_bias: str = "zeros"


def synthetic_setting(length):
    """Copy and denoising: 10 one-hot symbols, 9 classes per step, the
    authors' NRU (hidden 80, memory 64, 4 heads: ~23.5 k parameters) and
    SRU (60 units, 55 statistics, 16 recurrent units: apsarath/myTorch
    `memnets/config/baselines/100_lag/copy_v1/sru.yaml`)."""
    return Setting(length, features=10, classes=9)


#: psMNIST: one pixel per step, 10 classes after the last, the authors' NRU
#: (hidden 212, memory 256, 4 heads: ~165 k parameters) with linear heads,
#: the authors' pMNIST configuration (apsarath/NRU `config/nru.yaml`:
#: `use_relu: False`). Untrained, its memory grows 4-5 % per step through
#: the heads' weights (`benchmarks.nru.memory_probe`); the cell's default
#: `direction_overflow="zero"` (the code's float32 normalisation) bounds
#: that growth. The authors' SRU: 150 units, 155 statistics, 50 recurrent
#: units (`.../pmnist/sru.yaml`). The
#: EURNN: 1 024 units, "still achieving fewer parameters (~17k)" (the
#: paper's psMNIST section), not the ~9 000 that would match.
PSMNIST = Setting(
    784,
    1,
    10,
    per_step=False,
    nru_units=212,
    memory_size=256,
    sru_sizes=(150, 155, 50),
    eurnn_units=1024,
)


def _sequence_options(setting):
    return {
        "return_sequences": setting.per_step,
        "stateful": setting.stateful_batch is not None,
    }


def lstm_layer(units, chrono_max, setting):
    return keras.layers.LSTM(units, **_sequence_options(setting))


def lstm_chrono_layer(units, chrono_max, setting):
    return keras.layers.LSTM(
        units,
        **_sequence_options(setting),
        unit_forget_bias=False,
        bias_initializer=ChronoBias(chrono_max, "ifco"),
    )


def gru_layer(units, chrono_max, setting):
    return keras.layers.GRU(units, **_sequence_options(setting))


def janet_layer(units, chrono_max, setting):
    cell = L.JANETCell(units, bias_initializer=ChronoBias(chrono_max, "fc"))
    return keras.layers.RNN(cell, **_sequence_options(setting))


def normalized_rnn_layer(units, chrono_max, setting, initializer):
    cell = L.NormalizedRNNCell(units, recurrent_initializer=initializer)
    return keras.layers.RNN(cell, **_sequence_options(setting))


def sru_layer(units, chrono_max, setting):
    authors_units, statistics, recurrent_units = setting.sru_sizes
    cell = L.SRUCell(
        units,
        statistics=max(1, round(units * statistics / authors_units)),
        recurrent_units=max(1, round(units * recurrent_units / authors_units)),
    )
    return keras.layers.RNN(cell, **_sequence_options(setting))


def orthogonal_layer(units, chrono_max, setting, cell):
    """`OrthogonalRNN` over `cell`, a class name of `keras_nalm.layers`."""
    cell_class = getattr(L, cell)
    return L.OrthogonalRNN(cell_class(units), **_sequence_options(setting))


def nru_layer(units, chrono_max, setting):
    cell = L.NRUCell(
        units,
        memory_size=setting.memory_size,
        num_heads=setting.num_heads,
        head_relu=setting.head_relu,
        bias_initializer=LinearBias() if setting.nru_bias == "linear" else "zeros",
    )
    return keras.layers.RNN(cell, **_sequence_options(setting))


def own_layer(spec, units, setting, digest=None):
    """A unit or recurrent cell of one's own (`benchmarks.core.units`) with
    `units` units, in `keras.layers.RNN` as the models' cells run."""
    cell = own_units.build_cell(spec, units, digest)
    return keras.layers.RNN(cell, **_sequence_options(setting))


def build_model(model, units, setting, chrono_max, digest=None):
    """The recurrent layer of `units` and a linear read-out (per step, or
    of the last state), after an embedding when the inputs are ids;
    `model` a name of `RECURRENT` or a unit or cell of one's own (checked
    against its source's `digest`, `own_layer`)."""
    if setting.embedding:
        inputs = keras.Input(
            (setting.length,), batch_size=setting.stateful_batch, dtype="int32"
        )
        sequence = keras.layers.Embedding(setting.classes, setting.embedding)(inputs)
    else:
        inputs = keras.Input(
            (setting.length, setting.features), batch_size=setting.stateful_batch
        )
        sequence = inputs
    if own_units.is_unit_spec(model):
        states = own_layer(model, units, setting, digest)(sequence)
        name = "own"
    else:
        states = RECURRENT[model](units, chrono_max, setting)(sequence)
        name = model
    outputs = keras.layers.Dense(setting.classes)(states)
    return keras.Model(inputs, outputs, name=name)


def parameter_count(model, units, setting):
    built = build_model(model, units, setting, chrono_max=10)
    return trainable_parameter_count(built)


@functools.cache
def matched_units(model, setting):
    """The NRU's units (and the EURNN's where the setting fixes them), or
    the units that bring `model`'s parameter count closest to the NRU's
    (counts grow with the units)."""
    fixed = {"nru": setting.nru_units, "eurnn": setting.eurnn_units}.get(model)
    if fixed:
        return fixed
    target = parameter_count("nru", setting.nru_units, setting)
    # doubling, then bisection: no model far larger than the target is built
    # (an orthogonal initializer of a 2 048-unit kernel takes seconds)
    low, high = 1, 1
    while parameter_count(model, high, setting) < target:
        low, high = high + 1, 2 * high
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
