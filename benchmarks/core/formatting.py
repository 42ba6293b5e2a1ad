"""Formatting shared by the reports: numbers, published tables, figures."""

import math
import os

#: The `benchmarks/` directory, whose task folders hold the papers' tables.
BENCHMARKS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def published_table(folder, name):
    """The path of a paper's table: `benchmarks/<folder>/published/<name>`."""
    return os.path.join(BENCHMARKS, folder, "published", name)


def format_number(value):
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if value == 0:
        return "0"
    return f"{value:.2g}" if abs(value) < 1e-2 or abs(value) >= 1e4 else f"{value:.3g}"


def load_pyplot():
    """matplotlib's pyplot without a display, or a clear exit."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib import pyplot
    except ImportError:
        raise SystemExit(
            "--figures needs matplotlib: pip install -e './benchmarks[plots]'"
        ) from None
    return pyplot


def save_figure(pyplot, figure, directory, name):
    """Writes `figure` as `directory/name.png`, closes it, returns the path."""
    figure.tight_layout()
    path = os.path.join(directory, f"{name}.png")
    figure.savefig(path, dpi=110)
    pyplot.close(figure)
    return path
