"""Trask's recurrent arithmetic task's models (Trask et al. 2018, app. B,
table 9, and Madsen & Johansen's units in the same places), read by the
command line before TensorFlow loads and by the runner, which builds them."""

from benchmarks.core.lazy import layer
from benchmarks.core.lazy import lazy
from benchmarks.core.ranges import Range

#: The rows' tasks this folder runs (`benchmarks.registry`); its command
#: hands the sequential MNIST tasks to `benchmarks.sequential_mnist`.
TASKS = ("recurrent_trask",)

HIDDEN_SIZE = 2
PAPER_STEPS = {"trask": 100_000}
QUICK_STEPS = {"trask": 10_000}
#: Trask table 9's targets, in its order.
OPERATIONS = ("a", "add", "sub", "mul", "div", "squared", "root")
#: The inputs' range is not given in the paper; the reference code of
#: Madsen & Johansen (stable-nalu, `SimpleFunctionRecurrentDataset`) draws
#: U[1, 2].
DEFAULT_RANGE = Range.parse("1,2")


def _keras_rnn(class_name, **arguments):
    """A Keras recurrent layer of hidden size 2 and a linear output."""
    recurrent = lazy(f"keras.layers:{class_name}", **arguments)

    def layers(learned=False):
        from keras.layers import Dense

        return [recurrent(HIDDEN_SIZE), Dense(1)]

    return layers


def _unit_rnn(unit, output=None):
    """A recurrent unit of hidden size 2 feeding the same unit (or
    `output`); `learned`: its initial state a trainable weight."""

    def layers(learned=False):
        from keras.layers import RNN

        from keras_nalm.layers import ArithmeticCell

        cell = ArithmeticCell(layer(unit)(HIDDEN_SIZE), learn_initial_state=learned)
        return [RNN(cell), layer(output or unit)(1)]

    return layers


#: Trask table 9's models (app. B), each a function returning its layers.
MODELS = {
    "lstm": _keras_rnn("LSTM"),
    "gru": _keras_rnn("GRU"),
    "rnn_tanh": _keras_rnn("SimpleRNN"),
    "rnn_relu": _keras_rnn("SimpleRNN", activation="relu"),
    "nac": _unit_rnn("NAC"),
    "nalu": _unit_rnn("NALU"),
    # Beyond the paper: Madsen & Johansen's units in the same places.
    "nau": _unit_rnn("NAU"),
    "nau_nmu": _unit_rnn("NAU", "NMU"),
}
#: The models whose initial state `--initial-state learned` makes trainable.
UNIT_MODELS = ("nac", "nalu", "nau", "nau_nmu")
