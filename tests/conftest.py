import importlib.util
import os
import pathlib

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("KERAS_BACKEND", "tensorflow")

import keras  # noqa: E402
import pytest  # noqa: E402


def pytest_addoption(parser):
    parser.addoption(
        "--run-large",
        action="store_true",
        default=False,
        help="run the large tests (multi-seed training, sweeps, presets) and "
        "those of the lab (tests/lab/): every test CI runs",
    )
    parser.addoption(
        "--run-extra-large",
        action="store_true",
        default=False,
        help="run every test of --run-large and the release checks beyond CI "
        "(marked extra_large: the wheel at the declared floors, the demo's "
        "training on PyTorch, the NRU sweep's kill-and-resume rounds)",
    )
    parser.addoption(
        "--run-benchmarks",
        action="store_true",
        default=False,
        help="also run the tests of the lab (tests/lab/: the reproductions in "
        "benchmarks/), those not marked large",
    )


#: Seconds of the longest tests in the full run, by test id.
DURATIONS = pathlib.Path(__file__).with_name("durations.txt")
#: What a test that `durations.txt` does not list counts for.
SHORT_TEST_SECONDS = 0.5


def expected_seconds():
    table = {}
    for line in DURATIONS.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            seconds, test = line.split(maxsplit=1)
            table[test] = float(seconds)
    return table


def balanced_order(items, workers, seconds):
    """The tests in the order that gives each of `workers` pytest-xdist
    workers the same expected time: xdist's work stealing first hands
    worker i the i-th of `workers` contiguous chunks of the list (sizes
    n // workers, ...), so the tests are dealt, longest first, to the chunk
    with the least time that has room, and each chunk runs longest first:
    no long test is left to run alone at the end."""
    cost = {id(item): seconds.get(item.nodeid, SHORT_TEST_SECONDS) for item in items}
    sizes, left = [], len(items)
    for remaining in range(workers, 0, -1):
        sizes.append(left // remaining)
        left -= sizes[-1]
    chunks = [[] for _ in sizes]
    loads = [0.0] * len(sizes)
    for item in sorted(items, key=lambda item: -cost[id(item)]):
        open_chunks = [i for i in range(len(chunks)) if len(chunks[i]) < sizes[i]]
        chosen = min(open_chunks, key=lambda i: loads[i])
        chunks[chosen].append(item)
        loads[chosen] += cost[id(item)]
    return [item for chunk in chunks for item in chunk]


#: The lab's tests, which import `benchmarks` (and TensorFlow).
LAB_TESTS = pathlib.Path(__file__).with_name("lab")


def _runs_large(config):
    return config.getoption("--run-large") or config.getoption("--run-extra-large")


def _runs_the_lab(config):
    return _runs_large(config) or config.getoption("--run-benchmarks")


def pytest_configure(config):
    if _runs_the_lab(config) and importlib.util.find_spec("benchmarks") is None:
        raise pytest.UsageError(
            "--run-benchmarks and --run-large run the lab's tests (tests/lab/), "
            "which need the lab: run them in a checkout with "
            "pip install -e . -e ./benchmarks"
        )


def pytest_report_header(config):
    if not _runs_the_lab(config):
        return "the lab's tests (tests/lab/) are not collected: --run-benchmarks"


def pytest_ignore_collect(collection_path, config):
    """The default run collects the library's tests only: `tests/lab/`,
    which imports the lab, with `--run-benchmarks` or `--run-large`."""
    if collection_path == LAB_TESTS and not _runs_the_lab(config):
        return True
    return None


#: The tiers beyond the default run: marker, the option that runs it, and
#: what a skipped test says.
TIERS = (
    ("large", _runs_large, "large test: run with --run-large"),
    (
        "extra_large",
        lambda config: config.getoption("--run-extra-large"),
        "release check beyond CI: run with --run-extra-large",
    ),
)


def skipped_tiers(config):
    """{marker: reason} of the tiers this run skips."""
    return {marker: reason for marker, runs, reason in TIERS if not runs(config)}


def pytest_collection_modifyitems(config, items):
    """Skips the tests of the tiers not asked for (`large` without
    `--run-large`, `extra_large` without `--run-extra-large`); a run of the
    large tests orders them to balance pytest-xdist's workers, a skipped
    test counting as none."""
    skipped = skipped_tiers(config)
    seconds = expected_seconds()
    for item in items:
        reasons = [
            skipped[mark.name] for mark in item.iter_markers() if mark.name in skipped
        ]
        if reasons:
            item.add_marker(pytest.mark.skip(reason=reasons[0]))
            seconds[item.nodeid] = 0.0
    if _runs_large(config):
        workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
        items[:] = balanced_order(items, workers, seconds)


@pytest.fixture(autouse=True)
def fresh_keras_state():
    keras.utils.set_random_seed(0)
    keras.backend.clear_session(free_memory=False)  # gc.collect costs ~0.2 s a test
    keras.config.set_dtype_policy("float32")
    yield
    keras.config.set_dtype_policy("float32")
