"""The result row: one JSON line per (configuration, seed), for every task.

Every runner writes `Row`s; `benchmarks.report` reads them. A row holds
the fields below, plus every entry of `config` again at the top level
(`"module"`, `"operation"`, ...) and the results of the task's judge
(`keras_nalm.engine.BatchSource.judge`): for the arithmetic tasks
`best_step`, `solved`, `solved_at`, `sparsity_error`, `interpolation_mse`,
`extrapolation_mse`, `threshold`, `initial_interpolation_mse`,
`initial_extrapolation_mse`; for the identity experiment
`mean_absolute_error` and `error_percent`. The fields are described in
`benchmarks/README.md`.
"""

import functools
import json
import math
import os
import platform
import subprocess
from typing import TypedDict

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
#: The code a result depends on: a change here is "dirty", but not in any
#: `results/` folder (the index's, and each task folder's, where a sweep in
#: a worktree writes its rows).
CODE_PATHS = ("keras_nalm", "benchmarks", ":(exclude,glob)benchmarks/**/results/**")


class Row(TypedDict, total=False):
    task: str  # the runner's task: "single_module", "arithmetic", ...
    config: dict  # the job's configuration: with the seed, the row's key
    seed: int  # the run's seed (weights, data stream, evaluation sets)
    max_steps: int  # optimizer steps trained (config["steps"])
    wall_seconds: float  # the run's wall time, including evaluation
    versions: dict  # keras_nalm, keras, tensorflow, numpy, python
    device: str  # CPU or GPU model
    commit: str  # the git commit of the code (None outside a checkout)
    dirty: bool  # whether keras_nalm/ or benchmarks/ had uncommitted changes


#: The optimizer of rows made before configurations named one: Keras's Adam.
LEGACY_OPTIMIZER = "adam"


def optimizer_name(row_or_config):
    """The optimizer a row (or configuration) trained with."""
    return row_or_config.get("optimizer", LEGACY_OPTIMIZER)


#: The generator of rows made before configurations named one: TensorFlow's
#: threefry (`tf.random.stateless_uniform`).
LEGACY_GENERATOR = "threefry"


def generator_name(row_or_config):
    """The random generator a row's (or configuration's) batches came from."""
    return row_or_config.get("generator", LEGACY_GENERATOR)


def row_key(row):
    """What identifies a row: its configuration and seed."""
    return json.dumps([row["config"], row["seed"]], sort_keys=True)


def make_row(task, config, seed, result, extra_fields, environment):
    """A `Row`: the task, the configuration (nested and flattened), the
    seed, `extra_fields`, the judge's `result` and the `environment`."""
    return {
        "task": task,
        "config": config,
        **config,
        "seed": seed,
        "max_steps": config["steps"],
        **extra_fields,
        **result,
        **environment,
    }


class NotRowsError(ValueError):
    """A file, or a line of one, that is not a sweep's rows."""


def parse_rows(path, data, required=("config", "seed")):
    """The rows of `data` (the bytes of `path`, complete lines), or
    `NotRowsError` naming the first line that is not a row: a JSON object
    with the `required` fields."""
    rows = []
    for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError:
            row = None
        if not isinstance(row, dict) or not all(field in row for field in required):
            raise NotRowsError(f"{path}, line {number}, is not a row of a sweep")
        rows.append(row)
    return rows


def read_checked_rows(paths, required=("task",)):
    """The rows of result files (each with the `required` fields), or
    `NotRowsError` for a file that is missing, empty, holds anything
    else or holds one row's key (configuration and seed) twice, which
    would count a run twice."""
    found = []
    for path in paths:
        if not os.path.isfile(path):
            raise NotRowsError(f"{path}: no such file")
        with open(path, "rb") as handle:
            rows = parse_rows(path, handle.read(), required)
        if not rows:
            raise NotRowsError(f"{path} holds no rows")
        _refuse_repeated_keys(path, rows)
        found += rows
    return found


def _refuse_repeated_keys(path, rows):
    first_line = {}
    for number, row in enumerate(rows, 1):
        if "config" not in row or "seed" not in row:
            continue
        line = first_line.setdefault(row_key(row), number)
        if line != number:
            raise NotRowsError(
                f"{path}: row {number} repeats the configuration and seed of "
                f"row {line} (a run written twice); keep one of them"
            )


def values_agree(stored, new, tolerance=0.0):
    """Whether two field values of rows agree within the relative
    `tolerance` (0: to the bit), NaN with NaN (a diverged run's MSE):
    numbers (not booleans), or lists and dicts of them, entry by entry."""
    if isinstance(stored, bool) or isinstance(new, bool):
        return stored == new
    if isinstance(stored, (int, float)) and isinstance(new, (int, float)):
        if math.isnan(stored) or math.isnan(new):
            return math.isnan(stored) and math.isnan(new)
        return math.isclose(stored, new, rel_tol=tolerance, abs_tol=0.0)
    if isinstance(stored, list) and isinstance(new, list):
        return len(stored) == len(new) and all(
            values_agree(a, b, tolerance) for a, b in zip(stored, new)
        )
    if isinstance(stored, dict) and isinstance(new, dict):
        return stored.keys() == new.keys() and all(
            values_agree(stored[key], new[key], tolerance) for key in stored
        )
    return stored == new


def read_rows(paths):
    """The rows of JSON-lines files, in order."""
    found = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            found += [json.loads(line) for line in handle if line.strip()]
    return found


def is_own(row):
    """Whether a row trained a unit of one's own (`benchmarks.core.units`:
    a `*_digest` field)."""
    return any(field.endswith("_digest") for field in row)


def with_committed(rows, committed_paths, same):
    """`rows` and, where they hold units of one's own, the committed rows
    of `committed_paths` (relative to `benchmarks/`) of the same
    experiments (`same(row)`: a hashable key), for a report to put them
    beside each other; `rows` as they are otherwise."""
    wanted = {same(row) for row in rows if is_own(row)}
    if not wanted:
        return rows
    given = {json.dumps(row, sort_keys=True) for row in rows}
    paths = [os.path.join(ROOT, "benchmarks", path) for path in committed_paths]
    return rows + [
        row
        for row in read_rows(paths)
        if same(row) in wanted and json.dumps(row, sort_keys=True) not in given
    ]


def _git(*arguments):
    completed = subprocess.run(
        ["git", "-C", ROOT, *arguments], capture_output=True, text=True, check=True
    )
    return completed.stdout.strip()


@functools.cache
def provenance():
    """`{"commit": ..., "dirty": ...}` of the code that runs (None, None
    outside a git checkout), read once per process: a sweep's worker keeps
    the modules it imported at its start, so a commit made while it runs
    must not be recorded as the code of its later rows."""
    try:
        commit = _git("rev-parse", "HEAD")
        dirty = bool(_git("status", "--porcelain", "--", *CODE_PATHS))
    except (OSError, subprocess.CalledProcessError):
        return {"commit": None, "dirty": None}
    return {"commit": commit, "dirty": dirty}


def environment():
    """Library versions, the device and the code's commit, for every row."""
    import keras
    import numpy
    import tensorflow

    import keras_nalm

    return {
        "versions": {
            "keras_nalm": keras_nalm.__version__,
            "keras": keras.__version__,
            "tensorflow": tensorflow.__version__,
            "numpy": numpy.__version__,
            "python": platform.python_version(),
        },
        "device": device_name(),
        **provenance(),
    }


def device_name():
    import tensorflow as tf

    gpus = tf.config.list_logical_devices("GPU")
    if gpus:
        details = tf.config.experimental.get_device_details(
            tf.config.list_physical_devices("GPU")[0]
        )
        return f"GPU: {details.get('device_name', gpus[0].name)}"
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as handle:
            names = [line for line in handle if line.startswith("model name")]
        model = names[0].split(":", 1)[1].strip()
    except (OSError, IndexError):
        pass
    return f"CPU: {model} ({_threads(tf)})"


def _threads(tf):
    """The threads TensorFlow runs a process's operations on."""
    threads = tf.config.threading.get_intra_op_parallelism_threads()
    if threads == 1:
        return "1 thread per worker"
    return f"{threads} threads" if threads else "TensorFlow's default threads"
