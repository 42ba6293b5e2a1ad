"""The NRU paper's tasks (Chandar et al. 2019, "Experiments"), read by the
command line before TensorFlow loads."""

from benchmarks.core.lazy import lazy
from benchmarks.data.synthetic_tasks import SOURCES

#: The synthetic sequence tasks (`benchmarks.data.synthetic_tasks`).
SYNTHETIC_TASKS = tuple(SOURCES)
#: The rows' tasks this folder runs (`benchmarks.registry`).
TASKS = (*SYNTHETIC_TASKS, "psmnist", "ptb")

#: The rows' task of its probe of the untrained psMNIST NRU's memory
#: (`benchmarks.nru.memory_probe`).
PROBES = ("untrained_memory",)


def _builder(name, **arguments):
    return lazy(f"benchmarks.nru.models:{name}", **arguments)


#: Each model's recurrent layer, from (units, chrono T_max, setting)
#: (`benchmarks.nru.models`, which matches their sizes).
RECURRENT = {
    "nru": _builder("nru_layer"),
    "lstm": _builder("lstm_layer"),
    "lstm_chrono": _builder("lstm_chrono_layer"),
    "gru": _builder("gru_layer"),
    "janet": _builder("janet_layer"),
    "rnn_orth": _builder("normalized_rnn_layer", initializer="orthogonal"),
    "rnn_id": _builder("normalized_rnn_layer", initializer="identity"),
    "sru": _builder("sru_layer"),
    "eurnn": _builder("orthogonal_layer", cell="EURNNCell"),
    "goru": _builder("orthogonal_layer", cell="GORUCell"),
}
#: The models of the paper's comparisons, `--model`.
MODELS = tuple(RECURRENT)


def in_table_order(models):
    """The models in the paper's order (`MODELS`), then the others by name."""
    return [m for m in MODELS if m in models] + sorted(set(models) - set(MODELS))


#: Models trained without gradient clipping: the paper clips "for all
#: models except GORU and EURNN since their transition operators do not
#: expand norm".
UNCLIPPED = ("eurnn", "goru")
