"""The evidence of the verdict on the oracle DMU's × on U[-20,-10)
(`benchmarks.single_module.dmu_gate`): its trap is where the layer's own
soft output turns, and its command writes gate rows and resumes."""

import json

import numpy as np

from benchmarks.single_module import dmu_gate
from keras_nalm import layers

ORACLE = "benchmarks.single_module.since_survey:dmu_oracle_same"


def _oracle_dmu():
    """The oracle DMU of two inputs, its gate a function of its biases only."""
    unit = layers.DMU(1, operand_pattern=(1.0, 1.0), precision="float64")
    unit.build((None, 2))
    unit.gate_kernel.assign(np.zeros_like(unit.gate_kernel.numpy()))
    return unit


def _hold_gate(unit, gate):
    """Sets the unit's G_log to `gate` for every input (G_log =
    sigmoid(b_log - b_lin))."""
    unit.gate_bias.assign([0.0, float(np.log(gate / (1 - gate)))])


def _soft_outputs(a, b, gates):
    """The oracle DMU's training output on (a, b) with its gate held at
    each G_log of `gates`."""
    unit = _oracle_dmu()
    x = np.stack([a, b], -1).astype("float32")
    outputs = []
    for gate in gates:
        _hold_gate(unit, gate)
        outputs.append(np.asarray(unit(x, training=True))[:, 0])
    return np.stack(outputs)


def test_the_trap_is_where_the_soft_output_stops_falling():
    rng = np.random.default_rng(0)
    a, b = rng.uniform(-20, -10, (2, 8))
    gates = np.linspace(0.005, 0.995, 199)
    outputs = _soft_outputs(a, b, gates)
    lowest = gates[np.argmin(outputs, axis=0)]
    np.testing.assert_allclose(lowest, dmu_gate.trap_gate(a, b), atol=5e-3)
    # no trap where the inputs are small: the output rises with the gate
    a, b = rng.uniform(-2, -1, (2, 8))
    assert np.all(dmu_gate.trap_gate(a, b) == 0)
    assert np.all(np.diff(_soft_outputs(a, b, gates), axis=0) > 0)


def test_the_rows_read_the_log_domains_gate():
    unit = _oracle_dmu()
    for gate, below in ((0.999, 0.0), (0.001, 1.0)):
        _hold_gate(unit, gate)
        fields = dmu_gate.gate_fields(unit, "-20,-10", seed=0)
        for order in ("gate_log_first_larger", "gate_log_second_larger"):
            np.testing.assert_allclose(fields[order], [gate, gate], rtol=1e-6)
        assert fields["share_below_trap"] == below


def test_the_command_writes_gate_rows_and_skips_them_after(tmp_path, capsys):
    output = tmp_path / "gate.jsonl"
    arguments = [
        "--module",
        ORACLE,
        "--operation",
        "mul",
        "--interpolation-range=-20,-10",
        "--seeds",
        "0",
        "--max-steps",
        "1000",
        "--output",
        str(output),
    ]
    assert dmu_gate.main(arguments) == 0
    (row,) = [json.loads(line) for line in output.read_text().splitlines()]
    assert row["module"] == ORACLE and row["seed"] == 0 and row["steps"] == 1000
    for field in ("gate_log_first_larger", "gate_log_second_larger"):
        low, high = row[field]
        assert 0 <= low <= high <= 1
    assert 0 <= row["share_below_trap"] <= 1
    low, high = row["trap_gate"]
    assert 0 < low < high < 0.25
    assert dmu_gate.main(arguments) == 0
    assert len(output.read_text().splitlines()) == 1
    assert dmu_gate.main([*arguments, "--input-size", "10"]) == 2
    assert "--input-size 2" in capsys.readouterr().err


def test_the_command_refuses_a_unit_not_a_dmu_before_training(
    tmp_path, capsys, monkeypatch
):
    def trained(config, seed):
        raise AssertionError("trained before the module was checked")

    monkeypatch.setattr(dmu_gate, "_trained_unit", trained)
    output = tmp_path / "gate.jsonl"
    arguments = ["--module", "nmu", "--operation", "mul", "--output", str(output)]
    assert dmu_gate.main([*arguments, "--seeds", "0-1"]) == 2
    assert "not a DMU: nmu" in capsys.readouterr().err
    assert not output.exists()
