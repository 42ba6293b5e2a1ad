"""Confidence intervals of the papers' summaries (Madsen §4.1.1; Mistry §6.5).

The papers summarise many seeds of one configuration by three numbers, each
with a 95 % confidence interval:

- the success rate, with the Wilson score interval;
- the step at which a run was first solved, with a gamma distribution fitted
  by maximum likelihood and a profile-likelihood interval for its mean;
- the sparsity error (Madsen eq. 17, in [0, 0.5]), with a beta distribution
  on [0, 0.5] fitted the same way.

This module computes them in Python (NumPy and SciPy), where the reference
code used R (`binom`, `bbmle`). Each interval function returns
`(estimate, lower, upper)`; a fit that cannot be made (fewer than two
samples, or samples without spread) returns the sample mean with NaN
bounds. `solved_accumulator_threshold` is the success threshold of the
sequential MNIST tasks (Madsen app. D).
"""

import math

import numpy as np
from scipy import optimize
from scipy import special
from scipy import stats


def _chi2_cutoff(confidence):
    """Half the chi-square(1) quantile: the log-likelihood drop at the bounds."""
    return 0.5 * stats.chi2.ppf(confidence, df=1)


def _check_confidence(confidence):
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), received {confidence}.")


def wilson_interval(successes, trials, confidence=0.95):
    """Success rate and its Wilson score interval (Wilson 1927).

    Returns `(successes / trials, lower, upper)`.
    """
    _check_confidence(confidence)
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


def _profile_interval(estimate, profile, low, high, confidence):
    """Bounds where the profile log-likelihood has dropped by the cutoff.

    `profile(theta)` is the log-likelihood maximised over the nuisance
    parameter with the parameter of interest fixed at theta; the bounds are
    searched in (low, estimate) and (estimate, high).
    """
    target = profile(estimate) - _chi2_cutoff(confidence)

    def excess(theta):
        return profile(theta) - target

    def bound(edge):
        if excess(edge) > 0:  # the likelihood never drops enough before the edge
            return edge
        return optimize.brentq(excess, min(edge, estimate), max(edge, estimate))

    return bound(low), bound(high)


def _usable(samples, spread):
    samples = np.asarray(samples, dtype=np.float64)
    samples = samples[np.isfinite(samples)]
    return samples, samples.size > 1 and samples.std(ddof=1) > spread


def gamma_mean_interval(samples, confidence=0.95):
    """Mean of a gamma distribution fitted to positive `samples`, with a
    profile-likelihood interval (the "solved at" summary).

    The gamma is parametrised by its mean mu and shape k; for a fixed mu the
    likelihood is maximised over k. The maximum-likelihood mu is the sample
    mean.
    """
    _check_confidence(confidence)
    x, usable = _usable(samples, 1e-5)
    if not usable:
        return (float(x.mean()) if x.size else math.nan), math.nan, math.nan
    if np.any(x <= 0):
        raise ValueError("gamma_mean_interval needs positive samples.")
    n, total, log_total = x.size, x.sum(), np.log(x).sum()

    def log_likelihood(mu, log_shape):
        k = math.exp(log_shape)
        return (
            n * (k * math.log(k / mu) - special.gammaln(k))
            + (k - 1) * log_total
            - k * total / mu
        )

    def profile(mu):
        best = optimize.minimize_scalar(
            lambda s: -log_likelihood(mu, s), bounds=(-20, 30), method="bounded"
        )
        return -best.fun

    mean = float(x.mean())
    lower, upper = _profile_interval(mean, profile, mean * 1e-6, mean * 1e6, confidence)
    return mean, float(lower), float(upper)


#: The beta fit's search range for log(m / (1 - m)): m in [1.7e-15, 1 - 1.7e-15],
#: where 1 - m and m stay representable in float64.
LOGIT_BOUND = 34.0


def beta_mean_interval(samples, upper_bound=0.5, confidence=0.95):
    """Mean of a beta distribution on [0, upper_bound] fitted to `samples`,
    with a profile-likelihood interval (the sparsity error summary).

    x / upper_bound ~ Beta(m v, (1 - m) v), so that E[x] = m * upper_bound;
    for a fixed mean the likelihood is maximised over the precision v.
    Samples are clipped into (0, upper_bound) by 1e-16, as the reference
    code does.
    """
    _check_confidence(confidence)
    x, usable = _usable(samples, 1e-10)
    if not usable:
        return (float(x.mean()) if x.size else math.nan), math.nan, math.nan
    y = np.clip(x / upper_bound, 1e-16, 1 - 1e-16)
    log_y, log_1y = np.log(y).sum(), np.log1p(-y).sum()
    n = y.size

    def log_likelihood(m, log_v):
        v = math.exp(log_v)
        a, b = m * v, (1 - m) * v
        return (
            n * (special.gammaln(v) - special.gammaln(a) - special.gammaln(b))
            + (a - 1) * log_y
            + (b - 1) * log_1y
        )

    def profile(logit_m):
        m = special.expit(logit_m)
        best = optimize.minimize_scalar(
            lambda s: -log_likelihood(m, s), bounds=(-12, 30), method="bounded"
        )
        return -best.fun

    # searched on the log-odds of m: sparsity errors can be 1e-8 and below,
    # far under the absolute tolerance of a search on m itself
    fitted = optimize.minimize_scalar(
        lambda z: -profile(z), bounds=(-LOGIT_BOUND, LOGIT_BOUND), method="bounded"
    )
    z_hat = float(fitted.x)
    lower, upper = _profile_interval(
        z_hat, profile, -LOGIT_BOUND, LOGIT_BOUND, confidence
    )
    m_hat, lower, upper = (float(special.expit(z)) for z in (z_hat, lower, upper))
    return m_hat * upper_bound, lower * upper_bound, upper * upper_bound


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
    best step. Returns a dict with `best_step`, `solved`, `solved_at`,
    `sparsity_error`, `interpolation_mse` and `extrapolation_mse` (the
    last three at the best step; None when every validation MSE is NaN).
    """
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
        sparsity_error=float(sparsity_errors[best]),
        interpolation_mse=float(interpolation_mse[best]),
        extrapolation_mse=float(extrapolation_mse[best]),
    )
    return summary


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
    _check_confidence(1.0 - alpha)
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
