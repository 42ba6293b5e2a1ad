"""`benchmarks.typed_results` (issue 53): a result number typed on a
results page outside a claim fails `python -m benchmarks.claims --check`."""

import os
import shutil

from benchmarks import claims
from benchmarks import typed_results
from benchmarks.core import claim_rows

REPOSITORY = os.path.dirname(claim_rows.ROOT)
#: Issue 53's example of a hand-typed sentence.
HAND_TYPED = "The NAU solved 97 of 100 runs in 12 minutes, 3.4x faster.\n"


def test_each_shape_of_a_result_is_found_with_its_line():
    text = (
        "Intro.\n" + HAND_TYPED + "Rates of 98.5-99.1 % (paper 2.3 %), 2-3× and\n"
        "28 times, 1 771 s and 1.5 h; MSE 2.98·10⁵, 5·10⁶ steps, 10⁵ → 2·10⁵.\n"
        "Alike in 205 of the 207.\n"
        "Paper 32.2 (the paper's 200 000 steps; paper: 88-124), table 8's 0.47,\n"
        "table 12: < 10⁻⁴.\n"
        "At 0.104 from step 7 000, 75 at step 17 000; λ = 10 from step 20 000.\n"
        "The rest at about 0.5, ~500 and ≈ 17 (~23.5 k parameters, about 13\n"
        "characters, about 8 CPU-hours).\n"
        "NAC 88-124 and >999.9 (p < 0.05 where x < 0).\n"
        "The paper reports 0.0, table 12 gives 6.08 (table 4 of the paper).\n"
    )
    assert typed_results.typed_results(text) == [
        (2, "count", "97 of 100"),
        (2, "ratio", "3.4x"),
        (2, "time", "12 minutes"),
        (3, "rate", "2.3 %"),
        (3, "rate", "98.5-99.1 %"),
        (3, "ratio", "2-3×"),
        (4, "magnitude", "2.98·10⁵"),
        (4, "ratio", "28 times"),
        (4, "time", "1 771 s"),
        (4, "time", "1.5 h"),
        (5, "count", "205 of the 207"),
        (6, "quote", "0.47"),
        (6, "quote", "32.2"),
        (6, "quote", "88-124"),
        (7, "quote", "10⁻⁴"),
        (8, "reading", "0.104"),
        (8, "reading", "75"),
        (9, "rough value", "0.5"),
        (9, "rough value", "17"),
        (9, "rough value", "500"),
        (11, "bound", "999.9"),
        (12, "quote", "0.0"),
        (12, "quote", "6.08"),
    ]


def test_claims_code_comments_links_and_confidence_levels_are_not_results():
    text = (
        "<!--= solved rows.jsonl -->97 of 100<!--/--> runs (95 % interval,\n"
        "95 % CI, a test at the 5 % level); `--max-steps 5000 # 12 minutes` and\n"
        "```bash\npython -m x  # 3.4x faster\n```\n"
        "<!-- 50 % hidden --> [table](a/7_of_9.md) of U[1, 2), seed 3, x1.\n"
        "An equation: $\\cos(\\pi [x'_j < 0])$, and\n$$\nz = x^{0.5}, |x| > 999.9\n$$\n"
    )
    assert typed_results.typed_results(text) == []
    # the same bound outside the mathematics is a result
    assert typed_results.typed_results("x'_j < 0.5 here") == [(1, "bound", "0.5")]


def _copied_pages(directory):
    """The committed results pages, copied under `directory` at their
    places in the repository."""
    for page in claims.pages():
        copy = os.path.join(directory, os.path.relpath(page, REPOSITORY))
        os.makedirs(os.path.dirname(copy), exist_ok=True)
        shutil.copyfile(page, copy)


def test_a_typed_result_added_to_any_page_fails_the_check(
    tmp_path, monkeypatch, capsys
):
    _copied_pages(tmp_path)
    monkeypatch.setattr(claim_rows, "ROOT", str(tmp_path / "benchmarks"))
    assert claims._typed_results() == []
    changed = ["benchmarks/results/README.md", "benchmarks/nru/RESULTS.md"]
    changed += ["docs/benchmarks.md", "docs/units.md", "README.md"]
    for page in changed:
        with open(tmp_path / page, "a", encoding="utf-8") as handle:
            handle.write("\n" + HAND_TYPED)
    problems = claims._typed_results()
    assert len(problems) == 3 * len(changed)
    assert {problem.split(":")[0] for problem in problems} == set(changed)
    assert "'97 of 100' is a count typed outside a claim" in problems[0]
    # the command, its claims and provenance aside
    monkeypatch.setattr(claims, "regenerate", lambda text: (text, []))
    monkeypatch.setattr(claims, "provenance_problems", lambda: [])
    assert claims.main(["--check"]) == 1
    printed = capsys.readouterr().out.splitlines()
    assert printed == [f"typed: {problem}" for problem in problems]
