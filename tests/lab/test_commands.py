"""The runners' command lines: `--help` and mistakes answer without
TensorFlow, a mistake is one line with exit status 2 and runs nothing,
the names a command takes are listed and its tables build what they name,
and Ctrl-C stops with a hint to resume."""

import ast
import contextlib
import importlib
import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import time

import keras
import pytest

from benchmarks import registry
from benchmarks.core import command
from benchmarks.core import sweep
from benchmarks.core.sweep import main
from benchmarks.single_module import task as single_module_task
from tests.lab import ROOT
from tests.lab.commands import refusal
from tests.lab.processes import left_in_group

#: The lab's commands: `python -m benchmarks.<name>`.
COMMANDS = sorted(
    {
        *(task.name for task in registry.TASKS),
        "tune",
        "nru.memory_probe",
        "single_module.dmu_gate",
    }
)

#: Runs `python -m benchmarks.<folder> ARGS` in this interpreter and prints
#: its exit status and whether TensorFlow or Keras was imported.
_PROBE = """
import json, runpy, sys
folder, sys.argv = sys.argv[1], ["-m", *sys.argv[2:]]
try:
    runpy.run_module(f"benchmarks.{folder}", run_name="__main__")
    status = 0
except SystemExit as stop:
    status = stop.code
heavy = sorted({"tensorflow", "keras"} & set(sys.modules))
print(json.dumps({"status": status, "heavy": heavy}), file=sys.stderr)
"""


def _probe(folder, *line):
    completed = subprocess.run(
        [sys.executable, "-c", _PROBE, folder, *line],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    *messages, result = completed.stderr.splitlines()
    return json.loads(result), completed.stdout, messages


@pytest.mark.parametrize("folder", COMMANDS)
def test_help_and_a_mistake_answer_without_tensorflow(folder):
    result, stdout, messages = _probe(folder, "--help")
    assert result == {"status": 0, "heavy": []}
    assert stdout.startswith(f"usage: python -m benchmarks.{folder}")
    assert messages == []  # no TensorFlow or absl line
    result, stdout, messages = _probe(folder, "--seeds", "x", "--output", "o")
    assert result == {"status": 2, "heavy": []}
    (message,) = messages
    assert "cannot read seeds 'x'" in message or "--directory" in message


#: A backslash that ends a line of a string, not itself escaped: Python
#: joins the two lines (an example command of `--help` loses its "\").
_JOINED_LINE = re.compile(r"(?<!\\)(?:\\\\)*\\\n")


@pytest.mark.parametrize("folder", ["benchmarks", "examples", "keras_nalm"])
def test_no_docstring_joins_two_lines_with_a_backslash(folder):
    """Docstrings are `--help` and the API pages: a command continued on
    the next line must keep its backslash (written `\\\\`)."""
    joined = []
    for path in sorted(pathlib.Path(ROOT, folder).rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if not _JOINED_LINE.search(source):
            continue  # no string of the file can join two lines
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = ast.get_source_segment(source, node) or ""
                if text[:3] in ('"""', "'''") and _JOINED_LINE.search(text):
                    joined.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert joined == []


def test_the_claims_command_answers_help_without_tensorflow():
    result, stdout, messages = _probe("claims", "--help")
    assert result == {"status": 0, "heavy": []}
    assert stdout.startswith("usage: python -m benchmarks.claims")
    assert messages == []


#: (folder, command line, what the one-line error says): one or more per
#: class of mistake: a malformed or reversed range, a dependent option
#: given alone, a negative number, an unknown name (listed with the known
#: ones), steps that are not evaluated, a model of another task.
MISTAKES = [
    ("single_module", ["--interpolation-range", "a,b"], "Cannot read the range"),
    ("single_module", ["--interpolation-range", "2,1"], "low < high"),
    (
        "single_module",
        ["--extrapolation-range", "2,6"],
        "--extrapolation-range needs one --interpolation-range",
    ),
    ("single_module", ["--module", "nmu,transformer"], "modules: transformer"),
    ("single_module", ["--workers", "0"], "expected an integer > 0"),
    ("single_module", ["--seeds", "-1"], "cannot read seeds '-1'"),
    ("single_module", ["--evaluate-every", "300"], "must divide 1,000"),
    ("single_module", ["--held-threshold", "1e-9"], "expected MSE,STEPS"),
    (
        "arithmetic",
        ["--model", "nmu", "--operation", "multiply"],
        "unknown operations: multiply; known: a, add, sub, mul, div",
    ),
    ("arithmetic", ["--model", "nmu", "--max-steps", "1500"], "multiple of 1,000"),
    ("arithmetic", ["--model", "nmu", "--subset-ratio", "2"], "fraction in [0, 1]"),
    ("arithmetic", ["--model", "nmu", "--subset-ratio", "0"], "> 0"),
    ("identity", ["--activation", "swish"], "activations: swish; known: hard_tanh"),
    ("recurrent", ["--range", "1"], "Cannot read the range '1'"),
    ("recurrent", ["--range=-2,-1;1,2"], "expected one interval"),
    ("nru", ["--learning-rate", "-1"], "expected a number > 0, got '-1'"),
    ("nru", ["--learning-rate", "nan"], "expected a number > 0"),
    ("nru", ["--task", "psmnist", "--max-steps", "1200"], "every 500 steps"),
    ("nru", ["--task", "psmnist", "--mnist", "npz"], "--mnist npz needs"),
    ("nru", ["--task", "ptb", "--checkpoints", "runs"], "ptb trains with model.fit"),
    ("sequential_mnist", ["--task", "mnist_sum", "--model", "nmu"], "mnist_sum: nmu"),
    (
        "language",
        ["--task", "program_add", "--model", "lstm_summed"],
        "program_add: lstm_summed",
    ),
    ("language", ["--size", "16,0"], "positive ints"),
    ("tune", ["--models", "lstm"], "models for arithmetic: lstm"),
    ("tune", ["--steps", "1500"], "multiple of --steps-per-epoch"),
]


def _with_output(folder, line, tmp_path):
    if folder == "tune":
        return [*line, "--directory", str(tmp_path / "tuning")]
    return [*line, "--output", str(tmp_path / "rows.jsonl")]


def _command_line(folder):
    """The module of a command's parser: a task's `task`, `tune`'s `cli`."""
    return importlib.import_module(
        f"benchmarks.{folder}.{'cli' if folder == 'tune' else 'task'}"
    )


@pytest.mark.parametrize(("folder", "line", "says"), MISTAKES)
def test_a_mistake_is_one_line_with_status_2_and_runs_nothing(
    folder, line, says, tmp_path, capsys
):
    cli = _command_line(folder)
    rows = tmp_path / "rows.jsonl"
    rows.write_bytes(b"notes, not rows\n")  # never read, never changed
    error = refusal(cli.parse_arguments, _with_output(folder, line, tmp_path), capsys)
    assert says in error
    assert error.startswith(f"python -m benchmarks.{folder}: error: ")
    assert rows.read_bytes() == b"notes, not rows\n"
    assert sorted(os.listdir(tmp_path)) == ["rows.jsonl"]


def test_the_language_digits_must_be_a_low_high_pair(capsys):
    from benchmarks.language import task as cli

    for digits in ("2", "3,1"):
        line = ["--task", "program_add", "--train-digits", digits, "--output", "o"]
        error = refusal(cli.parse_arguments, line, capsys)
        assert "--train-digits: expected low,high with low <= high" in error


#: The names each command line lists, from its folder's tables.
NAMED_TABLES = [
    ("single_module", "MODULES"),
    ("single_module", "VARIANTS"),
    ("arithmetic", "MODELS"),
    ("identity", "ACTIVATIONS"),
    ("recurrent", "MODELS"),
    ("sequential_mnist", "TASKS"),
    ("language", "TASKS"),
    ("nru", "MODELS"),
    ("nru", "SYNTHETIC_TASKS"),
    ("tune", "ARITHMETIC_UNITS"),
]


@pytest.mark.parametrize(("folder", "names"), NAMED_TABLES)
def test_help_shows_the_names_of_the_tables(folder, names):
    cli = _command_line(folder)
    listed = getattr(cli, names)
    help_text = " ".join(cli.build_parser().format_help().split())
    assert listed and all(name in help_text for name in listed)


def _layers(*factories, units=1):
    return [factory(units) for factory in factories]


def test_every_entry_of_the_tables_builds_what_it_names():
    """The tables name what they build by import path
    (`benchmarks.core.lazy`): every entry builds, so a wrong path fails
    here rather than in a sweep."""
    from benchmarks.arithmetic import models as arithmetic
    from benchmarks.core import arguments
    from benchmarks.data.synthetic_tasks import SOURCES
    from benchmarks.identity import activations as identity
    from benchmarks.language import models as language
    from benchmarks.recurrent import models as recurrent
    from benchmarks.single_module import modules as single_module
    from benchmarks.tune.units import ARITHMETIC_UNITS
    from keras_nalm import engine

    modules = single_module.MODULES | single_module.VARIANTS
    built = [module.layer() for module in modules.values()]
    built += [module.layer() for module in single_module.MORE_INPUTS.values()]
    for model in arithmetic.MODELS.values():
        built += _layers(model.first, model.second, units=2)
    for name, layers in recurrent.MODELS.items():
        built += layers(learned=name in recurrent.UNIT_MODELS)
    built += _layers(*language.HEADS.values())
    for hidden, output in ARITHMETIC_UNITS.values():
        built += _layers(hidden, output)
    assert all(isinstance(layer, keras.layers.Layer) for layer in built)
    for activation in identity.ACTIVATIONS.values():
        if activation is not None and not isinstance(activation, str):
            assert callable(activation.target())
    for name, make_optimizer in arguments.OPTIMIZERS.items():
        assert isinstance(make_optimizer(), keras.optimizers.Optimizer), name
    for name, make_source in SOURCES.items():
        assert make_source(10, batch_size=1).length > 10, name
    assert arguments.GENERATORS == engine.ALGORITHMS
    assert arguments.DEFAULT_GENERATOR == engine.DEFAULT_ALGORITHM


@pytest.mark.parametrize("name", ["nru", "nru.memory_probe"])
def test_a_data_set_not_on_this_machine_is_one_line_with_status_2(
    name, tmp_path, capsys
):
    """The runners' and the probe's runs, not only their command lines."""
    from benchmarks.nru import memory_probe
    from benchmarks.nru import task as nru_task

    missing = tmp_path / "mnist.npz"
    output = tmp_path / "rows.jsonl"
    line = ["--mnist=npz", f"--mnist-path={missing}", f"--output={output}"]
    if name == "nru":
        status = main(nru_task.TASK, ["--task=psmnist", *line])
    else:
        status = memory_probe.main(line)
    error = capsys.readouterr().err
    assert status == command.USAGE
    assert error.startswith("error: No mnist.npz") and error.count("\n") == 1
    assert sorted(os.listdir(tmp_path)) == []  # no output begun


def test_ctrl_c_stops_with_a_hint_to_resume(tmp_path, monkeypatch, capsys):
    def interrupted(*args, **options):
        raise KeyboardInterrupt

    monkeypatch.setattr(sweep, "run_sweep", interrupted)
    output = str(tmp_path / "rows.jsonl")
    line = ["--module", "nau", "--operation", "add", "--output", output]
    assert main(single_module_task.TASK, line) == command.INTERRUPTED
    error = capsys.readouterr().err
    assert error.strip() == (
        f"Stopped: the finished runs are in {output}; the same command resumes."
    )


@pytest.mark.parametrize(
    "stop", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"]
)
def test_sigterm_and_sighup_stop_as_ctrl_c_does(stop, tmp_path, monkeypatch, capsys):
    def signalled(*args, **options):
        os.kill(os.getpid(), stop)
        time.sleep(10)  # the signal ends the run before this does

    monkeypatch.setattr(sweep, "run_sweep", signalled)
    output = str(tmp_path / "rows.jsonl")
    line = ["--module", "nau", "--operation", "add", "--output", output]
    assert main(single_module_task.TASK, line) == 128 + stop
    assert capsys.readouterr().err.strip() == (
        f"Stopped: the finished runs are in {output}; the same command resumes."
    )
    assert signal.getsignal(stop) is not command._stop  # handlers restored


def _as_from_a_terminal():
    """Ctrl-C's default action, as in a command typed at a terminal: a
    process started in the background of a non-interactive shell (`pytest
    &`) inherits SIGINT ignored, and Python then installs no
    KeyboardInterrupt handler."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start_a_long_sweep(output, **options):
    """A Single Module sweep on two workers, in a session (a process group)
    of its own, with more runs than can finish between its first row and a
    signal."""
    return subprocess.Popen(
        [sys.executable, "-m", "benchmarks.single_module", "--module", "nau"]
        + ["--operation", "add", "--interpolation-range=1,2", "--seeds", "0-99"]
        + ["--max-steps", "5000", "--workers", "2", "--output", str(output)],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        **options,
    )


def _wait_for_a_row(output, seconds=300):
    """Waits until `output` holds a row (the workers run)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not (output.exists() and output.read_text()):
        time.sleep(0.1)


# Release checks: CI's process-level kill of a pool is test_sweep.py's.
@pytest.mark.extra_large
def test_ctrl_c_on_a_pool_stops_every_worker_without_a_traceback(tmp_path):
    output = tmp_path / "rows.jsonl"
    process = _start_a_long_sweep(
        output,
        env={k: v for k, v in os.environ.items() if k != "TF_CPP_MIN_LOG_LEVEL"},
        preexec_fn=_as_from_a_terminal,
    )
    _wait_for_a_row(output)
    os.killpg(process.pid, signal.SIGINT)  # as Ctrl-C: to every process
    _, error = process.communicate(timeout=120)
    rows = output.read_text().splitlines() if output.exists() else []
    seen = f"status {process.returncode}, {len(rows)} rows, stderr:\n{error}"
    assert process.returncode == command.INTERRUPTED, seen
    assert "Traceback" not in error, seen
    assert error.strip().endswith("the same command resumes."), seen
    assert "I0000" not in error, seen  # TensorFlow's start-up lines are silenced
    assert 1 <= len(rows) < 100, seen  # stopped mid-sweep


@pytest.mark.extra_large
@pytest.mark.parametrize(
    "stop", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"]
)
def test_no_worker_outlives_a_sweep_stopped_or_killed(stop, tmp_path):
    """SIGTERM to the parent alone stops the sweep as Ctrl-C does; after
    SIGKILL, which it cannot answer, its workers end by themselves: within
    seconds no process of the sweep is left (its workers, ~0.8 GB each,
    ran on as orphans)."""
    output = tmp_path / "rows.jsonl"
    process = _start_a_long_sweep(output)
    _wait_for_a_row(output)
    process.send_signal(stop)  # to the parent alone
    _, error = process.communicate(timeout=120)
    seen = f"status {process.returncode}, stderr:\n{error}"
    try:
        assert not left_in_group(process.pid, 10), seen
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    if stop == signal.SIGTERM:
        assert process.returncode == 128 + stop, seen
        assert "Traceback" not in error, seen
        assert error.strip().endswith("the same command resumes."), seen
    rows = output.read_text().splitlines()
    assert 1 <= len(rows) < 100, seen


def test_a_tuner_project_is_named_by_its_search(tmp_path, capsys):
    from benchmarks.tune import cli
    from benchmarks.tune import runner

    directory = str(tmp_path / "tuning")

    def parse(*line):
        return cli.parse_arguments(["--directory", directory, *line])

    mul, add = parse().project_name, parse("--operation", "add").project_name
    assert mul.startswith("arithmetic_mul_random_") and add.startswith("arithmetic_add")
    assert len({mul, add, parse("--steps", "2000").project_name}) == 3
    assert parse("--max-trials", "50").project_name == mul  # a longer search
    named = parse("--project-name", "mine")
    runner.record_search(named)
    with open(os.path.join(directory, "mine", cli.SEARCH_FILE)) as handle:
        assert json.load(handle)["operation"] == "mul"
    assert parse("--project-name", "mine", "--max-trials", "9").project_name == "mine"
    line = ["--directory", directory, "--project-name", "mine", "--operation", "div"]
    assert "holds a search with other settings" in refusal(
        cli.parse_arguments, line, capsys
    )
    assert cli.parse_arguments([*line, "--overwrite"]).operation == "div"


@pytest.mark.large
@pytest.mark.parametrize("backend", ("jax", "torch"))
def test_the_lab_under_another_backend_says_it_runs_on_tensorflow(backend, tmp_path):
    # the engine is imported when a run trains (the JAX populations of
    # benchmarks.speed.jax_population import the lab's training without it)
    command = "benchmarks.single_module --preset=quick --module=nmu --operation=mul"
    options = f"--interpolation-range=1,2 --seeds=0 --output={tmp_path / 'rows.jsonl'}"
    completed = subprocess.run(
        [sys.executable, "-m", *command.split(), *options.split()],
        cwd=ROOT,
        env={**os.environ, "KERAS_BACKEND": backend, "TF_CPP_MIN_LOG_LEVEL": "3"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert completed.returncode == 1
    last = completed.stderr.strip().splitlines()[-1]
    assert "TensorFlow" in last and repr(backend) in last, completed.stderr
