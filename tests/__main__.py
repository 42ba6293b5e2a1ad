"""The whole test suite, as CI runs it: `python -m tests [PYTEST OPTIONS]`.

pytest runs the tests on TensorFlow (Keras's default backend here), in
parallel over the machine's cores (at most four workers), and alongside,
the backend-neutral tests of the library (the layer harness and its own
tests) with `KERAS_BACKEND=jax` and with `KERAS_BACKEND=torch`. The
options are passed to every run (`python -m tests --run-large` is the
README's command and CI's: every test on TensorFlow but the release
checks, which `--run-extra-large` adds, among them the library's whole
default tier on JAX in a venv that holds the built wheel only,
`tests/test_library_boundary.py`); the other backends run the harness's
default tier, and with `--run-extra-large` every tier of it. Every process runs on one
thread (`ONE_THREAD`). Exits with the first failing run's status, after
all of them.
"""

import os
import subprocess
import sys
import tempfile

import pytest

#: The tests each other backend runs: those that use no TensorFlow.
BACKEND_NEUTRAL_TESTS = ("tests/test_layers.py", "tests/test_harness.py")
OTHER_BACKENDS = ("jax", "torch")
#: The backend whose library tests run in the wheel's venv (a release check).
WHEEL_BACKEND = "jax"
MAX_WORKERS = 4


def _workers():
    return str(max(1, min(os.cpu_count() or 1, MAX_WORKERS)))


#: The options that run the large tests (`--run-extra-large`: the release
#: checks beyond CI too).
LARGE_RUNS = ("--run-large", "--run-extra-large")


def runs(options):
    """(backend, pytest arguments) of each run: the other backends run the
    harness's default tier (every case's fast checks, the first case of
    each class through the others), and every tier for a release
    (`--run-extra-large`)."""
    yield "tensorflow", ["-n", _workers(), "--dist", "worksteal", *options]
    tiers = [option for option in options if option != "--run-large"]
    for backend in OTHER_BACKENDS:
        yield backend, [*tiers, *BACKEND_NEUTRAL_TESTS]


#: The JAX run is XLA compilations of small programs, each run once or twice:
#: LLVM without optimisation compiles them in 28 % less CPU time.
FAST_COMPILE = {"jax": "--xla_backend_optimization_level=0"}

#: The runs together start more processes than the machine has cores, each
#: on small models: one thread per process. With a thread pool per core in
#: each process, three demo trainings at once on two cores took 56 s where
#: single-threaded they take 35 s (threads spinning for work). Variables the
#: caller set are kept.
ONE_THREAD = {
    "TF_NUM_INTRAOP_THREADS": "1",
    "TF_NUM_INTEROP_THREADS": "1",
    "OMP_NUM_THREADS": "1",
}
ONE_THREAD_XLA = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"


def _environment(backend):
    environment = {**ONE_THREAD, **os.environ, "KERAS_BACKEND": backend}
    flags = [environment.get("XLA_FLAGS", ""), ONE_THREAD_XLA]
    if backend in FAST_COMPILE:
        flags.append(FAST_COMPILE[backend])
    environment["XLA_FLAGS"] = " ".join(flag for flag in flags if flag)
    return environment


def _start(backend, arguments, root, output=None):
    environment = _environment(backend)
    return subprocess.Popen(
        [sys.executable, "-m", "pytest", *arguments],
        cwd=root,
        env=environment,
        stdout=output,
        stderr=subprocess.STDOUT if output else None,
    )


def main(options):
    """Starts every run at once (the other backends' runs fill the cores
    the TensorFlow run leaves idle on its longest tests), shows the
    TensorFlow run as it goes and the others' output after it."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    (first, first_arguments), *others = runs(options)
    print(f"== pytest on {first}: {' '.join(first_arguments)}", flush=True)
    started = []
    with tempfile.TemporaryDirectory() as folder:
        for backend, arguments in others:
            # concurrent sessions must not clean up each other's temporary files
            arguments = [
                f"--basetemp={os.path.join(folder, 'tmp-' + backend)}",
                *arguments,
            ]
            log = open(os.path.join(folder, backend), "w+")
            started.append(
                (backend, arguments, log, _start(backend, arguments, root, log))
            )
        statuses = [_start(first, first_arguments, root).wait()]
        for backend, arguments, log, process in started:
            status = process.wait()  # 5: `-k` or a path left it nothing to run
            statuses.append(
                0 if status == pytest.ExitCode.NO_TESTS_COLLECTED else status
            )
            log.seek(0)
            print(f"== pytest on {backend}: {' '.join(arguments)}", flush=True)
            print(log.read(), end="", flush=True)
            log.close()
    return next((status for status in statuses if status), 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
