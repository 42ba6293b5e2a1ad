"""The whole test suite, as CI runs it: `python -m tests [PYTEST OPTIONS]`.

pytest runs the tests on TensorFlow (Keras's default backend here), in
parallel over the machine's cores (at most four workers), then the
backend-neutral tests of the library (the layer harness and its own
tests) once with `KERAS_BACKEND=jax` and once with `KERAS_BACKEND=torch`.
The options are passed to every run (`python -m tests --run-large` is the
README's command: every test on TensorFlow); the other backends run the
harness's default tier whatever the options. Exits with the first failing
run's status, after all of them.
"""

import os
import subprocess
import sys

#: The tests each other backend runs: those that use no TensorFlow.
BACKEND_NEUTRAL_TESTS = ("tests/test_layers.py", "tests/test_harness.py")
OTHER_BACKENDS = ("jax", "torch")
MAX_WORKERS = 4


def _workers():
    return str(max(1, min(os.cpu_count() or 1, MAX_WORKERS)))


def runs(options):
    """(backend, pytest arguments) of each run: the other backends run the
    harness's default tier (every case's fast checks, the first case of
    each class through the others), the comparison cells included."""
    yield "tensorflow", ["-n", _workers(), *options]
    tiers = [option for option in options if option != "--run-large"]
    for backend in OTHER_BACKENDS:
        yield backend, [*tiers, "--run-benchmarks", *BACKEND_NEUTRAL_TESTS]


def main(options):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    status = 0
    for backend, arguments in runs(options):
        print(f"== pytest on {backend}: {' '.join(arguments)}", flush=True)
        environment = dict(os.environ, KERAS_BACKEND=backend)
        completed = subprocess.run(
            [sys.executable, "-m", "pytest", *arguments], cwd=root, env=environment
        )
        status = status or completed.returncode
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
