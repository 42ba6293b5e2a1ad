"""Units of one's own beside the survey's modules, on the same configurations.

`benchmarks.report FILE` on rows of a unit of one's own
(`benchmarks.core.units`: rows with a `*_digest` field) adds, for each
task, operation, unit version (`unit @digest`) and budget (steps and
preset), one table per configuration (interpolation and extrapolation
range, input size): the unit's success rate, "solved at" and sparsity
error ("not defined" for a unit that defines none) with their 95 %
intervals, beside our units' committed rows on that configuration, our
units' rows in the files given, and the papers' published values. Each
comparator of the unit's budget gets the two-sided Fisher exact test of
its success count against the unit's, and the Cochran-Mantel-Haenszel
test pooled over the configurations both have; a comparator of another
budget is shown, said to be of another budget, and not tested, and the
report gives the command that runs our units at the unit's budget.
Two versions of a unit, or two budgets, are never counted together.
`figures` draws the success rates by range, as the survey's figures do.
"""

import collections
import os

from benchmarks.core.formatting import BENCHMARKS
from benchmarks.core.formatting import format_number
from benchmarks.core.formatting import load_pyplot
from benchmarks.core.formatting import save_figure
from benchmarks.core.ranges import Range
from benchmarks.core.rows import is_own
from benchmarks.core.rows import read_rows
from benchmarks.core.stats import fisher_exact_p
from benchmarks.core.stats import pooled_success_p
from benchmarks.core.stats import wilson_interval
from benchmarks.static_arithmetic import success

#: Where a comparator's numbers come from: our committed rows, our units'
#: rows in the files given to the report, the user's.
OURS, GIVEN, YOURS = "ours (committed)", "ours (given)", "yours"


def budget_of(row):
    """What of a row's protocol makes its results comparable: its steps
    and preset (the preset sets the schedules' time scale)."""
    return row["max_steps"], row.get("preset")


def _budget_text(budget):
    steps, preset = budget
    return f"{steps:,} steps" + (f", preset {preset}" if preset else "")


def _configuration(key):
    return (
        key.task,
        key.operation,
        key.input_size,
        key.interpolation,
        key.extrapolation,
    )


#: One comparator on one configuration: its unit, where its numbers come
#: from, its budget (`budget_of`), seeds, solved runs, and the success,
#: solved-at and sparsity cells.
Entry = collections.namedtuple(
    "Entry", "unit source budget seeds solved success solved_at sparsity"
)


def _entry(summary, budget, source):
    return Entry(
        summary.key.unit,
        source,
        budget,
        summary.seeds,
        summary.solved,
        success.with_interval(summary.success, percent=True),
        success.with_interval(summary.solved_at),
        success.with_interval(summary.sparsity),
    )


def _published_entries(published, key):
    """The papers' rows on the configuration of `key`."""
    if (key.task, key.input_size) not in published.input_sizes:
        return []
    budget = (published.steps[key.task], "paper")
    entries = []
    for (task, operation, unit, value_range), paper in sorted(published.items()):
        if (task, operation, value_range) != (
            key.task,
            key.operation,
            key.interpolation,
        ):
            continue
        rate = paper.get("success_rate", "")
        if rate == "":
            continue
        seeds = published.seeds[task]
        entries.append(
            Entry(
                unit,
                paper["table"],
                budget,
                seeds,
                round(float(rate) * seeds),
                f"{float(rate) * 100:.0f} %",
                format_number(_number(paper, "solved_at_mean")),
                format_number(_number(paper, "sparsity_error_mean")),
            )
        )
    return entries


def _number(paper, column):
    return float(paper[column]) if paper.get(column, "") != "" else None


def _summaries(rows, label_versions=False):
    """[(Summary, budget)] of `rows`: never two budgets (nor two versions
    of a unit, `success.summarize`) in one summary."""
    by_budget = collections.defaultdict(list)
    for row in rows:
        by_budget[budget_of(row)].append(row)
    return [
        (summary, budget)
        for budget, members in by_budget.items()
        for summary in success.summarize(members, label_versions)
    ]


def _ours(rows, committed_paths, configurations):
    """{configuration: [Entry]} of our units on `configurations`: the
    committed rows in `committed_paths` (relative to `benchmarks/`) and
    the rows of our units in `rows`."""
    committed = read_rows([os.path.join(BENCHMARKS, path) for path in committed_paths])
    found = collections.defaultdict(list)
    for source, members in ((OURS, committed), (GIVEN, rows)):
        members = [
            row
            for row in members
            if not is_own(row)
            and _configuration(success.group_key(row)) in configurations
        ]
        for summary, budget in _summaries(members):
            found[_configuration(summary.key)].append(_entry(summary, budget, source))
    return found


def comparisons(rows, committed_paths, published):
    """{(task, operation, unit, budget): {configuration: [Entry, ...]}}, the
    unit's entry first, for the units of one's own in `rows` (each
    version its own unit, labelled `unit @version`)."""
    own = _summaries([row for row in rows if is_own(row)], label_versions=True)
    ours = _ours(rows, committed_paths, {_configuration(s.key) for s, _ in own})
    found = collections.defaultdict(dict)
    for summary, budget in own:
        configuration = _configuration(summary.key)
        entries = [_entry(summary, budget, YOURS), *ours[configuration]]
        entries += _published_entries(published, summary.key)
        key = (summary.key.task, summary.key.operation, summary.key.unit, budget)
        found[key][configuration] = entries
    return found


_HEADER = (
    "| unit | rows | budget | seeds | success (95 % CI) | p vs yours (Fisher) "
    "| solved at (95 % CI) | sparsity error (95 % CI) |\n"
    "|---|---|---|---:|---|---:|---|---|"
)


def _p_cell(entry, yours):
    if entry is yours:
        return "—"
    if entry.budget != yours.budget:
        return "not tested: another budget"
    p = fisher_exact_p(yours.solved, yours.seeds, entry.solved, entry.seeds)
    return f"{p:.2g}{' ⚑' if p < 0.05 else ''}"


def _configuration_table(configuration, entries):
    _, _, input_size, interpolation, extrapolation = configuration
    yours = entries[0]
    lines = [
        f"#### {success.range_label(interpolation)} → "
        f"{success.range_label(extrapolation)}, input size {input_size}",
        "",
        _HEADER,
    ]
    for entry in entries:
        unit = f"**{entry.unit}**" if entry is yours else entry.unit
        lines.append(
            f"| {unit} | {entry.source} | {_budget_text(entry.budget)} "
            f"| {entry.seeds} | {entry.success} | {_p_cell(entry, yours)} "
            f"| {entry.solved_at} | {entry.sparsity} |"
        )
    return lines + [""]


def _pooled_table(tables):
    """Per comparator (unit, rows) of the unit's budget: the configurations
    both have, the solved counts pooled, and the Cochran-Mantel-Haenszel
    p."""
    strata = collections.defaultdict(list)
    for entries in tables.values():
        yours = entries[0]
        for entry in entries[1:]:
            if entry.budget == yours.budget:
                strata[entry.unit, entry.source].append(
                    (yours.solved, yours.seeds, entry.solved, entry.seeds)
                )
    if not strata:
        return []
    lines = [
        "Pooled over the configurations that both have at your budget "
        "(Cochran-Mantel-Haenszel test, continuity-corrected; ⚑: p < 0.05):",
        "",
        "| unit | rows | configurations | yours solved | theirs solved | p |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for (unit, source), members in sorted(strata.items()):
        mine = sum(m[0] for m in members), sum(m[1] for m in members)
        theirs = sum(m[2] for m in members), sum(m[3] for m in members)
        p = pooled_success_p(members)
        lines.append(
            f"| {unit} | {source} | {len(members)} | {mine[0]} of {mine[1]} "
            f"| {theirs[0]} of {theirs[1]} | {p:.2g}{' ⚑' if p < 0.05 else ''} |"
        )
    return lines + [""]


def _budget_note(key, tables, published):
    """The budgets of a unit's comparison, and where the others differ from
    the unit's, the command that runs our units at the unit's budget."""
    task, operation, _, budget = key
    others = {entry.budget for entries in tables.values() for entry in entries[1:]} - {
        budget
    }
    text = f"Your rows: {_budget_text(budget)}."
    if not others:
        return [text + " Every comparator ran the same budget.", ""]
    text += (
        " Rows of another budget ("
        + "; ".join(_budget_text(other) for other in sorted(others))
        + ") are shown beside yours but not tested against them."
    )
    command = _command_at_budget(key, tables, published)
    if command:
        text += (
            f" Our units at your budget: `{command}`, then give both files "
            "to `python -m benchmarks.report`."
        )
    return [text, ""]


def _command_at_budget(key, tables, published):
    """The command that runs our units of `tables` on the unit's
    configurations and budget (None where the task names none)."""
    task, operation, _, (steps, preset) = key
    prefix = published.commands.get(task)
    names = sorted(
        {
            entry.unit
            for entries in tables.values()
            for entry in entries[1:]
            if entry.budget != key[3] and not any(mark in entry.unit for mark in " :")
        }
    )
    if not prefix or not names:
        return None
    configurations = sorted(tables)
    ranges = sorted({configuration[3] for configuration in configurations})
    seeds = max(entries[0].seeds for entries in tables.values())
    words = [prefix, ",".join(names), "--operation", operation]
    words += [
        f"--interpolation-range={ranges[0]}"
        if len(ranges) == 1
        else "--interpolation-range all"
    ]
    words += ["--input-size", str(configurations[0][2])]
    words += (["--preset", preset] if preset else []) + ["--max-steps", str(steps)]
    words += ["--seeds", f"0-{seeds - 1}", "--output", f"ours_{steps}.jsonl"]
    return " ".join(words)


def _ordered(tables):
    return sorted(tables.items(), key=lambda item: Range.parse(item[0][3]).intervals)


def markdown(rows, committed_paths, published):
    """The comparison of every unit of one's own in `rows` ("" if none)."""
    sections = []
    for key, tables in sorted(comparisons(rows, committed_paths, published).items()):
        task, operation, unit, budget = key
        symbol = success.SYMBOLS.get(operation, operation)
        sections += [
            f"### {unit} beside the published modules: "
            f"{published.title(task)}, {operation} ({symbol}), "
            f"{_budget_text(budget)}",
            "",
        ]
        for configuration, entries in _ordered(tables):
            sections += _configuration_table(configuration, entries)
        sections += _pooled_table(tables)
        sections += _budget_note(key, tables, published)
    return "\n".join(sections)


def figures(rows, committed_paths, directory, published):
    """One PNG per task, operation and unit of one's own: success rates by
    range, the unit's and our committed modules' with their 95 % intervals
    (dots), the published ones as crosses; returns the paths."""
    found = comparisons(rows, committed_paths, published)
    if not found:
        return []
    pyplot = load_pyplot()
    os.makedirs(directory, exist_ok=True)
    written = []
    for (task, operation, unit, _), tables in sorted(found.items()):
        ordered = _ordered(tables)
        figure, axis = pyplot.subplots(figsize=(10, 4.5))
        series = sorted({(e.unit, e.source) for _, es in ordered for e in es[1:]})
        series = [(unit, YOURS), *series]
        colours = list(dict.fromkeys(name for name, _ in series))  # one per unit
        for index, (name, source) in enumerate(series):
            offset = (index - (len(series) - 1) / 2) * 0.8 / len(series)
            points = [
                (x, entry)
                for x, (_, entries) in enumerate(ordered)
                for entry in entries
                if (entry.unit, entry.source) == (name, source)
            ]
            for number, (x, entry) in enumerate(points):
                colour = f"C{colours.index(name) % 10}"
                _draw(axis, x + offset, entry, colour, labelled=number == 0)
        axis.set_xticks(
            range(len(ordered)),
            [success.range_label(c[3]) for c, _ in ordered],
            rotation=60,
        )
        axis.set_ylim(-0.05, 1.05)
        axis.set_ylabel("success rate")
        axis.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.0, 0.5))
        symbol = success.SYMBOLS.get(operation, operation)
        axis.set_title(
            f"{unit}, {symbol}: dots with 95 % CI (yours, ours committed), "
            "crosses published"
        )
        name = f"own_{task}_{operation}_{len(written)}"
        written.append(save_figure(pyplot, figure, directory, name))
    return written


def _draw(axis, x, entry, colour, labelled):
    label = f"{entry.unit} ({entry.source})" if labelled else None
    rate = entry.solved / entry.seeds
    if entry.source in (YOURS, OURS, GIVEN):
        _, low, high = wilson_interval(entry.solved, entry.seeds)
        axis.errorbar(
            x,
            rate,
            yerr=[[max(rate - low, 0.0)], [max(high - rate, 0.0)]],
            fmt="o",
            ms=4,
            capsize=2,
            color=colour,
            label=label,
        )
    else:
        axis.scatter([x], [rate], marker="x", s=18, color=colour, label=label)
