"""`benchmarks.speed.backend_speed`: its rows, and the table that
`docs/backends.md` shows from them."""

import json
import os

import keras
import pytest

from benchmarks import claims
from benchmarks.core import claim_rows
from benchmarks.speed import backend_speed
from benchmarks.speed.backend_table import speed_table
from benchmarks.speed.claims import pytest_progress
from benchmarks.speed.claims import suite_ratio
from benchmarks.speed.claims import suite_table
from tests.lab import ROOT


def _row(layer, backend, jit_compile, steps_per_execution, rate, ratio):
    return {
        "layer": layer,
        "backend": backend,
        "jit_compile": jit_compile,
        "steps_per_execution": steps_per_execution,
        "steps_per_s": rate,
        "baseline": "Dense",
        "ratio_to_baseline": ratio,
    }


def test_the_table_has_a_column_per_backend_and_setting_and_dense_in_steps():
    rows = [
        _row("Dense", "torch", False, 1, 900.0, 1.0),
        _row("NMU", "torch", False, 1, 450.0, 0.5),
        _row("Dense", "tensorflow", True, 100, 5000.4, 1.0),
        _row("NMU", "tensorflow", True, 100, 2100.0, 0.42),
        {**_row("model.fit:NAU-NMU", "torch", False, 1, 1.0, 2.0), "baseline": "x"},
    ]
    assert speed_table(rows) == [
        "| layer | TensorFlow jit, 100/call | PyTorch eager |",
        "|---|---:|---:|",
        "| Dense | 5000/s | 900/s |",
        "| NMU | 0.42 | 0.50 |",
    ]
    with pytest.raises(ValueError, match="two rows of NMU"):
        speed_table(rows + [_row("NMU", "torch", False, 1, 400.0, 0.44)])


def test_a_run_writes_a_row_per_layer_and_setting_with_its_ratio_to_dense(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(
        backend_speed,
        "LAYERS",
        {"Dense": backend_speed.LAYERS["Dense"], "NAU": backend_speed.LAYERS["NAU"]},
    )
    output = tmp_path / "rows.jsonl"
    backend_speed.main(
        ["--steps", "200", "--eager-steps", "100", "--output", str(output)]
    )
    rows = [json.loads(line) for line in output.read_text().splitlines()]
    units = [row for row in rows if row["baseline"] == "Dense"]
    settings = backend_speed.settings()
    assert [
        (r["layer"], r["jit_compile"], r["steps_per_execution"]) for r in units
    ] == [(layer, *setting) for setting in settings for layer in ("Dense", "NAU")]
    assert [r["steps"] for r in units] == [
        200 if jit else 100 for jit, _ in settings for layer in ("Dense", "NAU")
    ]
    for dense, nau in zip(units[::2], units[1::2]):
        assert dense["ratio_to_baseline"] == 1.0
        expected = nau["steps_per_s"] / dense["steps_per_s"]
        assert nau["ratio_to_baseline"] == pytest.approx(expected, rel=0.01)
    assert {row["backend"] for row in rows} == {keras.backend.backend()}
    assert all("commit" in row and "versions" in row for row in rows)
    # on PyTorch, NAU -> NMU under model.fit against the plain PyTorch loop
    loops = [row for row in rows if row["baseline"] != "Dense"]
    if keras.backend.backend() != "torch":
        assert loops == []
        return
    loop, *fits = loops
    assert loop["layer"] == "pytorch-loop:NAU-NMU" and loop["ratio_to_baseline"] == 1
    assert [fit["jit_compile"] for fit in fits] == [False, True]
    for fit in fits:
        expected = fit["steps_per_s"] / loop["steps_per_s"]
        assert fit["ratio_to_baseline"] == pytest.approx(expected, rel=0.01)


def test_the_backends_page_agrees_with_the_committed_rows():
    page = os.path.join(ROOT, "docs", "backends.md")
    assert claims.main(["--check", page]) == 0


def test_pytest_progress_counts_the_outcomes_of_a_log_cut_by_a_time_limit(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(claim_rows, "ROOT", str(tmp_path))
    (tmp_path / "log.txt").write_text(
        "tests/test_layers.py F..s.sF.ss [ 40%]\n"
        "..F.E....s.sF.. [ 70%]\n"
        "s..F\n"
        "tests/test_layers.py::test_layer[NAU-equations] PASSED [ 75%]\n"
        "tests/test_layers.py::test_layer[NMU-equations] FAILED [ 76%]\n"
        "=== 1 failed in 3.0s ===\n"
    )
    counts = {
        count: pytest_progress("log.txt", count)
        for count in ("passed", "failed", "skipped", "errors", "ran", "percent")
    }
    assert counts == {
        "passed": "17",
        "failed": "6",
        "skipped": "7",
        "errors": "1",
        "ran": "31",
        "percent": "76 %",
    }
    with pytest.raises(ValueError, match="not 'xfailed'"):
        pytest_progress("log.txt", "xfailed")


def _suite_row(commit, wall, device="Intel Xeon", date="2026-12-06"):
    return {"command": "full", "commit": commit, "wall_seconds": wall,
            "device": device, "date": date}  # fmt: skip


def test_suite_ratio_divides_two_full_runs_of_one_device_and_date(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(claim_rows, "ROOT", str(tmp_path))
    claim_rows.forget_rows()
    rows = [
        _suite_row("aaa111", 1000.0),
        _suite_row("bbb222", 1900.0),
        _suite_row("ccc333", 900.0, device="AMD EPYC"),
        {**_suite_row("aaa111", 50.0), "command": "quick"},
    ]
    (tmp_path / "suite.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert suite_ratio("suite.jsonl", "aaa", "bbb") == "53 %"
    assert suite_ratio("suite.jsonl", "bbb", "aaa") == "190 %"
    with pytest.raises(ValueError, match="not made on one device"):
        suite_ratio("suite.jsonl", "ccc", "bbb")
    with pytest.raises(ValueError, match="0 full runs at ddd"):
        suite_ratio("suite.jsonl", "ddd", "bbb")
    # measured again beside a later change: each ratio takes the runs made
    # one after the other
    rows += [_suite_row("aaa111", 1200.0), _suite_row("eee555", 600.0)]
    (tmp_path / "suite.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    claim_rows.forget_rows()
    assert suite_ratio("suite.jsonl", "eee", "aaa") == "50 %"
    assert suite_ratio("suite.jsonl", "bbb", "aaa") == "190 %"
    # run just before and just after the baseline: both ratios
    rows += [_suite_row("fff", 700.0), _suite_row("aaa", 1000.0)]
    rows.append(_suite_row("fff", 500.0))
    (tmp_path / "suite.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    claim_rows.forget_rows()
    assert suite_ratio("suite.jsonl", "fff", "aaa") == "50-70 %"
    claim_rows.forget_rows()


def test_suite_table_lists_each_measurement(tmp_path, monkeypatch):
    monkeypatch.setattr(claim_rows, "ROOT", str(tmp_path))
    claim_rows.forget_rows()
    measured = {"cores": 2, "cpu_seconds": 2035.2, "load_before": 1.52, "status": 0}
    rows = [
        {**_suite_row("aaa1112", 1130.1), **measured, "passed": 2157, "skipped": 445},
        {**_suite_row("bbb2223", 21.0), **measured, "command": "demo"},
    ]
    (tmp_path / "suite.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    table = suite_table("suite.jsonl").splitlines()
    assert table[2:] == [
        "| 2026-12-06 | 2-core Intel Xeon | full | `aaa1112` | 2157 | 445 | 1130 "
        "| 2035 | 1.52 | 0 |",
        "| 2026-12-06 | 2-core Intel Xeon | demo | `bbb2223` | — | — | 21 "
        "| 2035 | 1.52 | 0 |",
    ]
    assert len(suite_table("suite.jsonl", "command=demo").splitlines()) == 3
    claim_rows.forget_rows()
