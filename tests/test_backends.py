"""Keras's other backends: names that cannot clash with `torch.nn.Module`,
`.keras` files across backends, the demo's `model.fit`, and clear errors
from the TensorFlow-only pieces (the layer harness itself runs on JAX and
PyTorch in `python -m tests`, with `KERAS_BACKEND` set)."""

import importlib.metadata
import importlib.util
import inspect
import json
import os
import subprocess
import sys

import keras
import numpy as np
import pytest

import keras_nalm
from keras_nalm.testing import case_model
from tests.cases import ALL_CASES
from tests.cases import first_of_each_class

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OTHER_BACKENDS = ("jax", "torch")
#: Keras hooks a layer or a cell defines on purpose.
KERAS_HOOKS = {
    "build",
    "call",
    "get_config",
    "from_config",
    "compute_output_shape",
    "compute_mask",
}
#: Keras callback hooks a callback defines on purpose (and every `on_...`).
CALLBACK_HOOKS = {"get_config", "from_config"}


def _public_classes(module):
    return [
        obj
        for _, obj in inspect.getmembers(module, inspect.isclass)
        if obj.__module__.startswith("keras_nalm")
    ]


def _own_names(cls, instance=None, base_instance=None):
    """Public names that keras_nalm classes in `cls`'s hierarchy define,
    and those an instance sets beyond what its Keras base sets."""
    names = {
        name
        for klass in cls.__mro__
        if klass.__module__.startswith("keras_nalm")
        for name in vars(klass)
        if not name.startswith("_")
    }
    if instance is not None:
        names |= set(vars(instance)) - set(vars(base_instance))
    return {name for name in names if not name.startswith("_")}


def _layer_clashes(names):
    """Names of a layer that `torch.nn.Module` or `keras.layers.Layer` use."""
    torch = pytest.importorskip("torch")
    return (names & set(dir(torch.nn.Module()))) | (
        names & set(dir(keras.layers.Layer)) - KERAS_HOOKS
    )


def test_no_public_name_shadows_torch_module_or_keras_layer_attributes():
    torch = pytest.importorskip("torch")
    module_names = set(dir(torch.nn.Module()))
    assert _layer_clashes({"forward", "training", "units"}) == {"forward", "training"}
    clashes = {}
    for case in ALL_CASES:
        layer = case.create()
        layer.build((None, case.input_dim))
        clash = _layer_clashes(_own_names(type(layer), layer, keras.layers.Layer()))
        if clash:
            clashes[case.name] = sorted(clash)
    callback_names = set(dir(keras.callbacks.Callback)) | module_names
    for cls in _public_classes(keras_nalm.callbacks):
        clash = {
            name
            for name in _own_names(cls) & callback_names - CALLBACK_HOOKS
            if not name.startswith("on_")
        }
        if clash:
            clashes[cls.__name__] = sorted(clash)
    assert not clashes


def test_the_install_has_no_cuda_packages():
    names = {d.metadata["Name"].lower() for d in importlib.metadata.distributions()}
    assert not {name for name in names if name.startswith("nvidia-")}
    if importlib.util.find_spec("torch") and sys.platform == "linux":
        assert "+cpu" in importlib.metadata.version("torch")


def _run(backend, *command, timeout=1800):
    environment = dict(os.environ, KERAS_BACKEND=backend, TF_CPP_MIN_LOG_LEVEL="3")
    return subprocess.run(
        [sys.executable, *command],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.mark.large
def test_keras_files_saved_on_tensorflow_load_on_jax_and_pytorch(tmp_path):
    """A file of each class saved here loads and gives the same outputs on
    JAX and PyTorch (the other variants' equations and configs, the cell's
    around each unit among them, are the harness's, run on every
    backend)."""
    expected = {}
    for case in first_of_each_class(ALL_CASES):
        model, _, x = case_model(case)
        model.save(tmp_path / f"{case.name}.keras")
        np.save(tmp_path / f"{case.name}.x.npy", x)
        outputs = keras.ops.convert_to_numpy(model(x, training=False))  # eager
        np.save(tmp_path / f"{case.name}.y.npy", outputs)
        expected[case.name] = True
    for backend in OTHER_BACKENDS:
        completed = _run(backend, "-m", "tests.backend_check", str(tmp_path))
        assert completed.returncode == 0, completed.stderr[-3000:]
        lines = [json.loads(line) for line in completed.stdout.splitlines()]
        assert {line["case"] for line in lines} == set(expected)
        for line in lines:  # float32 rounding of other math libraries
            assert line["difference"] <= 1e-5 * max(line["scale"], 1.0), (backend, line)


@pytest.mark.extra_large  # CI runs the layer harness on PyTorch
def test_the_demo_model_trains_with_model_fit_on_pytorch():
    """(On JAX: the wheel's test, `test_library_boundary.py`.)"""
    completed = _run("torch", "-m", "keras_nalm.demo", "--seed", "1")
    assert completed.returncode == 0, completed.stdout + completed.stderr[-3000:]
    lines = completed.stdout.splitlines()
    assert "PASS" in lines
    assert lines[-1] == "y0 = (x1 + x2) * (x1 + x2 + x3 + x4)"


@pytest.mark.large
@pytest.mark.parametrize("backend", OTHER_BACKENDS)
def test_tensorflow_only_pieces_name_the_backend(backend):
    script = (
        "import keras, keras_nalm\n"
        "inputs = keras.Input((2,))\n"
        "model = keras.Model(inputs, keras_nalm.layers.NAU(1)(inputs))\n"
        "for attempt in (\n"
        "    lambda: keras_nalm.export_saved_model(model, 'exported'),\n"
        "    lambda: __import__('keras_nalm.engine'),\n"
        "):\n"
        "    try:\n"
        "        attempt()\n"
        "    except (ImportError, RuntimeError) as error:\n"
        "        print(type(error).__name__, error)\n"
    )
    completed = _run(backend, "-c", script)
    lines = completed.stdout.splitlines()
    assert len(lines) == 2, completed.stdout + completed.stderr[-2000:]
    for line in lines:
        assert "TensorFlow" in line and repr(backend) in line


def test_export_saved_model_exports_on_tensorflow(tmp_path):
    tf = pytest.importorskip("tensorflow", reason="a TensorFlow SavedModel")

    inputs = keras.Input((2,))
    model = keras.Model(inputs, keras_nalm.layers.NAU(1)(inputs))
    keras_nalm.export_saved_model(model, str(tmp_path / "served"))
    served = tf.saved_model.load(str(tmp_path / "served"))
    x = np.ones((3, 2), "float32")
    np.testing.assert_array_equal(served.serve(x).numpy(), model.predict(x, verbose=0))
