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
        help="run every test: the large ones (multi-seed training, sweeps, "
        "presets) and those of the benchmarks",
    )
    parser.addoption(
        "--run-benchmarks",
        action="store_true",
        default=False,
        help="also run the tests of the reproductions in benchmarks/ (those "
        "not marked large)",
    )


def pytest_collection_modifyitems(config, items):
    """The default run tests the library; `--run-benchmarks` adds the tests
    of the lab, `--run-large` runs every test."""
    if config.getoption("--run-large"):
        # the long tests first: parallel workers then end together on short ones
        items.sort(key=lambda item: item.get_closest_marker("large") is None)
        return
    skip_large = pytest.mark.skip(reason="large test: run with --run-large")
    skip_lab = pytest.mark.skip(
        reason="test of the benchmarks: run with --run-benchmarks (or --run-large)"
    )
    run_lab = config.getoption("--run-benchmarks")
    for item in items:
        if item.get_closest_marker("large") is not None:
            item.add_marker(skip_large)
        elif not run_lab and item.get_closest_marker("benchmarks") is not None:
            item.add_marker(skip_lab)


@pytest.fixture(autouse=True)
def fresh_keras_state():
    keras.utils.set_random_seed(0)
    keras.backend.clear_session(free_memory=False)  # gc.collect costs ~0.2 s a test
    keras.config.set_dtype_policy("float32")
    yield
    keras.config.set_dtype_policy("float32")
