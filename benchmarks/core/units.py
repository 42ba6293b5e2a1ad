"""A unit of one's own: a Keras layer from outside the lab, named on the
command line or handed to a task's Python function.

A unit is named `MODULE:NAME` (an importable module, e.g.
`my_units:DivisionUnit`) or `path/to/file.py:NAME`; NAME is a Keras layer
class or a factory, either called with the layer's output size
(`NAME(units)`) and returning a `keras.layers.Layer`. A job's
configuration names the unit by that path (a file's path made absolute)
and by a digest of its source file (`unit_digest`), so that the rows of a
unit whose source changed are never taken for the old unit's: the same
command runs them anew. A worker that finds the source changed since the
sweep began refuses to train it.

Naming and digesting need no import of the unit (the command line checks
them before TensorFlow loads); `build_unit` imports it, once per process.
`spec_of(unit)` names a class or function defined in Python, which then
trains as it is in this process (a unit defined in a script or notebook
needs no import).
"""

import hashlib
import importlib
import importlib.util
import inspect
import os
import sys

#: Hex digits of the source's SHA-256 that a configuration keeps.
DIGEST_LENGTH = 16

#: The units handed over from Python in this process: {spec: object}.
_OBJECTS = {}
#: The units imported in this process: {spec: object}.
_IMPORTED = {}


class UnitError(ValueError):
    """A unit that cannot be named, found, imported or built (one line)."""


def is_unit_spec(text):
    """Whether `text` names a unit of one's own (`MODULE:NAME`, `FILE:NAME`)."""
    return ":" in text


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


def normalize_spec(text):
    """`text` with a file's path made absolute; `UnitError` when the file or
    the module cannot be found (nothing is imported)."""
    location, name = _split(text)
    if _is_file(location):
        path = os.path.abspath(location)
        if not os.path.isfile(path):
            raise UnitError(f"the unit {text!r}: no such file {location}")
        return f"{path}:{name}"
    source_file(f"{location}:{name}")
    return f"{location}:{name}"


def source_file(spec):
    """The source file of the unit `spec` (without importing the module)."""
    location, name = _split(spec)
    if _is_file(location):
        return location
    if spec in _OBJECTS:
        return inspect.getsourcefile(_OBJECTS[spec])
    try:
        found = importlib.util.find_spec(location)
    except (ImportError, ValueError) as error:
        raise UnitError(f"the unit {spec!r}: {error}") from None
    if found is None or not found.origin or not os.path.isfile(found.origin):
        raise UnitError(
            f"the unit {spec!r}: no module {location!r} on the Python path "
            f"(run from its directory, or set PYTHONPATH)"
        )
    return found.origin


def digest(spec):
    """The first `DIGEST_LENGTH` hex digits of the SHA-256 of the unit's
    source file."""
    with open(source_file(spec), "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()[:DIGEST_LENGTH]


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
        spec = f"{path}:{name}"
    else:
        spec = f"{module}:{name}"
    _OBJECTS[spec] = unit
    return spec


def _import(spec):
    location, name = _split(spec)
    if _is_file(location):
        module_name = "nalm_unit_" + hashlib.sha1(location.encode()).hexdigest()[:12]
        found = importlib.util.spec_from_file_location(module_name, location)
        module = importlib.util.module_from_spec(found)
        sys.modules[module_name] = module
        found.loader.exec_module(module)
    else:
        module = importlib.import_module(location)
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


def name_fields(name, field):
    """The configuration's fields of `name` under `field` (`module`,
    `model`, `first_layer`): the name of one of the task's own, or a unit
    of one's own's path and `<field>_digest`."""
    if not is_unit_spec(name):
        return {field: name}
    spec = normalize_spec(name)
    return {field: spec, f"{field}_digest": digest(spec)}


def check_units(specs):
    """Builds each unit once (two outputs), so that a unit that cannot be
    imported or built is refused in one line before any run; raises
    `SystemExit(2)` with the message."""
    for spec in specs:
        try:
            build_unit(spec, 2)
        except UnitError as error:
            print(f"error: {error}", file=sys.stderr)
            raise SystemExit(2) from None


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
