"""The line between the library and the lab (issue 32).

`keras_nalm` is what a Keras user imports: it depends on `keras` and
`numpy`, never imports `benchmarks`, and its import pulls in neither SciPy
nor the engine nor any task code. `benchmarks` imports the library, has no
import cycle, and its runners answer from any directory.
"""

import ast
import collections
import configparser
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tarfile
import venv
import zipfile

import keras
import pytest
import tomllib

import keras_nalm

ROOT = pathlib.Path(__file__).resolve().parent.parent
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
#: Modules that `import keras_nalm` must not add to those `import keras` loads.
FORBIDDEN_ON_IMPORT = ("scipy", "benchmarks", "keras_nalm.engine", "keras_tuner")


def _module_name(path):
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules(*packages):
    return {
        _module_name(path): path
        for package in packages
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def _top_level_imports(path, known):
    """The modules of `known` that `path` imports at module level."""
    imported = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                child = f"{node.module}.{alias.name}"
                imported.add(child if child in known else node.module)
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
    return {name for name in imported if name in known}


def import_graph(*packages):
    modules = _modules(*packages)
    return {
        name: _top_level_imports(path, modules) - {name}
        for name, path in modules.items()
    }


def cycles(graph):
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while not component or component[-1] != node:
                component.append(stack.pop())
                on_stack.discard(component[-1])
            if len(component) > 1:
                found.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    return found


def test_cycles_finds_a_cycle_and_ignores_a_chain():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_library_never_imports_the_benchmarks():
    for name, path in _modules("keras_nalm").items():
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        imported = [
            node.module if isinstance(node, ast.ImportFrom) else alias.name
            for node in ast.walk(tree)
            if isinstance(node, (ast.Import, ast.ImportFrom))
            for alias in (node.names if isinstance(node, ast.Import) else [None])
        ]
        assert not [m for m in imported if m and m.startswith("benchmarks")], name


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


def test_the_library_requires_keras_and_numpy_only():
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg")
    requirements = config["options"]["install_requires"].split()
    names = sorted(requirement.split(">")[0] for requirement in requirements)
    assert names == ["keras", "numpy"]


def _added_modules(statement):
    """The modules that `statement` loads beyond those of `import keras`."""
    script = (
        "import json, sys\n"
        "import keras\n"
        "before = set(sys.modules)\n"
        f"{statement}\n"
        "print(json.dumps(sorted(set(sys.modules) - before)))\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
    return json.loads(completed.stdout.splitlines()[-1])


def _forbidden(modules):
    return [
        name
        for name in modules
        if any(name == f or name.startswith(f + ".") for f in FORBIDDEN_ON_IMPORT)
    ]


@pytest.mark.large  # a fresh interpreter importing TensorFlow: 8 s
def test_import_keras_nalm_loads_no_scipy_engine_or_task_code():
    added = _added_modules("import keras_nalm")
    assert "keras_nalm.layers.nau" in added
    assert _forbidden(added) == []


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


def _source_copy(destination):
    """The checkout as a release is built from it (no rows, no caches):
    the library, the lab, the tests and the packaging files."""
    destination.mkdir()
    for name in ("setup.cfg", "pyproject.toml", "README.md", "LICENSE", "MANIFEST.in"):
        shutil.copy(ROOT / name, destination / name)
    ignored = shutil.ignore_patterns("results", "__pycache__")
    for folder in ("keras_nalm", "benchmarks", "tests"):
        shutil.copytree(ROOT / folder, destination / folder, ignore=ignored)
    return destination


def _run(arguments, cwd, timeout=1800, env=None):
    completed = subprocess.run(
        arguments, capture_output=True, text=True, timeout=timeout, cwd=cwd, env=env
    )
    assert completed.returncode == 0, (
        completed.stdout[-3000:] + completed.stderr[-3000:]
    )
    return completed


def _check_sdist(sdist):
    """The sdist holds the library, its packaging files and LICENSE: no
    tests, no lab."""
    with tarfile.open(sdist) as archive:
        names = [name.split("/", 1)[1] for name in archive.getnames() if "/" in name]
    top = {name.split("/")[0] for name in names}
    assert top == {
        "keras_nalm",
        "keras_nalm.egg-info",
        "LICENSE",
        "MANIFEST.in",
        "PKG-INFO",
        "README.md",
        "pyproject.toml",
        "setup.cfg",
    }, top
    assert "keras_nalm/layers/nau.py" in names


def _check_wheel(wheel):
    """The wheel holds `keras_nalm/` and its dist-info only, LICENSE among
    them, and valid core metadata (the checks an index makes on upload)."""
    from packaging.metadata import Metadata

    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        info = next(name.split("/")[0] for name in names if ".dist-info/" in name)
        metadata = archive.read(f"{info}/METADATA").decode()
    outside = [
        name for name in names if not name.startswith(("keras_nalm/", f"{info}/"))
    ]
    assert not outside, outside
    assert "keras_nalm/layers/nau.py" in names
    assert f"{info}/licenses/LICENSE" in names
    parsed = Metadata.from_email(metadata, validate=True)
    assert parsed.name == "keras-nalm"
    assert str(parsed.version) == keras_nalm.__version__
    assert parsed.license_files == ["LICENSE"]
    assert parsed.description_content_type == "text/markdown"
    assert "Programming Language :: Python :: 3.11" in parsed.classifiers


@pytest.mark.large
def test_the_wheel_holds_the_library_alone_and_trains_the_demo_on_jax(tmp_path):
    """The sdist and the wheel built from it (`python -m build`, as a
    release is) hold `keras_nalm` only, with its LICENSE and valid
    metadata; the wheel installed with `[jax]` in a fresh venv (no
    TensorFlow, no lab), the demo's NAU -> NMU trains with `model.fit` and
    `describe` reads it."""
    source = _source_copy(tmp_path / "source")
    _run([sys.executable, "-m", "build", "--outdir", "dist", str(source)], tmp_path)
    (sdist,) = (tmp_path / "dist").glob("keras_nalm-*.tar.gz")
    _check_sdist(sdist)
    (wheel,) = (tmp_path / "dist").glob("keras_nalm-*.whl")
    _check_wheel(wheel)
    environment = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(environment)
    python = str(environment / "bin" / "python")
    _run([python, "-m", "pip", "install", "-q", f"{wheel}[jax]"], tmp_path)
    environ = {**os.environ, "KERAS_BACKEND": "jax", "PYTHONPATH": ""}
    check = _run(
        [
            python,
            "-c",
            "import importlib.util as u; "
            "print(u.find_spec('tensorflow'), u.find_spec('benchmarks'))",
        ],
        tmp_path,
        env=environ,
    )
    assert check.stdout.strip() == "None None", check.stdout
    demo = _run(
        [python, "-m", "keras_nalm.demo", "--seed", "1"], tmp_path, 1200, environ
    )
    lines = demo.stdout.splitlines()
    assert "PASS" in lines
    assert lines[-1] == "y0 = (x1 + x2) * (x1 + x2 + x3 + x4)"


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


def test_every_registration_goes_through_the_one_helper():
    """Only `keras_nalm.saving` calls Keras's registration; the benchmarks'
    classes are registered under their own package name."""
    callers = [
        name
        for name, path in _modules("keras_nalm", "benchmarks").items()
        if "register_keras_serializable" in path.read_text(encoding="utf-8")
    ]
    assert callers == ["keras_nalm.saving"]
    from benchmarks.data.sequences import MaskedAccuracy

    registered = keras.saving.get_registered_name(MaskedAccuracy)
    assert registered == "nalm_benchmarks>MaskedAccuracy"


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
    assert tasks <= set(registry.tasks())
    for task in sorted(tasks):
        folder = registry.folder_of(task)
        assert (ROOT / "benchmarks" / folder / "runner.py").exists()
        assert registry.report_for(task).markdown is not None
    with pytest.raises(ValueError, match="Unknown task 'sorting'"):
        registry.folder_of("sorting")
