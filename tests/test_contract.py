"""Every public class: registration, config, .keras and SavedModel round trips,
jit-compiled fit."""

import copy
import inspect

import keras
import numpy as np
import pytest
import tensorflow as tf

import keras_nalm
from tests.cases import CASE_IDS
from tests.cases import LAYER_CASES
from tests.cases import perturb_weights


def _public_classes(module):
    return [
        obj
        for _, obj in inspect.getmembers(module, inspect.isclass)
        if obj.__module__.startswith("keras_nalm") and not obj.__name__.startswith("_")
    ]


PUBLIC_CLASSES = [
    cls
    for module in (
        keras_nalm.layers,
        keras_nalm.constraints,
        keras_nalm.regularizers,
        keras_nalm.initializers,
        keras_nalm.callbacks,
    )
    for cls in _public_classes(module)
    if cls.__name__ != "UnitRegularizer" and not cls.__name__.endswith("Layer")
]

# Non-layer public objects, each as it is used in a model.
OBJECTS = [
    keras_nalm.constraints.Clamp(-0.5, 2.0),
    keras_nalm.regularizers.Sparsity(0.3, target="binary", shape="squared"),
    keras_nalm.regularizers.OutOfBounds(2.0, min_value=0.0, max_value=1.0),
    keras_nalm.initializers.NAUUniform(seed=3),
    keras_nalm.initializers.NACUniform(seed=4),
    keras_nalm.callbacks.RegularizerWarmup(
        5, 50, max_strength=0.5, mode="exp", update_freq=3, layer_names=["a"]
    ),
    keras_nalm.regularizers.INALURegularizer(0.1, threshold=5.0),
    keras_nalm.callbacks.BetaGrowth(1e-9, 1e-7, growth=10, step=100),
    keras_nalm.callbacks.INALURegularizerSwitch(500, 0.5, monitor="val_loss"),
    keras_nalm.callbacks.INALUReinitializer(5, 100, 2.0, layer_names=["i"], seed=3),
]


@pytest.mark.parametrize("cls", PUBLIC_CLASSES, ids=lambda c: c.__name__)
def test_registered_under_the_package_name(cls):
    name = keras.saving.get_registered_name(cls)
    assert name == f"keras_nalm>{cls.__name__}"
    assert keras.saving.get_registered_object(name) is cls


def test_every_public_class_is_covered_by_these_tests():
    covered = {case[1] for case in LAYER_CASES} | {type(o) for o in OBJECTS}
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
    model.compile(optimizer="adam", loss="mse", metrics=["mse"])
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


def _model(cls, kwargs):
    inputs = keras.Input((4,), name="x")
    layer = cls(2, name="unit", **kwargs)
    return keras.Model(inputs, layer(inputs)), layer


@pytest.mark.parametrize("case", LAYER_CASES, ids=CASE_IDS)
def test_layer_config_round_trip(case):
    _, cls, kwargs, _ = case
    if issubclass(cls, keras_nalm.layers.base.ScaledRegularizationLayer):
        kwargs = {**kwargs, "regularizer_scale": 0.25}
    layer = cls(3, **kwargs)
    config = layer.get_config()
    clone = cls.from_config(config)
    assert clone.get_config() == config
    restored = keras.layers.deserialize(keras.layers.serialize(layer))
    assert type(restored) is cls
    assert restored.get_config() == config


@pytest.mark.parametrize("case", LAYER_CASES, ids=CASE_IDS)
def test_keras_file_round_trip_gives_identical_outputs(case, tmp_path):
    _, cls, kwargs, _ = case
    model, layer = _model(cls, kwargs)
    perturb_weights(layer, np.random.default_rng(0), scale=1.2)
    scaled = hasattr(layer, "regularizer_scale")
    if scaled:
        layer.regularizer_scale.assign(0.7)
    model.compile(optimizer="adam", loss="mse")
    x = np.random.default_rng(1).uniform(-3, 3, size=(16, 4)).astype("float32")
    model.fit(x, np.ones((16, layer.output_dim)), epochs=1, verbose=0)
    path = tmp_path / "model.keras"
    model.save(path)
    loaded = keras.saving.load_model(path)
    np.testing.assert_array_equal(
        model.predict(x, verbose=0), loaded.predict(x, verbose=0)
    )
    assert type(loaded.get_layer("unit")) is cls
    if scaled:
        assert loaded.get_layer("unit").regularizer_scale.numpy() == np.float32(0.7)
    for a, b in zip(model.optimizer.variables, loaded.optimizer.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


@pytest.mark.parametrize("case", LAYER_CASES, ids=CASE_IDS)
def test_saved_model_export_gives_identical_outputs(case, tmp_path):
    _, cls, kwargs, _ = case
    model, layer = _model(cls, kwargs)
    perturb_weights(layer, np.random.default_rng(0), scale=1.2)
    x = np.random.default_rng(1).uniform(-3, 3, size=(16, 4)).astype("float32")
    path = str(tmp_path / "exported")
    model.export(path, verbose=False)
    reloaded = tf.saved_model.load(path)  # keep a reference: it owns the variables
    served = reloaded.serve(tf.constant(x))
    np.testing.assert_array_equal(served.numpy(), model.predict(x, verbose=0))


@pytest.mark.parametrize("case", LAYER_CASES, ids=CASE_IDS)
def test_jit_compiled_fit_trains(case):
    _, cls, kwargs, _ = case
    model, layer = _model(cls, kwargs)
    model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse", jit_compile=True)
    rng = np.random.default_rng(0)
    x = rng.uniform(1, 2, size=(256, 4)).astype("float32")
    y = np.stack([x[:, 0] + x[:, 1], x[:, 0] * x[:, 1]], axis=1)
    y = np.tile(y, (1, layer.output_dim // 2))
    before = [w.numpy().copy() for w in layer.trainable_weights]
    history = model.fit(x, y, batch_size=32, epochs=2, verbose=0)
    assert np.all(np.isfinite(history.history["loss"]))
    after = [w.numpy() for w in layer.trainable_weights]
    assert any(not np.array_equal(a, b) for a, b in zip(before, after))


def test_constraints_regularizers_and_initializers_survive_keras_and_saved_model(
    tmp_path,
):
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
