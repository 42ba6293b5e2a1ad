"""The claims of the static arithmetic tasks' results pages: the success
rates, "solved at" and sparsity errors of the rows beside the papers'
published values (`benchmarks.static_arithmetic.success`), over the rows
of any of those tasks (`benchmarks.claims` lists every claim):

- `inside FILES`: how many published success rates lie in our 95 %
  interval ("176 of 207"; every claim over FILES takes FIELD=VALUE
  filters after them too); `flagged FILES`: how many differ at p < 0.05
  (Fisher); `unflagged FILES`: how many do not; `outside_unflagged
  FILES`: how many lie outside our 95 % interval without differing so
  (`outside_unflagged_table FILES`: their table); `pooled FILE
  FIELD=VALUE ...`: the matching rows' successes against the survey's,
  pooled over configurations (Cochran-Mantel-Haenszel);
  `operations_table FILE FIELD=VALUE ...`: the table of each unit (a row)
  on each operation (a column): runs solved of runs, with the survey's
  count on the ranges it published in brackets; `fisher FILE
  FIELD=VALUE ...`: the p-value of the one configuration the rows
  matching the filters make; `flagged_as FILE SUFFIX FIELD=VALUE ...`:
  "6 of 36" configurations of the matching Single Module rows that
  differ, a variant's unit compared with the paper's unit of its name
  without SUFFIX (`-`: none);
- `outside_solved_at FILES`, `outside_sparsity FILES`: published means of
  "solved at" / the sparsity error outside our 95 % interval (by more than
  their printed precision); `outside_solved_at_joint`,
  `outside_sparsity_joint`: those that differ from ours by more than both
  estimates' uncertainty (the paper's interval counted too);
  `outside_sparsity_joint_means FILES`: our means and the paper's of
  those ("7.2·10⁻⁹-5.0·10⁻⁵ against 1.0·10⁻¹⁶-2.1·10⁻⁵");
- `summary FILES`: the table of every configuration's success, solved-at
  and sparsity error beside the paper's (`benchmarks.report`'s columns);
- `differences FILES`: the table rows of every configuration whose success
  differs from the paper's at p < 0.05, with the verdict of its experiment
  from `benchmarks/results/verdicts.csv` ("no verdict" where none is
  recorded, so a new difference cannot pass unnoticed).
"""

from benchmarks.core import claim_rows
from benchmarks.core.claim_rows import Claim
from benchmarks.core.claim_rows import files_rows
from benchmarks.core.claim_rows import matching
from benchmarks.core.claim_rows import percent
from benchmarks.core.claim_rows import spaced
from benchmarks.core.claim_rows import span
from benchmarks.static_arithmetic import success


def _published():
    """The papers' tables of every task that declares them."""
    from benchmarks import registry

    return registry.published()


def _summaries(arguments):
    """The configurations of the files' rows (those matching the claim's
    FIELD=VALUE filters, if it has any), and the published values."""
    return success.summarize(files_rows(arguments)), _published()


def inside(*paths):
    found, total = success.agreement(*_summaries(paths))
    return f"{found} of {total}"


def flagged(*paths):
    return str(len(success.flagged(*_summaries(paths))))


def unflagged(*paths):
    summaries, published = _summaries(paths)
    _, total = success.agreement(summaries, published)
    return str(total - len(success.flagged(summaries, published)))


def pooled(path, *filters):
    """The matching Single Module rows' successes against the survey's,
    pooled over their configurations (Cochran-Mantel-Haenszel): "16 of
    900 against the survey's 34 (p = 0.0095)"."""
    rows = matching(path, filters)
    found = success.pooled_test(success.summarize(rows), _published())
    if found is None:
        raise ValueError(f"No configuration of {path} matching {filters} is published.")
    ours, theirs, runs, p = found
    return f"{ours} of {spaced(runs)} against the survey's {theirs} (p = {p:.2g})"


def rate_table(*arguments):
    """`FILES FIELD=VALUE ...`: a row per unit, a column per operation:
    our success rate over every configuration and seed of the matching
    rows with Wilson's 95 % interval, then the paper's rate over the
    configurations it published ("92 % (88-95 %) · 94 %"; "—": not run;
    `success.rates_by_unit`)."""
    rates = success.rates_by_unit(*_summaries(arguments))
    operations = [
        op
        for op in success.OPERATION_ORDER
        if any(op in by_operation for by_operation in rates.values())
    ]
    lines = [
        "| unit | " + " | ".join(success.SYMBOLS[op] for op in operations) + " |",
        "|---|" + "---:|" * len(operations),
    ]
    for unit, by_operation in rates.items():
        cells = [_rate_cell(by_operation.get(op)) for op in operations]
        lines.append(f"| {unit} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _rate_cell(rate):
    if rate is None:
        return "—"
    estimate, low, high = rate.success
    ours = f"{percent(estimate)} ({100 * low:.0f}-{100 * high:.0f} %)"
    return ours if rate.published is None else f"{ours} · {percent(rate.published)}"


#: The Single Module Task's operations, in the survey's order, and their signs.
OPERATIONS = {"add": "+", "sub": "−", "mul": "×", "div": "÷"}


def operations_table(path, *filters):
    """The matching Single Module rows as one table: a row per unit, a
    column per operation, each cell the runs solved over every range and
    seed and, in brackets, the survey's count on the ranges it published
    ("209 of 225 (212)"; "(12 of 25)" where it published fewer; "—": not
    run)."""
    rows = matching(path, filters)
    published = _published()
    lines = [
        "| unit | " + " | ".join(OPERATIONS.values()) + " |",
        "|---|" + "---:|" * len(OPERATIONS),
    ]
    for module in dict.fromkeys(row["module"] for row in rows):
        cells = [
            _operation_cell(
                [r for r in rows if (r["module"], r["operation"]) == (module, op)],
                published,
            )
            for op in OPERATIONS
        ]
        lines.append(f"| {module} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _operation_cell(rows, published):
    if not rows:
        return "—"
    summaries = success.summarize(rows)
    solved = sum(summary.solved for summary in summaries)
    runs = sum(summary.seeds for summary in summaries)
    survey = success.pooled_test(summaries, published)
    if survey is None:
        return f"{solved} of {spaced(runs)}"
    _, theirs, compared, _ = survey  # compared: our runs on the published ranges
    of = "" if compared == runs else f" of {spaced(compared)}"
    return f"{solved} of {spaced(runs)} ({theirs}{of})"


def _outside_unflagged(summaries, published):
    """The configurations whose published rate lies outside our 95 %
    interval without differing significantly (p >= 0.05)."""
    flagged = {id(s) for s in success.flagged(summaries, published)}
    return [
        s
        for s in summaries
        if id(s) not in flagged and success.rate_inside(s, published) is False
    ]


def outside_unflagged(*paths):
    """How many published rates lie outside our 95 % interval without
    differing significantly (p >= 0.05)."""
    return str(len(_outside_unflagged(*_summaries(paths))))


def outside_unflagged_table(*paths):
    """The table of the configurations `outside_unflagged` counts."""
    summaries, published = _summaries(paths)
    rows = [
        "| ".join(_comparison_cells(s, published)) + "|"
        for s in _outside_unflagged(summaries, published)
    ]
    return "\n".join([OUTSIDE_HEADER, *rows])


def flagged_as(path, suffix, *filters):
    """Of the matching rows' configurations with a published rate, how many
    differ at p < 0.05, each row's unit read without `suffix` (a variant
    `npu_constrained` compared with the paper's `npu`; `-` for no suffix)."""
    suffix = "" if suffix == "-" else suffix
    rows = [
        {**row, "module": row["module"].removesuffix(suffix)}
        for row in matching(path, filters)
    ]
    summaries, published = success.summarize(rows), _published()
    _, total = success.agreement(summaries, published)
    return f"{len(success.flagged(summaries, published))} of {total}"


def fisher(path, *filters):
    summaries = success.summarize(matching(path, filters))
    if len(summaries) != 1:
        raise ValueError(
            f"A Fisher claim needs one configuration; {' '.join(filters)} "
            f"matches {len(summaries)} in {path}."
        )
    return f"{success.fisher_test(summaries[0], _published()):.2g}"


def summary(*paths):
    return success.compact_markdown(*_summaries(paths))


def _outside(paths, name, field, joint=False):
    summaries, published = _summaries(paths)
    found, total = success.count_outside(summaries, published, name, field, joint)
    return f"{found} of {total}"


def outside_solved_at_joint(*paths):
    return _outside(paths, "solved_at_mean", "solved_at", joint=True)


def outside_sparsity_joint(*paths):
    return _outside(paths, "sparsity_error_mean", "sparsity", joint=True)


def outside_sparsity_joint_means(*paths):
    """ "A-B against C-D": our sparsity means and the paper's of the
    configurations `outside_sparsity_joint` counts."""
    summaries, published = _summaries(paths)
    differing, _ = success.compared_means(
        summaries, published, "sparsity_error_mean", "sparsity", joint=True
    )
    if not differing:
        raise ValueError(f"No sparsity mean of {' '.join(paths)} differs so.")
    ours, theirs = zip(*differing)
    return f"{span(ours)} against {span(theirs)}"


def outside_solved_at(*paths):
    return _outside(paths, "solved_at_mean", "solved_at")


def outside_sparsity(*paths):
    return _outside(paths, "sparsity_error_mean", "sparsity")


def _verdict_of(key, verdicts):
    found = claim_rows.verdict_of(
        verdicts, key.task, key.unit, key.operation, key.interpolation, key.steps
    )
    return found or ("**no verdict**", "")


def _comparison_cells(summary, published):
    """The cells of a configuration beside the paper's rate: "| table",
    configuration, ours, the paper's, Fisher's p (each cell's text after
    "| ")."""
    key, paper = summary.key, success.published_for(published, summary)
    configuration = (
        f"{key.unit} {success.SYMBOLS.get(key.operation, key.operation)}, "
        f"{success.range_label(key.interpolation)}"
    )
    if key.task != "single_module":
        configuration += f", {spaced(key.steps)} steps"
    p = success.fisher_test(summary, published)
    return [
        f"| {paper['table']} ",
        f"{configuration} ",
        f"{summary.solved} of {summary.seeds} ",
        f"{percent(float(paper['success_rate']))} ",
        f"{p:.2g} ",
    ]


def _difference_row(summary, published, verdicts):
    verdict, experiment = _verdict_of(summary.key, verdicts)
    experiment = f"`{experiment}`" if experiment else ""
    cells = [*_comparison_cells(summary, published), f"{verdict} ", f"{experiment} "]
    return "| ".join(cells) + "|"


COMPARISON_HEADER = "| paper, table | configuration | ours | paper | p (Fisher) "


DIFFERENCES_HEADER = (
    COMPARISON_HEADER + "| verdict | experiment |\n|---|---|---:|---:|---:|---|---|"
)


OUTSIDE_HEADER = COMPARISON_HEADER + "|\n|---|---|---:|---:|---:|"


def differences(*paths):
    summaries, published = _summaries(paths)
    verdicts = claim_rows.verdicts()
    rows = [
        _difference_row(s, published, verdicts)
        for s in success.flagged(summaries, published)
    ]
    return "\n".join([DIFFERENCES_HEADER, *rows])


CLAIMS = {
    "rate_table": Claim(rate_table, table=True),
    "inside": Claim(inside),
    "flagged": Claim(flagged),
    "unflagged": Claim(unflagged),
    "outside_unflagged": Claim(outside_unflagged),
    "outside_unflagged_table": Claim(outside_unflagged_table, table=True),
    "pooled": Claim(pooled),
    "operations_table": Claim(operations_table, table=True),
    "fisher": Claim(fisher),
    "flagged_as": Claim(flagged_as),
    "outside_solved_at": Claim(outside_solved_at),
    "outside_sparsity": Claim(outside_sparsity),
    "outside_solved_at_joint": Claim(outside_solved_at_joint),
    "outside_sparsity_joint": Claim(outside_sparsity_joint),
    "outside_sparsity_joint_means": Claim(outside_sparsity_joint_means),
    "summary": Claim(summary, table=True),
    "differences": Claim(differences, table=True),
}
