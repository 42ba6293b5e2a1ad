"""The lab's layout (issue 32): `benchmarks` imports the library, has no
import cycle, its folders are layered, its distribution lists its packages,
its runners answer from any directory and its registry knows every task of
the committed rows."""

import collections
import os
import pathlib
import subprocess
import sys

import keras
import pytest
import tomllib

from tests import lab
from tests.test_library_boundary import _added_modules
from tests.test_library_boundary import _forbidden
from tests.test_library_boundary import _modules
from tests.test_library_boundary import cycles
from tests.test_library_boundary import import_graph

ROOT = pathlib.Path(lab.ROOT)

RUNNERS = (
    "arithmetic",
    "single_module",
    "identity",
    "recurrent",
    "sequential_mnist",
    "language",
    "nru",
    "tune",
    "report",
    "reproduce",
    "claims",
    "throughput",
    "recurrent_speed",
)


def test_the_benchmarks_have_no_import_cycle():
    assert cycles(import_graph("keras_nalm", "benchmarks")) == []


def _folder(module):
    """The lab's folder of a module (`benchmarks.data.sequences` -> `data`;
    the modules at the top, such as `benchmarks.registry`, their own)."""
    return module.split(".")[1] if module.count(".") else module


def test_the_labs_folders_are_layered():
    """`core/` imports no other folder of the lab, `data/` and `models/`
    only `core/`, and no two folders import each other (at any distance)."""
    graph = import_graph("benchmarks")
    folders = collections.defaultdict(set)
    for module, imported in graph.items():
        for target in imported:
            if _folder(target) != _folder(module):
                folders[_folder(module)].add(_folder(target))
    assert folders["core"] == set()
    assert folders["data"] <= {"core"}
    assert folders["models"] <= {"core"}
    graph = {
        name: folders[name] for name in {*folders, *set().union(*folders.values())}
    }
    assert cycles(graph) == []


def test_the_claims_of_a_task_are_declared_by_its_folder(monkeypatch):
    """`benchmarks.claims` imports no task folder: it finds the claims of
    a task's rows and the named claims of its pages in its `Task`,
    declared by its folder's `claims` (a table of a report through
    `benchmarks.report`, which finds the report in the registry); a claim
    declared twice is refused."""
    from benchmarks import claims
    from benchmarks import registry
    from benchmarks.nru import claims as nru_claims

    imported = import_graph("benchmarks")["benchmarks.claims"]
    assert {_folder(module) for module in imported} <= {
        "core",
        "registry",
        "report",
        "typed_results",
        "provenance",
        "static_arithmetic",
        "speed",
        "tune",
    }
    known = claims.known_claims()
    for task in registry.TASKS:
        assert task.claims.keys() <= known.keys()
        assert task.named.keys() <= known.keys()
    twice = (*claims.OTHER_CLAIMS, nru_claims.CLAIMS)
    monkeypatch.setattr(claims, "OTHER_CLAIMS", twice)
    claims.known_claims.cache_clear()
    try:
        with pytest.raises(ValueError, match="declare the claims .*'converged'"):
            claims.known_claims()
    finally:
        monkeypatch.undo()
        claims.known_claims.cache_clear()


@pytest.mark.large
def test_the_import_check_sees_a_task_module():
    # The check above must fail if the library imported task code.
    assert _forbidden(_added_modules("import benchmarks.core.stats")) != []


@pytest.mark.large
@pytest.mark.parametrize("runner", RUNNERS)
def test_every_runner_answers_help_from_outside_the_repository(runner, tmp_path):
    completed = subprocess.run(
        [sys.executable, "-m", f"benchmarks.{runner}", "--help"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": ""},
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
    assert completed.stdout.startswith("usage: ")


def test_the_labs_distribution_lists_every_package_of_the_lab():
    """`benchmarks/pyproject.toml` names every folder of the lab that is a
    package, and nothing else."""
    with open(ROOT / "benchmarks" / "pyproject.toml", "rb") as handle:
        listed = tomllib.load(handle)["tool"]["setuptools"]["packages"]
    found = sorted(
        ".".join(path.parent.relative_to(ROOT).parts)
        for path in (ROOT / "benchmarks").rglob("__init__.py")
        if "results" not in path.parts
    )
    assert sorted(listed) == found


def test_the_registry_knows_every_task_of_the_committed_rows():
    from benchmarks import registry
    from benchmarks.core.rows import read_rows

    # benchmarks/speed/ measures the library and its tests: no paper task.
    files = [
        path
        for path in sorted((ROOT / "benchmarks").glob("*/results/**/*.jsonl"))
        if path.relative_to(ROOT / "benchmarks").parts[0] != "speed"
    ]
    assert files
    tasks = {row["task"] for row in read_rows([str(path) for path in files])}
    assert tasks <= set(registry.tasks()) | set(registry.probes())
    for row_task in sorted(tasks - set(registry.probes())):
        task = registry.task_of(row_task)
        assert (ROOT / "benchmarks" / task.name / "task.py").exists()
        assert callable(task.train)
        assert registry.report_for(row_task).markdown is not None
    with pytest.raises(ValueError, match="Unknown task 'sorting'"):
        registry.task_of("sorting")
    with pytest.raises(ValueError, match="a probe's of benchmarks/nru/"):
        registry.task_of("untrained_memory")


def test_the_labs_classes_are_registered_under_the_labs_package():
    """Through the library's one helper, under the lab's package name."""
    callers = [
        name
        for name, path in _modules("benchmarks").items()
        if "register_keras_serializable" in path.read_text(encoding="utf-8")
    ]
    assert callers == []
    from benchmarks.data.sequences import MaskedAccuracy

    registered = keras.saving.get_registered_name(MaskedAccuracy)
    assert registered == "nalm_benchmarks>MaskedAccuracy"
