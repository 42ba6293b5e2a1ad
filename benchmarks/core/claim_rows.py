"""What every claim of the results pages shares: reading the committed
rows a claim names, selecting them by its filters, and writing numbers as
the pages write them.

`benchmarks.claims` computes the claims; the claims of one task are
declared by its folder's `claims` module as `CLAIMS`, a dict of
`Claim`s by name, built from these functions.
"""

import csv
import dataclasses
import functools
import math
import os

from benchmarks.core.rows import read_rows

#: The directory the claims' paths are relative to: `benchmarks/`.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@dataclasses.dataclass(frozen=True)
class Claim:
    """A claim's computation, `compute(*arguments) -> text`; `table`: the
    text is a whole table, written on lines of its own."""

    compute: object
    table: bool = False


def file_path(path):
    """The full path of a file that a claim names relative to `ROOT`, or a
    clear error when there is none."""
    full = os.path.join(ROOT, path)
    if not os.path.exists(full):
        raise ValueError(f"A claim names {path!r}, which is not in {ROOT}.")
    return full


def rows(path):
    """The rows of a result file named relative to `ROOT`, read once per
    process."""
    return _read(file_path(path))


@functools.cache
def _read(full_path):
    return tuple(read_rows([full_path]))


def verdicts():
    """{(task, unit, operation, interpolation range, steps): (verdict,
    experiment)} of `results/verdicts.csv`, the verdicts on the results
    that differ from the papers; an empty `steps` matches every length
    of run, an `interpolation_range` of `all` a unit's runs over every
    range."""
    with open(
        os.path.join(ROOT, "results", "verdicts.csv"), encoding="utf-8"
    ) as handle:
        return {
            (
                row["task"],
                row["unit"],
                row["operation"],
                row["interpolation_range"],
                row["steps"],
            ): (row["verdict"], row["experiment"])
            for row in csv.DictReader(handle)
        }


def verdict_of(verdicts, task, unit, operation, interpolation, steps):
    """(verdict, experiment) recorded for a result of `steps` steps, or
    for every length of run; None where none is recorded."""
    for length in (str(steps), ""):
        found = verdicts.get((task, unit, operation, interpolation, length))
        if found:
            return found
    return None


def forget_rows():
    """Reads every file anew from the next claim on (its rows changed)."""
    _read.cache_clear()


def all_rows(paths):
    return [row for path in paths for row in rows(path)]


def selected(candidates, filters):
    """The rows whose fields equal every `FIELD=VALUE` filter (`FIELD=A|B`:
    either value; `FIELD!=VALUE`: any other value; `FIELD>=NUMBER`,
    `FIELD<=NUMBER`: a number at or above, at or below it, where `FIELD`
    may name an entry as `field` does)."""
    wanted = [_condition(*_filter(text)) for text in filters]
    return [row for row in candidates if all(holds(row) for holds in wanted)]


def _condition(name, value):
    """The test a row passes for one filter (`selected`)."""
    if name.endswith((">", "<")):
        bound, at_least = float(value), name.endswith(">")
        return lambda row: _within(_number_or_none(row, name[:-1]), bound, at_least)
    values, negated = value.split("|"), name.endswith("!")
    return lambda row: (str(row.get(name.rstrip("!"))) in values) != negated


def _number_or_none(row, name):
    try:
        number = field(row, name)
    except ValueError:
        return None
    return number if isinstance(number, (int, float)) else None


def _within(number, bound, at_least):
    if number is None:
        return False
    return number >= bound if at_least else number <= bound


def matching(path, filters):
    """The rows of `path` that the filters select (`selected`), or a clear
    error when none does."""
    found = selected(rows(path), filters)
    if not found:
        raise ValueError(f"No row of {path} matches {' '.join(filters)}.")
    return found


def _filter(text):
    if "=" not in text:
        raise ValueError(f"A row filter is FIELD=VALUE, not {text!r}.")
    name, value = text.split("=", 1)
    if name.endswith((">", "<")):
        try:
            float(value)
        except ValueError:
            raise ValueError(
                f"{text!r} bounds a field by {value!r}, not a number."
            ) from None
    return name, value


def paths_and_filters(arguments):
    """A claim's result files and its FIELD=VALUE filters."""
    paths = [argument for argument in arguments if "=" not in argument]
    return paths, [argument for argument in arguments if "=" in argument]


def files_rows(arguments):
    """The rows of a claim's files (`FILE ... FIELD=VALUE ...`) that its
    filters select, each file matching some (`matching`)."""
    paths, filters = paths_and_filters(arguments)
    return [row for path in paths for row in matching(path, filters)]


def field(row, name):
    """A row's field; `test_mse.1000` is the entry "1000" of `test_mse`,
    `loss_series.3` the fourth value of a list."""
    value = row
    for key in name.split("."):
        if isinstance(value, list) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        elif isinstance(value, dict) and key in value:
            value = value[key]
        else:
            raise ValueError(f"A row has no field {name!r}.")
    return value


def field_values(path, name, filters):
    """The field `name` of every matching row of `path`, or a clear error
    when it is empty in some."""
    values = [field(row, name) for row in matching(path, filters)]
    missing = sum(value is None for value in values)
    if missing:
        raise ValueError(
            f"{name} is empty in {missing} of the {len(values)} rows of {path} "
            f"matching {' '.join(filters)}; filter them out (e.g. solved=True)."
        )
    return values


_SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def pretty(value):
    """A number as the pages write it: 0.66, 26.2, 1 234, 2.8·10⁻⁴ (two
    significant digits, three from 10 to 100, whole numbers from 100)."""
    if value == 0:
        return "0"
    if 100 <= abs(value) < 1e6:
        return spaced(round(value))
    if 10 <= abs(value) < 100:
        return f"{value:.3g}"
    if 1e-3 <= abs(value) < 10:
        return f"{value:.2g}"
    mantissa, exponent = f"{value:.1e}".split("e")
    return f"{mantissa}·10{str(int(exponent)).translate(_SUPERSCRIPTS)}"


def percent(fraction):
    """A fraction in whole percent, as the pages write it ("28 %")."""
    return f"{fraction:.0%}".replace("%", " %")


def spaced(number):
    """A whole number in groups of three digits: "5 175"."""
    return f"{number:,}".replace(",", " ")


def span(values):
    """ "low-high" of numbers as the pages write them, or one number where
    both print alike; "∞" for an infinite one."""
    low, high = (
        pretty(v) if math.isfinite(v) else "∞" for v in (min(values), max(values))
    )
    return low if low == high else f"{low}-{high}"


def two_digit_span(values):
    """ "low-high" of numbers to two significant digits ("0.004-0.007")."""
    low, high = f"{min(values):.2g}", f"{max(values):.2g}"
    return low if low == high else f"{low}-{high}"
