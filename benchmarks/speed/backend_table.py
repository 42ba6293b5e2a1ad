"""The table of `benchmarks.speed.backend_speed`'s rows (no Keras needed:
`benchmarks.claims` writes it into `docs/backends.md`)."""

#: The backends' names in the table's columns, in its order.
BACKEND_NAMES = {"tensorflow": "TensorFlow", "jax": "JAX", "torch": "PyTorch"}


def _setting_name(row):
    if not row["jit_compile"]:
        return "eager"
    if row["steps_per_execution"] == 1:
        return "jit"
    return f"jit, {row['steps_per_execution']}/call"


def speed_table(rows):
    """The markdown table of `rows` (of one run per backend): per layer and
    per backend and setting, the ratio of its steps per second to Dense's
    in the same setting; Dense's row gives its steps per second."""
    columns, layers, cells = [], [], {}
    for backend in BACKEND_NAMES:
        for row in rows:
            if row["backend"] != backend or row["baseline"] != "Dense":
                continue
            column = (backend, _setting_name(row))
            if column not in columns:
                columns.append(column)
            if row["layer"] not in layers:
                layers.append(row["layer"])
            key = (row["layer"], column)
            if key in cells:
                raise ValueError(f"two rows of {row['layer']} in {column}")
            dense = row["layer"] == "Dense"
            cells[key] = (
                f"{row['steps_per_s']:.0f}/s"
                if dense
                else f"{row['ratio_to_baseline']:.2f}"
            )
    header = [f"{BACKEND_NAMES[b]} {setting}" for b, setting in columns]
    lines = [
        "| layer | " + " | ".join(header) + " |",
        "|---|" + "---:|" * len(columns),
    ]
    for layer in layers:
        values = [cells.get((layer, column), "") for column in columns]
        lines.append(f"| {layer} | " + " | ".join(values) + " |")
    return lines
