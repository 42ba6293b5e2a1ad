"""Character-level Penn Treebank (Chandar et al. 2019, table 2), run by
`python -m benchmarks.nru --task ptb`.

Next-character prediction with truncated backpropagation through time: a
split's characters are cut into `batch_size` contiguous streams (one per
batch row) and read `bptt` characters at a time, the recurrent state
carried from one segment to the next (a stateful Keras layer) and reset at
the start of each epoch and of each evaluation. The model is an embedding,
the recurrent layer and a linear read-out over the vocabulary per step,
trained with `model.fit` (the in-graph engine draws independent batches; it
cannot carry a state). After every epoch the whole validation split is
evaluated the same way; the row reports the test split's bits per
character and accuracy with the weights of the epoch of lowest validation
BPC (the paper's model selection), and the curves.

The paper's settings (the `paper` preset; the authors' configuration):
embedding 200, the NRU of 1 000 units with memory 576, 4 heads and ReLU
heads (2.15 M parameters, to which the other models are matched), batch
128, segments of 150 characters, Adam (PyTorch's) 1e-3, gradients clipped
to norm 1, 20 epochs, no dropout. `--ptb-characters N` trains on the first
N characters of the training split (and evaluates on N/10 of validation
and test, at least a segment per stream), `--ptb-scale` divides the NRU's
units and memory (and so every model's size), `--epochs` sets the epochs:
what fits a 2-core machine.
"""

import dataclasses
import math
import time
import types

import keras
import numpy as np

from benchmarks.core import rows
from benchmarks.core.arguments import OPTIMIZERS
from benchmarks.core.runs import run_directory
from benchmarks.core.training import write_tensorboard
from benchmarks.data.loaders import load_ptb_characters
from benchmarks.nru.models import Setting
from benchmarks.nru.models import build_model
from keras_nalm.utils import reinitialize_model
from keras_nalm.utils import trainable_parameter_count
from keras_nalm.utils import walk_layers

PAPER = {"epochs": 20, "batch_size": 128, "bptt": 150, "embedding": 200}
PAPER_NRU = {"units": 1_000, "memory_size": 576, "num_heads": 4}


def ptb_setting(vocabulary_size, batch_size, bptt, embedding, scale=1):
    """The models' shapes: ids in, `vocabulary_size` logits out per step,
    the authors' NRU divided by `scale` (memory kept a multiple of the
    heads' low-rank square, m·k a perfect square)."""
    half_side = math.isqrt(PAPER_NRU["memory_size"] * PAPER_NRU["num_heads"]) // 2
    half_side = max(1, round(half_side / math.sqrt(scale)))
    return Setting(
        length=bptt,
        features=embedding,
        classes=vocabulary_size,
        nru_units=max(1, PAPER_NRU["units"] // scale),
        memory_size=half_side * half_side,
        num_heads=PAPER_NRU["num_heads"],
        embedding=embedding,
        stateful_batch=batch_size,
        head_relu=True,
    )


def streams(ids, batch_size, bptt):
    """(x, y) of shape (segments · batch_size, bptt), ordered so that batch
    k holds segment k of every stream: row b of each batch continues row b
    of the previous one."""
    length = (ids.size - 1) // batch_size
    segments = length // bptt
    if segments < 1:
        raise ValueError(
            f"{ids.size} characters are too few for {batch_size} streams of "
            f"segments of {bptt}."
        )
    used = segments * bptt
    starts = np.arange(batch_size) * length
    inputs = np.stack([ids[s : s + used] for s in starts])
    targets = np.stack([ids[s + 1 : s + 1 + used] for s in starts])

    def by_segment(array):
        array = array.reshape(batch_size, segments, bptt).transpose(1, 0, 2)
        return array.reshape(segments * batch_size, bptt)

    return by_segment(inputs), by_segment(targets)


def reset_states(model):
    for layer in walk_layers(model):
        if getattr(layer, "stateful", False):
            layer.reset_state()


class CarryOverSegments(keras.callbacks.Callback):
    """Resets the stateful layers at each epoch and each evaluation, and
    keeps the weights of the epoch of lowest `val_loss` (none while every
    `val_loss` is NaN)."""

    def __init__(self):
        super().__init__()
        self.best = (math.inf, None, None)  # loss, epoch, weights

    def on_epoch_begin(self, epoch, logs=None):
        reset_states(self.model)

    def on_test_begin(self, logs=None):
        reset_states(self.model)

    def on_epoch_end(self, epoch, logs=None):
        if logs["val_loss"] < self.best[0]:
            self.best = (logs["val_loss"], epoch, self.model.get_weights())


def _bpc(cross_entropy):
    return cross_entropy / math.log(2)


@dataclasses.dataclass(frozen=True)
class PTBRun:
    """One configuration of the task (everything but the seed)."""

    config: dict

    def data(self):
        corpus = load_ptb_characters(
            self.config["ptb_source"], self.config["ptb_directory"]
        )
        limit = self.config["ptb_characters"]
        splits = {"train": corpus["train"][:limit] if limit else corpus["train"]}
        if limit:  # a tenth for evaluation, at least a segment per stream
            segment = self.config["batch_size"] * self.config["bptt"] + 1
            limit = max(limit // 10, segment)
        for split in ("valid", "test"):
            splits[split] = corpus[split][:limit] if limit else corpus[split]
        return corpus["vocabulary"], {
            split: streams(ids, self.config["batch_size"], self.config["bptt"])
            for split, ids in splits.items()
        }

    def train(self, seed):
        config = self.config
        began = time.perf_counter()
        vocabulary, data = self.data()
        setting = ptb_setting(
            len(vocabulary),
            config["batch_size"],
            config["bptt"],
            config["embedding"],
            config["ptb_scale"],
        )
        setting = dataclasses.replace(setting, nru_bias=config.get("nru_bias", "zeros"))
        keras.utils.set_random_seed(seed)
        model = build_model(
            config["model"],
            config["units"],
            setting,
            config["chrono_max"],
            config.get("model_digest"),
        )
        reinitialize_model(model, seed)
        model.compile(
            optimizer=OPTIMIZERS[config["optimizer"]](
                learning_rate=config["learning_rate"],
                global_clipnorm=config["clip_norm"],
            ),
            loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
            metrics=[keras.metrics.SparseCategoricalAccuracy(name="accuracy")],
            jit_compile=True,
        )
        keep = CarryOverSegments()
        history = model.fit(
            *data["train"],
            batch_size=config["batch_size"],
            epochs=config["epochs"],
            shuffle=False,
            validation_data=data["valid"],
            callbacks=[keep],
            verbose=0,
        )
        validation_loss, best_epoch, weights = keep.best
        test_loss = test_accuracy = None
        if weights is not None:  # None: every validation loss was NaN
            model.set_weights(weights)
            reset_states(model)
            test_loss, test_accuracy = model.evaluate(
                *data["test"], batch_size=config["batch_size"], verbose=0
            )
        return {
            "parameters": trainable_parameter_count(model),
            "diverged": weights is None,
            "bpc": None if weights is None else _bpc(test_loss),
            "accuracy": None if weights is None else float(test_accuracy),
            "cross_entropy": None if weights is None else float(test_loss),
            "best_epoch": None if weights is None else best_epoch + 1,
            "best_validation_bpc": None if weights is None else _bpc(validation_loss),
            "training_steps": len(data["train"][0])
            // config["batch_size"]
            * config["epochs"],
            "curves": {
                "epoch": list(range(1, config["epochs"] + 1)),
                "training_bpc": [_bpc(v) for v in history.history["loss"]],
                "validation_bpc": [_bpc(v) for v in history.history["val_loss"]],
                "validation_accuracy": history.history["val_accuracy"],
            },
            "wall_seconds": time.perf_counter() - began,
        }


def _write_curves(directory, config, result):
    """The run's per-epoch curves as TensorBoard scalars (step: updates)."""
    curves = result["curves"]
    per_epoch = result["training_steps"] // config["epochs"]
    series = {"step": [epoch * per_epoch for epoch in curves["epoch"]]}
    series.update({key: values for key, values in curves.items() if key != "epoch"})
    write_tensorboard(directory, config, types.SimpleNamespace(series=series), None)


def run_ptb_jobs(jobs, tensorboard=None):
    """Trains each job (a `sweep.Job`) and returns its row; a sweep's
    worker entry point. `tensorboard`: a directory for each run's curves
    (`benchmarks.core.runs.run_directory`)."""
    environment = rows.environment()
    found = []
    for job in jobs:
        config = dict(job.config)
        result = PTBRun(config).train(job.seed)
        if tensorboard:
            directory = run_directory(tensorboard, "ptb", config, job.seed)
            _write_curves(directory, config, result)
        found.append(rows.make_row("ptb", config, job.seed, result, {}, environment))
    return found


#: The `quick` preset: a slice of the corpus, a tenth of the models.
QUICK = {"epochs": 1, "ptb_characters": 200_000, "ptb_scale": 10}


def plan(args):
    """([(data options, setting)], steps, batch size) of `--task ptb`."""
    preset = QUICK if args.preset == "quick" else {}
    options = {
        "T": PAPER["bptt"],
        "bptt": PAPER["bptt"],
        "embedding": PAPER["embedding"],
        "ptb_source": args.ptb_source,
        "ptb_directory": args.ptb_directory,
        "ptb_characters": args.ptb_characters or preset.get("ptb_characters"),
        "ptb_scale": args.ptb_scale or preset.get("ptb_scale", 1),
        "epochs": args.epochs or preset.get("epochs", PAPER["epochs"]),
    }
    corpus = load_ptb_characters(options["ptb_source"], options["ptb_directory"])
    characters = options["ptb_characters"] or corpus["train"].size
    batch_size = PAPER["batch_size"]
    segments = (
        (min(characters, corpus["train"].size) - 1) // batch_size // PAPER["bptt"]
    )
    if segments < 1:
        raise SystemExit(
            f"--ptb-characters {characters} is too few for {batch_size} streams "
            f"of segments of {PAPER['bptt']}: give at least "
            f"{batch_size * PAPER['bptt'] + 1}."
        )
    setting = ptb_setting(
        len(corpus["vocabulary"]),
        batch_size,
        PAPER["bptt"],
        PAPER["embedding"],
        options["ptb_scale"],
    )
    if args.chrono_max is None:  # the paper: T_max 50 beat 150 on PTB
        args.chrono_max = 50
    return [(options, setting)], segments * options["epochs"], batch_size
