"""The numbers of the results pages, regenerated from the committed rows.

    python -m benchmarks.claims [--check | --typed] [PAGE.md ...]

A number on a page (the README, CONTRIBUTING, the docs site's pages,
`benchmarks/results/README.md` and each task's `benchmarks/<task>/RESULTS.md`;
all of them by default) that comes from result rows or is quoted from a paper is
written as a claim: an HTML comment naming it, the value, then a closing
comment (both comments are invisible once rendered):

    in <!--=sm.inside-->176 of 207<!--/--> configurations

The name stands for a claim's expression, defined once in the `NAMED`
table of the folder whose rows it reads (here
`benchmarks/single_module/claims.py`: `"sm.inside": f"inside {PAPER}"`);
the prefix names the folder. A page may also write the expression
itself (`<!--= inside single_module/results/paper.jsonl -->`).

This command recomputes every claim from the rows (paths relative to
`benchmarks/`) and writes the values in place; `--check` writes
nothing, lists the claims whose text differs from the rows and exits 1 if
there is one. An expression is `NAME ARGUMENT ...` (a row filter
`FIELD=VALUE` matches rows whose field has that value, `FIELD=A|B`
either, `FIELD!=VALUE` any other, `FIELD>=NUMBER` and `FIELD<=NUMBER` a
number at or above and at or below the bound, `mae.1-2<=10` an entry's).
The claims over the rows of any task are those of `CLAIMS` below; each
task declares those of its own rows (`Task.claims`, from its folder's
`claims.py`: Trask's `score`, the NRU's `converged`, ...), the static
arithmetic family its own (`benchmarks/static_arithmetic/claims.py`:
`inside`, `flagged`, `summary`, ...), the pages' provenance its own
(`benchmarks/provenance.py`) and the speed measurements and searches
theirs (`benchmarks/speed/claims.py`, `benchmarks/tune/claims.py`):

- `success FILE FIELD=VALUE ...`: the success rate of the rows whose fields
  match ("28 %"); `solved FILES FIELD=VALUE ...`: "7 of 25"; `runs FILE
  FIELD=VALUE ...`: how many rows match ("5 175");
- `mean FILE FIELD FIELD=VALUE ...`, `median ...`, `maximum ...`,
  `range ...` ("0.86-0.94"): of a numeric field (`test_mse.1000`: the
  entry "1000" of a field, `series.3` the fourth value of a list) of the
  matching rows ("0.66", "2.8·10⁻⁴"); `percent_range ...`: the range of
  a fraction in percent ("87-96"); `field_ratio FILE FIELD BY
  FIELD=VALUE ...`: the range of FIELD over BY ("1.5-29"); `below FILE
  FIELD BOUND FIELD=VALUE ...`: how many are below the bound ("27 of
  100"); `at_best FILE FIELD BY FIELD=VALUE ...`: FIELD of the matching
  row of lowest BY (the test MAE of the run chosen by validation MAE);
- `paper TABLE COLUMN SPEC FIELD=VALUE ...`: a number quoted from a
  paper, read from a task's published table (a CSV, relative to
  `benchmarks/`): COLUMN of the rows matching the filters, one value or
  "low-high", formatted by SPEC (".0%": "40 %"; `-`: as `mean` writes);
- `changed FILE EARLIER FIELD FIELD=VALUE ...`: how many matching rows
  of FILE differ in FIELD from the row of the same configuration and seed
  in EARLIER ("0 of 450": identical);
- `value FILE FIELD SPEC FIELD=VALUE ...`: FIELD of the one matching row
  in a Python format spec ("3.25" for `.2f`, "33.8 %" for `.1%`);
- `hours FILE FIELD=VALUE ...` (the runs' wall time summed) and `minutes
  FILE FIELD=VALUE ...` (their wall times, "4-7.5");
- `report_table FILES table=N columns=I,J`: a table of the files'
  report (`benchmarks.report`), some of its columns.

`--check` of every page also fails if a page uses (by a claim, or by its
file name in the text) a row made with uncommitted changes (`dirty`) or a
file whose rows name no commit and have none stated, and on a result
number typed outside a claim ("97 of 100", "12 minutes", "3.4x",
"2.98·10⁵"; see `benchmarks.typed_results`); `--typed` lists every
such number. `--check PAGE.md ...` checks the named pages' claims and
typed numbers (the repository's README, whose figures are claims too).
"""

import argparse
import csv
import functools
import os
import re
import sys

from benchmarks import provenance
from benchmarks import registry
from benchmarks import report
from benchmarks import typed_results
from benchmarks.core import claim_rows
from benchmarks.core.claim_rows import Claim
from benchmarks.core.claim_rows import field as field_of
from benchmarks.core.claim_rows import field_values
from benchmarks.core.claim_rows import files_rows
from benchmarks.core.claim_rows import matching
from benchmarks.core.claim_rows import percent
from benchmarks.core.claim_rows import pretty
from benchmarks.core.claim_rows import selected
from benchmarks.core.claim_rows import spaced
from benchmarks.core.claim_rows import span
from benchmarks.core.rows import row_key
from benchmarks.core.rows import values_agree
from benchmarks.provenance import claims_in
from benchmarks.provenance import pages
from benchmarks.provenance import provenance_problems
from benchmarks.speed import claims as speed_claims
from benchmarks.static_arithmetic import claims as static_arithmetic_claims
from benchmarks.tune import claims as tune_claims


def mean(path, field, *filters):
    values = field_values(path, field, filters)
    return pretty(sum(values) / len(values))


def median(path, field, *filters):
    values = sorted(field_values(path, field, filters))
    middle = len(values) // 2
    if len(values) % 2:
        return pretty(values[middle])
    return pretty((values[middle - 1] + values[middle]) / 2)


def value_range(path, field, *filters):
    """ "low-high" of a field over the matching rows."""
    return span(field_values(path, field, filters))


def percent_range(path, field, *filters):
    """ "low-high" of a fraction field over the matching rows, in percent
    ("87-96")."""
    return span([100 * v for v in field_values(path, field, filters)])


def field_ratio(path, numerator, denominator, *filters):
    """ "low-high" of one field over another in the matching rows (an MSE
    over its threshold: "1.5-29")."""
    rows = matching(path, filters)
    return span([field_of(row, numerator) / field_of(row, denominator) for row in rows])


def maximum(path, field, *filters):
    return pretty(max(field_values(path, field, filters)))


def value(path, field, spec, *filters):
    """`field` of the one matching row, formatted by the format spec
    `spec` (".2f": "3.25"; ".1%": "33.8 %")."""
    rows = matching(path, filters)
    if len(rows) != 1:
        raise ValueError(
            f"A value claim needs one row; {' '.join(filters)} matches "
            f"{len(rows)} in {path}."
        )
    return format(field_of(rows[0], field), spec).replace("%", " %")


def _published_number(table, column, cell):
    """A published cell as (bound, number): bound "<" or ">" where the paper
    prints only a bound ("<0.0001"), else ""."""
    bound = cell[0] if cell[0] in "<>" else ""
    try:
        return bound, float(cell[len(bound) :])
    except ValueError:
        raise ValueError(f"{table}: a {column} of {cell!r} is not a number.") from None


def paper(table, column, spec, *filters):
    """COLUMN of the published TABLE's rows (a CSV of a task's `published/`
    folder, relative to `benchmarks/`) that the filters select (`_selected`):
    one value, or "low-high" over several; formatted by the Python format
    spec SPEC (".0%": "40 %"), or as the pages write numbers for `-`. Cells
    the paper prints as a bound ("<0.0001") are quoted as one ("< 1.0·10⁻⁴")
    when every selected cell is the same bound."""
    with open(claim_rows.file_path(table), encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    cells = [row[column] for row in selected(rows, filters)]
    found = [_published_number(table, column, cell) for cell in cells if cell]
    if not found:
        raise ValueError(
            f"No row of {table} with a {column} matches {' '.join(filters)}."
        )
    bounds = {bound for bound, _ in found}
    if bounds != {""} and len(set(found)) > 1:
        raise ValueError(
            f"{table}'s {column} of the rows matching {' '.join(filters)} "
            "mixes a bound with other cells; quote them in separate claims."
        )
    values = [number for _, number in found]
    if spec == "-":
        text = span(values)
    else:
        low, high = (
            format(v, spec).replace("%", " %") for v in (min(values), max(values))
        )
        text = low if low == high else f"{low}-{high}"
    return f"{found[0][0]} {text}" if found[0][0] else text


def changed(path, earlier, field, *filters):
    """How many of the matching rows of `path` differ in `field` from the
    row of the same configuration and seed in the file `earlier` ("25 of
    225"; "0 of 450": bit-identical in that field, NaN alike with NaN)."""
    before = {row_key(row): row for row in claim_rows.rows(earlier)}
    rows = [row for row in matching(path, filters) if row_key(row) in before]
    if not rows:
        raise ValueError(f"No row of {path} matching {filters} is in {earlier}.")
    differing = sum(
        not values_agree(field_of(row, field), field_of(before[row_key(row)], field))
        for row in rows
    )
    return f"{spaced(differing)} of {spaced(len(rows))}"


def at_best(path, field, by, *filters):
    """`field` of the matching row with the lowest `by` (e.g. the test MAE
    of the run chosen by validation MAE)."""
    best = min(matching(path, filters), key=lambda row: field_of(row, by))
    return pretty(field_of(best, field))


def below(path, field, bound, *filters):
    values = field_values(path, field, filters)
    return f"{sum(value < float(bound) for value in values)} of {len(values)}"


def success_rate(path, *filters):
    rows = matching(path, filters)
    return percent(sum(row["solved"] for row in rows) / len(rows))


def runs(path, *filters):
    """How many rows match ("5 175")."""
    return spaced(len(matching(path, filters)))


def solved(*arguments):
    rows = files_rows(arguments)
    return f"{spaced(sum(row['solved'] for row in rows))} of {spaced(len(rows))}"


def hours(path, *filters):
    """The matching runs' wall time summed, in hours ("10.2")."""
    seconds = [row["wall_seconds"] for row in matching(path, filters)]
    return f"{sum(seconds) / 3600:.3g}"


def minutes(path, *filters):
    """The matching runs' wall times, in minutes: "4-7.5" from the
    quickest to the slowest."""
    return span([row["wall_seconds"] / 60 for row in matching(path, filters)])


def report_table(*arguments):
    """`FILES [table=N] [columns=I,J,...]`: the N-th markdown table (from
    1, the first by default) of the files' report (`python -m
    benchmarks.report FILES`), with only its columns I, J, ... (from 1)
    where given."""
    options = dict(argument.split("=", 1) for argument in arguments if "=" in argument)
    unknown = options.keys() - {"table", "columns"}
    if unknown:
        raise ValueError(f"report_table takes table= and columns=, not {unknown}.")
    paths = [argument for argument in arguments if "=" not in argument]
    text, _ = report.build([row for path in paths for row in claim_rows.rows(path)])
    tables = re.findall(r"(?:^\|.*\n?)+", text, re.MULTILINE)
    number = int(options.get("table", 1))
    if not 1 <= number <= len(tables):
        raise ValueError(
            f"The report of {paths} has {len(tables)} tables, not {number}."
        )
    lines = tables[number - 1].strip().splitlines()
    if "columns" not in options:
        return "\n".join(lines)
    wanted = [int(index) for index in options["columns"].split(",")]
    cells = [line.strip("|").split("|") for line in lines]
    return "\n".join(
        "|" + "|".join(row[index - 1] for index in wanted) + "|" for row in cells
    )


#: The claims over the rows of any task.
CLAIMS = {
    "success": Claim(success_rate),
    "solved": Claim(solved),
    "runs": Claim(runs),
    "mean": Claim(mean),
    "median": Claim(median),
    "maximum": Claim(maximum),
    "range": Claim(value_range),
    "percent_range": Claim(percent_range),
    "field_ratio": Claim(field_ratio),
    "below": Claim(below),
    "at_best": Claim(at_best),
    "changed": Claim(changed),
    "value": Claim(value),
    "paper": Claim(paper),
    "hours": Claim(hours),
    "minutes": Claim(minutes),
    "report_table": Claim(report_table, table=True),
}
#: The claims and named claims of the folders that are no task, beside
#: `CLAIMS`.
OTHER_CLAIMS = (
    static_arithmetic_claims.CLAIMS,
    provenance.CLAIMS,
    provenance.NAMED,
    speed_claims.CLAIMS,
    speed_claims.NAMED,
    tune_claims.CLAIMS,
    tune_claims.NAMED,
)


@functools.cache
def known_claims():
    """{name: Claim, or the expression a named claim stands for}:
    `CLAIMS`, `OTHER_CLAIMS` and each task's (`Task.claims` and
    `Task.named`); a name declared twice is refused."""
    found = {}
    tables = [CLAIMS, *OTHER_CLAIMS]
    for task in registry.TASKS:
        tables += [task.claims, task.named]
    for table in tables:
        twice = found.keys() & table.keys()
        if twice:
            raise ValueError(f"Two folders declare the claims {sorted(twice)}.")
        found.update(table)
    return found


def expression(claim):
    """The expression (`NAME ARGUMENT ...`) of a claim: the one a named
    claim stands for, or the claim as written."""
    claim = claim.strip()
    found = known_claims().get(claim)
    if len(claim.split()) > 1 or isinstance(found, Claim):
        return claim  # an expression, or a claim that takes no argument
    if not isinstance(found, str):
        raise ValueError(
            f"{claim!r} is no named claim; a folder's claims module defines "
            "each in its `NAMED` table."
        )
    return found


def evaluate(claim):
    """The text of one claim (a name, or `NAME ARGUMENT ...`)."""
    name, *arguments = expression(claim).split()
    known = known_claims()
    if not isinstance(known.get(name), Claim):
        computed = sorted(
            key for key, found in known.items() if isinstance(found, Claim)
        )
        raise ValueError(f"Unknown claim {name!r}; known: {computed}.")
    value = known[name].compute(*arguments)
    return f"\n{value}\n" if known[name].table else value


def regenerate(text):
    """(`text` with every claim recomputed, [(claim, old, new)] that changed)."""
    changed, pieces, done = [], [], 0
    for match in claims_in(text):
        claim, old = match["claim"].strip(), match["value"]
        new = evaluate(claim)
        if new != old:
            changed.append((claim, old, new))
        pieces += [text[done : match.start("value")], new]
        done = match.end("value")
    return "".join(pieces) + text[done:], changed


def _typed_results():
    """The result numbers typed outside claims on the pages
    (`benchmarks.typed_results`)."""
    return typed_results.problems(pages(), os.path.dirname(claim_rows.ROOT))


def _list_typed(paths):
    """Prints every result number typed outside a claim on the pages."""
    for problem in typed_results.problems(paths, os.getcwd()):
        print(problem)
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.claims", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "pages", nargs="*", help="results pages (default: every one of them)"
    )
    parser.add_argument(
        "--check", action="store_true", help="list stale claims, write nothing"
    )
    parser.add_argument(
        "--typed",
        action="store_true",
        help="list the result numbers typed outside claims, write nothing",
    )
    args = parser.parse_args(argv)
    if args.typed:
        return _list_typed(args.pages or pages())
    stale = False
    for page in args.pages or pages():
        with open(page, encoding="utf-8") as handle:
            try:
                text, changed = regenerate(handle.read())
            except ValueError as error:
                parser.error(f"{page}: {error}")
        for claim, old, new in changed:
            print(f"{page}: {claim}: {old.strip()!r} -> {new.strip()!r}")
        stale |= bool(changed)
        if changed and not args.check:
            with open(page, "w", encoding="utf-8") as handle:
                handle.write(text)
    problems = []
    if args.check and not args.pages:
        problems = [f"provenance: {problem}" for problem in provenance_problems()]
        problems += [f"typed: {problem}" for problem in _typed_results()]
    elif args.check:
        typed = typed_results.problems(args.pages, os.getcwd())
        problems = [f"typed: {problem}" for problem in typed]
    for problem in problems:
        print(problem)
    return 1 if args.check and (stale or problems) else 0


def _quietly_when_the_reader_stops(run):
    """`run()`'s status, or 0 when the reader of its output stopped reading
    (`--typed | head`): no traceback, and nothing more written."""
    try:
        status = run()
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return status


if __name__ == "__main__":
    sys.exit(_quietly_when_the_reader_stops(main))
