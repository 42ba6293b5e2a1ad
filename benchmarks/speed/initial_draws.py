"""Do JAX's populations and TensorFlow's engine differ in more than their
initial draws? Trains one Single Module configuration on TensorFlow's
engine from the initial weights JAX draws for its seeds.

    python -m benchmarks.speed.initial_draws --module nac --operation add \\
        --interpolation-range 1,2 --seeds 0-24 --output rows.jsonl

A subprocess on Keras's JAX backend draws each seed's weights as
`python -m benchmarks.speed.jax_population` does
(`keras_nalm.utils.reinitialize_model` under JAX's generator); the runs
then train as one `keras_nalm.engine.PopulationTrainer` from them, with
the engine's batches (the JAX populations' too). Each row is the lab's row
of the run (`engine: "tensorflow_from_jax_draws"`): where it is judged as
the JAX population's row of the same configuration and seed, the two
engines differ only in their draws. Takes the Single Module command's
options (one configuration).
"""

import os
import subprocess
import sys
import tempfile

import numpy as np

from benchmarks.core import rows
from benchmarks.core import sweep
from benchmarks.single_module import task
from benchmarks.speed.jax_population import engine_row

PROG = "python -m benchmarks.speed.initial_draws"


def _draw_on_jax(argv, directory):
    """Each job's initial weights under JAX, `directory/{seed}.npz`."""
    environment = {**os.environ, "KERAS_BACKEND": "jax"}
    command = [sys.executable, "-m", "benchmarks.speed.initial_draws", *argv]
    subprocess.run(command + ["--draws-into", directory], env=environment, check=True)


def _save_draws(jobs, directory):
    from keras_nalm.utils import reinitialize_model

    spec = task.run_spec(dict(jobs[0].config))
    model = spec.build_model()
    for job in jobs:
        reinitialize_model(model, job.seed)
        arrays = [np.asarray(v.numpy()) for v in model.trainable_variables]
        np.savez(os.path.join(directory, f"{job.seed}.npz"), *arrays)


def _loaded(directory):
    def initialize(model, seed):
        saved = np.load(os.path.join(directory, f"{seed}.npz"))
        for index, variable in enumerate(model.trainable_variables):
            variable.assign(saved[f"arr_{index}"])

    return initialize


def _train(jobs, directory):
    from benchmarks.core.training import PopulationRun
    from benchmarks.core.training import train_population

    runs = [PopulationRun.of(task.run_spec(dict(j.config)), j.seed) for j in jobs]
    return train_population(runs, initialize=_loaded(directory))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    draws_into = None
    if "--draws-into" in argv:
        at = argv.index("--draws-into")
        draws_into, argv = argv[at + 1], argv[:at] + argv[at + 2 :]
    args = task.parse_arguments(argv, prog=PROG)
    jobs = task.jobs(args)
    if len({job.config for job in jobs}) != 1:
        print(f"{PROG}: give one configuration", file=sys.stderr)
        return 2
    if draws_into:
        _save_draws(jobs, draws_into)
        return 0
    with tempfile.TemporaryDirectory() as directory:
        _draw_on_jax(argv, directory)
        results = _train(jobs, directory)
    environment = rows.environment()
    for job, result in zip(jobs, results):
        row = engine_row(job, result, "tensorflow_from_jax_draws", environment)
        if args.output:
            sweep.append_row(args.output, row)
    print(f"{sum(r['solved'] for r in results)} of {len(results)} solved")
    return 0


if __name__ == "__main__":
    sys.exit(main())
