"""The fitted means of the static arithmetic tasks' summaries, with
profile-likelihood intervals (Madsen §4.1.1; Mistry §6.5), in Python where
the reference code used R (`bbmle`):

- the step at which a run was first solved, with a gamma distribution fitted
  by maximum likelihood (`gamma_mean_interval`);
- the sparsity error (Madsen eq. 17, in [0, 0.5]), with a beta distribution
  on [0, 0.5] fitted the same way (`beta_mean_interval`).

Each returns `(estimate, lower, upper)`; a fit that cannot be made (fewer
than two samples, or samples without spread) returns the sample mean with
NaN bounds. A fit is remembered by its samples' values: the pages' claims
and the reports ask for the same group's interval many times (the
committed pages: 10 336 fits of 762 groups), and each is a nested search.
"""

import functools
import math

import numpy as np
from scipy import optimize
from scipy import special
from scipy import stats

from benchmarks.core.stats import check_confidence


def _chi2_cutoff(confidence):
    """Half the chi-square(1) quantile: the log-likelihood drop at the bounds."""
    return 0.5 * stats.chi2.ppf(confidence, df=1)


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


def _values(samples):
    """The samples as a tuple of floats (the key of a remembered fit)."""
    return tuple(np.asarray(samples, dtype=np.float64).ravel().tolist())


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
    check_confidence(confidence)
    return _gamma_fit(_values(samples), confidence)


@functools.lru_cache(maxsize=4096)
def _gamma_fit(samples, confidence):
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
    check_confidence(confidence)
    return _beta_fit(_values(samples), upper_bound, confidence)


@functools.lru_cache(maxsize=4096)
def _beta_fit(samples, upper_bound, confidence):
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
