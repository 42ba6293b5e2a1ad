"""What a sweep pays for running on Dask distributed instead of the local pool.

    python -m benchmarks.speed.cluster_overhead --seeds 0-21 \\
        --output benchmarks/speed/results/cluster_overhead.json

Runs the same Single Module sweep (NMU on multiplication, the 9 ranges of
Madsen table 5, `--seeds`: 198 runs for 0-21, of `--max-steps` steps)
twice in fresh output files: with `--workers 2` (the multiprocessing pool)
and with `--cluster` on a local Dask cluster of 2 single-thread worker
processes started for the purpose. Records the wall time of each, the
time per run and their ratio, measured in the same invocation.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from benchmarks.core.arguments import positive_int
from benchmarks.core.rows import environment

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _sweep_command(output, seeds, steps, placement):
    return [
        sys.executable, "-m", "benchmarks.single_module",
        "--module", "nmu", "--operation", "mul", "--preset", "quick",
        "--seeds", seeds, "--max-steps", str(steps), "--quiet",
        "--output", output, *placement,
    ]  # fmt: skip


def _timed(command):
    began = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, stderr=subprocess.DEVNULL)
    return time.perf_counter() - began


def _rows(path):
    with open(path) as handle:
        return sum(1 for line in handle if line.strip())


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.speed.cluster_overhead",
        description=__doc__.split("\n")[0],
    )
    parser.add_argument("--seeds", default="0-21")
    parser.add_argument("--max-steps", type=positive_int, default=2_000)
    parser.add_argument("--output", required=True, help="a JSON file")
    args = parser.parse_args(argv)
    from distributed import LocalCluster

    directory = tempfile.mkdtemp(prefix="cluster_overhead_")
    pool_rows = os.path.join(directory, "pool.jsonl")
    cluster_rows = os.path.join(directory, "cluster.jsonl")
    seconds = {
        "pool": _timed(
            _sweep_command(pool_rows, args.seeds, args.max_steps, ["--workers", "2"])
        )
    }
    with LocalCluster(
        n_workers=2, threads_per_worker=1, dashboard_address=None
    ) as cluster:
        placement = ["--cluster", cluster.scheduler_address]
        seconds["cluster"] = _timed(
            _sweep_command(cluster_rows, args.seeds, args.max_steps, placement)
        )
    runs = _rows(pool_rows)
    if _rows(cluster_rows) != runs:
        raise SystemExit("The two sweeps wrote different numbers of rows.")
    result = {
        "command": " ".join(
            ["python -m benchmarks.speed.cluster_overhead", *sys.argv[1:]]
        ),
        "runs": runs,
        "steps_per_run": args.max_steps,
        "seconds": seconds,
        "seconds_per_run": {key: value / runs for key, value in seconds.items()},
        "cluster_over_pool": seconds["cluster"] / seconds["pool"],
        "environment": environment(),
    }
    with open(args.output, "w") as handle:
        json.dump(result, handle, indent=2, sort_keys=True)
    summary = ("runs", "seconds", "cluster_over_pool")
    print(json.dumps({key: result[key] for key in summary}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
