"""The language tasks' runs: the models of numbers in words and of programs,
their sources and the worker entry point (the command line and its
documentation: `cli`)."""

import keras

from benchmarks.core.registration import register
from benchmarks.language.models import HEADS
from benchmarks.language.models import PROGRAM_TASKS
from benchmarks.language.numbers import NumberWords
from benchmarks.language.programs import ProgramBatches
from benchmarks.language.vocabulary import NUMBER_VOCABULARY
from keras_nalm import layers as L


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


#: The models whose recurrent layer is an arithmetic unit itself,
#: h_t = unit([x_t, h_{t-1}]) over the characters' embeddings (Trask et al.'s
#: recurrent NAC and NALU of app. B, reading the program).
RECURRENT_UNITS = {"nac_rnn": L.NAC, "nalu_rnn": L.NALU}
#: The DNC baseline's memory (app. E gives no sizes): slots, word size and
#: read heads of `keras_nalm.layers.DNCCell`, whose controller has `size` units.
DNC_MEMORY = {"memory_slots": 16, "word_size": 16, "read_heads": 1}


def build_model(model, size, embedding, vocabulary=NUMBER_VOCABULARY, output_scale=1.0):
    """Embedding, a recurrent layer of `size` units (an LSTM; `ugrnn`:
    `keras_nalm.layers.UGRNNCell`), and the model's output on its final
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
        state = keras.layers.RNN(L.UGRNNCell(size))(vectors)
    elif model == "dnc":
        state = keras.layers.RNN(L.DNCCell(size, **DNC_MEMORY))(vectors)
    elif model in RECURRENT_UNITS:
        cell = L.ArithmeticCell(RECURRENT_UNITS[model](size))
        state = keras.layers.RNN(cell)(vectors)
    else:
        state = SumOverTime()(keras.layers.LSTM(size, return_sequences=True)(vectors))
    outputs = HEADS[model](1)(state)
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
