"""The papers' confidence intervals against SciPy and simulated coverage."""

import math

import numpy as np
import pytest
from scipy import stats

from benchmarks.core import stats as evaluation
from benchmarks.static_arithmetic import intervals


@pytest.mark.parametrize("successes, trials", [(0, 25), (3, 25), (94, 100), (25, 25)])
def test_wilson_interval_matches_scipy(successes, trials):
    rate, lower, upper = evaluation.wilson_interval(successes, trials)
    expected = stats.binomtest(successes, trials).proportion_ci(method="wilson")
    assert rate == successes / trials
    np.testing.assert_allclose(
        [lower, upper], [expected.low, expected.high], atol=1e-12
    )


def test_gamma_interval_contains_the_mean_at_the_likelihood_ratio_cutoff():
    rng = np.random.default_rng(0)
    samples = rng.gamma(shape=3.0, scale=5_000.0, size=100)
    mean, lower, upper = intervals.gamma_mean_interval(samples)
    assert mean == pytest.approx(samples.mean())
    assert lower < mean < upper
    # Close to the Wald interval for a sample this size.
    wald = 1.96 * samples.std(ddof=1) / math.sqrt(samples.size)
    assert (upper - lower) == pytest.approx(2 * wald, rel=0.15)


@pytest.mark.parametrize(
    "interval, draw, true_mean",
    [
        (intervals.gamma_mean_interval, lambda r: r.gamma(2.0, 3.0, size=30), 6.0),
        (
            intervals.beta_mean_interval,
            lambda r: 0.5 * r.beta(2.0, 30.0, size=30),
            0.5 * 2.0 / 32.0,
        ),
    ],
    ids=["gamma", "beta"],
)
def test_intervals_cover_the_true_mean_about_95_percent_of_the_time(
    interval, draw, true_mean
):
    rng = np.random.default_rng(1)
    covered = [
        lower <= true_mean <= upper
        for _, lower, upper in (interval(draw(rng)) for _ in range(300))
    ]
    assert 0.91 <= np.mean(covered) <= 0.985


def test_beta_interval_estimates_the_mean_on_half_the_unit_interval():
    rng = np.random.default_rng(2)
    samples = 0.5 * rng.beta(5.0, 20.0, size=2_000)
    mean, lower, upper = intervals.beta_mean_interval(samples)
    assert lower < 0.1 < upper
    assert mean == pytest.approx(samples.mean(), rel=0.02)


def test_degenerate_samples_give_the_mean_without_bounds():
    for interval in (intervals.gamma_mean_interval, intervals.beta_mean_interval):
        mean, lower, upper = interval([0.2])
        assert mean == 0.2 and math.isnan(lower) and math.isnan(upper)
        mean, lower, upper = interval([0.1, 0.1, 0.1])
        assert mean == pytest.approx(0.1) and math.isnan(lower)


def test_bad_arguments_are_clear_errors():
    with pytest.raises(ValueError, match="trials"):
        evaluation.wilson_interval(5, 3)
    with pytest.raises(ValueError, match="confidence"):
        evaluation.wilson_interval(1, 3, confidence=1.5)
    with pytest.raises(ValueError, match="positive"):
        intervals.gamma_mean_interval([-1.0, 2.0, 3.0])


def test_run_summary_uses_the_best_validation_step():
    steps = [0, 1000, 2000, 3000]
    interpolation = [5.0, np.nan, 1e-9, 1e-8]
    extrapolation = [9.0, 1e-3, 1e-7, 1e-9]
    sparsity = [0.4, 0.3, 0.01, 0.001]
    summary = evaluation.summarize_run(
        steps, interpolation, extrapolation, sparsity, 1e-6
    )
    assert summary["best_step"] == 2000 and summary["solved"]
    assert summary["solved_at"] == 2000 and summary["sparsity_error"] == 0.01
    unsolved = evaluation.summarize_run(
        steps, interpolation, extrapolation, sparsity, 1e-8
    )
    assert unsolved["best_step"] == 2000 and not unsolved["solved"]
    assert unsolved["solved_at"] == 3000  # first below, even if not at best
    diverged = evaluation.summarize_run(
        steps, [np.nan] * 4, [np.nan] * 4, sparsity, 1e-6
    )
    assert diverged["best_step"] is None and not diverged["solved"]
    with pytest.raises(ValueError, match="equal length"):
        evaluation.summarize_run(steps, interpolation[:2], extrapolation, sparsity, 1.0)


def test_beta_fit_resolves_tiny_sparsity_errors():
    samples = np.random.default_rng(0).beta(2.0, 2e7, size=50) * 0.5  # mean 5e-8
    mean, lower, upper = intervals.beta_mean_interval(samples)
    assert mean == pytest.approx(samples.mean(), rel=0.05)
    assert lower < samples.mean() < upper < 10 * samples.mean()


def test_held_rule_needs_the_whole_span_below_the_limit():
    steps = [0, 10, 20, 30, 40, 50, 60]
    # Below from 10 to 20, broken at 30 (a NaN is not below), below again
    # from 40: the span of 20 steps completes at 60.
    values = [1.0, 1e-10, 1e-10, math.nan, 1e-10, 1e-10, 1e-10]
    assert evaluation.held_below_at(steps, values, 1e-9, 20) == 60
    assert evaluation.held_below_at(steps, values, 1e-9, 10) == 20
    assert evaluation.held_below_at(steps, values, 1e-9, 30) is None
    assert evaluation.held_below_at(steps, values, 1e-11, 0) is None
