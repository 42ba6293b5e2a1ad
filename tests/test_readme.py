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


def test_readme_says_what_it_is_then_shows_the_commands_and_an_example():
    """What the library is in the first 5 lines, the commands in the first
    30, a Python example before line 60, at most 200 lines and no
    test-suite timings (those are CONTRIBUTING.md's)."""
    lines = _read("README.md").splitlines()
    assert len(lines) <= 200
    assert "Keras 3 library of Neural Arithmetic" in " ".join(lines[:5])
    assert lines.index("```bash") < 30
    assert lines.index("```python") < 60
    assert not any(
        "test_suite.jsonl" in line and "command=full" in line for line in lines
    )
