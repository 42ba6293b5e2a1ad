"""Every public layer and cell through the public harness
(`keras_nalm.testing`): equations against NumPy, weight and loss counts,
config, one compiled integration (jit fit step, `.keras` and SavedModel
round trips), mixed precision, finite gradients and saturation.

Every case runs the fast checks. The first case of each class runs the
integration check, and the first case of each class and wrapped unit
(an `ArithmeticCell` of an NAU, of an NMU, ...) the numerical checks; the
same checks of the other configurations (variants of the same class) are
`large`. The comparison cells of the NRU paper's runners (`benchmarks/`)
are tests of the benchmarks."""

import pytest

from keras_nalm import testing
from tests.cases import ALL_CASES
from tests.cases import COMPARISON_CASES

FAST_CHECKS = ("equations", "weights_and_losses", "config")
#: Checks of the first case of each class (cells: of each wrapped unit).
NUMERICAL_CHECKS = ("mixed_precision", "finite_gradients", "saturation")


def _wrapped_unit(case):
    """The unit class an `ArithmeticCell` case wraps (None for others)."""
    return type(getattr(case.create(), "unit", None)) if case.recurrent else None


def _parameters():
    classes, units = set(), set()
    for case in ALL_CASES:
        first_of_class = case.layer_class not in classes
        first_of_unit = (case.layer_class, _wrapped_unit(case)) not in units
        classes.add(case.layer_class)
        units.add((case.layer_class, _wrapped_unit(case)))
        for check in testing.CHECKS:
            fast = (
                check in FAST_CHECKS
                or (check in NUMERICAL_CHECKS and first_of_unit)
                or (check == "integration" and first_of_class)
            )
            marks = [] if fast else [pytest.mark.large]
            if any(case is other for other in COMPARISON_CASES):
                marks.append(pytest.mark.benchmarks)
            yield pytest.param(case, check, marks=marks, id=f"{case.name}-{check}")


@pytest.mark.parametrize("case, check", list(_parameters()))
def test_layer(case, check):
    testing.CHECKS[check](case)
