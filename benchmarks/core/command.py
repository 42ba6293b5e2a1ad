"""A command of the lab: read the command line, then run.

The command line is parsed and checked without importing TensorFlow (so
`--help` and a mistake answer at once); only then is TensorFlow imported
(a task's command: `benchmarks.core.sweep.main`). TensorFlow's native
start-up lines (oneDNN, CUDA drivers, absl), which its log level does not
reach, are kept off stderr while it is imported (`import_tensorflow_quietly`), and
`TF_CPP_MIN_LOG_LEVEL` is 3 unless the environment sets it. Ctrl-C stops
the run with one line that says how to resume it, and exit status 130;
SIGTERM and SIGHUP stop it the same way (the workers stopped, the same
line), with exit status 128 + the signal's number. Input the run cannot
use (`InputError`: a data set not on this machine) is one line, `error:
...`, with exit status 2 (`stopping`).
"""

import contextlib
import importlib
import os
import signal
import sys
import threading

INTERRUPTED = 130
#: The exit status of a command refused for its input, as argparse's.
USAGE = 2
#: Signals that stop a command as Ctrl-C does.
STOPPING_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


class InputError(Exception):
    """Input that a command's run cannot use (a data set that is not on
    this machine): `stopping` reports it in one line."""


class Stopped(KeyboardInterrupt):
    """A command stopped by a signal (`signal_number`), as by Ctrl-C."""

    def __init__(self, signal_number):
        super().__init__(signal_number)
        self.signal_number = signal_number


def _stop(signal_number, frame):
    raise Stopped(signal_number)


@contextlib.contextmanager
def _stopped_as_by_ctrl_c():
    """SIGTERM and SIGHUP raise `Stopped` while the block runs (in the main
    thread, the only one that handles signals)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {number: signal.signal(number, _stop) for number in STOPPING_SIGNALS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


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


class Outcome:
    """A command's exit status, which `stopping` sets when it stops it."""

    status = 0


@contextlib.contextmanager
def stopping(args):
    """The block that runs a parsed command (`args`): TensorFlow imported
    quietly, Ctrl-C, SIGTERM and SIGHUP stopping it with one line that
    says how to resume (`Outcome.status` 130, or 128 + the signal's
    number), input it cannot use one line `error: ...` (`USAGE`)."""
    outcome = Outcome()
    try:
        with _stopped_as_by_ctrl_c():
            import_tensorflow_quietly()
            yield outcome
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        outcome.status = USAGE
    except KeyboardInterrupt as stop:
        print(
            f"\nStopped: {resume_hint(args)}; the same command resumes.",
            file=sys.stderr,
        )
        is_signal = isinstance(stop, Stopped)
        outcome.status = 128 + stop.signal_number if is_signal else INTERRUPTED


def run_command(parse_arguments, run, argv=None):
    """Parses `argv` (default: the command line) with `parse_arguments`,
    then runs the parsed arguments with `run` (which returns the exit
    status) while `stopping`; returns the exit status."""
    args = parse_arguments(argv)
    with stopping(args) as outcome:
        outcome.status = run(args)
    return outcome.status
