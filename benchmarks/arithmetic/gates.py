"""Madsen & Johansen figure 9: where the gate of a gated second layer ends
(rows with a `gate`: its mean over interpolation inputs at the best step;
1 selects the addition, 0 the multiplication)."""

import collections

#: Figure 9's reading of a gate value: (label, low, high), high excluded
#: but for the last bin.
GATE_BINS = (
    ("× (g < 0.25)", 0.0, 0.25),
    ("between", 0.25, 0.75),
    ("+ (g ≥ 0.75)", 0.75, 1.0),
)


def _gate_bin(gate):
    for label, low, high in GATE_BINS:
        if low <= gate < high or gate == high == 1.0:
            return label
    raise ValueError(f"A gate lies in [0, 1], got {gate!r}.")


def _gated_groups(rows, unit_of):
    groups = collections.defaultdict(list)
    for row in rows:
        if row.get("gate") is not None:
            groups[(row["operation"], unit_of(row), row["max_steps"])].append(row)
    return dict(sorted(groups.items()))


def gate_table(rows, unit_of, symbols):
    """Figure 9 as a markdown table: per operation and gated model, how many
    runs end with the gate on the multiplication, between, or on the
    addition, and how many of those are solved ("" when no row has a
    gate). `unit_of(row)` names a row's model and `symbols` the
    operations."""
    groups = _gated_groups(rows, unit_of)
    if not groups:
        return ""
    lines = [
        "| operation | model | steps | runs | "
        + " | ".join(label for label, _, _ in GATE_BINS)
        + " |",
        "|---|---|---:|---:|" + "---:|" * len(GATE_BINS),
    ]
    for (operation, unit, steps), members in groups.items():
        bins = collections.defaultdict(list)
        for row in members:
            bins[_gate_bin(row["gate"])].append(row["solved"])
        cells = [
            f"{len(bins[label])} ({sum(bins[label])})" for label, _, _ in GATE_BINS
        ]
        lines.append(
            f"| {symbols.get(operation, operation)} | {unit} | {steps:,} | "
            f"{len(members)} | " + " | ".join(cells) + " |"
        )
    return "\n".join(lines)


def gate_markdown(rows, unit_of, symbols):
    """The report's section of `gate_table` ("" when no row has a gate)."""
    table = gate_table(rows, unit_of, symbols)
    if not table:
        return ""
    return (
        "### Gate at the best step (Madsen & Johansen figure 9)\n\n"
        "Runs (solved) by the second layer's mean gate over interpolation "
        f"inputs.\n\n{table}\n"
    )


def gate_figure(rows, unit_of, pyplot, save):
    """Figure 9's histograms (operation × model; solved and unsolved runs
    apart), saved by `save(figure, name)`; [] when no row has a gate."""
    groups = _gated_groups(rows, unit_of)
    if not groups:
        return []
    operations = sorted({operation for operation, _, _ in groups})
    units = sorted({(unit, steps) for _, unit, steps in groups})
    figure, axes = pyplot.subplots(
        len(operations),
        len(units),
        figsize=(3.5 * len(units), 2.8 * len(operations)),
        squeeze=False,
    )
    for i, operation in enumerate(operations):
        for j, (unit, steps) in enumerate(units):
            members = groups.get((operation, unit, steps), [])
            axis = axes[i][j]
            for solved, colour in ((False, "C3"), (True, "C0")):
                values = [r["gate"] for r in members if r["solved"] == solved]
                axis.hist(
                    values,
                    bins=25,
                    range=(0, 1),
                    color=colour,
                    alpha=0.7,
                    label=f"solved {solved}",
                )
            axis.set_title(f"{operation}: {unit} ({steps:,} steps)", fontsize=9)
            axis.set_xticks([0, 0.25, 0.5, 0.75, 1], ["×", "0.25", "0.5", "0.75", "+"])
    axes[0][-1].legend(fontsize=8)
    figure.suptitle("Gate at the best step (Madsen & Johansen figure 9)")
    return [save(figure, "arithmetic_gate")]
