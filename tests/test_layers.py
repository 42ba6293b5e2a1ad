"""Every public layer and cell through the public harness
(`keras_nalm.testing`): equations against NumPy, weight and loss counts,
config, `.keras` and SavedModel round trips, jit fit, mixed precision and
finite gradients.

Every case runs the fast checks; the first case of each class (for a cell
wrapping a unit, of each unit class) runs every check, and the slow checks
of the other configurations (variants of the same class) are `large`."""

import pytest

from keras_nalm import testing
from tests.cases import ALL_CASES

FAST_CHECKS = ("equations", "weights_and_losses", "config")


def _class_key(case):
    """The class a case varies: the layer's, and for a cell wrapping a unit
    (`ArithmeticCell`), the unit's."""
    unit = getattr(case.create(), "unit", None) if case.recurrent else None
    return case.layer_class, type(unit)


def _parameters():
    seen = set()
    for case in ALL_CASES:
        key = _class_key(case)
        first = key not in seen
        seen.add(key)
        for check in testing.CHECKS:
            marks = () if first or check in FAST_CHECKS else (pytest.mark.large,)
            yield pytest.param(case, check, marks=marks, id=f"{case.name}-{check}")


@pytest.mark.parametrize("case, check", list(_parameters()))
def test_layer(case, check):
    testing.CHECKS[check](case)
