"""The Single Module benchmark as populations on JAX: for a GPU machine
without TensorFlow.

    KERAS_BACKEND=jax python -m benchmarks.speed.jax_population \\
        --preset paper --module all --operation all \\
        --interpolation-range all --seeds 0-24 --output rows.jsonl
    OUT=DIR bash benchmarks/speed/gpu_population.sh   # on the device

It takes the Single Module command's options (`python -m
benchmarks.single_module --help`) and trains its jobs as the lab does with
populations (`benchmarks.core.training.train_population`), each program's
runs (a module on an operation: its ranges and seeds) as one population of
`keras_nalm.jax_population.JaxPopulationTrainer`, at most `--population`
runs (default: all of a program). The batches are the TensorFlow engine's,
number for number (`JaxArithmeticBatches`); the initial weights come from
Keras's JAX generator, so the rows agree with the engine's in
distribution, not run for run. Matrix products run at full float32
precision (JAX's default on recent NVIDIA GPUs is TF32).

Rows are the lab's, with `engine: "jax_population"`, appended to
`--output` as each population ends; rows already there are skipped (a
killed run resumes). Last, one JSON line on standard output: the runs
trained, `wall_seconds`, `device`, `commit` and `population`, a row of
`benchmarks/speed/results/population.jsonl`. The commit is the checkout's,
or `KERAS_NALM_COMMIT` where the code runs from a copy without git.
"""

import dataclasses
import functools
import json
import os
import platform
import sys
import time

from benchmarks.core import rows
from benchmarks.core import sweep
from benchmarks.single_module import task

PROG = "python -m benchmarks.speed.jax_population"


def _jax_spec(config):
    """The job's RunSpec with its batches drawn by JAX."""
    from benchmarks.data.arithmetic_batches_jax import JaxArithmeticBatches

    source = functools.partial(task._source, config, batches=JaxArithmeticBatches)
    return dataclasses.replace(task.run_spec(config), make_source=source)


def _environment():
    import jax
    import keras
    import numpy

    import keras_nalm

    device = jax.devices()[0]
    commit = os.environ.get("KERAS_NALM_COMMIT")
    found = {"commit": commit, "dirty": False} if commit else rows.provenance()
    return {
        "versions": {
            "keras_nalm": keras_nalm.__version__,
            "keras": keras.__version__,
            "jax": jax.__version__,
            "numpy": numpy.__version__,
            "python": platform.python_version(),
        },
        "device": f"{device.platform.upper()}: {device.device_kind}",
        **found,
    }


def engine_row(job, result, engine, environment):
    """The lab's row of a Single Module job's result, naming its engine."""
    config = dict(job.config)
    extra = {"engine": engine}
    return rows.make_row("single_module", config, job.seed, result, extra, environment)


def _parts(group, size):
    return [group[i : i + size] for i in range(0, len(group), size)]


def main(argv=None):
    args = task.parse_arguments(argv, prog=PROG)
    os.environ.setdefault("KERAS_BACKEND", "jax")
    import jax

    jax.config.update("jax_default_matmul_precision", "highest")
    import keras

    if keras.backend.backend() != "jax":
        print(f"{PROG}: needs KERAS_BACKEND=jax", file=sys.stderr)
        return 2
    from benchmarks.core.training import PopulationRun
    from benchmarks.core.training import populations
    from benchmarks.core.training import train_population
    from keras_nalm.jax_population import JaxPopulationTrainer

    try:
        done = sweep.finished_keys(args.output) if args.output else set()
    except sweep.OutputError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return 2
    jobs = [job for job in task.jobs(args) if job.key not in done]
    environment = _environment()
    runs, job_of = [], {}
    for job in jobs:
        run = PopulationRun.of(_jax_spec(dict(job.config)), job.seed)
        runs.append(run)
        job_of[id(run)] = job
    began = time.perf_counter()
    largest = 0
    for group in populations(runs):
        for part in _parts(group, args.population or len(group)):
            largest = max(largest, len(part))
            for run, result in zip(part, train_population(part, JaxPopulationTrainer)):
                row = engine_row(job_of[id(run)], result, "jax_population", environment)
                if args.output:
                    sweep.append_row(args.output, row)
    summary = {
        "runs": len(runs),
        "wall_seconds": round(time.perf_counter() - began, 2),
        "cores": os.cpu_count(),
        "device": environment["device"],
        "commit": environment["commit"],
        "population": largest,
        "engine": "jax_population",
    }
    print(json.dumps(summary), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
