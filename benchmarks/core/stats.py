"""Confidence intervals of the papers' summaries (Madsen §4.1.1; Mistry §6.5).

The papers summarise many seeds of one configuration by three numbers, each
with a 95 % confidence interval:

- the success rate, with the Wilson score interval (here, for every task);
- the step at which a run was first solved and the sparsity error, with
  profile-likelihood intervals of fitted means
  (`benchmarks.static_arithmetic.intervals`).

This module computes them in Python (NumPy and SciPy), where the reference
code used R (`binom`, `bbmle`): the Wilson interval, the papers' judgement
of one run (`summarize_run`), Fisher's and the Cochran-Mantel-Haenszel
tests, and `solved_accumulator_threshold`, the success threshold of the
sequential MNIST tasks (Madsen app. D).
"""

import math

import numpy as np
from scipy import stats


def check_confidence(confidence):
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), received {confidence}.")


def wilson_interval(successes, trials, confidence=0.95):
    """Success rate and its Wilson score interval (Wilson 1927).

    Returns `(successes / trials, lower, upper)`.
    """
    check_confidence(confidence)
    if trials <= 0 or not 0 <= successes <= trials:
        raise ValueError(
            f"Expected 0 <= successes <= trials and trials > 0, received "
            f"successes={successes}, trials={trials}."
        )
    rate = successes / trials
    z = stats.norm.ppf(0.5 + confidence / 2)
    denominator = 1 + z**2 / trials
    centre = (rate + z**2 / (2 * trials)) / denominator
    half_width = (
        z * math.sqrt(rate * (1 - rate) / trials + z**2 / (4 * trials**2))
    ) / denominator
    return rate, max(0.0, centre - half_width), min(1.0, centre + half_width)


def summarize_run(
    steps, interpolation_mse, extrapolation_mse, sparsity_errors, threshold
):
    """One run's result by the papers' rules (Madsen §4.1.1, Mistry §6.5).

    The inputs are series over the logged steps (every 1 000 steps in the
    papers). The best step minimises the interpolation (validation) MSE
    (early stopping; the first one on ties; NaN never wins); the run is
    solved when the extrapolation MSE at the best step is below
    `threshold`; `solved_at` is the first logged step whose extrapolation
    MSE is below it (None if none); the sparsity error is taken at the
    best step (None where the unit defines none: a None in the series).
    Returns a dict with `best_step`, `solved`, `solved_at`,
    `sparsity_error`, `interpolation_mse` and `extrapolation_mse` (the last
    three at the best step; None when every validation MSE is NaN).
    """
    defined = [value is not None for value in sparsity_errors]
    series = [
        np.asarray(s, dtype=np.float64)
        for s in (steps, interpolation_mse, extrapolation_mse, sparsity_errors)
    ]
    if len({len(s) for s in series}) != 1 or not len(series[0]):
        raise ValueError("The series must be non-empty and of equal length.")
    steps, interpolation_mse, extrapolation_mse, sparsity_errors = series
    below = np.flatnonzero(extrapolation_mse < threshold)
    summary = {
        "best_step": None,
        "solved": False,
        "solved_at": int(steps[below[0]]) if below.size else None,
        "sparsity_error": None,
        "interpolation_mse": None,
        "extrapolation_mse": None,
    }
    if np.all(np.isnan(interpolation_mse)):
        return summary
    best = int(np.nanargmin(interpolation_mse))
    summary.update(
        best_step=int(steps[best]),
        solved=bool(extrapolation_mse[best] < threshold),
        sparsity_error=float(sparsity_errors[best]) if defined[best] else None,
        interpolation_mse=float(interpolation_mse[best]),
        extrapolation_mse=float(extrapolation_mse[best]),
    )
    return summary


def held_below_at(steps, values, limit, span):
    """The first logged step at which `values` (a series over the logged
    `steps`) has stayed below `limit` at every logged step for at least
    `span` steps, or None: the DMU's success rule (Curry 2025, the
    authors' early stop), read at the logged steps only. A NaN is not
    below."""
    start = None
    for step, value in zip(steps, values):
        if value is None or not value < limit:
            start = None
            continue
        if start is None:
            start = step
        if step - start >= span:
            return int(step)
    return None


def diverged_at(steps, losses):
    """The first logged step whose loss (a series over the logged steps) is
    not finite (NaN or infinite: the run diverged there), or None; a None
    (no loss logged yet) is not a divergence."""
    values = np.asarray([0.0 if v is None else v for v in losses], np.float64)
    bad = np.flatnonzero(~np.isfinite(values))
    return int(steps[bad[0]]) if bad.size else None


def solved_accumulator_threshold(reference_mses, alpha=0.01):
    """The success threshold of the sequential MNIST tasks (Madsen &
    Johansen 2020, §4.2 and app. D): the one-sided 1 - `alpha` upper
    confidence bound of the mean extrapolation MSE of reference runs whose
    recurrent unit is fixed to the solution ("solved accumulator"),
    mean + t_{1-alpha, n-1} · s / √n (Student t, s with n - 1 degrees of
    freedom). A model succeeds at a sequence length when its MSE there is
    below the threshold at that length.

    Args:
        reference_mses: the reference runs' MSEs at one length (n >= 2,
            finite).
        alpha: float in (0, 1) (default 0.01, the paper's).
    """
    values = np.asarray(reference_mses, dtype=np.float64)
    if values.ndim != 1 or values.size < 2 or not np.all(np.isfinite(values)):
        raise ValueError(
            "The threshold needs at least two finite reference MSEs, received "
            f"{reference_mses!r}."
        )
    check_confidence(1.0 - alpha)
    spread = values.std(ddof=1) / math.sqrt(values.size)
    return float(values.mean() + stats.t.ppf(1.0 - alpha, values.size - 1) * spread)


def fisher_exact_p(solved, runs, other_solved, other_runs):
    """Two-sided Fisher exact test of two success counts."""
    table = [[solved, runs - solved], [other_solved, other_runs - other_solved]]
    return float(stats.fisher_exact(table).pvalue)


def pooled_success_p(strata):
    """The Cochran-Mantel-Haenszel test of two success rates pooled over
    strata (configurations), with continuity correction: `strata` is a
    list of (solved, runs, other solved, other runs); returns p."""
    difference = variance = 0.0
    for solved, runs, other_solved, other_runs in strata:
        total = runs + other_runs
        successes = solved + other_solved
        difference += solved - successes * runs / total
        variance += (runs * other_runs * successes * (total - successes)) / (
            total**2 * (total - 1)
        )
    statistic = (abs(difference) - 0.5) ** 2 / variance if variance else 0.0
    return float(stats.chi2.sf(statistic, 1))
