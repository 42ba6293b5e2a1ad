"""What `import keras_nalm` costs beyond `import keras`, and what it loads.

    python -m benchmarks.speed.import_cost [--runs 5]

Each run is a fresh Python process that times `import keras` and then
`import keras_nalm` (the baseline and the library, in the same process),
and lists the modules the second import added. Prints the median of each
time over the runs, the library's share, and whether any added module is
SciPy, the engine or task code (`benchmarks`).
"""

import argparse
import json
import statistics
import subprocess
import sys

_PROBE = """
import json, sys, time
began = time.perf_counter()
import keras
keras_done = time.perf_counter()
before = set(sys.modules)
import keras_nalm
done = time.perf_counter()
print(json.dumps({
    "keras_seconds": keras_done - began,
    "keras_nalm_seconds": done - keras_done,
    "added": sorted(set(sys.modules) - before),
}))
"""
FORBIDDEN = ("scipy", "benchmarks", "keras_nalm.engine")


def measure():
    """One fresh process's times and the modules `import keras_nalm` added."""
    completed = subprocess.run(
        [sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True
    )
    return json.loads(completed.stdout.splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.speed.import_cost",
        description=__doc__.split("\n")[0],
    )
    parser.add_argument("--runs", type=int, default=5, help="fresh processes")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    runs = [measure() for _ in range(args.runs)]
    keras_time = statistics.median(r["keras_seconds"] for r in runs)
    nalm_time = statistics.median(r["keras_nalm_seconds"] for r in runs)
    added = runs[-1]["added"]
    forbidden = [
        name
        for name in added
        if any(name == f or name.startswith(f + ".") for f in FORBIDDEN)
    ]
    print(f"import keras:       {keras_time:.3f} s (median of {args.runs})")
    print(f"import keras_nalm:  {nalm_time:.3f} s more ({nalm_time / keras_time:.1%})")
    print(
        f"modules added: {len(added)}; SciPy, engine or task code among them: "
        f"{forbidden or 'none'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
