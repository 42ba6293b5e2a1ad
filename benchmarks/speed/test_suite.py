"""What the README's commands cost: tests, wall time, CPU time, load.

    python -m benchmarks.speed.test_suite quick|full|demo [--commit REV]
        [--output FILE]

`quick` runs the quick loop (`python -m pytest`, the library's tests);
`demo` runs the demo of the README's first command in this venv and keeps
the training time it prints (`training_seconds`);
`full` runs the README's second command as it is, from a fresh clone of
this checkout's commit or of `--commit` (an earlier commit, measured as
the baseline of a change on the same machine), making its own venv and
installing `.[test]`, as CI does. The command's wall time, the CPU time
(user + sys) of its whole process tree, the machine's load average just
before it and the counts of pytest's summary lines are appended as one
row to FILE (default `benchmarks/speed/results/test_suite.jsonl`), with
the commit. It refuses to measure uncommitted code (the row names the
commit that ran). The README's figures are claims (`benchmarks.claims`)
over these rows.
"""

import argparse
import datetime
import json
import os
import platform
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_OUTPUT = os.path.join(
    ROOT, "benchmarks", "speed", "results", "test_suite.jsonl"
)
#: pytest's summary counts ("641 passed, 511 skipped, 1 xfailed in 173.46s").
COUNT = re.compile(r"(\d+) (passed|failed|skipped|xfailed|xpassed|errors?)\b")
SUMMARY = re.compile(r"^=* ?(\d+ \w+(, \d+ \w+)*) in [\d.]+s")
#: The demo's line of its training time ("Trained in 27.0 s; ...").
TRAINED = re.compile(r"^Trained in ([\d.]+) s\b", re.MULTILINE)


def readme_test_command(root=ROOT):
    """The README's second command (the first code block's second line)."""
    with open(os.path.join(root, "README.md"), encoding="utf-8") as handle:
        block = handle.read().split("```bash\n", 1)[1]
    return block.splitlines()[1]


def _git(*arguments, cwd=ROOT):
    return subprocess.run(
        ["git", *arguments], cwd=cwd, capture_output=True, text=True, check=True
    ).stdout.strip()


def counts(output):
    """The summed counts of every pytest summary line in `output`."""
    totals = {}
    for line in output.splitlines():
        line = line.strip("= ")
        if SUMMARY.match(line):
            for number, kind in COUNT.findall(line):
                kind = "errors" if kind.startswith("error") else kind
                totals[kind] = totals.get(kind, 0) + int(number)
    return totals


def demo_fields(output):
    """The training time the demo prints, as a row's field (none if it
    printed none)."""
    trained = TRAINED.search(output)
    return {"training_seconds": float(trained.group(1))} if trained else {}


def _cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def measure(command, cwd):
    """(return code, output, wall seconds, CPU seconds of the process tree)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    completed = subprocess.run(
        ["bash", "-c", command],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return completed.returncode, completed.stdout, wall, cpu


def _commit(revision):
    try:
        return _git("rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
    except subprocess.CalledProcessError:
        raise SystemExit(
            f"python -m benchmarks.speed.test_suite: error: {revision!r} "
            "names no commit of this checkout"
        ) from None


def run(which, output, revision=None):
    if revision is None and _git("status", "--porcelain", "--untracked-files=no"):
        raise SystemExit(
            "python -m benchmarks.speed.test_suite: error: the checkout has "
            "uncommitted changes; commit them (rows name the commit that ran)"
        )
    commit = _commit(revision or "HEAD")
    folder = None
    if which == "full":
        folder = tempfile.mkdtemp(prefix="test_suite_")
        cwd = os.path.join(folder, "clone")
        _git("clone", "-q", ROOT, cwd)
        _git("checkout", "-q", commit, cwd=cwd)
        command = readme_test_command(cwd)
    elif which == "demo":
        cwd = ROOT
        command = f"{sys.executable} -m keras_nalm.demo"
    else:
        cwd = ROOT
        command = f"{sys.executable} -m pytest -p no:cacheprovider"
    load = os.getloadavg()[0]
    try:
        status, text, wall, cpu = measure(command, cwd)
    finally:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
    row = {
        "command": which,
        "argv": command,
        "status": status,
        **(demo_fields(text) if which == "demo" else counts(text)),
        "wall_seconds": round(wall, 1),
        "cpu_seconds": round(cpu, 1),
        "load_before": round(load, 2),
        "cores": os.cpu_count(),
        "device": _cpu_model(),
        "python": platform.python_version(),
        "date": datetime.date.today().isoformat(),
        "commit": commit,
        "dirty": False,
    }
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    with open(output, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(row) + "\n")
    print(json.dumps(row))
    if status != 0:
        print(text[-5000:], file=sys.stderr)
    return status


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.speed.test_suite",
        description=__doc__.split("\n")[0],
    )
    parser.add_argument("which", choices=("quick", "full", "demo"))
    parser.add_argument(
        "--commit",
        metavar="REV",
        help="measure this commit instead of HEAD (full only)",
    )
    parser.add_argument("--output", default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)
    if args.commit is not None and args.which != "full":
        parser.error("--commit measures the full command only (a fresh clone)")
    return run(args.which, args.output, args.commit)


if __name__ == "__main__":
    sys.exit(main())
