import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("KERAS_BACKEND", "tensorflow")

import keras  # noqa: E402
import pytest  # noqa: E402


def pytest_addoption(parser):
    parser.addoption(
        "--run-large",
        action="store_true",
        default=False,
        help="also run the tests marked large (multi-seed training, sweeps, presets)",
    )


def pytest_collection_modifyitems(config, items):
    if config.getoption("--run-large"):
        return
    skip_large = pytest.mark.skip(reason="large test: run with --run-large")
    for item in items:
        if item.get_closest_marker("large") is not None:
            item.add_marker(skip_large)


@pytest.fixture(autouse=True)
def fresh_keras_state():
    keras.utils.set_random_seed(0)
    keras.backend.clear_session(free_memory=False)  # gc.collect costs ~0.2 s a test
    keras.config.set_dtype_policy("float32")
    yield
    keras.config.set_dtype_policy("float32")
