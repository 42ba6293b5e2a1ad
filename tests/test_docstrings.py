"""Every public class of the library documents itself as Keras's do: Args,
an Example and its paper Reference; layers and cells also their Call
arguments and Input/Output shapes (what an API page shows). Every example
runs."""

import doctest
import inspect

import keras
import numpy as np
import pytest

import keras_nalm
from keras_nalm import callbacks
from keras_nalm import constraints
from keras_nalm import initializers
from keras_nalm import layers
from keras_nalm import regularizers

SECTIONS = ("Args:", "Example:", "Reference:")
LAYER_SECTIONS = ("Call arguments:", "Input shape:", "Output shape:")


def _registered_public_classes():
    """The classes of the public modules registered for serialization
    under `keras_nalm` (base classes for writing a unit are not)."""
    found = {}
    for module in (layers, callbacks, regularizers, constraints, initializers):
        for name in dir(module):
            obj = getattr(module, name)
            if not inspect.isclass(obj) or name.startswith("_"):
                continue
            registered = keras.saving.get_registered_name(obj)
            if registered.startswith("keras_nalm>"):
                found[obj.__name__] = obj
    return sorted(found.items())


CLASSES = _registered_public_classes()


def test_every_unit_cell_callback_regularizer_constraint_and_initializer_is_found():
    names = {name for name, _ in CLASSES}
    assert {"NAU", "NMU", "NRUCell", "ArithmeticCell", "RegularizerWarmup"} <= names
    assert {"Sparsity", "Clamp", "NAUUniform", "INALUReinitializer"} <= names
    assert keras_nalm.layers.GNALU is keras_nalm.layers.GoldenRatioNALU


@pytest.mark.parametrize("name, cls", CLASSES, ids=[name for name, _ in CLASSES])
def test_the_docstring_has_kerass_sections(name, cls):
    doc = inspect.getdoc(cls)
    wanted = SECTIONS
    if issubclass(cls, keras.layers.Layer):
        wanted += LAYER_SECTIONS
    missing = [section for section in wanted if f"\n{section}" not in f"\n{doc}"]
    assert not missing, f"{name} lacks {missing}"


def _namespace():
    """What an example may use without defining it: the packages, and a
    compiled model with an iNALU and an NAU (for the callbacks' examples)
    with a batch `x`, `y` to fit."""
    inputs = keras.Input((2,))
    hidden = keras_nalm.layers.INALU(2)(inputs)
    model = keras.Model(inputs, keras_nalm.layers.NAU(1)(hidden))
    model.compile(optimizer="adam", loss="mse", metrics=["mse"])
    x = np.random.default_rng(0).uniform(1, 2, size=(8, 2)).astype("float32")
    return {
        "keras": keras,
        "keras_nalm": keras_nalm,
        "np": np,
        "model": model,
        "x": x,
        "y": x.sum(axis=1, keepdims=True),
    }


def _examples(cls):
    parser = doctest.DocTestParser()
    return [example.source for example in parser.get_examples(inspect.getdoc(cls))]


@pytest.mark.large  # 25 models built and 4 fitted: ~8 s, outside the quick loop
@pytest.mark.parametrize("name, cls", CLASSES, ids=[name for name, _ in CLASSES])
def test_the_docstrings_example_runs(name, cls):
    """Each example runs as written (its printed outputs are not compared)."""
    examples = _examples(cls)
    assert examples, f"{name} has no >>> example"
    namespace = _namespace()
    for source in examples:
        exec(compile(source, f"<{name} example>", "exec"), namespace)
