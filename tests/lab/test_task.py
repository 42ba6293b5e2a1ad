"""A task of one's own, as CONTRIBUTING's "Add a task" says to add one: a
`Task` built from its own functions and one line in the registry. Its
command, its resume, `benchmarks.reproduce` and `benchmarks.report` then
work for it with nothing else declared."""

import json

import pytest

from benchmarks import registry
from benchmarks import report
from benchmarks import reproduce
from benchmarks.core import arguments
from benchmarks.core import sweep
from benchmarks.core.rows import environment
from benchmarks.core.rows import make_row
from benchmarks.core.task import Task
from benchmarks.core.task import TaskReport

PROG = "python -m benchmarks.toy"


def parse_arguments(argv=None):
    """The toy's command line: `--scale` and the common options."""
    parser = arguments.new_parser(PROG, "A toy task: a row is its seed times a scale.")
    parser.add_argument("--scale", type=float, default=2.0)
    arguments.add_common_arguments(parser, default_seeds="0-2")
    return parser.parse_args(argv)


def jobs(args):
    config = {"scale": args.scale, "steps": args.max_steps or 10}
    return sweep.jobs_over_seeds(config, args.seeds)


def train(task, jobs, tensorboard=None, checkpoints=None):
    """Each job's row: its seed times the scale, at `steps` steps."""
    found = []
    for job in jobs:
        config = dict(job.config)
        result = {"value": job.seed * config["scale"], "wall_seconds": 0.0}
        found.append(make_row(task, config, job.seed, result, {}, environment()))
    return found


def markdown(rows):
    values = ", ".join(f"{row['value']:g}" for row in rows)
    return f"| toy | {values} |"


TOY = Task(
    name="toy",
    rows=("toy",),
    parse_arguments=parse_arguments,
    jobs=jobs,
    train=train,
    row_task=lambda args: "toy",
    reports=(TaskReport(("toy",), markdown),),
)


@pytest.fixture
def registered(monkeypatch):
    """The toy as one more line of `registry.TASKS`."""
    monkeypatch.setattr(registry, "TASKS", (*registry.TASKS, TOY))
    return TOY


def _rows(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_task_of_ones_own_runs_resumes_reruns_and_reports(registered, tmp_path):
    output = tmp_path / "rows.jsonl"
    line = ["--scale", "3", "--seeds", "0-2", "--output", str(output), "--quiet"]
    assert sweep.main(registered, line) == 0
    rows = _rows(output)
    assert [(row["task"], row["seed"], row["value"]) for row in rows] == [
        ("toy", 0, 0.0),
        ("toy", 1, 3.0),
        ("toy", 2, 6.0),
    ]
    assert rows[0]["config"] == {"scale": 3.0, "steps": 10}
    # resumed: the finished seeds are kept, only the new one runs
    assert sweep.main(registered, [*line[:2], "--seeds", "0-3", *line[4:]]) == 0
    assert [row["seed"] for row in _rows(output)] == [0, 1, 2, 3]
    # found by its rows' task: re-run identically, and reported
    assert registry.task_of("toy") is registered
    assert reproduce.main([str(output), "--sample", "2"]) == 0
    assert report.build(_rows(output))[0] == "| toy | 0, 3, 6, 9 |"


def test_a_task_outside_the_registry_is_named_unknown(tmp_path):
    with pytest.raises(ValueError, match="Unknown task 'toy'"):
        registry.task_of("toy")


def test_the_toys_mistakes_are_refused_before_any_run(registered, tmp_path, capsys):
    output = tmp_path / "rows.jsonl"
    with pytest.raises(SystemExit) as refused:
        sweep.main(registered, ["--scale", "x", "--output", str(output)])
    assert refused.value.code == 2
    assert "argument --scale" in capsys.readouterr().err
    assert not output.exists()
