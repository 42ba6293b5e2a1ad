"""Every public class: registration, and for the non-layer objects config
round trips and deep copies (the layers and cells go through the harness
in `test_layers.py`)."""

import copy
import inspect
import json
import os
import re
import zipfile

import keras
import numpy as np
import pytest

import keras_nalm
from tests.cases import ALL_CASES


def _public_classes(module):
    return [
        obj
        for _, obj in inspect.getmembers(module, inspect.isclass)
        if obj.__module__.startswith("keras_nalm") and not obj.__name__.startswith("_")
    ]


#: Bases to subclass, not layers to use: covered through their subclasses.
BASE_CLASSES = {
    keras_nalm.layers.UnitBase,
    keras_nalm.layers.NALMLayer,
    keras_nalm.layers.RecurrentCell,
    keras_nalm.layers.NALMCell,
    keras_nalm.layers.KernelLayer,
    keras_nalm.layers.ScaledRegularizationLayer,
    keras_nalm.layers.InputRegularization,
    keras_nalm.callbacks.MultiStepModel,
}
PUBLIC_CLASSES = [
    cls
    for module in (
        keras_nalm.layers,
        keras_nalm.constraints,
        keras_nalm.regularizers,
        keras_nalm.initializers,
        keras_nalm.callbacks,
        keras_nalm.optimizers,
    )
    for cls in _public_classes(module)
    if cls not in BASE_CLASSES
]

# Non-layer public objects, each as it is used in a model.
OBJECTS = [
    keras_nalm.constraints.Clamp(-0.5, 2.0),
    keras_nalm.regularizers.Sparsity(0.3, target="binary", shape="squared"),
    keras_nalm.regularizers.OutOfBounds(2.0, min_value=0.0, max_value=1.0),
    keras_nalm.initializers.NAUUniform(seed=3),
    keras_nalm.initializers.NACUniform(seed=4),
    keras_nalm.initializers.LinearBias(fan_in=7, seed=5),
    keras_nalm.callbacks.RegularizerWarmup(
        5, 50, max_strength=0.5, mode="exp", update_freq=3, layer_names=["a"]
    ),
    keras_nalm.regularizers.INALURegularizer(0.1, threshold=5.0),
    keras_nalm.callbacks.BetaGrowth(1e-9, 1e-7, growth=10, step=100),
    keras_nalm.callbacks.INALURegularizerSwitch(500, 0.5, monitor="val_loss"),
    keras_nalm.callbacks.INALUReinitializer(
        5, 100, 2.0, layer_names=["i"], seed=3, reset_optimizer=False
    ),
    keras_nalm.optimizers.TorchAdam(5e-3, epsilon=1e-6),
    keras_nalm.initializers.ChronoBias(50, "fc", seed=3),
    keras_nalm.initializers.GORUBias(seed=2),
    keras_nalm.initializers.JunctionInitializer(seed=4),
    keras_nalm.regularizers.Concentration(0.5),
    keras_nalm.regularizers.UnitMagnitude(0.5),
    keras_nalm.regularizers.L1(0.5),
]


@pytest.mark.parametrize("cls", PUBLIC_CLASSES, ids=lambda c: c.__name__)
def test_registered_under_the_package_name(cls):
    name = keras.saving.get_registered_name(cls)
    assert name == f"keras_nalm>{cls.__name__}"
    assert keras.saving.get_registered_object(name) is cls


def test_every_public_class_is_covered_by_these_tests():
    covered = {case.layer_class for case in ALL_CASES} | {type(o) for o in OBJECTS}
    covered.add(keras_nalm.layers.ArithmeticRNN)  # test_recurrent.py
    covered.add(keras_nalm.layers.OrthogonalRNN)  # test_nru_tasks.py
    covered.add(keras_nalm.layers.NRU)  # test_layers.py
    assert set(PUBLIC_CLASSES) <= covered


@pytest.mark.parametrize("obj", OBJECTS, ids=lambda o: type(o).__name__)
def test_object_config_round_trip(obj):
    restored = keras.saving.deserialize_keras_object(
        keras.saving.serialize_keras_object(obj)
    )
    assert type(restored) is type(obj)
    assert restored.get_config() == obj.get_config()


@pytest.mark.parametrize(
    "callback",
    [o for o in OBJECTS if isinstance(o, keras.callbacks.Callback)],
    ids=lambda o: type(o).__name__,
)
def test_callback_is_deep_copyable_as_keras_tuner_requires(callback):
    callback = type(callback).from_config(
        {**callback.get_config(), "layer_names": None}
    )
    model = keras.Sequential(
        [keras.Input((2,)), keras_nalm.layers.NMU(2), keras_nalm.layers.INALU(1)]
    )
    model.compile(optimizer="adam", loss="mse", metrics=["mse"], run_eagerly=True)
    model.fit(
        np.ones((4, 2)), np.ones((4, 1)), epochs=1, callbacks=[callback], verbose=0
    )
    clone = copy.deepcopy(callback)
    assert clone.get_config() == callback.get_config()
    assert clone.model is None


def test_initializers_reproduce_with_a_seed():
    for cls in (keras_nalm.initializers.NAUUniform, keras_nalm.initializers.NACUniform):
        a = cls(seed=7)((5, 3))
        b = cls.from_config(cls(seed=7).get_config())((5, 3))
        np.testing.assert_array_equal(a, b)


def test_constraints_regularizers_and_initializers_survive_keras_and_saved_model(
    tmp_path,
):
    tf = pytest.importorskip("tensorflow", reason="a TensorFlow SavedModel")
    R = keras_nalm.regularizers
    nau = keras_nalm.layers.NAU(
        2,
        kernel_initializer=keras_nalm.initializers.NACUniform(seed=1),
        kernel_regularizer=R.OutOfBounds(0.5),
        kernel_constraint=keras_nalm.constraints.Clamp(-2.0, 2.0),
        sparsity_regularizer=R.Sparsity(0.3, shape="squared"),
        regularizer_scale=2.0,
        name="nau",
    )
    inputs = keras.Input((3,))
    model = keras.Model(inputs, nau(inputs))
    nau.kernel.assign(np.array([[1.5, -0.2], [0.7, 1.9], [-1.2, 0.1]], "float32"))
    model.compile(optimizer="adam", loss="mse")
    path = tmp_path / "model.keras"
    model.save(path)
    loaded = keras.saving.load_model(path)
    restored = loaded.get_layer("nau")
    assert restored.get_config() == nau.get_config()
    np.testing.assert_allclose(
        float(loaded.losses[0]), float(model.losses[0]), rtol=1e-6
    )
    x = np.random.default_rng(0).uniform(-3, 3, size=(8, 3)).astype("float32")
    np.testing.assert_array_equal(
        loaded.predict(x, verbose=0), model.predict(x, verbose=0)
    )
    export_path = str(tmp_path / "exported")
    loaded.export(export_path, verbose=False)
    reloaded = tf.saved_model.load(export_path)
    np.testing.assert_array_equal(
        reloaded.serve(tf.constant(x)).numpy(), model.predict(x, verbose=0)
    )


def test_a_layer_saved_under_the_survey_name_gnalu_loads_as_golden_ratio_nalu():
    layer = keras_nalm.layers.GoldenRatioNALU(2, name="g")
    config = keras.saving.serialize_keras_object(layer)
    assert config["registered_name"] == "keras_nalm>GoldenRatioNALU"
    config["registered_name"] = "keras_nalm>GNALU"
    loaded = keras.saving.deserialize_keras_object(config)
    assert type(loaded) is keras_nalm.layers.GoldenRatioNALU
    assert keras_nalm.layers.GNALU is keras_nalm.layers.GoldenRatioNALU
    assert loaded.get_config() == layer.get_config()


def _documented_keywords(cls):
    """The constructor keywords a user of `cls` reads in `help(cls)`."""
    keywords = set()
    if issubclass(cls, keras_nalm.layers.ScaledRegularizationLayer) and (
        cls.scale_variable_name == "regularizer_scale"
    ):
        keywords.add("regularizer_scale")
    if issubclass(cls, keras_nalm.layers.InputRegularization):
        keywords.add("input_regularization")
    return keywords


@pytest.mark.parametrize(
    "cls",
    [cls for cls in PUBLIC_CLASSES if _documented_keywords(cls)],
    ids=lambda c: c.__name__,
)
def test_the_units_signature_shows_its_regularization_keywords(cls):
    parameters = inspect.signature(cls).parameters
    for keyword in _documented_keywords(cls):
        assert parameters[keyword].default == 0.0
        assert f"        {keyword}:" in cls.__doc__


def test_load_model_names_the_classes_a_file_needs(tmp_path, monkeypatch):
    inputs = keras.Input((5, 2))
    hidden = keras.layers.RNN(keras_nalm.layers.JANETCell(3))(inputs)
    model = keras.Model(inputs, keras_nalm.layers.NAU(1)(hidden))
    path = str(tmp_path / "janet_nau.keras")
    model.save(path)
    x = np.random.default_rng(0).uniform(size=(4, 5, 2)).astype("float32")
    loaded = keras_nalm.load_model(path)
    np.testing.assert_array_equal(loaded.predict(x, verbose=0), model(x))
    assert keras_nalm.saving.missing_classes(path) == []
    # As in a process that never imported the module of a unit the file holds:
    monkeypatch.delitem(keras.saving.get_custom_objects(), "keras_nalm>JANETCell")
    assert keras_nalm.saving.missing_classes(path) == ["keras_nalm>JANETCell"]
    with pytest.raises(ValueError, match=r"needs keras_nalm>JANETCell.*import"):
        keras_nalm.load_model(path)


#: A model of every recurrent baseline saved while the lab registered them
#: as `nalm_benchmarks>...` (at 67ceda1), and its inputs and outputs.
FORMER_NAMES = os.path.join(os.path.dirname(__file__), "data", "former_cell_names")


def _version(text):
    """(major, minor, patch) of a version string such as "3.16.0.dev1"."""
    parts = text.split(".")[:3]
    return tuple(int(re.match(r"\d*", part).group() or 0) for part in parts)


def test_a_file_saved_under_the_labs_former_names_loads_and_computes_alike():
    with zipfile.ZipFile(FORMER_NAMES + ".keras") as archive:
        saved = archive.read("config.json").decode()
        writer = json.loads(archive.read("metadata.json"))["keras_version"]
    if _version(keras.__version__) < _version(writer):
        pytest.skip(f"the file was saved by Keras {writer}, newer than this one")
    assert saved.count('"nalm_benchmarks>') >= 10  # every cell, both biases
    assert '"keras_nalm>' not in saved
    loaded = keras_nalm.load_model(FORMER_NAMES + ".keras")
    data = np.load(FORMER_NAMES + ".npz")
    np.testing.assert_allclose(
        loaded.predict(data["inputs"], verbose=0), data["outputs"], atol=1e-6
    )
    cells = [layer.cell for layer in loaded.layers if hasattr(layer, "cell")]
    assert {type(cell).__name__ for cell in cells} == {
        "JANETCell",
        "UGRNNCell",
        "NormalizedRNNCell",
        "SRUCell",
        "EURNNCell",
        "GORUCell",
        "DNCCell",
    }
    assert all(type(cell).__module__.startswith("keras_nalm.") for cell in cells)
    for cell in cells:  # saved again, under the library's names
        registered = keras.saving.get_registered_name(type(cell))
        assert registered == f"keras_nalm>{type(cell).__name__}"


@pytest.mark.parametrize("damage", ["empty", "truncated", "corrupted"])
def test_load_model_says_a_damaged_file_is_damaged(damage, tmp_path):
    """An empty or truncated `.keras` file (Keras: "File not found", though
    it exists) and one with damaged bytes (a raw BadZipFile) are named as
    not whole archives, in one ValueError."""
    inputs = keras.Input((2,))
    model = keras.Model(inputs, keras_nalm.layers.NMU(1)(inputs))
    path = tmp_path / "model.keras"
    model.save(path)
    data = bytearray(path.read_bytes())
    if damage == "empty":
        data = bytearray()
    elif damage == "truncated":
        data = data[: len(data) // 2]
    else:  # the stored weights' bytes changed, the archive's index whole
        with zipfile.ZipFile(path) as archive:
            info = archive.getinfo("model.weights.h5")
        start = info.header_offset + 30 + len(info.filename) + len(info.extra)
        data[start + 100 : start + 200] = bytes(100)
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match=f"{path} is not a whole .keras archive"):
        keras_nalm.load_model(path)
