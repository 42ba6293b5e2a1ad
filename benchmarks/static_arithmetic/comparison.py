"""Units of one's own beside the survey's modules, on the same configurations.

`benchmarks.report FILE` on rows of a unit of one's own
(`benchmarks.core.units`: rows with a `*_digest` field) adds, for each
task, operation and unit, one table per configuration (interpolation and
extrapolation range, input size): the unit's success rate, "solved at"
and sparsity error with their 95 % intervals, beside the committed rows of
our modules on that configuration and beside the papers' published
values, each with the two-sided Fisher exact test of its success count
against the unit's; then the Cochran-Mantel-Haenszel test pooled over the
configurations both have, per module. `figures` draws the success rates
by range, as the survey's figures do.
"""

import collections
import os

from benchmarks.core.formatting import BENCHMARKS
from benchmarks.core.formatting import format_number
from benchmarks.core.formatting import load_pyplot
from benchmarks.core.formatting import save_figure
from benchmarks.core.ranges import Range
from benchmarks.core.rows import read_rows
from benchmarks.core.stats import fisher_exact_p
from benchmarks.core.stats import pooled_success_p
from benchmarks.core.stats import wilson_interval
from benchmarks.static_arithmetic import success

#: Where a comparator's numbers come from.
OURS, YOURS = "ours (committed)", "yours"


def is_own(row):
    """Whether a row trained a unit of one's own."""
    return any(field.endswith("_digest") for field in row)


def _configuration(key):
    return (
        key.task,
        key.operation,
        key.input_size,
        key.interpolation,
        key.extrapolation,
    )


#: One comparator on one configuration: its unit, where its numbers come
#: from, steps, seeds, solved runs, and the success, solved-at and sparsity
#: cells.
Entry = collections.namedtuple(
    "Entry", "unit source steps seeds solved success solved_at sparsity"
)


def _own_entry(summary, source):
    return Entry(
        summary.key.unit,
        source,
        f"{summary.key.steps:,}",
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
                "—",
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


def _committed(paths, configurations):
    """Summaries of the committed rows in `paths` (relative to
    `benchmarks/`) on `configurations`."""
    rows = read_rows([os.path.join(BENCHMARKS, path) for path in paths])
    matching = [
        row
        for row in rows
        if not is_own(row) and _configuration(success.group_key(row)) in configurations
    ]
    return success.summarize(matching)


def comparisons(rows, committed_paths, published):
    """{(task, operation, unit): {configuration: [Entry, ...]}}, the unit's
    entry first, for the units of one's own in `rows`."""
    own = success.summarize([row for row in rows if is_own(row)])
    configurations = {_configuration(s.key) for s in own}
    ours = collections.defaultdict(list)
    for summary in _committed(committed_paths, configurations):
        ours[_configuration(summary.key)].append(_own_entry(summary, OURS))
    found = collections.defaultdict(dict)
    for summary in own:
        configuration = _configuration(summary.key)
        entries = [_own_entry(summary, YOURS)]
        entries += ours[configuration]
        entries += _published_entries(published, summary.key)
        key = (summary.key.task, summary.key.operation, summary.key.unit)
        found[key][configuration] = entries
    return found


_HEADER = (
    "| unit | rows | steps | seeds | success (95 % CI) | p vs yours (Fisher) "
    "| solved at (95 % CI) | sparsity error (95 % CI) |\n"
    "|---|---|---:|---:|---|---:|---|---|"
)


def _p_cell(entry, yours):
    if entry is yours:
        return "—"
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
            f"| {unit} | {entry.source} | {entry.steps} | {entry.seeds} "
            f"| {entry.success} | {_p_cell(entry, yours)} | {entry.solved_at} "
            f"| {entry.sparsity} |"
        )
    return lines + [""]


def _pooled_table(tables):
    """Per comparator (unit, rows): the configurations both have, the
    solved counts pooled, and the Cochran-Mantel-Haenszel p."""
    strata = collections.defaultdict(list)
    for entries in tables.values():
        yours = entries[0]
        for entry in entries[1:]:
            strata[entry.unit, entry.source].append(
                (yours.solved, yours.seeds, entry.solved, entry.seeds)
            )
    lines = [
        "Pooled over the configurations that both have (Cochran-Mantel-Haenszel "
        "test, continuity-corrected; ⚑: p < 0.05):",
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


def _ordered(tables):
    return sorted(tables.items(), key=lambda item: Range.parse(item[0][3]).intervals)


def markdown(rows, committed_paths, published):
    """The comparison of every unit of one's own in `rows` ("" if none)."""
    sections = []
    for (task, operation, unit), tables in sorted(
        comparisons(rows, committed_paths, published).items()
    ):
        symbol = success.SYMBOLS.get(operation, operation)
        sections += [
            f"### {unit} beside the published modules: "
            f"{published.title(task)}, {operation} ({symbol})",
            "",
        ]
        for configuration, entries in _ordered(tables):
            sections += _configuration_table(configuration, entries)
        sections += _pooled_table(tables)
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
    for (task, operation, unit), tables in sorted(found.items()):
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
    if entry.source in (YOURS, OURS):
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
