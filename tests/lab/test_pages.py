"""The pages a researcher reads (issue 71): named claims, little markup,
short lines, and results pages that open with their table and figure."""

import collections
import json
import os
import re

import pytest

from benchmarks import claims
from benchmarks import provenance
from benchmarks.core import claim_rows
from tests.lab.test_report import _row

REPOSITORY = os.path.dirname(claim_rows.ROOT)
#: The pages whose markup issue 71 bounds: README, docs and results pages.
READ_PAGES = [
    page for page in provenance.pages() if not page.endswith("CONTRIBUTING.md")
]
RESULTS_PAGES = [page for page in READ_PAGES if "benchmarks" + os.sep in page]
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")


@pytest.fixture
def named(tmp_path, monkeypatch):
    """Rows where the NMU solves 9 of 25 runs on U[1,2), and the name
    `t.nine` for the claim that counts them."""
    rows = [_row(seed, seed < 9) for seed in range(25)]
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    monkeypatch.setattr(claim_rows, "ROOT", str(tmp_path))
    known = {**claims.known_claims(), "t.nine": "solved rows.jsonl"}
    monkeypatch.setattr(claims, "known_claims", lambda: known)
    return tmp_path


def test_a_named_claim_is_its_expression_and_keeps_its_short_marker(named):
    text = "NMU solved <!--=t.nine-->3 of 25<!--/--> runs.\n"
    assert claims.regenerate(text) == (
        "NMU solved <!--=t.nine-->9 of 25<!--/--> runs.\n",
        [("t.nine", "3 of 25", "9 of 25")],
    )
    spelled = "<!--= solved rows.jsonl -->9 of 25<!--/-->"
    assert claims.regenerate(spelled) == (spelled, [])
    with pytest.raises(ValueError, match="'t.ten' is no named claim"):
        claims.regenerate("<!--=t.ten-->9<!--/-->")


def test_a_claim_shown_as_code_is_an_example_not_a_claim(named):
    """CONTRIBUTING shows the syntax in code spans and blocks; the value
    beside a real claim is still recomputed."""
    text = (
        "Write `<!--=t.ten-->`, the value, `<!--/-->`; then\n"
        "```\n<!--=t.ten-->1<!--/-->\n```\n"
        "<!--=t.nine-->1<!--/-->\n"
    )
    new, changed = claims.regenerate(text)
    assert changed == [("t.nine", "1", "9 of 25")]
    assert new == text.replace("-->1<!--/-->\n", "-->9 of 25<!--/-->\n").replace(
        "```\n<!--=t.ten-->9 of 25", "```\n<!--=t.ten-->1"
    )


def _page_claims():
    """{page: [claim as written]} of every committed page."""
    found = {}
    for page in provenance.pages():
        with open(page, encoding="utf-8") as handle:
            found[page] = [
                m["claim"].strip() for m in provenance.claims_in(handle.read())
            ]
    return found


def test_every_named_claim_is_used_on_a_page_and_says_what_no_other_says():
    defined = {
        name: expression
        for name, expression in claims.known_claims().items()
        if isinstance(expression, str)
    }
    used = {claim for found in _page_claims().values() for claim in found}
    assert sorted(set(defined) - used) == []  # no definition left behind
    twice = collections.Counter(" ".join(e.split()) for e in defined.values())
    assert [expression for expression, count in twice.items() if count > 1] == []


def test_the_pages_are_prose_with_little_markup_and_lines_one_can_edit():
    """At most 12 % of the characters of the README, the docs and the
    results pages are claim markup; no prose line is over 400 characters."""
    characters = markup = 0
    long_lines = []
    for page in READ_PAGES:
        with open(page, encoding="utf-8") as handle:
            text = handle.read()
        characters += len(text)
        for match in provenance.claims_in(text):
            markup += len(match.group(0)) - len(match["value"])
        in_code = False
        for number, line in enumerate(text.splitlines(), start=1):
            in_code ^= line.startswith("```")
            if len(line) > 400 and not in_code and not line.startswith("|"):
                long_lines.append(f"{os.path.relpath(page, REPOSITORY)}:{number}")
    assert markup / characters <= 0.12
    assert long_lines == []


@pytest.mark.parametrize(
    "page", RESULTS_PAGES, ids=lambda page: os.path.relpath(page, REPOSITORY)
)
def test_a_results_page_opens_with_its_table_and_a_committed_figure(page):
    with open(page, encoding="utf-8") as handle:
        text = handle.read()
    opening = "\n".join(text.splitlines()[:40])
    tables = [
        match
        for match in provenance.claims_in(opening)
        if match["value"].strip().startswith("|")
    ]
    assert tables, "no table claim in the first 40 lines"
    figures = IMAGE.findall(opening)
    assert figures, "no figure in the first 40 lines"
    for figure in figures:
        assert os.path.isfile(os.path.join(os.path.dirname(page), figure)), figure
