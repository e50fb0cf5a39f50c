"""Estimates with their uncertainty: proportions, means and quantiles.

Every estimate gamesim reports is an :class:`Estimate`: the sample size ``n``,
the point estimate, its standard error and a confidence interval. Intervals come
from scipy.stats: Wilson score intervals for proportions
(``binomtest(...).proportion_ci(method="wilson")``), Student-t intervals for
means, and distribution-free order-statistic intervals for quantiles
(``quantile_test(...).confidence_interval()``).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np
import numpy.typing as npt
from scipy import stats as sps

__all__ = [
    "CONFIDENCE",
    "Estimate",
    "proportion_estimate",
    "mean_estimate",
    "quantile_estimate",
    "trials_for_half_width",
    "difference_estimate",
]

#: Confidence level of every interval gamesim reports.
CONFIDENCE = 0.95


@dataclass(frozen=True)
class Estimate:
    """A point estimate with sample size, standard error and confidence interval.

    Attributes
    ----------
    n : int
        Number of trials the estimate is based on.
    estimate : float
        Point estimate (proportion, mean or quantile), in the metric's units.
    se : float
        Standard error of the estimator (``nan`` for quantiles, whose interval
        is distribution-free).
    ci_low, ci_high : float
        Bounds of the ``CONFIDENCE`` (95%) interval.
    """

    n: int
    estimate: float
    se: float
    ci_low: float
    ci_high: float

    @property
    def half_width(self) -> float:
        """Largest distance from the estimate to an interval bound."""
        return float(max(self.estimate - self.ci_low, self.ci_high - self.estimate))

    def as_dict(self) -> dict[str, float]:
        """The fields as a plain dict (for tidy rows)."""
        return asdict(self)


def proportion_estimate(k: int, n: int, *, confidence: float = CONFIDENCE) -> Estimate:
    """Proportion ``k / n`` with a Wilson score interval.

    Parameters
    ----------
    k : int
        Number of successes, ``0 <= k <= n``.
    n : int
        Number of trials, ``n >= 1``.
    confidence : float, default 0.95
        Confidence level of the interval.

    Returns
    -------
    Estimate
        ``se`` is the plug-in standard error ``sqrt(p (1 - p) / n)``.

    Raises
    ------
    ValueError
        If ``n < 1`` or ``k`` is outside ``[0, n]`` (raised by scipy).
    """
    k, n = int(k), int(n)
    if n < 1:
        raise ValueError(f"n = {n}, must be >= 1")
    p = k / n
    ci = sps.binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
    return Estimate(n, p, math.sqrt(p * (1.0 - p) / n), float(ci.low), float(ci.high))


def mean_estimate(x: npt.ArrayLike, *, confidence: float = CONFIDENCE) -> Estimate:
    """Sample mean with standard error and a Student-t interval.

    Parameters
    ----------
    x : array_like, shape (n,)
        Per-trial values (finite).
    confidence : float, default 0.95
        Confidence level of the interval.

    Returns
    -------
    Estimate
        ``se = s / sqrt(n)`` with ``s`` the sample standard deviation (ddof=1).
        With ``n == 1`` or constant values the interval collapses to the mean.

    Raises
    ------
    ValueError
        If ``x`` is empty.
    """
    a = np.asarray(x, dtype=np.float64).ravel()
    n = a.size
    if n == 0:
        raise ValueError("mean of an empty sample")
    m = float(a.mean())
    if n == 1:
        return Estimate(1, m, math.nan, m, m)
    se = float(a.std(ddof=1)) / math.sqrt(n)
    if se == 0.0:
        return Estimate(n, m, 0.0, m, m)
    lo, hi = sps.t.interval(confidence, n - 1, loc=m, scale=se)
    return Estimate(n, m, se, float(lo), float(hi))


def quantile_estimate(x: npt.ArrayLike, q: float, *, confidence: float = CONFIDENCE) -> Estimate:
    """Sample quantile with a distribution-free order-statistic interval.

    Parameters
    ----------
    x : array_like, shape (n,)
        Per-trial values. ``nan`` marks a right-censored trial (the event did not
        happen within the cap) and is treated as ``+inf``.
    q : float
        Quantile level in ``(0, 1)``.
    confidence : float, default 0.95
        Confidence level of the interval.

    Returns
    -------
    Estimate
        ``estimate`` is the inverted-CDF sample quantile (an observed value;
        ``inf`` when more than ``1 - q`` of the trials are censored), ``se`` is
        ``nan``; the interval comes from ``scipy.stats.quantile_test`` (bounds may
        be ``-inf``/``inf`` when ``n`` is too small for the requested confidence).

    Raises
    ------
    ValueError
        If ``x`` is empty or ``q`` is not in ``(0, 1)``.
    """
    a = np.asarray(x, dtype=np.float64).ravel()
    if a.size == 0:
        raise ValueError("quantile of an empty sample")
    if not 0.0 < q < 1.0:
        raise ValueError(f"q = {q}, must be in (0, 1)")
    a = np.where(np.isnan(a), np.inf, a)
    est = float(np.quantile(a, q, method="inverted_cdf"))
    ci = sps.quantile_test(a, p=q).confidence_interval(confidence_level=confidence)
    return Estimate(int(a.size), est, math.nan, float(ci.low), float(ci.high))


def trials_for_half_width(current: Estimate, target: float) -> int:
    """Trials needed for the interval half-width to shrink to ``target``.

    Uses the ``1 / sqrt(n)`` scaling of the half-width: ``n * (h / target)^2``.

    Parameters
    ----------
    current : Estimate
        The estimate so far (``n >= 1``).
    target : float
        Wanted half-width (> 0), in the metric's units.

    Returns
    -------
    int
        Total trials (not additional ones) expected to reach the target; at least
        ``current.n``.
    """
    h = current.half_width
    if not np.isfinite(h):
        return 2 * current.n
    if h <= target:
        return current.n
    return int(math.ceil(current.n * (h / target) ** 2 - 1e-9))


def difference_estimate(a: Estimate, b: Estimate) -> Estimate:
    """Difference ``a - b`` of two independent estimates, with a MOVER interval.

    Parameters
    ----------
    a, b : Estimate
        Estimates from independent samples (e.g. two cells of a sweep without
        common random numbers), each with its own 95% interval.

    Returns
    -------
    Estimate
        ``estimate = a.estimate - b.estimate``; ``se = sqrt(a.se**2 + b.se**2)``;
        ``n = min(a.n, b.n)``. The interval is the MOVER one (method of variance
        estimates recovery; Newcombe's hybrid score interval when both are Wilson
        intervals of proportions), built from each estimate's own interval::

            low  = d - sqrt((a.est - a.low)^2 + (b.high - b.est)^2)
            high = d + sqrt((a.high - a.est)^2 + (b.est - b.low)^2)

        so it inherits the Wilson intervals' behaviour near 0 and 1 and reduces to
        ``d +/- 1.96 sqrt(se_a^2 + se_b^2)`` for symmetric normal intervals.

    Notes
    -----
    Zou, G. Y. & Donner, A. (2008), "Construction of confidence limits about
    effect measures: a general approach", Statistics in Medicine 27(10).
    """
    d = a.estimate - b.estimate
    low = d - math.sqrt((a.estimate - a.ci_low) ** 2 + (b.ci_high - b.estimate) ** 2)
    high = d + math.sqrt((a.ci_high - a.estimate) ** 2 + (b.estimate - b.ci_low) ** 2)
    return Estimate(min(a.n, b.n), d, math.hypot(a.se, b.se), low, high)
