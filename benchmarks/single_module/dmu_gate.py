"""The domain gate of a DMU after a Single Module run, per input order:
the evidence of the verdict on the oracle DMU's × on U[-20,-10).

    python -m benchmarks.single_module.dmu_gate \\
        --module benchmarks.single_module.since_survey:dmu_oracle_same \\
        --operation mul --interpolation-range=-20,-10 --seeds 0-24 \\
        --max-steps 2000 --learning-rate 1e-3 --clip-norm 0.01 \\
        --evaluate-every 10 --held-threshold 6.19e-9,100 \\
        --output benchmarks/single_module/results/fidelity/dmu_oracle_mul_gate.jsonl

It takes the Single Module command's options, trains each job as that
command does (`benchmarks.core.training.train_run`) and writes its row
with, beside the judgement, the trained unit's log-domain gate G_log
on `GATE_SAMPLES` fresh inputs of the interpolation range, for the inputs
whose first entry is the larger and for the others (the DMU's layer norm
of two inputs reads only their order), and the share of inputs whose gate
is below the trap `trap_gate` gives. Rows already in `--output` are
skipped.

The trap: with the operands O = (1, 1) and both inputs negative, the
linear domain's sign is −1 and the logarithmic domain's +1, so the soft
output of gate g = G_log is y(g) = (2g − 1)((1 − g)|a + b| + g·ab).
Where ab > 3|a + b| (every input of U[-20,-10)), y falls as g rises from
0 to g* = (ab − 3|a + b|) / (4(ab − |a + b|)): below g* the gradient that
raises y towards the product ab moves the gate to the linear domain, and
a gate that reaches it stays.
"""

import sys

import numpy as np

from benchmarks.core import rows
from benchmarks.core import sweep
from benchmarks.core.ranges import Range
from benchmarks.single_module import task

PROG = "python -m benchmarks.single_module.dmu_gate"
#: Fresh inputs the gate is read on, per run.
GATE_SAMPLES = 4096


def trap_gate(a, b):
    """g* of the inputs (a, b) (module docstring): the soft output of the
    oracle DMU's × falls as G_log rises from 0 to g*; 0 where it does not
    (an input not negative, or ab <= 3|a + b|)."""
    total, product = np.abs(a + b), a * b
    trapped = (a < 0) & (b < 0) & (product > 3 * total)
    return np.where(trapped, (product - 3 * total) / (4 * (product - total)), 0.0)


def gate_fields(unit, interpolation_range, seed):
    """The row's fields of a trained DMU of two inputs (module docstring)."""
    rng = np.random.default_rng(seed)
    x = Range.parse(interpolation_range).sample(rng, (GATE_SAMPLES, 2))
    _, gate = unit.plan(x.astype("float32"))
    log_gate = np.asarray(gate)[:, 0, 1]
    first = x[:, 0] > x[:, 1]
    trap = trap_gate(x[:, 0], x[:, 1])

    def span(values):
        return [float(values.min()), float(values.max())]

    return {
        "gate_log_first_larger": span(log_gate[first]),
        "gate_log_second_larger": span(log_gate[~first]),
        "share_below_trap": float(np.mean(log_gate < trap)),
        "trap_gate": span(trap),
    }


def _trained_unit(config, seed):
    from benchmarks.core.training import train_run

    trained = {}
    result = train_run(
        task.run_spec(config),
        seed,
        write_log=lambda log, model: trained.update(model=model),
    )
    return result, trained["model"].layers[-1]


def _modules_not_dmus(jobs):
    """The `--module`s of `jobs` whose unit (the model's last layer, built
    untrained) is not a DMU."""
    configs = {}
    for job in jobs:
        config = dict(job.config)
        configs.setdefault(config["module"], config)
    return [
        name
        for name, config in configs.items()
        if not hasattr(task.run_spec(config).build_model().layers[-1], "plan")
    ]


def main(argv=None):
    args = task.parse_arguments(argv, prog=PROG)
    if args.input_size != 2:
        print(
            f"{PROG}: the gate is read per input order: --input-size 2", file=sys.stderr
        )
        return 2
    try:
        done = sweep.finished_keys(args.output)
    except sweep.OutputError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return 2
    jobs = task.jobs(args)
    not_dmus = _modules_not_dmus(jobs)
    if not_dmus:
        print(f"{PROG}: not a DMU: {', '.join(not_dmus)}", file=sys.stderr)
        return 2
    environment = rows.environment()
    for job in jobs:
        if job.key in done:
            continue
        config = dict(job.config)
        result, unit = _trained_unit(config, job.seed)
        fields = gate_fields(unit, config["interpolation_range"], job.seed)
        row = rows.make_row(
            "single_module", config, job.seed, result, fields, environment
        )
        sweep.append_row(args.output, row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
