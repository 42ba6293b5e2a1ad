"""Reports of the static arithmetic tasks (the Single Module Task, Madsen's
arithmetic task and §1.1 function, Trask's static task): success rates,
"solved at" and sparsity errors with their intervals beside the papers'
numbers, Trask-style relative scores, and figures like Mistry figures
14-17. Each task's folder declares its title and published table
(`PublishedTask`, in its `report.PUBLISHED`); the reports read them as one
`Published` table."""

import collections
import dataclasses
import math
import os
from typing import Callable

import numpy as np

from benchmarks.core import units
from benchmarks.core.formatting import format_number
from benchmarks.core.formatting import load_pyplot
from benchmarks.core.formatting import save_figure
from benchmarks.core.ranges import Range
from benchmarks.core.rows import generator_name
from benchmarks.core.rows import optimizer_name
from benchmarks.core.stats import fisher_exact_p
from benchmarks.core.stats import pooled_success_p
from benchmarks.core.stats import wilson_interval
from benchmarks.static_arithmetic.intervals import beta_mean_interval
from benchmarks.static_arithmetic.intervals import gamma_mean_interval

OPERATION_ORDER = ("add", "sub", "mul", "div", "squared", "root")
SYMBOLS = {"add": "+", "sub": "−", "mul": "×", "div": "÷", "squared": "a²"}
SYMBOLS["root"] = "√a"


def _no_table():
    return {}


@dataclasses.dataclass(frozen=True)
class PublishedTask:
    """A static arithmetic task as its folder declares it to the reports:
    the rows' `task`, its `title`, and its paper's table, `load()` ->
    {(operation, unit, interpolation range): the paper's row, naming its
    table in `row["table"]`} (none: `_no_table`), run with `seeds` per
    configuration at `input_size` inputs for `steps` steps; `command`
    runs our units on it (`... --module`), completed with the units and a
    configuration (`benchmarks.static_arithmetic.comparison`)."""

    task: str
    title: str
    seeds: int = None
    input_size: int = None
    load: Callable = _no_table
    steps: int = None
    command: str = None


class Published(dict):
    """{(task, operation, unit, interpolation range): row of the paper} of
    the `PublishedTask`s given, with their `titles`, `seeds` and the
    `input_sizes` ({(task, size)}) their tables were run at."""

    def __init__(self, tasks=()):
        super().__init__()
        self.titles = {task.task: task.title for task in tasks}
        self.seeds = {task.task: task.seeds for task in tasks}
        self.input_sizes = {(task.task, task.input_size) for task in tasks}
        self.steps = {task.task: task.steps for task in tasks}
        self.commands = {task.task: task.command for task in tasks}
        for task in tasks:
            for (operation, unit, value_range), row in task.load().items():
                self[task.task, operation, unit, value_range] = row

    def title(self, task):
        return self.titles.get(task, task)


#: Madsen's table 3: the arithmetic dataset's subset and overlap ratios.
#: Figure 8 varies them; `unit_of` names rows at other values apart.
DATASET_DEFAULTS = {"subset_ratio": 0.25, "overlap_ratio": 0.5}


#: The protocol options of a run (`arguments.protocol_fields`) that name
#: its configuration apart.
PROTOCOL_LABELS = {
    "learning_rate": "lr",
    "clip_value": "clip",
    "clip_norm": "norm clip",
    "regularizer_warmup": "warm-up",
    "fixed_threshold": "threshold",
}


def _protocol_text(value):
    if isinstance(value, list):
        return ",".join(f"{number:g}" for number in value)
    return f"{value:g}"


def unit_of(row):
    """The row's unit or model, with the unit of one's own of its first
    layer and its protocol options where given, its hidden size where not
    table 4's, its subset and overlap ratios where not table 3's (figure
    8) and a learned initial state (the recurrent task's reference
    protocol)."""
    unit = row.get("module") or row["model"]
    labels = [f"first layer {row['first_layer']}"] if "first_layer" in row else []
    if "hidden_size" in row:
        labels.append(f"hidden {row['hidden_size']}")
    labels += [
        f"{label} {_protocol_text(row[field])}"
        for field, label in PROTOCOL_LABELS.items()
        if row.get(field) is not None
    ]
    if row.get("initial_state") == "learned":
        labels.append("learned initial state")
    labels += [
        f"{name.replace('_ratio', '')} {row[name]:g}"
        for name, default in DATASET_DEFAULTS.items()
        if row.get(name) not in (None, default)
    ]
    return f"{unit} ({', '.join(labels)})" if labels else unit


GroupKey = collections.namedtuple(
    "GroupKey",
    "task operation unit input_size interpolation extrapolation steps optimizer "
    "generator",
)


def group_key(row):
    """The configuration a row is summarized with (every seed together)."""
    return GroupKey(
        row["task"],
        row["operation"],
        unit_of(row),
        row["input_size"],
        row["interpolation_range"],
        row["extrapolation_range"],
        row["max_steps"],
        optimizer_name(row),
        generator_name(row),
    )


Summary = collections.namedtuple(
    "Summary", "key seeds solved success solved_at sparsity"
)


def version_of(row):
    """The version of a row's units of one's own: the first
    `units.VERSION_LENGTH` hex digits of each digest ("" for none)."""
    return "+".join(
        row[field][: units.VERSION_LENGTH]
        for field in sorted(row)
        if field.endswith("_digest")
    )


def unit_labels(rows, name=unit_of, always=False):
    """row -> its unit (`name(row)`), with `@version` (`version_of`) where
    `rows` hold several versions of that unit of one's own (with `always`,
    wherever it is one's own)."""
    versions = collections.defaultdict(set)
    for row in rows:
        versions[name(row)].add(version_of(row))

    def label(row):
        unit, version = name(row), version_of(row)
        if version and (always or len(versions[unit]) > 1):
            return f"{unit} @{version}"
        return unit

    return label


def _sparsity(members, solved):
    """The sparsity error's (estimate, low, high) over solved runs; None
    where the unit defines none (no judged run records one)."""
    judged = [r for r in members if r.get("best_step") is not None]
    if judged and all(r["sparsity_error"] is None for r in judged):
        return None
    return beta_mean_interval([r["sparsity_error"] for r in solved])


def summarize(rows, label_versions=False):
    """One Summary per group, each statistic an (estimate, low, high) (the
    sparsity error None where the unit defines none). Rows of two
    versions of a unit of one's own (`version_of`) are never counted
    together: each version is a unit of its own, labelled `unit @version`
    (`unit_labels`, `always` with `label_versions`)."""
    groups = collections.defaultdict(list)
    label = unit_labels(rows, always=label_versions)
    for row in rows:
        groups[group_key(row)._replace(unit=label(row))].append(row)
    summaries = []
    for key, members in groups.items():
        solved = [r for r in members if r["solved"]]
        summaries.append(
            Summary(
                key,
                len(members),
                len(solved),
                wilson_interval(len(solved), len(members)),
                gamma_mean_interval([r["solved_at"] for r in solved]),
                _sparsity(members, solved),
            )
        )
    return sorted(summaries, key=_sort_key)


def _sort_key(summary):
    key = summary.key
    lows = Range.parse(key.interpolation).intervals[0]
    operation = OPERATION_ORDER.index(key.operation)
    return (
        key.task,
        operation,
        key.unit,
        key.optimizer,
        key.input_size,
        lows,
        key.steps,
    )


def range_label(text, closed=False):
    """`"1,2"` -> `U[1,2)` (Mistry's notation), unions joined by ∪."""
    close = "]" if closed else ")"
    return " ∪ ".join(
        f"U[{low:g},{high:g}{close}" for low, high in Range.parse(text).intervals
    )


def with_interval(triple, percent=False):
    """An (estimate, low, high) as text; None: "not defined"."""
    if triple is None:
        return "not defined"
    estimate, low, high = triple
    if estimate is None or math.isnan(estimate):
        return "—"
    if percent:
        return f"{estimate:.0%} [{low:.0%}, {high:.0%}]"
    if math.isnan(low):
        return format_number(estimate)
    return f"{format_number(estimate)} [{format_number(low)}, {format_number(high)}]"


def error_bar(triple):
    """(below, above) the estimate of an (estimate, low, high) interval, for
    matplotlib's `yerr`; 0 where a bound is unknown (NaN)."""
    estimate, low, high = triple
    return (
        0.0 if math.isnan(low) else max(0.0, estimate - low),
        0.0 if math.isnan(high) else max(0.0, high - estimate),
    )


def _published_value(published, name):
    value = published.get(name, "") if published else ""
    if value == "":
        return "—" if published else "n/a"
    value = float(value)
    return f"{value:.0%}" if name == "success_rate" else format_number(value)


def _comparable(triple, published, name):
    """Whether the paper gives `name` and we have an interval for it."""
    value = published.get(name, "") if published else ""
    if triple is None:  # not defined for the unit
        return False
    estimate, low, _ = triple
    return value != "" and estimate is not None and not math.isnan(low)


def printed_range(text):
    """The values a number printed as `text` stands for: the papers print
    means to two significant digits ("1.7e+04" is anything in [16 500,
    17 500])."""
    mantissa, _, exponent = text.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    half = 0.5 * 10.0 ** (int(exponent or 0) - decimals)
    return float(text) - half, float(text) + half


def outside_interval(triple, published, name):
    """Whether the paper's `name` lies outside our 95 % interval `triple`
    (an interval test at the 5 % level) by more than its printing rounds
    it; False where either is missing."""
    if not _comparable(triple, published, name):
        return False
    _, low, high = triple
    paper_low, paper_high = printed_range(published[name])
    return paper_high < low or high < paper_low


def _published_half_width(published, name, side):
    """The distance from the paper's mean `name` to its 95 % bound on
    `side` ("upper" or "lower"); 0 where the paper gives none."""
    value = published.get(name.replace("_mean", f"_{side}"), "")
    return float(value) if value else 0.0


def outside_joint_interval(triple, published, name):
    """Whether our mean and the paper's differ by more than the two
    estimates' uncertainty: the gap between our mean and the values the
    paper's printed mean stands for exceeds sqrt(h_ours^2 + h_paper^2), each
    h the distance from a mean to its 95 % bound on the side facing the
    other (the usual test of two independent estimates at about the 5 %
    level). Where the paper gives no bounds, only ours count."""
    if not _comparable(triple, published, name):
        return False
    estimate, low, high = triple
    paper_low, paper_high = printed_range(published[name])
    if estimate > paper_high:
        gap, ours = estimate - paper_high, estimate - low
        theirs = _published_half_width(published, name, "upper")
    elif estimate < paper_low:
        gap, ours = paper_low - estimate, high - estimate
        theirs = _published_half_width(published, name, "lower")
    else:
        return False
    return gap > math.hypot(ours, theirs)


def _published_cell(published, name, triple):
    flag = " ⚑" if outside_interval(triple, published, name) else ""
    return _published_value(published, name) + flag


def published_for(published, summary):
    key = summary.key
    if (key.task, key.input_size) not in published.input_sizes:
        return None
    return published.get((key.task, key.operation, key.unit, key.interpolation))


def markdown(summaries, published):
    """Markdown tables, one per task and operation."""
    lines = []
    by_table = collections.defaultdict(list)
    for summary in summaries:
        by_table[summary.key.task, summary.key.operation].append(summary)
    for (task, operation), members in by_table.items():
        title = published.title(task)
        lines += [
            f"### {title}, {operation} ({SYMBOLS.get(operation, operation)})",
            "",
            "| unit | optimizer | generator | inputs | range (interp. → extrap.) "
            f"| steps | seeds | {_STATISTICS_HEADER} |",
            "|---|---|---|---:|---|---:|---:|---|---:|---:|---|---:|---|---:|",
        ]
        for s in members:
            key = s.key
            ranges = (
                f"{range_label(key.interpolation)} → {range_label(key.extrapolation)}"
            )
            lines.append(
                f"| {key.unit} | {key.optimizer} | {key.generator} "
                f"| {key.input_size} | {ranges} "
                f"| {key.steps:,} | {s.seeds} | {_statistics_cells(s, published)} |"
            )
        lines.append("")
    return "\n".join(lines)


_STATISTICS_HEADER = (
    "success (95 % CI) | paper | p (Fisher) | solved at, mean (95 % CI) | paper "
    "| sparsity error, mean (95 % CI) | paper"
)


def _statistics_cells(summary, published):
    """Our success, solved-at and sparsity cells, each beside the paper's."""
    s, paper = summary, published_for(published, summary)
    return (
        f"{with_interval(s.success, percent=True)} "
        f"| {_published_value(paper, 'success_rate')} "
        f"| {_fisher_cell(fisher_test(s, published))} "
        f"| {with_interval(s.solved_at)} "
        f"| {_published_cell(paper, 'solved_at_mean', s.solved_at)} "
        f"| {with_interval(s.sparsity)} "
        f"| {_published_cell(paper, 'sparsity_error_mean', s.sparsity)}"
    )


def compact_markdown(summaries, published):
    """One table of every configuration: operation, unit, optimizer, steps
    and seeds, then the statistics beside the paper's (as `markdown`)."""
    lines = [
        f"| op | unit | optimizer | steps | seeds | {_STATISTICS_HEADER} |",
        "|---|---|---|---:|---:|---|---:|---:|---|---:|---|---:|",
    ]
    for s in summaries:
        key = s.key
        lines.append(
            f"| {SYMBOLS.get(key.operation, key.operation)} | {key.unit} "
            f"| {key.optimizer} | {key.steps:,} | {s.seeds} "
            f"| {_statistics_cells(s, published)} |"
        )
    return "\n".join(lines)


def relative_scores_markdown(rows, title, published=None, score=None):
    """Trask table 7's scores: 100 * MSE / MSE of the untrained model.

    Medians over seeds (a diverged run counts as infinite) of the
    interpolation (I) and extrapolation (E) MSE at the best step, each
    relative to the same model before training (Trask normalises by one
    randomly initialised model per task, which he does not specify
    further); `score=raw_mse` gives the MSEs themselves (tables 6 and 12).
    With `published` ({(operation, unit): {"interpolation",
    "extrapolation"}}), each cell is "ours / paper".
    """
    score = score or relative_score
    groups = collections.defaultdict(list)
    for row in rows:
        if row.get("initial_extrapolation_mse") and row["best_step"] is not None:
            groups[(row["operation"], unit_of(row), row["max_steps"])].append(row)
    if not groups:
        return ""
    units = _table_order({key[1] for key in groups}, published)
    lines = [
        f"### {title}",
        "",
        "| operation | steps | test | " + " | ".join(units) + " |",
        "|---|---:|---|" + "---:|" * len(units),
    ]
    for operation, steps in sorted(
        {(key[0], key[2]) for key in groups},
        key=lambda item: (OPERATION_ORDER.index(item[0]), item[1]),
    ):
        for test in ("interpolation", "extrapolation"):
            cells = [
                _relative_cell(
                    groups.get((operation, unit, steps), []),
                    test,
                    score,
                    None if published is None else published.get((operation, unit)),
                )
                for unit in units
            ]
            label = SYMBOLS.get(operation, operation)
            lines.append(
                f"| {label} | {steps:,} | {test[0].upper()} | "
                + " | ".join(cells)
                + " |"
            )
    return "\n".join(lines) + "\n"


def _table_order(units, published):
    """The published table's column order, then any other unit."""
    order = [] if published is None else list(dict.fromkeys(u for _, u in published))
    return [u for u in order if u in units] + sorted(units - set(order))


def median_over_seeds(values):
    """The median of runs' values; a diverged run (NaN, inf) counts as
    infinite."""
    return float(np.median([v if math.isfinite(v) else math.inf for v in values]))


def relative_score(members, test):
    """Trask table 7's score of a configuration's runs: the median over
    seeds of 100 * MSE / MSE of the same model before training, on the
    `test` ("interpolation" or "extrapolation") set; a diverged run counts
    as infinite."""
    return median_over_seeds(
        [100 * r[f"{test}_mse"] / r[f"initial_{test}_mse"] for r in members]
    )


def raw_mse(members, test):
    """Trask tables 6 and 12's raw MSE of a configuration's runs: the
    median over seeds of the MSE at the best step on the `test` set; a
    diverged run counts as infinite."""
    return median_over_seeds([r[f"{test}_mse"] for r in members])


def _relative_cell(members, test, score, paper):
    ours = format_number(score(members, test)) if members else "—"
    return ours if paper is None else f"{ours} / {paper[test]}"


def fisher_test(summary, published):
    """Two-sided Fisher exact test of our successes against the paper's
    (its rate times its seeds), or None without a published rate."""
    paper = published_for(published, summary)
    if paper is None or paper.get("success_rate", "") == "":
        return None
    seeds = published.seeds[summary.key.task]
    theirs = round(float(paper["success_rate"]) * seeds)
    return fisher_exact_p(summary.solved, summary.seeds, theirs, seeds)


def pooled_test(summaries, published):
    """Our successes against the paper's pooled over configurations (the
    Cochran-Mantel-Haenszel test, each configuration a stratum, with
    continuity correction): (ours, theirs, runs on each side, p), or None
    where no configuration has a published rate."""
    strata = []
    for summary in summaries:
        paper = published_for(published, summary)
        if paper is None or paper.get("success_rate", "") == "":
            continue
        seeds = published.seeds[summary.key.task]
        solved = round(float(paper["success_rate"]) * seeds)
        strata.append((summary.solved, summary.seeds, solved, seeds))
    if not strata:
        return None
    ours, _, theirs, runs = (sum(column) for column in zip(*strata))
    return ours, theirs, runs, pooled_success_p(strata)


def _fisher_cell(p):
    return "—" if p is None else f"{p:.2g}{' ⚑' if p < 0.05 else ''}"


def flagged(summaries, published):
    """The configurations whose success differs from the paper's at p < 0.05."""
    return [
        s
        for s in summaries
        if (p := fisher_test(s, published)) is not None and p < 0.05
    ]


def compared_means(summaries, published, name, field, joint=False):
    """([(our mean, the paper's printed mean)] of the configurations whose
    published mean lies outside our interval, how many configurations have
    both); `joint`: only those outside both estimates' joint uncertainty
    (`outside_joint_interval`)."""
    pairs = [(getattr(s, field), published_for(published, s)) for s in summaries]
    pairs = [
        (triple, paper) for triple, paper in pairs if _comparable(triple, paper, name)
    ]
    test = outside_joint_interval if joint else outside_interval
    differing = [(t[0], float(p[name])) for t, p in pairs if test(t, p, name)]
    return differing, len(pairs)


def count_outside(summaries, published, name, field, joint=False):
    """(published means outside our interval, configurations with both), as
    `compared_means` finds them."""
    differing, total = compared_means(summaries, published, name, field, joint)
    return len(differing), total


def continuous_agreement(summaries, published):
    """The sentences counting published solved-at and sparsity means outside
    our 95 % intervals (the ⚑ of those columns), and outside both
    estimates' joint uncertainty (`outside_joint_interval`)."""
    counts = {
        joint: [
            count_outside(summaries, published, f"{name}_mean", field, joint)
            for name, field in (
                ("solved_at", "solved_at"),
                ("sparsity_error", "sparsity"),
            )
        ]
        for joint in (False, True)
    }
    (solved_out, solved_n), (sparse_out, sparse_n) = counts[False]
    (solved_joint, _), (sparse_joint, _) = counts[True]
    return (
        f"\nThe published mean lies outside our 95 % interval by more than "
        f"its printed precision (⚑ in the paper's columns, a test at the 5 % "
        f"level) for solved at in "
        f"{solved_out} of {solved_n} and for the sparsity error in {sparse_out} "
        f"of {sparse_n} configurations with both. Counting the paper's own 95 % "
        f"bounds as well (a gap beyond both estimates' uncertainty): solved at "
        f"in {solved_joint} and sparsity error in {sparse_joint}.\n"
    )


def rate_inside(summary, published):
    """Whether the paper's success rate lies in our 95 % interval (None
    where the paper has no rate for the configuration)."""
    paper = published_for(published, summary)
    if paper is None or paper.get("success_rate", "") == "":
        return None
    _, low, high = summary.success
    return bool(low - 1e-9 <= float(paper["success_rate"]) <= high + 1e-9)


def agreement(summaries, published):
    """How often the paper's success rate lies in our 95 % interval."""
    found = [rate_inside(s, published) for s in summaries]
    return found.count(True), len(found) - found.count(None)


def agreement_markdown(summaries, published):
    """The counts of configurations that differ from the papers ("" when no
    configuration has a published value)."""
    inside, total = agreement(summaries, published)
    text = ""
    if total:
        text += (
            f"\nThe success rate differs from the paper's at p < 0.05 (⚑, "
            f"two-sided Fisher exact test against the paper's rate times its "
            f"seeds) in {len(flagged(summaries, published))} of {total} "
            "configurations.\n"
        )
        text += (
            f"\nThe published success rate lies inside our 95 % interval in "
            f"{inside} of {total} configurations.\n"
        )
        text += continuous_agreement(summaries, published)
    return text


def _published_number(published, summary, field):
    paper = published_for(published, summary)
    column = {
        "success": "success_rate",
        "solved_at": "solved_at_mean",
        "sparsity": "sparsity_error_mean",
    }[field]
    if not paper or paper.get(column, "") == "":
        return None
    return float(paper[column])


def _series_label(unit_and_optimizer, optimizers):
    """`unit`, or `unit (optimizer)` when a figure mixes optimizers."""
    unit, optimizer = unit_and_optimizer
    return unit if len(optimizers) == 1 else f"{unit} ({optimizer})"


def figures(summaries, published, directory):
    """One PNG per (task, operation): success, solved at, sparsity by range."""
    pyplot = load_pyplot()
    os.makedirs(directory, exist_ok=True)
    by_table = collections.defaultdict(list)
    for s in summaries:
        by_table[s.key.task, s.key.operation].append(s)
    written = []
    for (task, operation), members in by_table.items():
        ranges = sorted(
            {s.key.interpolation for s in members},
            key=lambda r: Range.parse(r).intervals[0],
        )
        units = sorted({(s.key.unit, s.key.optimizer) for s in members})
        optimizers = {optimizer for _, optimizer in units}
        figure, axes = pyplot.subplots(1, 3, figsize=(16, 4.5))
        panels = (
            ("success", "success rate", False),
            ("solved_at", "solved at (step)", False),
            ("sparsity", "sparsity error", True),
        )
        for axis, (field, label, log) in zip(axes, panels):
            for index, unit in enumerate(units):
                offset = (index - (len(units) - 1) / 2) * 0.1
                points = [
                    (ranges.index(s.key.interpolation) + offset, getattr(s, field))
                    for s in members
                    if (s.key.unit, s.key.optimizer) == unit
                    and getattr(s, field) is not None
                    and not math.isnan(getattr(s, field)[0])
                ]
                paper = [
                    (x, _published_number(published, s, field))
                    for x, s in (
                        (ranges.index(s.key.interpolation) + offset, s)
                        for s in members
                        if (s.key.unit, s.key.optimizer) == unit
                    )
                ]
                paper = [(x, y) for x, y in paper if y is not None]
                if paper:
                    axis.scatter(
                        *zip(*paper), marker="x", s=18, color=f"C{index}", alpha=0.6
                    )
                for number, (x, triple) in enumerate(points):
                    axis.errorbar(
                        x,
                        triple[0],
                        yerr=[[side] for side in error_bar(triple)],
                        fmt="o",
                        ms=4,
                        capsize=2,
                        color=f"C{index}",
                        label=_series_label(unit, optimizers) if number == 0 else None,
                    )
            axis.set_xticks(range(len(ranges)), [range_label(r) for r in ranges])
            axis.tick_params(axis="x", rotation=60)
            axis.set_title(label)
            if log:
                axis.set_yscale("log")
        axes[0].set_ylim(-0.05, 1.05)
        handles, labels = axes[0].get_legend_handles_labels()  # every unit
        axes[2].legend(
            handles, labels, fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5)
        )
        symbol = SYMBOLS.get(operation, operation)
        figure.suptitle(
            f"{published.title(task)}: {symbol} (dots: ours with 95 % CI; "
            "crosses: published)"
        )
        written.append(save_figure(pyplot, figure, directory, f"{task}_{operation}"))
    return written


UnitRate = collections.namedtuple("UnitRate", "solved runs success published")


def rates_by_unit(summaries, published):
    """{unit: {operation: UnitRate}}: each unit's successes over every
    configuration and seed of an operation, with Wilson's interval
    (`success`) and the paper's rate over the configurations it published
    (`published`, None where it published none). A unit run on several
    tasks, input sizes or lengths of run is one unit per each ("realnpu,
    10 inputs"; `_unusual`); units are named without their module path
    and protocol options where that names them apart."""
    usual = {
        field: collections.Counter(
            getattr(s.key, field) for s in summaries
        ).most_common(1)[0][0]
        for field in _SET_APART
    }
    labels = _short_labels({(s.key.unit, _unusual(s, usual)) for s in summaries})
    groups = collections.defaultdict(list)
    for s in summaries:
        unit = (s.key.unit, _unusual(s, usual))
        groups[labels[unit], s.key.operation].append(s)
    rates = {}
    for (unit, operation), members in groups.items():
        solved = sum(s.solved for s in members)
        runs = sum(s.seeds for s in members)
        paper = pooled_test(members, published)
        rates.setdefault(unit, {})[operation] = UnitRate(
            solved,
            runs,
            wilson_interval(solved, runs),
            None if paper is None else paper[1] / paper[2],
        )
    return rates


#: What sets a configuration apart in a unit's name, by its key's field.
_SET_APART = {
    "task": lambda value: value,
    "input_size": lambda value: f"{value} inputs",
    "steps": lambda value: f"{value:,} steps".replace(",", " "),
}


def _unusual(summary, usual):
    """ ", 10 inputs" (", 500 000 steps", ", function"): where a summary's
    task, input size and length of run differ from the most common ones
    (`usual`, by field)."""
    return "".join(
        f", {label(getattr(summary.key, field))}"
        for field, label in _SET_APART.items()
        if getattr(summary.key, field) != usual[field]
    )


def _short_labels(units):
    """{(unit, suffix): the unit's name without module path and protocol
    options, then the suffix} ("keras_nalm.layers.nmu:StochasticNMU (lr
    0.001)" -> "StochasticNMU"), the full name where two would share one."""
    short = {
        (unit, suffix): unit.split(" (")[0].rsplit(":", 1)[-1] + suffix
        for unit, suffix in units
    }
    shared = collections.Counter(short.values())
    return {
        (unit, suffix): name if shared[name] == 1 else unit + suffix
        for (unit, suffix), name in short.items()
    }


def rate_figure(summaries, published, directory, name):
    """One PNG, `name.png`: a panel per operation, each unit's success rate
    over every configuration with its 95 % interval (dots) and the paper's
    over the configurations it published (crosses), units down the side."""
    pyplot = load_pyplot()
    os.makedirs(directory, exist_ok=True)
    rates = rates_by_unit(summaries, published)
    operations = [
        op for op in OPERATION_ORDER if any(op in ops for ops in rates.values())
    ]
    most = max(sum(op in ops for ops in rates.values()) for op in operations)
    columns = min(2, len(operations))
    lines = math.ceil(len(operations) / columns)
    figure, axes = pyplot.subplots(
        lines,
        columns,
        figsize=(6.5 * columns, lines * (1.2 + 0.3 * most)),
        squeeze=False,
    )
    for axis in axes.flat[len(operations) :]:
        axis.set_visible(False)
    for axis, operation in zip(axes.flat, operations):
        units = [unit for unit in rates if operation in rates[unit]][::-1]
        for y, unit in enumerate(units):
            rate = rates[unit][operation]
            axis.errorbar(
                rate.success[0],
                y,
                xerr=[[side] for side in error_bar(rate.success)],
                fmt="o",
                ms=4,
                capsize=2,
                color="C0",
            )
            if rate.published is not None:
                axis.scatter(rate.published, y, marker="x", s=30, color="C3")
        axis.set_yticks(range(len(units)), units, fontsize=8)
        axis.set_xlim(-0.05, 1.05)
        axis.set_xlabel("success rate")
        axis.set_title(SYMBOLS.get(operation, operation))
    figure.suptitle(
        "Success over every configuration and seed (dots: ours, 95 % CI; "
        "crosses: published)"
    )
    return save_figure(pyplot, figure, directory, name)
