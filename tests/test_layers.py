"""Every public layer and cell through the public harness
(`keras_nalm.testing`): equations against NumPy, weight and loss counts,
config, one compiled integration (a jit-compiled training step, `.keras`
and SavedModel round trips), mixed precision, finite gradients and
saturation.

Every case runs the fast checks. The first case of each class runs the
integration check (on TensorFlow the NRU cell's is large), and the first
case of each class and wrapped unit (an `ArithmeticCell` of an NAU, of an
NMU, ...) the numerical checks; the same checks of the other
configurations (variants of the same class) are `large`, the integration
of a class's other variants one model of all of them. The comparison
cells of the NRU paper's runners (`benchmarks/`) are tests of the
benchmarks."""

import keras
import pytest

from keras_nalm import testing
from keras_nalm.layers import NRUCell
from tests.cases import ALL_CASES
from tests.cases import COMPARISON_CASES
from tests.cases import wrapped_unit

FAST_CHECKS = ("equations", "weights_and_losses", "config")
#: Classes whose integration check is large on TensorFlow: XLA compiles the
#: NRU cell's recurrent training step in 7-12 s on a 2-core CPU, 7 % of
#: the quick loop (the JAX and PyTorch runs of `python -m tests` run it).
SLOW_TO_COMPILE_ON_TENSORFLOW = (NRUCell,)
#: Checks of the first case of each class (cells: of each wrapped unit).
NUMERICAL_CHECKS = ("mixed_precision", "finite_gradients", "saturation")


def _slow_to_compile(case):
    return keras.backend.backend() == "tensorflow" and issubclass(
        case.layer_class, SLOW_TO_COMPILE_ON_TENSORFLOW
    )


def _benchmark_marks(cases):
    comparison = any(case is other for case in cases for other in COMPARISON_CASES)
    return [pytest.mark.benchmarks] if comparison else []


def _parameters():
    classes, units, variants = set(), set(), {}
    for case in ALL_CASES:
        first_of_class = case.layer_class not in classes
        first_of_unit = (case.layer_class, wrapped_unit(case)) not in units
        classes.add(case.layer_class)
        units.add((case.layer_class, wrapped_unit(case)))
        if not first_of_class:
            variants.setdefault(case.layer_class, []).append(case)
        for check in testing.CHECKS:
            if check == "integration" and not first_of_class:
                continue  # with the class's other variants, below
            fast = (
                check in FAST_CHECKS
                or (check in NUMERICAL_CHECKS and first_of_unit)
                or (check == "integration" and not _slow_to_compile(case))
            )
            marks = [] if fast else [pytest.mark.large]
            marks += _benchmark_marks([case])
            yield pytest.param(case, check, marks=marks, id=f"{case.name}-{check}")
    for layer_class, cases in variants.items():
        # one model of all of them, compiled once
        marks = [pytest.mark.large, *_benchmark_marks(cases)]
        yield pytest.param(
            tuple(cases),
            "integration",
            marks=marks,
            id=f"{layer_class.__name__}-other-variants-integration",
        )


@pytest.mark.parametrize("case, check", list(_parameters()))
def test_layer(case, check):
    testing.CHECKS[check](case)
