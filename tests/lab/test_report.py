"""`python -m benchmarks.report` (issue 4): tables beside the papers."""

import csv
import importlib.util
import json
import math
import os

import pytest

from benchmarks import registry
from benchmarks import report
from benchmarks.arithmetic import gates
from benchmarks.arithmetic import report as arithmetic_report
from benchmarks.arithmetic import varied_parameters
from benchmarks.core.formatting import published_table
from benchmarks.core.rows import read_rows
from benchmarks.identity import report as identity
from benchmarks.recurrent import report as recurrent_report
from benchmarks.single_module import report as single_module_report
from benchmarks.static_arithmetic import success
from benchmarks.tune import figure as tune_figure


def _row(seed, solved, module="nmu", value_range="1,2"):
    return {
        "task": "single_module",
        "module": module,
        "operation": "mul",
        "input_size": 2,
        "interpolation_range": value_range,
        "extrapolation_range": "2,6",
        "max_steps": 50_000,
        "seed": seed,
        "solved": solved,
        "solved_at": 2_000 + 100 * seed if solved else None,
        "sparsity_error": 1e-6 * (seed + 1) if solved else 0.4,
    }


@pytest.fixture
def rows_file(tmp_path):
    path = tmp_path / "rows.jsonl"
    rows = [_row(seed, seed < 20) for seed in range(25)]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return str(path)


def test_report_table_has_our_statistics_next_to_the_papers(rows_file, tmp_path):
    output = tmp_path / "report.md"
    assert report.main([rows_file, "--output", str(output)]) == 0
    text = output.read_text()
    line = next(x for x in text.splitlines() if x.startswith("| nmu"))
    assert "U[1,2) → U[2,6)" in line and "| 25 |" in line
    assert "80% [61%, 91%]" in line  # Wilson interval of 20/25
    assert "| 100% |" in line  # the survey's table 11
    assert "2.95e+03" in line  # mean solved-at of the 20 solved runs
    assert "in 0 of 1 configurations" in text


def test_published_tables_were_read_completely():
    path = published_table("single_module", "mistry2022_single_module.csv")
    with open(path) as handle:
        rows = list(csv.DictReader(handle))
    pairs = {(r["operation"], r["module"]) for r in rows}
    assert len(rows) == 9 * len(pairs) and len(pairs) == 23
    assert {m for o, m in pairs if o == "mul"} == {
        "nac_mul",
        "gnalu",
        "inalu",
        "nalu",
        "nmu",
        "npu",
        "realnpu",
    }
    published = registry.published()
    assert published[("arithmetic", "mul", "nmu", "1,2")]["success_rate"] == "0.98"


def test_figures_are_written_as_png(rows_file, tmp_path):
    pytest.importorskip("matplotlib")
    paths = success.figures(
        success.summarize(read_rows([rows_file])),
        registry.published(),
        str(tmp_path),
    )
    assert [os.path.basename(p) for p in paths] == ["single_module_mul.png"]
    with open(paths[0], "rb") as handle:
        assert handle.read(8) == b"\x89PNG\r\n\x1a\n"


def _gated_rows():
    gates_and_outcomes = [(0.1, True), (0.0, False), (0.5, False), (0.9, True)]
    rows = [
        {**_row(seed, solved), "task": "arithmetic", "gate": gate}
        for seed, (gate, solved) in enumerate(gates_and_outcomes)
    ]
    return rows + [{**_row(9, True), "task": "arithmetic", "gate": 1.0}]


def test_figure_9s_table_counts_runs_and_solved_runs_by_gate():
    text = gates.gate_markdown(_gated_rows(), success.unit_of, success.SYMBOLS)
    line = next(x for x in text.splitlines() if x.startswith("| × | nmu"))
    assert line == "| × | nmu | 50,000 | 5 | 2 (1) | 1 (0) | 2 (2) |"
    assert gates.gate_markdown([_row(0, True)], success.unit_of, {}) == ""
    with pytest.raises(ValueError, match="lies in"):
        gates._gate_bin(1.5)


def test_figure_9_is_drawn_when_rows_have_gates(tmp_path):
    pytest.importorskip("matplotlib")
    paths = arithmetic_report.figure_report(_gated_rows(), str(tmp_path))
    assert os.path.basename(paths[-1]) == "arithmetic_gate.png"
    with open(paths[-1], "rb") as handle:
        assert handle.read(8) == b"\x89PNG\r\n\x1a\n"


def _varied_rows():
    """NMU rows of figures 3, 7 and 8's setting: two at every default, one
    each at a subset ratio of 0.05, input size 10 and hidden size 4, and
    rows outside the figures (another operation; two parameters changed)."""
    base = {
        **_row(0, True),
        "task": "arithmetic",
        "model": "nmu",
        "input_size": 100,
        "subset_ratio": 0.25,
        "overlap_ratio": 0.5,
    }
    del base["module"]
    return [
        base,
        {**base, "seed": 1, "solved": False, "solved_at": None},
        {**base, "subset_ratio": 0.05},
        {**base, "input_size": 10, "solved": False, "solved_at": None},
        {**base, "hidden_size": 4},
        {**base, "operation": "add", "subset_ratio": 0.05},
        {**base, "input_size": 10, "overlap_ratio": 0.0},
    ]


def test_figures_3_7_8_vary_one_parameter_with_the_defaults_in_each():
    points = varied_parameters.varied_points(_varied_rows())
    ((model, parameters),) = points.items()
    assert model == ("nmu", "adam", "threefry", 50_000)
    sizes = {value: len(rows) for value, rows in parameters["input_size"].items()}
    assert sizes == {10: 1, 100: 2}
    assert sorted(parameters["subset_ratio"]) == [0.05, 0.25]
    assert "overlap_ratio" not in parameters  # varied only with another
    assert {v: len(rows) for v, rows in parameters["hidden_size"].items()} == {
        2: 2,
        4: 1,
    }
    text = varied_parameters.varied_markdown(_varied_rows())
    line = next(x for x in text.splitlines() if "| subset ratio | 0.25 |" in x)
    assert "| 2 | 1 | 50% [" in line  # the defaults' two seeds, one solved
    assert varied_parameters.varied_markdown([_row(0, True)]) == ""


def test_figures_3_7_8_are_drawn_when_rows_vary_a_parameter(tmp_path):
    pytest.importorskip("matplotlib")
    paths = arithmetic_report.figure_report(_varied_rows(), str(tmp_path))
    names = [os.path.basename(p) for p in paths]
    assert "arithmetic_varied_parameters.png" in names


def test_identity_and_relative_score_tables(tmp_path):
    identity_rows = [
        {
            "task": "identity",
            "activation": "tanh",
            "max_steps": 10_000,
            "mean_absolute_error": error,
        }
        for error in (490.0, 494.0, 498.0)
    ]
    arithmetic_rows = [
        {
            "task": "arithmetic",
            "model": "nac",
            "operation": "add",
            "max_steps": 1_000,
            "best_step": 1_000,
            "interpolation_mse": 1.0,
            "extrapolation_mse": 2.0,
            "initial_interpolation_mse": 100.0,
            "initial_extrapolation_mse": 400.0,
        }
    ]
    text = identity.identity_markdown(identity_rows)
    line = next(x for x in text.splitlines() if x.startswith("| tanh"))
    assert "| 494 [484, 504] | 493.65 | 0.89 | 98.8 | 98.7 |" in line
    text = success.relative_scores_markdown(arithmetic_rows, "Relative")
    assert "| + | 1,000 | I | 1 |" in text and "| + | 1,000 | E | 0.5 |" in text


def test_trask_static_scores_are_medians_beside_table_7():
    def row(model, seed, extrapolation_mse):
        return {
            "task": "trask_static",
            "model": model,
            "seed": seed,
            "operation": "mul",
            "max_steps": 100,
            "best_step": 100,
            "interpolation_mse": 1.0,
            "extrapolation_mse": extrapolation_mse,
            "initial_interpolation_mse": 10.0,
            "initial_extrapolation_mse": 1000.0,
        }

    rows = [row("nalu", 0, 10.0), row("nalu", 1, math.nan), row("nalu", 2, 30.0)]
    rows += [row("mlp_relu6", 0, 50.0)]
    text = success.relative_scores_markdown(
        rows, "Trask", arithmetic_report.trask_table(7)
    )
    header = next(line for line in text.splitlines() if line.startswith("| operation"))
    assert header.index("mlp_relu6") < header.index("nalu")  # table 7's order
    # NALU: 1 %, diverged (inf), 3 % -> median 3; table 7's a x b: 0.0 both
    assert "| × | 100 | I | 10 / 3.2 | 10 / 0.0 |" in text
    assert "| × | 100 | E | 5 / 10.1 | 3 / 0.0 |" in text
    raw = success.relative_scores_markdown(
        rows, "Raw", arithmetic_report.trask_table(12), score=success.raw_mse
    )
    # NALU: 10, inf, 30 -> 30; table 12's a x b: ReLU6 366.6, the NALU absent
    assert "| × | 100 | E | 50 / 366.6 | 30 |" in raw


def test_every_task_of_a_file_goes_to_its_registered_report(rows_file, tmp_path):
    rows = read_rows([rows_file])
    rows.append(
        {
            "task": "identity",
            "activation": "relu",
            "max_steps": 100,
            "mean_absolute_error": 12.0,
        }
    )
    text, paths = report.build(rows)
    assert "Single Module Task" in text and "Learning the identity" in text
    assert paths == []
    with pytest.raises(ValueError, match="Unknown task 'sorting'"):
        report.build([{"task": "sorting"}])


def test_published_means_outside_our_intervals_are_flagged(rows_file, tmp_path):
    """The sparsity errors of the fixture (1e-6 ... 2e-5) put the survey's
    1e-16 far outside our interval: its cell is flagged and counted."""
    output = tmp_path / "report.md"
    report.main([rows_file, "--output", str(output)])
    text = output.read_text()
    line = next(x for x in text.splitlines() if x.startswith("| nmu"))
    assert line.endswith("| 1e-16 ⚑ |")
    assert "for the sparsity error in 1 of 1 configurations" in text
    # the survey prints no bounds for an exact weight (1e-16): ours decide
    assert "bounds as well (a gap beyond both estimates' uncertainty)" in text
    assert text.rstrip().endswith("sparsity error in 1.")
    paper = {"solved_at_mean": "2800", "sparsity_error_mean": ""}
    assert not success.outside_interval(
        (2950.0, 2700.0, 3200.0), paper, "solved_at_mean"
    )
    assert success.outside_interval((2950.0, 2900.0, 3000.0), paper, "solved_at_mean")
    assert not success.outside_interval(
        (1e-6, 1e-7, 1e-5), paper, "sparsity_error_mean"
    )
    one_run = (2950.0, float("nan"), float("nan"))  # a single solved run
    assert not success.outside_interval(one_run, paper, "solved_at_mean")


def test_a_published_mean_stands_for_every_value_that_prints_as_it():
    """The papers print two significant digits: 1.7e+04 is anything in
    [16 500, 17 500], so an interval from 17 200 does not exclude it."""
    assert success.printed_range("1.7e+04") == pytest.approx((16_500, 17_500))
    assert success.printed_range("4.2e-07") == pytest.approx((4.15e-7, 4.25e-7))
    assert success.printed_range("2800") == (2799.5, 2800.5)
    paper = {"solved_at_mean": "1.7e+04"}
    assert not success.outside_interval(
        (17_600, 17_200, 18_000), paper, "solved_at_mean"
    )
    assert success.outside_interval((18_000, 17_600, 18_400), paper, "solved_at_mean")
    assert success.outside_interval((15_900, 15_800, 16_400), paper, "solved_at_mean")


def test_two_estimates_differ_only_beyond_both_their_uncertainties():
    """The survey's mean has its own 95 % interval: with it, a gap of 500
    steps (from what 1.6e+04 stands for, up to 16 500) is inside
    sqrt(100^2 + 500^2), though outside our interval."""
    paper = {
        "solved_at_mean": "1.6e+04",
        "solved_at_upper": "500",
        "solved_at_lower": "200",
    }
    ours = (17_000.0, 16_900.0, 17_100.0)
    assert success.outside_interval(ours, paper, "solved_at_mean")
    assert not success.outside_joint_interval(ours, paper, "solved_at_mean")
    # below the paper's mean its lower bound counts: sqrt(100^2 + 200^2) < 600
    assert success.outside_joint_interval(
        (14_900.0, 14_800.0, 15_000.0), paper, "solved_at_mean"
    )
    # no published bounds: only ours
    bare = {"solved_at_mean": "1.6e+04"}
    assert success.outside_joint_interval(ours, bare, "solved_at_mean")


def _published_script(folder, name, monkeypatch):
    directory = os.path.dirname(published_table(folder, f"{name}.py"))
    monkeypatch.syspath_prepend(directory)
    path = os.path.join(directory, f"{name}.py")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_survey_tables_are_read_with_their_bounds(monkeypatch):
    extract = _published_script("single_module", "extract_mistry_tables", monkeypatch)
    text = "−14% 4.9 · 104 +8.2·102 −8.3·102 1.4 · 10−5 +2.3·10−6 −2.3·10−6"
    assert extract.statistics(text) == [
        ["4.9e+04", "820", "830"],
        ["1.4e-05", "2.3e-06", "2.3e-06"],
    ]
    single = "2.0 · 103 +NaN ·10−Inf −NaN ·10−Inf 1.0 · 10−16 +NaN ·10−Inf"
    assert extract.statistics(single) == [["2e+03", "", ""], ["1e-16", "", ""]]
    assert extract.statistics("−0% — —") == [["", "", ""], ["", "", ""]]


#: Madsen table 1 as the paper's text prints it (operation marks included).
MADSEN_TABLE_1_TEXT = """Table 1: Comparison of the success-rate ...
NAC• 13% +8%
−5% 5.5 · 104 5.9 · 104 +7.8·103

−6.6·103 7.5 · 10−6 +2.0·10−6

−2.0·10−6

NALU 0% +4%
−0% — — —×
NMU 94% +3%

−6% 1.4 · 104 1.4 · 104 +2.2·102
−2.1·102 2.6 · 10−8 +6.4·10−9

−6.4·10−9

2 INTRODUCING"""


def test_madsens_bounds_are_read_and_checked_against_the_typed_table(monkeypatch):
    extract = _published_script("arithmetic", "extract_madsen_bounds", monkeypatch)
    read = extract.table_rows(MADSEN_TABLE_1_TEXT, "Table 1:", "2 INTRODUCING")
    assert [success for success, _ in read] == [13, 0, 94]
    assert read[1][1] == []
    assert read[2][1] == [
        ["1.4e+04", "", ""],
        ["1.4e+04", "220", "210"],
        ["2.6e-08", "6.4e-09", "6.4e-09"],
    ]
    typed = [
        {"operation": "mul", "model": m, "success_rate": rate}
        | dict(zip(("solved_at_median", "solved_at_mean", "sparsity_error_mean"), v))
        for m, rate, v in (
            ("nac_mul", "0.13", ("5.5e+04", "5.9e+04", "7.5e-06")),
            ("nalu", "0.00", ("", "", "")),
            ("nmu", "0.94", ("1.4e+04", "1.4e+04", "2.6e-08")),
        )
    ]
    rows = extract.with_bounds([dict(row) for row in typed], read)
    assert [rows[0][key] for key in extract.BOUNDS] == ["7.8e+03", "6.6e+03"] + [
        "2e-06",
        "2e-06",
    ]
    assert [rows[1][key] for key in extract.BOUNDS] == [""] * 4
    typed[2]["solved_at_mean"] = "1.5e+04"
    with pytest.raises(ValueError, match="nmu"):
        extract.with_bounds(typed, read)
    with pytest.raises(ValueError, match="rows in the CSV"):
        extract.with_bounds(typed[:2], read)


REPORT_INPUTS = {
    "missing": None,
    "empty": b"",
    "corrupt": b'{"config": {"a": 1}, "seed": 0, "task": "ident',
    "foreign": b'{"a": 1}\n',
    "unknown task": b'{"config": {}, "seed": 0, "task": "sorting"}\n',
}


@pytest.mark.parametrize("content", REPORT_INPUTS.values(), ids=list(REPORT_INPUTS))
def test_a_file_that_is_not_rows_is_reported_in_one_line_with_status_2(
    tmp_path, capsys, content
):
    path = tmp_path / "rows.jsonl"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(SystemExit) as exited:
        report.main([str(path)])
    assert exited.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error.startswith("usage: ") is False and "error: " in error
    assert str(path) in error or "sorting" in error
    if content is not None:
        assert path.read_bytes() == content


def test_the_reports_output_directory_is_made_and_a_directory_refused(tmp_path, capsys):
    rows_file = tmp_path / "rows.jsonl"
    committed = os.path.join(
        os.path.dirname(report.__file__), "identity/results/linear_halving.jsonl"
    )
    with open(committed) as handle:
        rows_file.write_text(handle.readline())
    output = tmp_path / "new" / "dir" / "report.md"
    assert report.main([str(rows_file), "--output", str(output)]) == 0
    assert "Trask" in output.read_text() or "identity" in output.read_text()
    with pytest.raises(SystemExit) as exited:
        report.main([str(rows_file), "--output", str(tmp_path / "new")])
    assert exited.value.code == 2
    assert "is a directory" in capsys.readouterr().err


def _is_png(path):
    with open(path, "rb") as handle:
        return handle.read(8) == b"\x89PNG\r\n\x1a\n"


def test_each_units_success_per_operation_is_one_figure(rows_file, tmp_path):
    pytest.importorskip("matplotlib")
    paths = single_module_report.figure_report(read_rows([rows_file]), str(tmp_path))
    rates = [p for p in paths if os.path.basename(p) == "single_module_rates.png"]
    assert len(rates) == 1 and _is_png(rates[0])


def test_the_identity_and_recurrent_reports_draw_their_tables(tmp_path):
    pytest.importorskip("matplotlib")
    errors = [
        {"activation": activation, "mean_absolute_error": error}
        for activation, error in (("relu", 30.0), ("relu", 40.0), ("none", 0.5))
    ]
    (path,) = identity.identity_figure(errors, str(tmp_path))
    assert os.path.basename(path) == "identity_table5.png" and _is_png(path)
    recurrent = [
        {
            "task": "recurrent_trask",
            "model": model,
            "operation": "add",
            "max_steps": 1000,
            "seed": seed,
            "interpolation_mse": 0.5,
            "extrapolation_mse": 2.0,
            "initial_interpolation_mse": 1.0,
            "initial_extrapolation_mse": 4.0,
        }
        for model in ("lstm", "nac")
        for seed in range(2)
    ]
    (path,) = recurrent_report.recurrent_figure(recurrent, str(tmp_path))
    assert os.path.basename(path) == "recurrent_table9_1000_1_2.png"
    assert _is_png(path)


def test_a_searchs_log_is_drawn_by_its_command(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    log = tmp_path / "search.txt"
    log.write_text(
        json.dumps({"score": 2.0, "values": {"unit": "nmu"}})
        + "\n"
        + json.dumps({"score": 7.0, "values": {"unit": "nau"}})
        + "\nbest 2 trials:\n"
    )
    figure = tmp_path / "figures" / "search.png"
    assert tune_figure.main([str(log), "--output", str(figure)]) == 0
    assert _is_png(figure)
    with pytest.raises(SystemExit) as stopped:
        tune_figure.main([str(log), "--output", str(tmp_path / "search.txt")])
    assert stopped.value.code == 2
    assert "is not a .png file" in capsys.readouterr().err
