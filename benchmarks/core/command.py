"""`python -m benchmarks.<task>`: read the command line, then run.

The task's `cli` module parses and checks the arguments without importing
TensorFlow (so `--help` and a mistake answer at once); only then is the
task's `runner` imported. TensorFlow's native start-up lines (oneDNN, CUDA
drivers, absl), which its log level does not reach, are kept off stderr
while it is imported (`import_tensorflow_quietly`), and
`TF_CPP_MIN_LOG_LEVEL` is 3 unless the environment sets it. Ctrl-C stops
the run with one line that says how to resume it, and exit status 130.
"""

import contextlib
import importlib
import os
import sys

INTERRUPTED = 130


@contextlib.contextmanager
def _native_stderr_discarded():
    """Points file descriptor 2 at the null device, then back."""
    sys.stderr.flush()
    saved = os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 2)
    os.close(null)
    try:
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)


def import_tensorflow_quietly():
    """Imports TensorFlow without its native start-up lines; an import
    that fails still raises (and prints) its error."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    if "tensorflow" not in sys.modules:
        with _native_stderr_discarded():
            importlib.import_module("tensorflow")


def resume_hint(args):
    """What the same command resumes from."""
    if getattr(args, "output", None):
        return f"the finished runs are in {args.output}"
    return f"the finished trials are in {args.directory}"


def run_command(folder, argv=None):
    """Parses `argv` (default: the command line) with
    `benchmarks.<folder>.cli`, then runs it with
    `benchmarks.<folder>.runner.run`; returns the exit status."""
    cli = importlib.import_module(f"benchmarks.{folder}.cli")
    args = cli.parse_arguments(argv)
    try:
        import_tensorflow_quietly()
        runner = importlib.import_module(f"benchmarks.{folder}.runner")
        return runner.run(args)
    except KeyboardInterrupt:
        print(
            f"\nStopped: {resume_hint(args)}; the same command resumes.",
            file=sys.stderr,
        )
        return INTERRUPTED
