"""Madsen & Johansen figures 3, 7 and 8: the × task of the arithmetic
dataset with one parameter varied at a time, the others at their
defaults: the hidden size (figures 3 and 7, §4.1.3 and app. C.3) and the
input size, subset ratio and overlap ratio (figure 8, app. C.4). The
paper prints no numbers for them; the report shows ours as a table and
as the figures' panels, one series a model."""

import collections
import math

from benchmarks.core.rows import generator_name
from benchmarks.core.rows import optimizer_name
from benchmarks.static_arithmetic import success

#: The defaults of the parameters the figures vary: table 4's hidden size
#: (rows at it lack the field), table 3's input size and dataset ratios.
DEFAULTS = {"hidden_size": 2, "input_size": 100, **success.DATASET_DEFAULTS}
#: Table 3's ranges, which the figures keep.
RANGES = ("1,2", "2,6")


def _varied(row):
    """The parameters of DEFAULTS at another value in a row of the
    figures' setting (× on table 3's ranges), else None."""
    setting = (row["task"], row["operation"], row["interpolation_range"])
    if setting != ("arithmetic", "mul", RANGES[0]):
        return None
    if row["extrapolation_range"] != RANGES[1]:
        return None
    return [
        name for name, default in DEFAULTS.items() if row.get(name, default) != default
    ]


def varied_points(rows):
    """{(model, optimizer, generator, steps): {parameter: {value: rows}}}
    for every
    model with a row that varies one parameter; its rows at every default
    are the default value's point of each parameter it varies."""
    series = collections.defaultdict(lambda: collections.defaultdict(dict))
    defaults = collections.defaultdict(list)
    for row in rows:
        varied = _varied(row)
        if varied is None or len(varied) > 1:
            continue
        model = (
            row.get("model") or row["module"],
            optimizer_name(row),
            generator_name(row),
            row["max_steps"],
        )
        if not varied:
            defaults[model].append(row)
            continue
        (name,) = varied
        series[model][name].setdefault(row[name], []).append(row)
    for model, parameters in series.items():
        for name in parameters:
            if defaults[model]:
                parameters[name][DEFAULTS[name]] = defaults[model]
    return {model: series[model] for model in sorted(series)}


def _summary(members):
    (summary,) = success.summarize(members)
    return summary


def varied_table(rows):
    """The figures' points as a markdown table: per model and parameter
    value, seeds, solved runs, success, solved-at and sparsity error with
    their 95 % intervals ("" when no row varies a parameter)."""
    points = varied_points(rows)
    if not points:
        return ""
    lines = [
        "| model | optimizer | generator | steps | parameter | value | seeds | "
        "solved | success (95 % CI) | solved at, mean (95 % CI) | sparsity "
        "error, mean (95 % CI) |",
        "|---|---|---|---:|---|---:|---:|---:|---|---|---|",
    ]
    for (model, optimizer, generator, steps), parameters in points.items():
        for name in DEFAULTS:
            for value, members in sorted(parameters.get(name, {}).items()):
                s = _summary(members)
                lines.append(
                    f"| {model} | {optimizer} | {generator} | {steps:,} | "
                    f"{name.replace('_', ' ')} | {value:g} | {s.seeds} | "
                    f"{s.solved} | {success.with_interval(s.success, percent=True)}"
                    f" | {success.with_interval(s.solved_at)} | "
                    f"{success.with_interval(s.sparsity)} |"
                )
    return "\n".join(lines)


def varied_markdown(rows):
    """The report's section of the figures ("" when no row varies a
    parameter)."""
    table = varied_table(rows)
    if not table:
        return ""
    return (
        "### One parameter varied on × (Madsen & Johansen figures 3, 7, 8)\n\n"
        "One parameter varied at a time, the others at their defaults "
        "(hidden size 2, input size 100, subset ratio 0.25, overlap ratio "
        f"0.5). The paper gives these figures as plots only.\n\n{table}\n\n"
    )


#: The figures' rows of panels: (Summary field, axis label, log scale).
PANELS = (
    ("success", "success rate", False),
    ("solved_at", "solved at (step)", False),
    ("sparsity", "sparsity error", True),
)


def varied_figure(rows, pyplot, save):
    """The figures' panels (statistic × parameter, one series a model),
    saved by `save(figure, name)`; [] when no row varies a parameter."""
    points = varied_points(rows)
    if not points:
        return []
    figure, axes = pyplot.subplots(
        len(PANELS), len(DEFAULTS), figsize=(17, 9), squeeze=False
    )
    for index, (key, parameters) in enumerate(points.items()):
        model, optimizer, generator, steps = key
        label = f"{model} ({optimizer}, {generator}, {steps:,} steps)"
        for column, name in enumerate(DEFAULTS):
            summaries = [
                (value, _summary(members))
                for value, members in sorted(parameters.get(name, {}).items())
            ]
            for row, (field, axis_label, log) in enumerate(PANELS):
                _plot_series(axes[row][column], summaries, field, index, label)
                axes[row][column].set_ylabel(axis_label)
                if log:
                    axes[row][column].set_yscale("log")
            axes[-1][column].set_xlabel(name.replace("_", " "))
    for column in range(len(DEFAULTS)):
        axes[0][column].set_ylim(-0.05, 1.05)
    entries = {}  # a model's series may lack a parameter's panel
    for axis in axes[0]:
        for handle, label in zip(*axis.get_legend_handles_labels()):
            entries.setdefault(label, handle)
    axes[1][-1].legend(
        list(entries.values()),
        list(entries),
        fontsize=8,
        loc="center left",
        bbox_to_anchor=(1.0, 0.5),
    )
    figure.suptitle(
        "One parameter varied on × (Madsen & Johansen figures 3, 7, 8; 95 % CI)"
    )
    return [save(figure, "arithmetic_varied_parameters")]


def _plot_series(axis, summaries, field, index, label):
    points = [
        (value, getattr(s, field))
        for value, s in summaries
        if not math.isnan(getattr(s, field)[0])
    ]
    if not points:
        return
    axis.errorbar(
        [value for value, _ in points],
        [triple[0] for _, triple in points],
        yerr=list(zip(*(success.error_bar(triple) for _, triple in points))),
        fmt="o-",
        ms=4,
        capsize=2,
        color=f"C{index}",
        label=label,
    )
