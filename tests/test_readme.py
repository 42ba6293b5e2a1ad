"""The README starts with the two commands that `.ci/run` and users run."""

import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _read(*path):
    with open(os.path.join(ROOT, *path), encoding="utf-8") as handle:
        return handle.read()


def test_readme_starts_with_the_demo_and_test_commands_that_ci_runs():
    readme = _read("README.md")
    assert len(readme) < 100_000
    demo, tests = readme.split("```bash\n", 1)[1].splitlines()[:2]
    assert demo.endswith(".venv/bin/python -m keras_nalm.demo")
    assert tests.endswith(".venv/bin/python -m tests --run-large")
    assert tests in _read(".ci", "run").splitlines()
