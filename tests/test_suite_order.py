"""The full run's test order (each xdist worker's initial chunk carries the
same expected time, longest first) and its processes' environment."""

from types import SimpleNamespace

from tests.conftest import balanced_order
from tests.conftest import expected_seconds


def _items(*names):
    return [SimpleNamespace(nodeid=name) for name in names]


def test_long_tests_are_dealt_evenly_to_the_workers_chunks_longest_first():
    items = _items("a", "b", "c", "d", "e", "f", "g")
    seconds = {"a": 10, "b": 300, "c": 200, "d": 120, "e": 90}
    order = [item.nodeid for item in balanced_order(items, 2, seconds)]
    first, second = order[:3], order[3:]  # xdist's chunks: 7 // 2, then 4
    assert first == ["b", "e", "g"] and second == ["c", "d", "a", "f"]  # 390, 330.5
    assert sorted(order) == sorted(item.nodeid for item in items)


def test_one_worker_runs_the_longest_first():
    items = _items("short", "long", "middle")
    order = balanced_order(items, 1, {"long": 9, "middle": 5})
    assert [item.nodeid for item in order] == ["long", "middle", "short"]


def test_the_committed_durations_name_tests_that_exist():
    for test in expected_seconds():
        path, _, name = test.partition("::")
        function = name.split("[")[0]
        with open(path) as handle:
            assert f"def {function}(" in handle.read(), test


def test_every_run_gets_one_thread_unless_the_caller_set_otherwise(monkeypatch):
    from tests.__main__ import _environment

    monkeypatch.delenv("XLA_FLAGS", raising=False)
    monkeypatch.delenv("TF_NUM_INTRAOP_THREADS", raising=False)
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    tensorflow, jax = _environment("tensorflow"), _environment("jax")
    assert tensorflow["TF_NUM_INTRAOP_THREADS"] == "1"
    assert tensorflow["TF_NUM_INTEROP_THREADS"] == "1"
    assert tensorflow["OMP_NUM_THREADS"] == "3"  # the caller's
    assert tensorflow["KERAS_BACKEND"] == "tensorflow"
    assert "--xla_cpu_multi_thread_eigen=false" in tensorflow["XLA_FLAGS"]
    assert "optimization_level" not in tensorflow["XLA_FLAGS"]
    assert jax["XLA_FLAGS"].endswith("--xla_backend_optimization_level=0")
    monkeypatch.setenv("XLA_FLAGS", "--xla_dump_to=here")
    assert _environment("torch")["XLA_FLAGS"].startswith("--xla_dump_to=here ")


class _Config:
    def __init__(self, *given):
        self.given = given

    def getoption(self, name):
        return name in self.given


class _Item:
    def __init__(self, nodeid, *markers):
        self.nodeid, self.markers, self.skip_reasons = nodeid, markers, []

    def iter_markers(self):
        return [SimpleNamespace(name=name) for name in self.markers]

    def add_marker(self, marker):
        self.skip_reasons.append(marker.kwargs["reason"])


def _skipped(*options):
    from tests.conftest import pytest_collection_modifyitems

    items = [_Item("quick"), _Item("large", "large"), _Item("release", "extra_large")]
    pytest_collection_modifyitems(_Config(*options), items)
    return {item.nodeid: item.skip_reasons for item in items}


def test_the_release_checks_run_only_with_run_extra_large():
    assert _skipped() == {
        "quick": [],
        "large": ["large test: run with --run-large"],
        "release": ["release check beyond CI: run with --run-extra-large"],
    }
    assert _skipped("--run-large") == {
        "quick": [],
        "large": [],
        "release": ["release check beyond CI: run with --run-extra-large"],
    }
    assert _skipped("--run-extra-large") == {"quick": [], "large": [], "release": []}


def test_a_skipped_release_check_counts_as_no_time_in_the_order(monkeypatch):
    from tests import conftest

    monkeypatch.setattr(conftest, "expected_seconds", lambda: {"a": 300, "b": 200})
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "2")
    items = [_Item("a", "extra_large"), _Item("b"), _Item("c"), _Item("d")]
    conftest.pytest_collection_modifyitems(_Config("--run-large"), items)
    # a at 300 would go apart from b (300 + 0.5 | 200 + 0.5); at 0: 200 + 0 | 1
    assert [item.nodeid for item in items] == ["b", "a", "c", "d"]


def test_every_run_has_the_harness_on_jax_and_pytorch_and_a_release_every_tier():
    from tests.__main__ import runs

    for option in ("--run-large", "--run-extra-large"):
        backends = dict(runs([option, "-x"]))
        assert backends["tensorflow"][-2:] == [option, "-x"]
        for backend in ("jax", "torch"):
            released = option == "--run-extra-large"
            assert backends[backend][:1] == ([option] if released else ["-x"])
            assert (option in backends[backend]) == released, backend
    assert set(dict(runs([]))) == {"tensorflow", "jax", "torch"}
