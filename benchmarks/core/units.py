"""A unit of one's own: a Keras layer from outside the lab, named on the
command line or handed to a task's Python function.

A unit is named `MODULE:NAME` (an importable module, e.g.
`my_units:DivisionUnit`) or `path/to/file.py:NAME`; NAME is a Keras layer
class or a factory, either called with the layer's output size
(`NAME(units)`) and returning a `keras.layers.Layer`.

Its label is `MODULE:NAME` however it was named: a file `dir/my_units.py`
is the module `my_units`, with `dir` put on the Python path (of this
process and of the sweep's workers), so the same unit has the same label
from the command line and from Python, and no row carries a path of the
machine.

Its identity is a digest of its own source (`digest`): the definition of
NAME and, transitively, the module-level definitions, assignments and
imports of the same file that it names, read with `ast` (normalised, so
comments and layout do not count). An edit elsewhere in the file changes
nothing; an edit of the unit, or of a helper it uses, makes another unit,
which the same command runs anew. A worker that finds the source changed
since the sweep began refuses to train it.

Naming and digesting import nothing (the command line checks them before
TensorFlow loads); `check_units` then builds, calls and saves each unit
once before any run, and `build_unit` imports it, once per process.
`spec_of(unit)` names a class or function defined in Python, which then
trains as it is in this process (a unit defined in a script or notebook
needs no import).
"""

import ast
import functools
import hashlib
import importlib
import importlib.util
import inspect
import os
import sys

#: Hex digits of the source's SHA-256 that a configuration keeps.
DIGEST_LENGTH = 16
#: Hex digits of the digest that tell two versions of a unit apart on a
#: report.
VERSION_LENGTH = 7

#: The units handed over from Python in this process: {spec: object}.
_OBJECTS = {}
#: The units imported in this process: {spec: object}.
_IMPORTED = {}


class UnitError(ValueError):
    """A unit that cannot be named, found, imported or built (one line)."""


def is_unit_spec(text):
    """Whether `text` names a unit of one's own (`MODULE:NAME`, `FILE:NAME`)."""
    return ":" in text


def looks_like_unit(text):
    """Whether `text`, not a unit's name, was probably meant as one
    (`my_units.MyUnit`, `my_units.py`): the hint of an unknown name."""
    return "." in text or os.sep in text


#: The hint on a name that looks like a unit of one's own without its colon.
COLON_HINT = (
    "a unit of one's own is named MODULE:NAME or path/to/file.py:NAME "
    "(a colon before the class or factory)"
)


def _split(text):
    location, _, name = text.rpartition(":")
    if not location or not name.isidentifier():
        raise UnitError(
            f"cannot read the unit {text!r}: write MODULE:NAME or "
            "path/to/file.py:NAME, NAME a Keras layer class or a factory"
        )
    return location, name


def _is_file(location):
    return location.endswith(".py") or os.sep in location


def put_on_path(directory):
    """Makes the modules of `directory` importable here and in the
    processes started from here (`PYTHONPATH`)."""
    if directory not in sys.path:
        sys.path.insert(0, directory)
    paths = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    if directory not in paths:
        os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [directory, *paths]))
    importlib.invalidate_caches()


def _is_module_name(location):
    return all(part.isidentifier() for part in location.split("."))


def _module_of_file(text, path):
    """The module name of the unit's file `path` (its name without `.py`,
    which need not be an identifier: `03_my_units`), put on the path."""
    module = os.path.splitext(os.path.basename(path))[0]
    if not path.endswith(".py") or "." in module or not module:
        raise UnitError(f"the unit {text!r}: {path} is not a Python file (NAME.py)")
    put_on_path(os.path.dirname(path))
    found = _find(f"{module}:", module)
    if os.path.realpath(found) != os.path.realpath(path):
        raise UnitError(
            f"the unit {text!r}: the module {module!r} is {found}, found first "
            f"on the Python path; rename {os.path.basename(path)}"
        )
    return module


def normalize_spec(text):
    """The label `MODULE:NAME` of the unit `text` (a file's directory put
    on the path); `UnitError` when the file or the module cannot be found
    (nothing is imported)."""
    location, name = _split(text)
    if _is_file(location):
        path = os.path.abspath(location)
        if not os.path.isfile(path):
            raise UnitError(f"the unit {text!r}: no such file {location}")
        location = _module_of_file(text, path)
    source_file(f"{location}:{name}")
    return f"{location}:{name}"


def _find(spec, location):
    """The source file of the module `location` on the Python path (a
    file's name that is not an identifier is looked up as `location.py`)."""
    if not _is_module_name(location):
        for directory in sys.path:
            candidate = os.path.join(directory or os.curdir, f"{location}.py")
            if os.path.isfile(candidate):
                return os.path.abspath(candidate)
        found = None
    else:
        try:
            found = importlib.util.find_spec(location)
        except (ImportError, ValueError) as error:
            raise UnitError(f"the unit {spec!r}: {error}") from None
    if found is None or not found.origin or not os.path.isfile(found.origin):
        raise UnitError(
            f"the unit {spec!r}: no module {location!r} on the Python path "
            f"(run from its directory, set PYTHONPATH, or name its file: "
            f"path/to/{location.split('.')[-1]}.py:NAME)"
        )
    return found.origin


def source_file(spec):
    """The source file of the unit `spec` (without importing the module)."""
    location, _ = _split(spec)
    if spec in _OBJECTS:
        return inspect.getsourcefile(_OBJECTS[spec])
    return _find(spec, location)


def _bound_names(statement):
    """The module-level names a statement of a module defines."""
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        return {(alias.asname or alias.name).split(".")[0] for alias in statement.names}
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {statement.name}
    return {
        node.name if not isinstance(node, ast.Name) else node.id
        for node in ast.walk(statement)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        or (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store))
    }


def own_source(path, name):
    """The source that makes the unit `name` of the file `path`: its
    definition and the module-level statements it names, transitively, in
    the file's order, normalised by `ast.unparse`."""
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read(), filename=path)
    defining = {}
    for statement in tree.body:
        for bound in _bound_names(statement):
            defining.setdefault(bound, []).append(statement)
    if name not in defining:
        raise UnitError(f"the unit {name!r}: {path} defines no {name}")
    chosen, pending = {}, [name]
    while pending:
        for statement in defining.get(pending.pop(), ()):
            if id(statement) not in chosen:
                chosen[id(statement)] = statement
                pending += [
                    node.id
                    for node in ast.walk(statement)
                    if isinstance(node, ast.Name)
                ]
    ordered = sorted(chosen.values(), key=lambda statement: statement.lineno)
    return "\n".join(ast.unparse(statement) for statement in ordered)


def digest(spec):
    """The first `DIGEST_LENGTH` hex digits of the SHA-256 of the unit's
    own source (`own_source`)."""
    _, name = _split(spec)
    try:
        text = own_source(source_file(spec), name)
    except SyntaxError as error:
        raise UnitError(f"the unit {spec!r}: {error}") from None
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:DIGEST_LENGTH]


def spec_of(unit):
    """The spec of `unit`, a class or a module-level function given from
    Python (`MODULE:NAME`, or `FILE:NAME` for a script's `__main__`); this
    process then builds it from the object itself."""
    name = getattr(unit, "__qualname__", "")
    if not callable(unit) or not name.isidentifier():
        raise UnitError(
            f"{unit!r} is not a unit: give a Keras layer class or a "
            "module-level factory function (not a lambda, an instance or a "
            "nested function)"
        )
    module = unit.__module__
    if module == "__main__" or module not in sys.modules:
        try:
            path = os.path.abspath(inspect.getsourcefile(unit))
        except TypeError:
            path = None
        if not path or not os.path.isfile(path):
            raise UnitError(
                f"{name} has no source file to name it by; define it in a "
                "file (python FILE.py, or a module)"
            )
        module = _module_of_file(name, path)
    spec = f"{module}:{name}"
    _OBJECTS[spec] = unit
    return spec


def _import(spec):
    location, name = _split(spec)
    if _is_module_name(location):
        module = importlib.import_module(location)
    else:  # a file whose name is no identifier: loaded under another name
        module_name = "nalm_unit_" + hashlib.sha1(location.encode()).hexdigest()[:12]
        found = importlib.util.spec_from_file_location(
            module_name, _find(spec, location)
        )
        module = importlib.util.module_from_spec(found)
        sys.modules[module_name] = module
        found.loader.exec_module(module)
    if not hasattr(module, name):
        raise UnitError(f"the unit {spec!r}: {location} has no {name}")
    return getattr(module, name)


def load_unit(spec, expected_digest=None):
    """The class or factory named by `spec`; with `expected_digest`, refuses
    a unit whose source changed since its jobs were made."""
    if expected_digest is not None and digest(spec) != expected_digest:
        raise UnitError(
            f"the source of the unit {spec!r} changed after its runs were "
            "planned; give the command again to run the changed unit"
        )
    if spec in _OBJECTS:
        return _OBJECTS[spec]
    if spec not in _IMPORTED:
        try:
            _IMPORTED[spec] = _import(spec)
        except UnitError:
            raise
        except Exception as error:  # the user's module failed to import
            raise UnitError(
                f"cannot import the unit {spec!r}: {type(error).__name__}: {error}"
            ) from None
    return _IMPORTED[spec]


def build_unit(spec, units, expected_digest=None):
    """A fresh layer of the unit `spec` with `units` outputs."""
    import keras

    unit = load_unit(spec, expected_digest)
    try:
        layer = unit(units)
    except Exception as error:
        raise UnitError(
            f"the unit {spec!r} failed when called with the output size "
            f"{units}: {type(error).__name__}: {error}"
        ) from None
    if not isinstance(layer, keras.layers.Layer):
        raise UnitError(
            f"the unit {spec!r} returned a {type(layer).__name__}, not a "
            "keras.layers.Layer"
        )
    return layer


def is_cell(layer):
    """Whether a layer is a recurrent cell (Keras's protocol: `state_size`)."""
    return hasattr(layer, "state_size")


def build_cell(spec, units, expected_digest=None, learn_initial_state=False):
    """The recurrent cell of the unit `spec` with `units` outputs: the
    cell it builds, or the layer it builds used recurrently,
    `keras_nalm.layers.ArithmeticCell` (h_t = layer([x_t, h_{t-1}]), its
    initial state the layer's `identity_value`, 0 unless it has one)."""
    from keras_nalm.layers import ArithmeticCell

    layer = build_unit(spec, units, expected_digest)
    if is_cell(layer):
        return layer
    try:
        return ArithmeticCell(layer, learn_initial_state=learn_initial_state)
    except (TypeError, ValueError) as error:
        raise UnitError(
            f"the unit {spec!r} cannot be used recurrently: {error}"
        ) from None


def name_fields(name, field):
    """The configuration's fields of `name` under `field` (`module`,
    `model`, `first_layer`): the name of one of the task's own, or a unit
    of one's own's label and `<field>_digest`."""
    if not is_unit_spec(name):
        return {field: name}
    spec = normalize_spec(name)
    return {field: spec, f"{field}_digest": digest(spec)}


#: The batch a unit is tried on before any run: 2 examples of 4 inputs
#: (a cell: 3 steps of them, in `keras.layers.RNN`).
TRIAL_SHAPE = (2, 4)


def try_unit(spec):
    """Builds the unit `spec` with two outputs, calls it on a batch of
    `TRIAL_SHAPE` and saves and restores its weights (what a run's
    checkpoint does); `UnitError` naming the step that failed."""
    import keras
    import numpy as np

    layer = build_unit(spec, 2)
    if is_cell(layer):
        step, batch = "call (as a cell in keras.layers.RNN)", (2, 3, TRIAL_SHAPE[1])
        layer = keras.layers.RNN(layer)
    else:
        step, batch = "build or call", TRIAL_SHAPE
    try:
        layer(np.ones(batch, "float32"))
    except Exception as error:
        raise UnitError(
            f"the unit {spec!r} failed to {step} on a batch of shape {batch}: "
            f"{type(error).__name__}: {error}"
        ) from None
    try:
        layer.set_weights(layer.get_weights())
    except Exception as error:
        raise UnitError(
            f"the unit {spec!r} failed to save and restore its weights: "
            f"{type(error).__name__}: {error}"
        ) from None


def check_units(specs):
    """Tries each unit once (`try_unit`), so that a unit that cannot be
    imported, built, called or saved is refused in one line before any
    run; raises `SystemExit(2)` with the message."""
    for spec in specs:
        try:
            try_unit(spec)
        except UnitError as error:
            print(f"error: {error}", file=sys.stderr)
            raise SystemExit(2) from None


def strict_sparsity(evaluation):
    """A run's log extras for a model with a unit of one's own: Madsen eq.
    17 only where the unit defines it (`sparsity_error()` or
    `effective_weights()`), else None (`model_sparsity_error`, strict)."""
    from keras_nalm.utils import model_sparsity_error

    return {"sparsity_error": functools.partial(model_sparsity_error, strict=True)}


def _option_arguments(options):
    """Keyword options as command-line arguments: `seeds="0-4"` ->
    `--seeds=0-4`, a list or tuple joined by commas, True a bare flag,
    None or False left out."""
    argv = []
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        if value is True:
            argv.append(flag)
        elif value is not None and value is not False:
            if isinstance(value, (list, tuple, range)):
                value = ",".join(str(item) for item in value)
            argv.append(f"{flag}={value}")
    return argv


def evaluate(task, units_by_option, output, options):
    """A task's Python function for units of one's own: runs the command
    of `task` (a `benchmarks.core.task.Task`) with `units_by_option`
    ({option: class or factory}, e.g. {"module": MyUnit}) and `options`
    (keywords, `_option_arguments`), appending to `output` (default: a
    temporary file); returns the rows of its jobs. A command that stops
    early (Ctrl-C, a refused option) raises `SystemExit` with its status."""
    import tempfile

    from benchmarks.core import sweep
    from benchmarks.core.rows import read_rows
    from benchmarks.core.rows import row_key

    argv = []
    for option, unit in units_by_option.items():
        if unit is not None:
            argv += [f"--{option.replace('_', '-')}", spec_of(unit)]
    argv += _option_arguments(options)
    with tempfile.TemporaryDirectory() as scratch:
        argv += ["--output", output or os.path.join(scratch, "rows.jsonl")]
        status = sweep.main(task, argv)
        if status:
            raise SystemExit(status)
        args = task.parse_arguments(argv)
        keys = {job.key for job in task.jobs(args)}
        return [row for row in read_rows([args.output]) if row_key(row) in keys]


def named_in(*attributes):
    """A `Task`'s `own_units`: the units of one's own that the
    parsed command line names in `attributes` (lists of names, or one name
    or None)."""

    def own_units(args):
        found = []
        for attribute in attributes:
            value = getattr(args, attribute)
            names = value if isinstance(value, list) else [value] if value else []
            found += [name for name in names if is_unit_spec(name)]
        return found

    return own_units
