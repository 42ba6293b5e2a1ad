"""The arithmetic dataset (Madsen algorithm 1) and its success threshold."""

import numpy as np
import pytest

from benchmarks.core.ranges import Range
from benchmarks.data.arithmetic_task import SINGLE_MODULE_RANGES
from benchmarks.data.arithmetic_task import ArithmeticTask
from benchmarks.data.arithmetic_task import function_task
from benchmarks.data.arithmetic_task import paired_extrapolation_range
from benchmarks.data.arithmetic_task import single_module_task


def test_default_subsets_follow_algorithm_1_and_table_3():
    task = ArithmeticTask.draw(7, "mul")
    assert (task.subset_size, task.overlap, task.max_offset) == (25, 12, 62)
    a = set(range(100)[task.a_slice])
    b = set(range(100)[task.b_slice])
    assert len(a) == len(b) == 25 and len(a & b) == 12
    assert min(b) == max(a) - 12 + 1
    assert ArithmeticTask.draw(7, "mul").offset == task.offset
    offsets = {ArithmeticTask.draw(seed, "add").offset for seed in range(2000)}
    assert offsets == set(range(63))


def test_targets_are_the_operation_of_the_two_subset_sums():
    rng = np.random.default_rng(0)
    task = ArithmeticTask.draw(3, "div", input_size=10, subset_ratio=0.3)
    x, t = task.sample(rng, 5, Range.parse("1,2"))
    a = x[:, task.a_slice].sum(1)
    b = x[:, task.b_slice].sum(1)
    np.testing.assert_allclose(t[:, 0], a / b)
    single = ArithmeticTask("sub", input_size=2, subset_ratio=0.5, overlap_ratio=0.0)
    np.testing.assert_allclose(single.target(np.array([[5.0, 3.0]])), [[2.0]])


def test_union_ranges_draw_from_both_intervals():
    value_range = Range.parse("-6,-2;2,6")
    x = value_range.sample(np.random.default_rng(0), (100_000,))
    assert np.all((np.abs(x) >= 2) & (np.abs(x) <= 6))
    assert 0.49 < np.mean(x > 0) < 0.51
    assert str(value_range) == "U[-6,-2] ∪ U[2,6]"


def test_a_single_interval_draws_what_the_union_form_draws_from_the_stream():
    # The union form picks each element's interval with `rng.integers`; for
    # one interval that draws nothing, so the thresholds (10^8 draws) are
    # the same to the bit without it.
    value_range = Range.parse("-2,-1")
    general = np.random.default_rng(3)
    choice = general.integers(1, size=(1000, 5))
    lows, highs = np.array([-2.0])[choice], np.array([-1.0])[choice]
    expected = general.uniform(size=(1000, 5)) * (highs - lows) + lows
    rng = np.random.default_rng(3)
    np.testing.assert_array_equal(value_range.sample(rng, (1000, 5)), expected)
    assert rng.uniform() == general.uniform()  # the stream left where it was


@pytest.mark.parametrize(
    "operation, closed_form",
    [
        # t_eps - t = -2 eps (x1 - x2): 4 eps^2 E[d^2], E[d^2] = w^2 / 6
        ("sub", lambda eps, w: 4 * eps**2 * w**2 / 6),
        # t_eps - t = eps (1 - eps) (x1 - x2)^2: E[d^4] = w^4 / 15
        ("mul", lambda eps, w: (eps * (1 - eps)) ** 2 * w**4 / 15),
    ],
)
def test_threshold_matches_closed_form_cases(operation, closed_form):
    task = ArithmeticTask(operation, input_size=2, subset_ratio=0.5, overlap_ratio=0.0)
    threshold = task.threshold(Range.parse("2,6"), epsilon=1e-5, samples=400_000)
    np.testing.assert_allclose(threshold, closed_form(1e-5, 4.0), rtol=0.02)


@pytest.mark.parametrize(
    "make, match",
    [
        (lambda: ArithmeticTask("pow"), "operation"),
        (lambda: ArithmeticTask("add", input_size=2, subset_ratio=0.1), "empty"),
        (lambda: ArithmeticTask("add", offset=70), "offset"),
        (lambda: Range.parse("1;2"), "range"),
        (lambda: Range(((2.0, 1.0),)), "low < high"),
    ],
)
def test_bad_arguments_are_clear_errors(make, match):
    with pytest.raises(ValueError, match=match):
        make()


@pytest.mark.parametrize(
    "operation, closed_form",
    [
        # (eps * (x1 + x2))^2 with E[(x1 + x2)^2] = 2 / 12 + 9 on U[1,2]
        ("add", lambda eps: eps**2 * (2 / 12 + 9)),
        # ((1 - (1 - eps)^2) x1 x2)^2 with E[x^2] = 7 / 3 on U[1,2]
        ("mul", lambda eps: (2 * eps - eps**2) ** 2 * (7 / 3) ** 2),
        # ((1 - (1 - eps) / (1 + eps)) x1 / x2)^2 with E[1 / x^2] = 1 / 2
        ("div", lambda eps: (1 - (1 - eps) / (1 + eps)) ** 2 * (7 / 3) * 0.5),
    ],
)
def test_mistry_thresholds_match_closed_forms(operation, closed_form):
    task = single_module_task(operation)
    simulated = task.threshold(Range.parse("1,2"), epsilon=1e-4, model="mistry")
    np.testing.assert_allclose(simulated, closed_form(1e-4), rtol=0.01)


def test_mistry_model_counts_redundant_inputs():
    task = single_module_task("mul", input_size=10)
    assert task.relevant_inputs().sum() == 2
    x = np.full((1, 10), 2.0)
    eps = 1e-3
    expected = 4 * (1 - eps) ** 2 * (1 - 2 * eps) ** 8
    np.testing.assert_allclose(task.mistry_epsilon_prediction(x, eps), [[expected]])
    with pytest.raises(ValueError, match="no epsilon-perfect"):
        single_module_task("root").threshold(Range.parse("1,2"), model="mistry")
    with pytest.raises(ValueError, match="madsen"):
        task.threshold(Range.parse("1,2"), model="other")


def test_single_module_ranges_are_mistry_table_3():
    assert len(SINGLE_MODULE_RANGES) == 9
    union = paired_extrapolation_range(Range.parse("-2,2"))
    assert union.to_text() == "-6,-2;2,6"
    assert Range.parse(union.to_text()) == union
    with pytest.raises(ValueError, match="table 3"):
        paired_extrapolation_range(Range.parse("3,4"))


def test_function_task_is_madsen_section_1_1_with_its_epsilon_perfect_model():
    task = function_task()
    x = np.array([[1.0, 2.0, 3.0, 4.0]])
    np.testing.assert_allclose(task.target(x), [[3.0 * 10.0]])
    rng = np.random.default_rng(0)
    x = Range.parse("2,6").sample(rng, (200_000, 4))
    eps = 1e-5  # eq. 16: an NAU off by eps feeding an exact NMU
    first = np.array([[1 - eps, 1 - eps, eps, eps], [1 - eps] * 4]).T
    perfect = (x @ first).prod(axis=1, keepdims=True)
    expected = np.mean((perfect - task.target(x)) ** 2)
    np.testing.assert_allclose(
        task.threshold(Range.parse("2,6"), samples=200_000), expected, rtol=0.02
    )
