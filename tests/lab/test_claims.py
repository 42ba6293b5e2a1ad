"""`python -m benchmarks.claims` (issue 12, item 6): the results README's
numbers are recomputed from the committed rows."""

import csv
import json
import math
import os
import subprocess
import sys

import pytest
from scipy import stats

from benchmarks import claims
from benchmarks import provenance
from benchmarks import report
from benchmarks.core import claim_rows
from benchmarks.language.programs_report import programs_markdown as report_markdown
from benchmarks.sequential_mnist import claims as sequential_mnist_claims
from benchmarks.static_arithmetic import claims as static_arithmetic_claims
from tests.lab import ROOT
from tests.lab.test_report import _row
from tests.lab.test_report import _varied_rows

SURVEY_NMU_MUL_1_2 = 25  # the survey's NMU x on U[1,2): 100 % of 25 seeds


@pytest.fixture
def results(tmp_path, monkeypatch):
    """A results directory: NMU x solved by 9 of 25 seeds on U[1,2) (the
    survey: 25 of 25) and by 25 of 25 on U[10,20)."""
    rows = [_row(seed, seed < 9) for seed in range(25)]
    rows += [_row(seed, True, value_range="10,20") for seed in range(25)]
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "verdicts.csv").write_text(
        "task,unit,operation,interpolation_range,steps,verdict,experiment\n"
    )
    monkeypatch.setattr(claim_rows, "ROOT", str(tmp_path))
    return tmp_path


def test_the_committed_results_readme_agrees_with_the_committed_rows():
    assert claims.main(["--check"]) == 0


def test_check_lists_stale_claims_and_the_command_rewrites_them(results, capsys):
    readme = results / "README.md"
    stale = (
        "NMU solved <!--= solved rows.jsonl interpolation_range=1,2 -->3 of 25<!--/-->"
        " (<!--= success rows.jsonl interpolation_range=1,2 -->12 %<!--/-->).\n"
    )
    readme.write_text(stale)
    assert claims.main(["--check", str(readme)]) == 1
    assert "'3 of 25' -> '9 of 25'" in capsys.readouterr().out
    assert readme.read_text() == stale
    assert claims.main([str(readme)]) == 0
    assert readme.read_text() == (
        "NMU solved <!--= solved rows.jsonl interpolation_range=1,2 -->9 of 25<!--/-->"
        " (<!--= success rows.jsonl interpolation_range=1,2 -->36 %<!--/-->).\n"
    )
    assert claims.main(["--check", str(readme)]) == 0


def test_the_operations_table_counts_each_unit_on_each_operation(results):
    table = claims.evaluate("operations_table rows.jsonl interpolation_range=1,2")
    assert table.splitlines()[1:] == [
        "| unit | + | − | × | ÷ |",
        "|---|---:|---:|---:|---:|",
        f"| nmu | — | — | 9 of 25 ({SURVEY_NMU_MUL_1_2}) | — |",
    ]
    both = claims.evaluate("operations_table rows.jsonl").splitlines()[-1]
    assert both.startswith("| nmu | — | — | 34 of 50 (")


def test_counts_and_p_value_against_the_survey(results):
    expected = stats.fisher_exact([[9, 16], [SURVEY_NMU_MUL_1_2, 0]]).pvalue
    assert claims.evaluate("fisher rows.jsonl interpolation_range=1,2") == (
        f"{expected:.2g}"
    )
    assert expected < 0.05
    assert claims.evaluate("flagged rows.jsonl") == "1"
    assert claims.evaluate("unflagged rows.jsonl") == "1"
    # 9/25's Wilson interval excludes the survey's 100 %; 25/25's holds it.
    assert claims.evaluate("inside rows.jsonl") == "1 of 2"
    # filters after the files keep only the matching rows' configurations
    assert claims.evaluate("inside rows.jsonl interpolation_range=1,2") == "0 of 1"
    assert claims.evaluate("flagged rows.jsonl interpolation_range=1,2") == "1"


def test_sparsity_means_that_differ_are_set_beside_the_survey_s(results):
    # NMU x on U[1,2): ours 1.3e-5 against the survey's floor of 1e-16; on
    # U[1.1,1.2) ours at the survey's 2.3e-7, so not differing
    rows = [_row(seed, True) for seed in range(25)]
    rows += [
        {**_row(seed, True, value_range="1.1,1.2"), "sparsity_error": error}
        for seed, error in enumerate(2.3e-7 + 1e-9 * (s - 12) for s in range(25))
    ]
    _write_rows(results, "sparsity.jsonl", rows)
    assert claims.evaluate("outside_sparsity_joint sparsity.jsonl") == "1 of 2"
    means = claims.evaluate("outside_sparsity_joint_means sparsity.jsonl")
    assert means == "1.3·10⁻⁵ against 1.0·10⁻¹⁶"
    with pytest.raises(ValueError, match="No sparsity mean of sparsity.jsonl"):
        claims.evaluate(
            "outside_sparsity_joint_means sparsity.jsonl interpolation_range=1.1,1.2"
        )


def test_a_unit_is_reproduced_range_by_range_only_if_every_range_is_inside(results):
    # NMU x: U[10,20) inside (25 of 25 against 100 %), U[1,2) not (9 of 25)
    claim = "inside_every_range rows.jsonl"
    assert claims.evaluate(claim + " interpolation_range=10,20") == "nmu on mul"
    with pytest.raises(ValueError, match="No unit and operation is inside"):
        claims.evaluate(claim)
    # listed in the units' order, each unit's operations in theirs
    rows = [_row(seed, True) for seed in range(25)]
    for operation in ("sub", "add"):
        rows += [
            {**_row(seed, True, module="nau"), "operation": operation}
            for seed in range(25)
        ]
    _write_rows(results, "units.jsonl", rows)
    assert claims.evaluate("inside_every_range units.jsonl") == (
        "nau on add and sub; nmu on mul"
    )


def test_differences_table_shows_a_verdict_or_says_there_is_none(results):
    p = stats.fisher_exact([[9, 16], [SURVEY_NMU_MUL_1_2, 0]]).pvalue
    table = claims.evaluate("differences rows.jsonl").strip().splitlines()
    assert table[:2] == static_arithmetic_claims.DIFFERENCES_HEADER.splitlines()
    assert table[2:] == [
        f"| Mistry table 11 | nmu ×, U[1,2) | 9 of 25 | 100 % | {p:.2g} "
        "| **no verdict** |  |"
    ]
    with open(results / "results" / "verdicts.csv", "a") as handle:
        handle.write('single_module,nmu,mul,"1,2",,open: a test,fixture.jsonl\n')
    row = claims.evaluate("differences rows.jsonl").strip().splitlines()[2]
    assert row.endswith("| open: a test | `fixture.jsonl` |")


def test_the_command_reports_a_bad_claim_without_a_traceback(results, capsys):
    readme = results / "README.md"
    readme.write_text("<!--= solved rows.jsonl module=nau -->1 of 2<!--/-->\n")
    with pytest.raises(SystemExit) as stop:
        claims.main(["--check", str(readme)])
    assert stop.value.code == 2
    assert "No row of rows.jsonl matches module=nau" in capsys.readouterr().err


def test_bad_claims_fail_with_a_clear_message(results):
    with pytest.raises(ValueError, match="Unknown claim 'mode'; known: "):
        claims.evaluate("mode rows.jsonl")
    with pytest.raises(ValueError, match="which is not in"):
        claims.evaluate("solved missing.jsonl")
    with pytest.raises(ValueError, match="No row of rows.jsonl matches module=nau"):
        claims.evaluate("solved rows.jsonl module=nau")
    with pytest.raises(ValueError, match="FIELD=VALUE, not 'nmu'"):
        claims.evaluate("runs rows.jsonl nmu")
    with pytest.raises(ValueError, match="needs one configuration; .* matches 2"):
        claims.evaluate("fisher rows.jsonl module=nmu")


def test_range_grid_counts_successes_where_not_every_seed_succeeds(results):
    header, rule, row = claims.evaluate("range_grid rows.jsonl").strip().splitlines()
    assert header.split(" | ")[1:3] == ["U[-20,-10)", "U[-2,-1)"]
    assert rule == "|---|" + "---:|" * 9
    # table 3's order: ..., U[0.1,0.2), U[1,2), U[1.1,1.2), U[10,20)
    assert row == "| nmu, ×, 2 | — | — | — | — | — | — | 9 | — |  |"


def test_aggregate_table_sets_a_units_successes_beside_its_published_rate(results):
    """The rows: 34 of 50 (NMU x on two ranges); published: 90 % of 100
    runs, so 90 solved; Fisher's p from SciPy on the same 2 x 2 table."""
    (results / "published.csv").write_text(
        "unit,module,input_size,operation,runs,success_rate\n"
        "the NMU,nmu,2,mul,100,0.9\n"
    )
    header, rule, line = (
        claims.evaluate("aggregate_table published.csv rows.jsonl").strip().splitlines()
    )
    assert header.split(" | ")[1] == "solved"
    p = stats.fisher_exact([[34, 16], [90, 10]]).pvalue
    low, high = (
        100 * value for value in stats.binomtest(34, 50).proportion_ci(method="wilson")
    )
    assert line == (
        f"| the NMU | 34 of 50 | 68.0 % ({low:.1f}-{high:.1f} %) "
        f"| 90.0 % of 100 | {p:.2g} | **no verdict** |"
    )
    with open(results / "results" / "verdicts.csv", "a") as handle:
        handle.write("single_module,nmu,mul,all,,open: a test,fixture.jsonl\n")
    line = claims.evaluate("aggregate_table published.csv rows.jsonl").splitlines()[-1]
    assert line.endswith(f"| {p:.2g} | open: a test |")
    (results / "published.csv").write_text(
        "unit,module,input_size,operation,runs,success_rate\n"
        "the NAU,nau,2,add,100,0.8\n"
    )
    with pytest.raises(ValueError, match="not the runs of one unit the table"):
        claims.evaluate("aggregate_table published.csv rows.jsonl")


def test_statistics_of_a_field_are_written_as_the_readme_writes_numbers(results):
    # solved_at of the 9 solved seeds on U[1,2): 2 000, 2 100, ..., 2 800
    solved = "interpolation_range=1,2 solved=True"
    assert claims.evaluate(f"mean rows.jsonl solved_at {solved}") == "2 400"
    assert claims.evaluate(f"median rows.jsonl solved_at {solved}") == "2 400"
    assert claims.evaluate(f"maximum rows.jsonl solved_at {solved}") == "2 800"
    assert claims.evaluate(f"below rows.jsonl solved_at 2500 {solved}") == "5 of 9"
    # the run solved first (seed 0) has the smallest sparsity error, 1e-6
    assert claims.evaluate(f"at_best rows.jsonl seed solved_at {solved}") == "0"
    best = f"at_best rows.jsonl sparsity_error solved_at {solved}"
    assert claims.evaluate(best) == "1.0·10⁻⁶"
    # sparsity errors 1e-6 ... 2.5e-5 on U[10,20), 25 seeds: mean 1.3e-5
    spread = "sparsity_error interpolation_range=10,20"
    assert claims.evaluate(f"mean rows.jsonl {spread}") == "1.3·10⁻⁵"
    assert claims.evaluate(f"median rows.jsonl {spread}") == "1.3·10⁻⁵"
    assert claims.evaluate(
        "value rows.jsonl sparsity_error .2e seed=3 interpolation_range=1,2"
    ) == ("4.00e-06")
    assert claims.evaluate(
        "value rows.jsonl solved_at .1% seed=3 interpolation_range=1,2"
    ) == ("230000.0 %")
    nested = "value rows.jsonl mse.6 .1f seed=3 interpolation_range=1,2"
    with pytest.raises(ValueError, match="A row has no field 'mse.6'"):
        claims.evaluate(nested)
    with pytest.raises(ValueError, match="needs one row; seed=3 matches 2"):
        claims.evaluate("value rows.jsonl seed .0f seed=3")
    assert [claim_rows.pretty(v) for v in (0, 0.66, 27.44, 1234.5, 2.5e6)] == [
        "0",
        "0.66",
        "27.4",
        "1 234",
        "2.5·10⁶",
    ]


def test_the_program_table_of_a_file_is_its_reports_table(results):
    rows = [
        {
            "task": "program_add",
            "model": "nac_rnn",
            "max_steps": 5000,
            "mae": {"1-2": 0.5 + seed, "3": 900.0},
            "accuracy": {"1-2": 1.0, "3": 0.0},
        }
        for seed in range(2)
    ]
    (results / "programs.jsonl").write_text(
        "".join(json.dumps(row) + "\n" for row in rows)
    )
    table = claims.evaluate("program_table programs.jsonl").strip().splitlines()
    assert table[0] == "| model | runs | MAE 1-2 | MAE 3 | acc. 1-2 | acc. 3 |"
    # mean 1.0, 2σ = 2 * 0.707 = 1.41
    assert table[2] == "| nac_rnn | 2 | 1 ± 1.41 | 900 ± 0 | 1 ± 0 | 0 ± 0 |"
    report = report_markdown(rows)
    assert "\n".join(table) in report
    (results / "twice.jsonl").write_text(
        "".join(json.dumps({**row, "max_steps": 10}) + "\n" for row in rows)
        + (results / "programs.jsonl").read_text()
    )
    with pytest.raises(ValueError, match="holds 2 program experiments, not 1"):
        claims.evaluate("program_table twice.jsonl")


def _write_rows(directory, name, rows):
    (directory / name).write_text("".join(json.dumps(r) + "\n" for r in rows))


def test_trask_scores_are_medians_over_seeds_against_their_baselines(results):
    """Table 7's score is against the model untrained, table 9's against
    the untrained LSTMs; a range covers the configurations named."""
    static = [
        {
            "task": "trask_static",
            "model": model,
            "operation": "add",
            "max_steps": 100_000,
            "seed": seed,
            "best_step": 1000,
            "extrapolation_mse": mse,
            "initial_extrapolation_mse": 200.0,
        }
        for model, mses in (("nac", (1.0, 3.0, 8.0)), ("mlp_tanh", (50.0, 70.0, 90.0)))
        for seed, mse in enumerate(mses)
    ]
    _write_rows(results, "static.jsonl", static)
    # medians 3 and 70 of 200: scores 1.5 and 35
    claim = "score static.jsonl extrapolation operation=add"
    assert claims.evaluate(f"{claim} model=nac") == "1.5"
    assert claims.evaluate(f"{claim} model=nac|mlp_tanh") == "1.5-35"
    claim = "raw_mse static.jsonl extrapolation operation=add"
    assert claims.evaluate(f"{claim} model=nac|mlp_tanh") == "3-70"
    recurrent = [
        {
            "task": "recurrent_trask",
            "model": model,
            "operation": "a",
            "max_steps": 100_000,
            "seed": seed,
            "interpolation_mse": mse,
            "initial_interpolation_mse": initial,
            "extrapolation_mse": math.inf if model == "nalu" else mse,
            "initial_extrapolation_mse": initial,
        }
        for model, mses, initial in (
            ("lstm", (2.0, 4.0, 6.0), 10.0),
            ("lstm", (1.0, 1.0, 1.0), 30.0),
            ("nalu", (0.5, 0.5, 0.5), 1.0),
        )
        for seed, mse in enumerate(mses)
    ]
    _write_rows(results, "recurrent.jsonl", recurrent)
    # the untrained LSTMs' mean MSE is 20; the LSTMs' median MSE is 1.5
    claim = "score recurrent.jsonl interpolation operation=a"
    assert claims.evaluate(f"{claim} model=lstm") == "7.5"
    assert claims.evaluate(f"{claim} model=nalu") == "2.5"
    assert claims.evaluate("score recurrent.jsonl extrapolation model=nalu") == "∞"
    # each seed on its own: the LSTMs' MSEs 1.5, 2.5, 3.5 score 7.5-17.5
    below = "seeds_below recurrent.jsonl"
    assert claims.evaluate(f"{below} interpolation 10 model=lstm") == "1 of 3"
    assert claims.evaluate(f"{below} interpolation 3 model=nalu") == "3 of 3"
    assert claims.evaluate(f"{below} extrapolation 3 model=nalu") == "0 of 3"


def test_a_field_of_a_field_is_named_with_a_dot(results):
    rows = [
        {"model": "nau", "seed": seed, "test_mse": {"1": 0.1 * seed, "10": 2.0 * seed}}
        for seed in range(1, 4)
    ]
    _write_rows(results, "mnist.jsonl", rows)
    assert claims.evaluate("mean mnist.jsonl test_mse.10 model=nau") == "4"
    assert claims.evaluate("range mnist.jsonl test_mse.1 model=nau") == "0.1-0.3"
    assert claims.evaluate("percent_range mnist.jsonl test_mse.1") == "10-30"
    assert claims.evaluate("percent_range mnist.jsonl test_mse.1 seed=2|3") == "20-30"
    assert claims.evaluate("value mnist.jsonl test_mse.1 .2f seed=3") == "0.30"
    assert claims.evaluate("at_best mnist.jsonl seed test_mse.10 model=nau") == "1"
    _write_rows(results, "series.jsonl", [{"model": "nru", "loss": [None, 3.5, 2.0]}])
    assert claims.evaluate("value series.jsonl loss.1 .1f model=nru") == "3.5"
    with pytest.raises(ValueError, match="no field 'loss.3'"):
        claims.evaluate("value series.jsonl loss.3 .1f model=nru")


def test_a_bound_filter_keeps_the_rows_whose_number_is_on_its_side(results):
    rows = [
        {"model": "nau", "seed": seed, "error": error, "mae": {"1-2": 10.0 * seed}}
        for seed, error in enumerate((0.5, 1e-6, 0.49, 2e-6))
    ]
    rows.append({"model": "nau", "seed": 4, "error": None, "mae": {}})
    _write_rows(results, "bounded.jsonl", rows)
    assert claims.evaluate("range bounded.jsonl error error>=1e-5") == "0.49-0.5"
    assert claims.evaluate("range bounded.jsonl seed error>=1e-5") == "0-2"
    small = claims.evaluate("range bounded.jsonl error error<=1e-5")
    assert small == "1.0·10⁻⁶-2.0·10⁻⁶"
    # the bound itself is inside; an entry is named as `field` names it
    assert claims.evaluate("runs bounded.jsonl mae.1-2<=10") == "2"
    assert claims.evaluate("runs bounded.jsonl mae.1-2>=10 model=nau") == "3"
    with pytest.raises(ValueError, match="'error<=low' bounds a field by 'low'"):
        claims.evaluate("runs bounded.jsonl error<=low")


def test_changed_counts_rows_whose_field_differs_from_the_same_job_earlier(results):
    def rows(mse_of_seed):
        return [
            {"config": {"model": m}, "model": m, "seed": seed, "mse": mse_of_seed(seed)}
            for m in ("nau", "nmu")
            for seed in range(4)
        ]

    _write_rows(results, "before.jsonl", rows(float)[:7])  # nmu seed 3 missing
    _write_rows(results, "after.jsonl", rows(lambda seed: float(seed > 1)))
    claim = "changed after.jsonl before.jsonl mse"
    assert claims.evaluate(f"{claim} model=nau") == "3 of 4"  # seeds 1, 2, 3
    assert claims.evaluate(f"{claim} model=nmu") == "2 of 3"  # seed 3 not before
    assert claims.evaluate(f"{claim} model=nau seed=0") == "0 of 1"
    with pytest.raises(ValueError, match="is in before.jsonl"):
        claims.evaluate(f"{claim} model=nmu seed=3")
    diverged = rows(lambda seed: math.nan if seed else 0.0)
    _write_rows(results, "diverged.jsonl", diverged)
    _write_rows(results, "again.jsonl", [{**row, "mse": math.nan} for row in diverged])
    # NaN alike with NaN: only the seeds 0, 0.0 before, changed
    assert claims.evaluate("changed again.jsonl diverged.jsonl mse") == "2 of 8"


def test_a_variant_is_alike_with_its_unit_in_every_field_but_its_name_and_run(
    results,
):
    def row(module, seed, mse, **fields):
        return {
            "config": {"module": module, "operation": "div"},
            "module": module,
            "operation": "div",
            "seed": seed,
            "extrapolation_mse": mse,
            "solved": False,
            **fields,
        }

    nan = math.nan
    unit = [row("inalu", seed, mse) for seed, mse in enumerate((1.0, nan, 3.0, 4.0))]
    unit.append(row("nalu", 5, 5.0))
    _write_rows(results, "earlier.jsonl", unit)
    variant = [
        row("inalu_keep_adam", 0, 1.0, commit="b", wall_seconds=9.0, device="GPU"),
        row("inalu_keep_adam", 1, nan),  # diverged either way: alike
        row("inalu_keep_adam", 2, 3.0, solved=True),
        row("inalu_keep_adam", 3, 4.5),
        row("inalu_keep_adam", 5, 5.0),  # no inalu run of seed 5
    ]
    _write_rows(results, "variant.jsonl", variant)
    claim = "variant_alike variant.jsonl earlier.jsonl"
    assert claims.evaluate(f"{claim} inalu") == "2 of 4"
    assert claims.evaluate(f"{claim} nalu") == "1 of 1"
    _write_rows(results, "other.jsonl", [row("inalu", 9, 1.0)])
    with pytest.raises(ValueError, match="is a run of inalu in other.jsonl"):
        claims.evaluate("variant_alike variant.jsonl other.jsonl inalu")


def test_two_sweeps_compare_per_configuration_and_per_run_a_variant_as_its_unit(
    results,
):
    def row(module, operation, seed, solved, mse, commit=None, generator=None):
        config = {"module": module, "operation": operation}
        config.update({"generator": generator} if generator else {})
        made = {"config": config, "seed": seed, "solved": solved, "commit": commit}
        return {**config, **made}, mse

    def rows_of(*made):
        return [{**row, "extrapolation_mse": mse} for row, mse in made]

    _write_rows(
        results,
        "tensorflow.jsonl",
        rows_of(
            *(row("npu", "div", s, s < 2, 1.0 + s) for s in range(3)),
            *(row("nalu", "add", s, s == 0, 1.0) for s in range(2)),
        ),
    )
    new = {"commit": "c", "generator": "threefry2x32"}
    _write_rows(
        results,
        "main.jsonl",
        rows_of(
            *(row("nalu", "add", s, s == 0, 9.0, **new) for s in range(2)),
            row("nalu", "add", 0, False, 9.0, commit="later"),  # filtered out
        ),
    )
    renamed = [row("npu_constrained_straight_through", "div", 0, True, 1.0, **new)]
    renamed += [
        row("npu_constrained_straight_through", "div", s, False, 1.0 + s, **new)
        for s in (1, 2)
    ]
    _write_rows(results, "renamed.jsonl", rows_of(*renamed))
    others = "main.jsonl renamed.jsonl commit=c"
    # npu ÷: 2 solved against 1; nalu +: 1 against 1
    assert claims.evaluate(f"sweeps_alike tensorflow.jsonl {others}") == "1 of 2"
    # npu seeds 0 and 1 end alike, nalu seed 0 does not (1.0 against 9.0)
    claim = f"runs_alike tensorflow.jsonl extrapolation_mse {others}"
    assert claims.evaluate(claim) == "2 of 3"
    assert claims.evaluate(f"solved {others}") == "2 of 5"
    with pytest.raises(ValueError, match="Two rows are the run"):
        claims.evaluate("sweeps_alike tensorflow.jsonl main.jsonl renamed.jsonl")
    with pytest.raises(ValueError, match="no run of"):
        claims.evaluate("sweeps_alike tensorflow.jsonl renamed.jsonl commit=c")
    _write_rows(results, "odd.jsonl", rows_of(row("transformer", "div", 0, 1, 0.0)))
    with pytest.raises(ValueError, match="'transformer' is no unit of the survey"):
        claims.evaluate("sweeps_alike odd.jsonl renamed.jsonl")


def test_a_running_prediction_is_read_after_the_line_naming_its_run(results):
    (results / "running.txt").write_text(
        "lstm, 16 units, seed 0 (test MAE 3.86)\n"
        '{"number": 20, "running": [["twenty", 19.96]]}\n'
        '{"number": 222, "running": [["two", 2.04], ["hundred", 150.0], '
        '["and", 1234.5]]}\n'
    )
    claim = "running_prediction running.txt"
    assert claims.evaluate(f"{claim} 222 .1f") == "2.0, 150.0, 1234.5"
    assert claims.evaluate(f"{claim} 222 -") == "2, 150, 1 234"
    assert claims.evaluate(f"{claim} 20 .0f") == "20"
    with pytest.raises(ValueError, match="no running prediction of 999"):
        claims.evaluate(f"{claim} 999 -")


def test_a_search_logs_trials_ranked_by_their_score(results):
    trials = [
        {"score": 7.7, "values": {"unit": "nau", "learning_rate": 0.01}},
        {"score": 2.26, "values": {"unit": "nmu", "warmup_start": 0.1}},
        {"score": 30.0, "values": {"unit": "nac", "learning_rate": 0.5}},
    ]
    (results / "search.txt").write_text(
        "".join(json.dumps(trial) + "\n" for trial in trials)
        + "best 3 trials (objective log10_extrapolation_mse):\n  2.26  {}\n"
    )
    assert claims.evaluate("tuning_trial search.txt 1 score .3g") == "2.26"
    assert claims.evaluate("tuning_trial search.txt 1 warmup_start .0%") == "10 %"
    assert claims.evaluate("tuning_trial search.txt 2 learning_rate .2f") == "0.01"
    assert claims.evaluate("tuning_scores search.txt unit=nau|nac") == "7.7-30"
    with pytest.raises(ValueError, match="ranked 2 in search.txt has no 'warmup"):
        claims.evaluate("tuning_trial search.txt 2 warmup_start .0%")
    with pytest.raises(ValueError, match="logs 3 trials, not one ranked 4"):
        claims.evaluate("tuning_trial search.txt 4 score .3g")


def test_the_gate_table_is_the_reports_figure_9(results):
    rows = [
        {**_row(seed, seed == 0), "task": "arithmetic", "gate": gate}
        for seed, gate in enumerate([0.02, 0.6, 0.97])
    ]
    _write_rows(results, "gated.jsonl", rows)
    table = claims.evaluate("gates gated.jsonl").strip().splitlines()
    assert table[2] == "| × | nmu | 50,000 | 3 | 1 (1) | 1 (0) | 1 (0) |"
    assert claims.evaluate("gates rows.jsonl") == ""


def test_the_varied_table_is_the_reports_figures_3_7_8(results):
    _write_rows(results, "varied.jsonl", _varied_rows())
    table = claims.evaluate("varied varied.jsonl").strip().splitlines()
    assert [line.split(" | ")[4:7] for line in table[2:]] == [
        ["hidden size", "2", "2"],
        ["hidden size", "4", "1"],
        ["input size", "10", "1"],
        ["input size", "100", "2"],
        ["subset ratio", "0.05", "1"],
        ["subset ratio", "0.25", "2"],
    ]
    assert claims.evaluate("varied rows.jsonl") == ""
    only_sizes = claims.evaluate("varied varied.jsonl subset_ratio=0.25")
    assert "subset ratio" not in only_sizes and "input size" in only_sizes


def test_a_variant_is_flagged_as_the_published_unit_it_varies(results):
    rows = [{**_row(seed, seed < 9), "module": "nmu_variant"} for seed in range(25)]
    _write_rows(results, "variant.jsonl", rows)
    assert claims.evaluate("flagged_as variant.jsonl _variant") == "1 of 1"
    assert claims.evaluate("flagged_as variant.jsonl -") == "0 of 0"
    assert claims.evaluate("flagged_as rows.jsonl - interpolation_range=10,20") == (
        "0 of 1"
    )


def test_a_statistic_over_rows_without_the_field_says_which_filter_is_missing(
    results,
):
    with pytest.raises(ValueError, match="solved_at is empty in 16 of the 25"):
        claims.evaluate("range rows.jsonl solved_at interpolation_range=1,2")
    assert claims.evaluate(
        "range rows.jsonl solved_at interpolation_range=1,2 solved=True"
    ) == ("2 000-2 800")


def test_the_suite_figures_count_every_pytest_run_of_a_command():
    from benchmarks.speed import test_suite

    output = (
        "== pytest on tensorflow: -n 2 --run-large\n"
        "..x.\n"
        "==== 1290 passed, 36 skipped, 1 xfailed in 1203.50s (0:20:03) ====\n"
        "== pytest on jax: --run-benchmarks tests/test_layers.py\n"
        "276 passed, 194 skipped in 361.49s (0:06:01)\n"
        "1 failed, 3 passed in 2.00s\n"
    )
    assert test_suite.counts(output) == {
        "passed": 1569,
        "skipped": 230,
        "xfailed": 1,
        "failed": 1,
    }
    assert test_suite.readme_test_command().endswith("python -m tests --run-large")
    demo = "Learning t = ...\nTrained in 27.0 s; the best epoch was 20 of 40.\nPASS\n"
    assert test_suite.demo_fields(demo) == {"training_seconds": 27.0}
    assert test_suite.demo_fields("Traceback ...\n") == {}


def test_the_suite_measures_a_named_commit_only_as_a_fresh_clone(capsys):
    from benchmarks.speed import test_suite

    with pytest.raises(SystemExit) as refused:
        test_suite.main(["quick", "--commit", "HEAD"])
    assert refused.value.code == 2
    assert "--commit measures the full command only" in capsys.readouterr().err
    with pytest.raises(SystemExit, match="'no-such-commit' names no commit"):
        test_suite.main(["full", "--commit", "no-such-commit"])
    assert test_suite._commit("HEAD") == test_suite._git("rev-parse", "HEAD")
    first = test_suite._git("rev-list", "--max-parents=0", "HEAD").splitlines()[0]
    assert test_suite._commit(first[:12]) == first  # the named one, not HEAD


def test_the_readmes_and_contributings_figures_agree_with_the_committed_rows(
    tmp_path, capsys
):
    readme = os.path.join(os.path.dirname(claim_rows.ROOT), "README.md")
    assert claims.main(["--check", readme]) == 0
    # CONTRIBUTING's table of the suite's costs (its examples of typed
    # results are instructions, not results)
    contributing = os.path.join(os.path.dirname(claim_rows.ROOT), "CONTRIBUTING.md")
    with open(contributing, encoding="utf-8") as handle:
        text = handle.read()
    found = [claims.expression(m["claim"]) for m in provenance.claims_in(text)]
    assert any(expression.startswith("suite_table ") for expression in found)
    assert claims.regenerate(text) == (text, [])
    # a named page is checked for typed results too
    copy = tmp_path / "README.md"
    with open(readme, encoding="utf-8") as handle:
        copy.write_text(handle.read() + "\nThe demo trains in 20-30 s.\n")
    assert claims.main(["--check", str(copy)]) == 1
    assert "'20-30 s' is a time typed outside a claim" in capsys.readouterr().out


def _copy_row(model, seed, curve, seconds):
    return {
        "task": "copy",
        "T": 100,
        "model": model,
        "seed": seed,
        "random_baseline": 0.2,  # converged: below 0.02
        "evaluation_steps": [1000 * i for i in range(len(curve))],
        "validation_cross_entropy_series": curve,
        "best_cross_entropy": min(curve),
        "wall_seconds": seconds,
    }


def test_the_nru_claims_read_convergence_steps_and_wall_times(results):
    rows = [
        _copy_row("nru", 0, [2.0, 0.01, 0.3, 0.5], 1800),  # at 1 000
        _copy_row("nru", 1, [2.0, 0.5, 0.5, 0.5], 1800),  # never
        _copy_row("nru", 2, [2.0, 0.5, 0.01, 0.5], 1800),  # at 2 000
        _copy_row("janet", 0, [2.0, 0.5, 0.01, 0.01], 3600),  # at 2 000: 2x
        _copy_row("janet", 1, [2.0, 0.5, 0.5, 0.01], 3600),  # the NRU never
        _copy_row("janet", 2, [2.0, 0.5, 0.5, 0.01], 3600),  # at 3 000: 1.5x
    ]
    (results / "copy.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert claims.evaluate("converged_median copy.jsonl model=nru") == "1 500"
    assert claims.evaluate("converged_median copy.jsonl model=janet") == "3 000"
    ratio = "converged_ratio copy.jsonl model=janet model=nru"
    assert claims.evaluate(ratio) == "1.5-2"
    assert claims.evaluate("at_step copy.jsonl 2000 model=nru seed=0") == "0.3"
    assert claims.evaluate("hours copy.jsonl model=nru|janet") == "4.5"
    with pytest.raises(ValueError, match="Step 5000 was not evaluated"):
        claims.evaluate("at_step copy.jsonl 5000 model=nru seed=0")
    with pytest.raises(ValueError, match="converged"):
        claims.evaluate("converged_median copy.jsonl model=nru seed=1")
    longer = [_copy_row("nru", seed, [2.0, 0.01], 1) for seed in range(3)]
    (results / "longer.jsonl").write_text("".join(json.dumps(r) + "\n" for r in longer))
    # 3 of 3 against the NRU's 2 of 3 here: p = 1; against 0 of 4: 1/35
    assert claims.evaluate("converged_p longer.jsonl copy.jsonl model=nru") == "1"
    (results / "never.jsonl").write_text(
        "".join(json.dumps(_copy_row("nru", s, [2.0, 0.5], 1)) + "\n" for s in range(4))
    )
    assert claims.evaluate("converged_p longer.jsonl never.jsonl model=nru") == "0.029"


def test_outside_unflagged_counts_the_rates_outside_but_not_significant(results):
    # 9 of 25 against the survey's 25 of 25: outside and significant
    assert claims.evaluate("outside_unflagged rows.jsonl") == "0"
    assert claims.evaluate("flagged rows.jsonl") == "1"
    # 21 of 25: the survey's 100 % is outside our interval (0.65-0.94),
    # Fisher's p = 0.11
    rows = [_row(seed, seed < 21) for seed in range(25)]
    (results / "near.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert claims.evaluate("outside_unflagged near.jsonl") == "1"
    assert claims.evaluate("flagged near.jsonl") == "0"
    assert claims.evaluate("inside near.jsonl") == "0 of 1"


def test_the_outside_unflagged_table_lists_what_outside_unflagged_counts(results):
    rows = [_row(seed, seed < 21) for seed in range(25)]
    rows += [_row(seed, seed < 9, value_range="10,20") for seed in range(25)]
    _write_rows(results, "near.jsonl", rows)
    assert claims.evaluate("outside_unflagged near.jsonl") == "1"
    lines = claims.evaluate("outside_unflagged_table near.jsonl").strip().splitlines()
    assert lines[:2] == static_arithmetic_claims.OUTSIDE_HEADER.splitlines()
    p = stats.fisher_exact([[21, 4], [SURVEY_NMU_MUL_1_2, 0]]).pvalue
    assert lines[2:] == [
        f"| Mistry table 11 | nmu ×, U[1,2) | 21 of 25 | 100 % | {p:.2g} |"
    ]


def test_runs_and_minutes_count_rows_and_span_their_wall_times(results):
    minutes = (4, 7.5, 5)
    rows = [_copy_row("nru", s, [2.0, 0.5], 60 * m) for s, m in enumerate(minutes)]
    rows.append(_copy_row("janet", 0, [2.0, 0.5], 600))
    _write_rows(results, "copy.jsonl", rows)
    assert claims.evaluate("runs copy.jsonl") == "4"
    assert claims.evaluate("runs copy.jsonl model=nru") == "3"
    assert claims.evaluate("minutes copy.jsonl model=nru") == "4-7.5"
    assert claims.evaluate("minutes copy.jsonl model=janet") == "10"


def test_a_paper_claim_quotes_the_published_table(results):
    (results / "published.csv").write_text(
        "unit,operation,success_rate,mse\n"
        "nalu,add,0.395,1.5\nnalu,sub,0.433,12.25\nnmu,mul,1.0,0.001\n"
        "npu,mul,0.0,\nnac,add,1.0,<0.0001\nnac,sub,1.0,<0.0001\n"
        "nac,mul,0.0,>999999\nnac,div,0.0,n/a\n"
    )
    quote = "paper published.csv success_rate .1% unit=nalu"
    assert claims.evaluate(quote) == "39.5 %-43.3 %"
    assert claims.evaluate(quote + " operation=sub") == "43.3 %"
    assert claims.evaluate("paper published.csv mse - unit=nalu") == "1.5-12.2"
    assert claims.evaluate("paper published.csv mse .0e unit=nmu") == "1e-03"
    # a blank cell (the paper prints none) is left out
    assert claims.evaluate("paper published.csv success_rate .0% unit=npu") == "0 %"
    assert claims.evaluate("paper published.csv mse - unit=nalu|npu") == "1.5-12.2"
    with pytest.raises(ValueError, match="No row of published.csv with a mse matches"):
        claims.evaluate("paper published.csv mse - unit=npu")
    # a bound the paper prints is quoted as a bound, the same one of several too
    assert claims.evaluate("paper published.csv mse - unit=nac operation=add") == (
        "< 1.0·10⁻⁴"
    )
    assert claims.evaluate(
        "paper published.csv mse .0e unit=nac operation=add|sub"
    ) == ("< 1e-04")
    assert claims.evaluate("paper published.csv mse - unit=nac operation=mul") == (
        "> 999 999"
    )
    with pytest.raises(ValueError, match="mixes a bound with other cells"):
        claims.evaluate("paper published.csv mse - unit=nac|nmu operation=add|mul")
    with pytest.raises(ValueError, match="mixes a bound with other cells"):
        claims.evaluate("paper published.csv mse - unit=nac operation=add|mul")
    with pytest.raises(ValueError, match="a mse of 'n/a' is not a number"):
        claims.evaluate("paper published.csv mse - unit=nac operation=div")
    with pytest.raises(ValueError, match="'missing.csv', which is not in"):
        claims.evaluate("paper missing.csv mse -")


def test_identity_claims_read_table_5s_percent_error_and_its_change(results):
    def rows(errors):
        return [
            {"activation": name, "mean_absolute_error": error}
            for name, values in errors.items()
            for error in values
        ]

    now = {"relu": [10.0, 20.0], "tanh": [495.0], "none": [0.5]}
    _write_rows(results, "now.jsonl", rows(now))
    _write_rows(
        results, "before.jsonl", rows({"relu": [20.0], "tanh": [500.0], "none": [1.0]})
    )
    assert claims.evaluate("percent_error now.jsonl activation=relu") == "3"
    assert claims.evaluate("percent_error now.jsonl activation=relu|tanh") == "3-99"
    # relu 15 against 20: 25 %; tanh 1 %; none (0.5 against 1) left out
    change = "largest_change now.jsonl before.jsonl"
    assert claims.evaluate(change + " activation!=none") == "25"
    assert claims.evaluate(change + " activation!=none|relu") == "1"
    assert claims.evaluate(change) == "50"


def test_ratio_to_solved_is_the_median_mse_over_the_solved_accumulators(results):
    def row(model, seed, mse):
        return {"model": model, "seed": seed, "test_mse": {"1": mse, "2": 2 * mse}}

    rows = [row("solved", s, m) for s, m in enumerate((1.0, 2.0, 9.0))]  # median 2
    rows += [row("nmu", s, m) for s, m in enumerate((3.0, 4.0))]  # median 3.5
    (results / "mnist.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert claims.evaluate("ratio_to_solved mnist.jsonl 1-2 model=nmu") == "1.8"
    assert claims.evaluate("ratio_to_solved mnist.jsonl 1 model=solved") == "1"
    rows.append(row("lstm", 0, 10.0))  # 5 times the solved accumulator's
    _write_rows(results, "mnist.jsonl", rows)
    claim_rows.forget_rows()  # the rows are read once per process
    # each model on its own: 1.75 and 5, not the median of the two models
    assert claims.evaluate("ratio_to_solved mnist.jsonl 1-2 model=nmu|lstm") == "1.8-5"
    assert sequential_mnist_claims._lengths("1-3,5,8-9") == [1, 2, 3, 5, 8, 9]
    # the report's thresholds: mean + t(0.99, 2) s / sqrt(3) of 1, 2 and 9
    upper = 4.0 + stats.t.ppf(0.99, 2) * math.sqrt(19.0) / math.sqrt(3.0)
    threshold = claims.evaluate("solved_threshold mnist.jsonl 1-2")
    assert threshold == f"{upper:.3g}, {2 * upper:.3g}"
    with pytest.raises(ValueError, match="no threshold at length 3"):
        claims.evaluate("solved_threshold mnist.jsonl 1-3")


def _claimed_files_of_three_provenances(results):
    """Rows of three claimed files (clean, one dirty row, two rows without
    a commit) and one unclaimed file without a commit."""
    clean = {"commit": "abc", "dirty": False}
    files = {
        "clean.jsonl": [clean, clean],
        "dirty.jsonl": [clean, {"commit": "abc", "dirty": True}],
        "old.jsonl": [{}, {}, clean],
        "unclaimed.jsonl": [{}],
    }
    for name, rows in files.items():
        rows = [{**row, "wall_seconds": 3600} for row in rows]
        (results / name).write_text("".join(json.dumps(r) + "\n" for r in rows))
    claimed = ("clean.jsonl", "dirty.jsonl", "old.jsonl")
    (results / "results" / "README.md").write_text(
        "".join(f"<!--= hours {name} -->x<!--/-->\n" for name in claimed)
        + "<!--= provenance_table -->x<!--/-->\n"
    )


def test_the_provenance_table_lists_claimed_files_without_a_clean_commit(results):
    _claimed_files_of_three_provenances(results)
    lines = claims.evaluate("provenance_table").strip().splitlines()
    assert lines[2:] == [
        "| `dirty.jsonl` | 2 | 1 | 0 | none |",
        "| `old.jsonl` | 3 | 0 | 2 | none |",
    ]
    (results / "results" / "stated_commits.csv").write_text(
        "file,commit,source\nold.jsonl," + "0123456789" * 4 + ",its page\n"
    )
    lines = claims.evaluate("provenance_table").strip().splitlines()
    assert lines[3] == "| `old.jsonl` | 3 | 0 | 2 | `0123456` (its page) |"


def test_a_file_the_text_names_is_used_as_a_claimed_one(results):
    """A page naming a rows file in its prose (`unclaimed.jsonl`) uses its
    rows: its provenance is shown as a claimed file's is."""
    _claimed_files_of_three_provenances(results)
    with open(results / "results" / "README.md", "a") as handle:
        handle.write("The runs of `unclaimed.jsonl` came first.\n")
    lines = claims.evaluate("provenance_table").strip().splitlines()
    assert lines[2:] == [
        "| `dirty.jsonl` | 2 | 1 | 0 | none |",
        "| `old.jsonl` | 3 | 0 | 2 | none |",
        "| `unclaimed.jsonl` | 1 | 0 | 1 | none |",
    ]


def test_check_fails_on_dirty_rows_and_rows_of_no_known_commit(results, capsys):
    _claimed_files_of_three_provenances(results)
    assert claims.main([]) == 0  # the table written: no claim is stale now
    capsys.readouterr()
    assert claims.main(["--check"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "provenance: dirty.jsonl: rows made with uncommitted changes: 1",
        "provenance: old.jsonl: rows naming no commit: 2, "
        "and results/stated_commits.csv states none",
    ]
    (results / "results" / "stated_commits.csv").write_text(
        "file,commit,source\nold.jsonl," + "0123456789" * 4 + ",its page\n"
    )
    (results / "dirty.jsonl").write_text(
        json.dumps({"commit": "abc", "wall_seconds": 3600}) + "\n"
    )
    claim_rows.forget_rows()  # the rows are read once per process
    assert claims.main([]) == 0
    assert claims.main(["--check"]) == 0


def test_the_pooled_test_is_cochran_mantel_haenszels(results):
    """Two ranges: 9 of 25 against the survey's 25 of 25 on U[1,2), and 25
    of 25 against 25 on U[10,20), which carries no information (every run
    solved). One informative stratum: the statistic is Yates's
    chi-square of its 2 x 2 table times (N - 1) / N."""
    yates = stats.chi2_contingency([[9, 16], [25, 0]], correction=True)[0]
    p = stats.chi2.sf(yates * 49 / 50, 1)
    text = claims.evaluate("pooled rows.jsonl")
    assert text == f"34 of 50 against the survey's 50 (p = {p:.2g})"
    assert claims.evaluate("pooled rows.jsonl interpolation_range=10,20") == (
        "25 of 25 against the survey's 25 (p = 1)"
    )


def test_a_listing_whose_reader_stops_ends_without_a_traceback():
    """`claims --typed | head`: the reader closes the pipe before the
    command writes; it ends with status 0 and nothing on stderr."""
    with subprocess.Popen(
        [sys.executable, "-m", "benchmarks.claims", "--typed"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        process.stdout.close()  # the reader stops before the first line
        error = process.stderr.read().decode()
        status = process.wait(timeout=120)
    assert status == 0, error
    assert error == ""


def test_a_reproduction_record_is_a_table_and_compares_two_commits(results):
    made = [
        {"config": {"x": seed}, "seed": seed, "commit": "c0ffee1"} for seed in (0, 1)
    ]
    (results / "made.jsonl").write_text("".join(json.dumps(r) + "\n" for r in made))
    rows_file = f"{results.name}/made.jsonl"  # relative to the checkout

    def rerun(line, commit, differences):
        verdict = "differs" if differences else "identical"
        return {"file": rows_file, "line": line, "commit": commit, "dirty": False}, {
            "verdict": verdict,
            "differences": differences,
        }

    record = [
        {**a, **b}
        for a, b in (
            rerun(1, "aaaa111", {}),
            rerun(2, "aaaa111", {"loss": [1.0, 2.0]}),
            rerun(1, "bbbb222", {}),
            rerun(2, "bbbb222", {"loss": [1.0, 3.0]}),
        )
    ]
    (results / "record.jsonl").write_text("".join(json.dumps(r) + "\n" for r in record))
    assert claims.evaluate("reruns_alike record.jsonl aaaa bbbb") == "1 of 2"
    assert claims.evaluate("reruns_alike record.jsonl aaaa aaaa") == "2 of 2"
    table = claims.evaluate("reproductions record.jsonl commit=bbbb222").strip()
    assert table.splitlines()[2:] == [
        f"| `{rows_file}` | 1 | c0ffee1 | bbbb222 | identical | — |",
        f"| `{rows_file}` | 2 | c0ffee1 | bbbb222 | differs | `loss` |",
    ]
    with pytest.raises(ValueError, match="No re-run of record.jsonl was made at"):
        claims.evaluate("reruns_alike record.jsonl aaaa cccc")


def test_a_field_ratio_is_the_range_of_one_field_over_another(results):
    # rows.jsonl: NMU seeds 0-8 solved at 2 000 + 100 * seed on U[1,2)
    solved = "interpolation_range=1,2 solved=True"
    ratios = [(2_000 + 100 * seed) / seed for seed in range(1, 9)]
    assert (min(ratios), max(ratios)) == (350, 2_100)
    claim = f"field_ratio rows.jsonl solved_at seed {solved} seed!=0"
    assert claims.evaluate(claim) == "350-2 100"
    with pytest.raises(ValueError, match="A row has no field 'speed'"):
        claims.evaluate(f"field_ratio rows.jsonl speed seed {solved}")


def test_the_untrained_lstms_mse_is_their_mean_per_operation(results):
    rows = [
        {"model": model, "operation": operation, "seed": seed}
        | {
            f"initial_{name}_mse": mse * (seed + 1)
            for name in ("interpolation", "extrapolation")
        }
        for model, operation, mse in (
            ("lstm", "mul", 10.0),
            ("lstm", "add", 4.0),
            ("nac", "mul", 1e9),
        )
        for seed in (0, 1)
    ]
    (results / "lstm.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert (
        claims.evaluate("untrained_mse lstm.jsonl extrapolation operation=mul") == "15"
    )
    assert claims.evaluate("untrained_mse lstm.jsonl interpolation") == "6-15"


def _wilson(successes, trials, z=1.959963984540054):
    """Wilson's score interval, written out (Wilson 1927)."""
    rate = successes / trials
    centre = (rate + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials**2))
    return centre - half / (1 + z * z / trials), centre + half / (1 + z * z / trials)


def test_the_rate_table_pools_a_units_configurations_beside_the_papers(results):
    """34 of 50 NMU runs over two ranges, where the survey solved all 50."""
    low, high = _wilson(34, 50)
    assert claims.evaluate("rate_table rows.jsonl").strip().splitlines() == [
        "| unit | × |",
        "|---|---:|",
        f"| nmu | 68 % ({100 * low:.0f}-{100 * high:.0f} %) · 100 % |",
    ]
    # a unit run at another input size is a unit of its own, without the
    # survey's rate (it published input size 2 only)
    rows = [{**_row(seed, True), "input_size": 10} for seed in range(3)]
    _write_rows(results, "wide.jsonl", rows)
    table = claims.evaluate("rate_table rows.jsonl wide.jsonl").strip().splitlines()
    assert table[3] == "| nmu, 10 inputs | 100 % (44-100 %) |"


def test_a_report_table_is_the_reports_table_or_some_of_its_columns(results):
    text, _ = report.build(claim_rows.rows("rows.jsonl"))
    table = [line for line in text.splitlines() if line.startswith("|")]
    assert claims.evaluate("report_table rows.jsonl").strip().splitlines() == table
    some = claims.evaluate("report_table rows.jsonl columns=1,4").strip().splitlines()
    cells = [line.strip("|").split("|") for line in table]
    assert some == [f"|{row[0]}|{row[3]}|" for row in cells]
    with pytest.raises(ValueError, match="has 1 tables, not 2"):
        claims.evaluate("report_table rows.jsonl table=2")
    with pytest.raises(ValueError, match="takes table= and columns="):
        claims.evaluate("report_table rows.jsonl rows=2")


def test_the_synthetic_table_sets_each_models_convergence_side_by_side(results):
    rows = [
        _copy_row("nru", 0, [2.0, 0.01, 0.3], 1),  # at 1 000
        _copy_row("nru", 1, [2.0, 0.5, 0.5], 1),  # never
        _copy_row("janet", 0, [2.0, 0.5, 0.001], 1),  # at 2 000
    ]
    _write_rows(results, "copy.jsonl", rows)
    _write_rows(results, "more.jsonl", rows[:1])
    assert claims.evaluate("synthetic_table copy.jsonl").strip().splitlines() == [
        "| model | converged | at steps | best cross-entropy |",
        "|---|---:|---|---|",
        "| nru | 1 of 2 | 1 000 | 0.01-0.5 |",
        "| janet | 1 of 1 | 2 000 | 0.001 |",
    ]
    both = "synthetic_table copy.jsonl more.jsonl model=nru"
    assert claims.evaluate(both).strip().splitlines()[2:] == [
        "| `copy.jsonl` | nru | 1 of 2 | 1 000 | 0.01-0.5 |",
        "| `more.jsonl` | nru | 1 of 1 | 1 000 | 0.01 |",
    ]


def test_the_task_table_sets_each_models_results_beside_the_papers(results):
    _write_rows(results, "copy.jsonl", [_copy_row("nru", 0, [2.0, 0.01], 1)])
    psmnist = [
        {"task": "psmnist", "model": "nru", "accuracy": accuracy}
        for accuracy in (0.5, 0.7)
    ]
    _write_rows(results, "psmnist.jsonl", psmnist)
    with open(
        os.path.join(ROOT, "benchmarks", "nru", "published", "chandar2019_table3.csv")
    ) as f:
        paper = next(row for row in csv.DictReader(f) if row["model"] == "nru")
    assert claims.evaluate("task_table copy.jsonl psmnist.jsonl").strip().split(
        "\n"
    ) == [
        "| model | Copying memory T = 100 (converged) | psMNIST (test accuracy) |",
        "|---|---:|---:|",
        f"| nru | 1 of 1 | 60.0 % · {paper['test_accuracy']} % |",
    ]


def test_the_tuning_table_names_each_units_best_trial(results):
    trials = [
        {
            "score": 7.7,
            "values": {
                "unit": "nau",
                "hidden_size": 8,
                "learning_rate": 0.01,
                "optimizer": "adam",
            },
        },
        {
            "score": 2.26,
            "values": {
                "unit": "nmu",
                "hidden_size": 2,
                "learning_rate": 0.0201,
                "optimizer": "torch_adam",
            },
        },
        {
            "score": 3.5,
            "values": {
                "unit": "nmu",
                "hidden_size": 4,
                "learning_rate": 0.5,
                "optimizer": "adam",
            },
        },
    ]
    _write_rows(results, "search.txt", trials)
    assert claims.evaluate("tuning_table search.txt").strip().splitlines()[2:] == [
        "| nmu | 2 | 2.26 | 2 | 0.02 | torch_adam |",
        "| nau | 1 | 7.70 | 8 | 0.01 | adam |",
    ]
