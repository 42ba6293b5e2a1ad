"""Populations against one run at a time, on the lab's own jobs.

    python -m benchmarks.speed.population [--quick] [--sizes 1,25,225]
        [--workloads single_module,arithmetic]

For each workload, the same jobs are trained by the task's own `train`
(`benchmarks.core.runs.Engine`) in one process on one thread, first one
run at a time (the baseline: one compiled program per configuration,
reused across its seeds), then in populations of each size R
(`benchmarks.core.sweep.population_batches`: the jobs of one program in
lists of at most R), each from cold caches (its own compilation and
epsilon-perfect thresholds). Each line is JSON: the workload, R, the runs, their
steps, the wall seconds of training them all (compilation included, the
process's start and imports not) and run-steps per second, with the
ratio to one at a time last.

Untimed, before each workload: one run of its first job (the process's
runtime set up: XLA, thread pools, Keras; it would otherwise weigh on
whichever measurement came first) and every job's ε-perfect threshold
(simulated once per range and subsets, the same work for both ways of
training: 10^8 draws for each of Madsen's seeds, whose subsets differ).
Each measurement then starts from cold caches of compiled programs.

Workloads: the Single Module Task's NMU (×), NAU (+) and NPU (÷) on
the survey's nine ranges × 25 seeds (225 runs, 50 000 steps each;
`--quick`: 5 000) and Madsen & Johansen's arithmetic task with the NMU
(×, 25 seeds: a population is the seeds of one configuration, whose
subsets differ; 20 000 steps, `--quick` 5 000).
"""

import argparse
import json
import sys
import time


def _workloads(quick):
    steps = "5000" if quick else None
    single = ["--interpolation-range", "all", "--seeds", "0-24", "--output", "unused"]
    if steps:
        single += ["--max-steps", steps]
    madsen = ["--seeds", "0-24", "--max-steps", steps or "20000", "--output", "unused"]
    return [
        ("single_module", "nmu ×", ["--module", "nmu", "--operation", "mul", *single]),
        ("single_module", "nau +", ["--module", "nau", "--operation", "add", *single]),
        ("single_module", "npu ÷", ["--module", "npu", "--operation", "div", *single]),
        ("arithmetic", "nmu ×", ["--model", "nmu", "--operation", "mul", *madsen]),
    ]


def _jobs(folder, argv):
    import importlib

    task = importlib.import_module(f"benchmarks.{folder}.task").TASK
    args = task.parse_arguments(argv)
    return task, task.row_task(args), task.jobs(args)


def _cold():
    """Empties the process's caches of compiled programs, so that each
    measurement pays its own compilation, as a fresh worker would, and
    none profits from another's."""
    from benchmarks.core import training

    training._TRAINERS.clear()
    training._POPULATIONS.clear()


def _warm(task, row_task, jobs):
    """One run of the first job, and every job's threshold (untimed)."""
    task.train(row_task, jobs[:1])
    for job in jobs:
        source = task.train.make_spec(dict(job.config)).make_source(job.seed)
        getattr(source, "threshold", lambda: None)()


def _seconds(train, batches):
    _cold()
    began = time.perf_counter()
    for batch in batches:
        train(batch)
    return time.perf_counter() - began


def measure(folder, name, argv, sizes):
    """The JSON lines of one workload: one at a time, then each size."""
    from benchmarks.core.sweep import population_batches

    task, row_task, jobs = _jobs(folder, argv)
    runs = len(jobs)
    steps = dict(jobs[0].config)["steps"]

    def train(batch):
        return task.train(row_task, batch)

    _warm(task, row_task, jobs)
    lines = []
    baseline = runs * steps / _seconds(train, [[job] for job in jobs])
    lines.append(
        {
            "workload": f"{folder}: {name}",
            "population": "one at a time",
            "runs": runs,
            "steps": steps,
            "run_steps_per_s": round(baseline),
            "ratio": 1.0,
        }
    )
    for size in sizes:
        batches = population_batches(jobs, task.train.population_key, size, 1)
        seconds = _seconds(train, batches)
        speed = runs * steps / seconds
        lines.append(
            {
                "workload": f"{folder}: {name}",
                "population": size,
                "runs": runs,
                "steps": steps,
                "wall_seconds": round(seconds, 2),
                "run_steps_per_s": round(speed),
                "ratio": round(speed / baseline, 2),
            }
        )
    return lines


FOLDERS = ("single_module", "arithmetic")


def _folders(text):
    """`--workloads`: task folders of `FOLDERS`, comma-separated."""
    folders = text.split(",")
    unknown = sorted(set(folders) - set(FOLDERS))
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown workload {', '.join(unknown)}: choose from {', '.join(FOLDERS)}"
        )
    return folders


def _sizes(text):
    """`--sizes`: positive ints, comma-separated."""
    from benchmarks.core.arguments import positive_int

    return [positive_int(size) for size in text.split(",")]


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.speed.population",
        description=__doc__.split("\n\n")[0],
    )
    parser.add_argument("--quick", action="store_true", help="5 000 steps a run")
    parser.add_argument(
        "--sizes",
        type=_sizes,
        default=[1, 25, 225],
        help="population sizes to measure, comma-separated (default 1,25,225)",
    )
    parser.add_argument(
        "--workloads",
        type=_folders,
        default=list(FOLDERS),
        help="the tasks whose workloads to measure, comma-separated "
        f"(default {','.join(FOLDERS)})",
    )
    args = parser.parse_args(argv)
    from benchmarks.core.sweep import use_worker_threads

    use_worker_threads()  # one thread, as a sweep's worker
    for folder, name, line in _workloads(args.quick):
        if folder not in args.workloads:
            continue
        for result in measure(folder, name, line, args.sizes):
            print(json.dumps(result, ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
