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
from collections.abc import Callable
from dataclasses import asdict, dataclass

import numpy as np
import numpy.typing as npt
from scipy import stats as sps

from gamesim.core.summary import Moments

__all__ = [
    "CONFIDENCE",
    "Estimate",
    "proportion_estimate",
    "mean_estimate",
    "mean_estimate_from_moments",
    "quantile_estimate",
    "quantile_estimate_from_order_statistics",
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


def mean_estimate(
    x: npt.ArrayLike,
    *,
    confidence: float = CONFIDENCE,
    bounds: tuple[float, float] = (-math.inf, math.inf),
) -> Estimate:
    """Sample mean with standard error and a Student-t interval that is never degenerate.

    Parameters
    ----------
    x : array_like, shape (n,)
        Per-trial values (finite).
    confidence : float, default 0.95
        Confidence level of the interval.
    bounds : (float, float), default (-inf, inf)
        The range every per-trial value is known to lie in (e.g. ``(0, health)``
        for wounds). Used only when the sample cannot measure its own spread
        (``n == 1`` or all values equal).

    Returns
    -------
    Estimate
        ``se = s / sqrt(n)`` with ``s`` the sample standard deviation (ddof=1);
        ``nan`` when ``n == 1``.

        With at least two distinct values the interval is the Student-t one.
        When every value equals ``v`` (including ``n == 1``) the sample says
        nothing about how far the mean may be from ``v``, so the interval is
        **not** collapsed to ``[v, v]``: by the rule-of-three argument
        (Clopper-Pearson bound for zero "other" values in ``n`` trials), the
        fraction of trials with a value other than ``v`` is at most
        ``p = 1 - ((1 - confidence) / 2) ** (1 / n)`` (about ``3.7 / n``), so the
        mean lies in ``[v - p (v - lo), v + p (hi - v)]`` with ``(lo, hi) =
        bounds``. With the default unbounded range that interval is infinite on
        each side where ``v`` is not at a bound: it can never satisfy a precision
        target (see docs/reliability.md).

    Raises
    ------
    ValueError
        If ``x`` is empty, or ``bounds`` is not ``lo <= hi``.
    """
    a = np.asarray(x, dtype=np.float64).ravel()
    n = a.size
    if n == 0:
        raise ValueError("mean of an empty sample")
    lo_b, hi_b = (float(b) for b in bounds)
    if not lo_b <= hi_b:
        raise ValueError(f"bounds = {bounds!r}, must be (lo, hi) with lo <= hi")
    m = float(a.mean())
    sd = float(a.std(ddof=1)) if n > 1 else math.nan
    constant = n == 1 or sd == 0.0 or bool(np.all(a == a[0]))
    return _mean_interval(n, m, sd, float(a[0]) if constant else None, confidence, lo_b, hi_b)


def mean_estimate_from_moments(
    m: Moments,
    *,
    confidence: float = CONFIDENCE,
    bounds: tuple[float, float] = (-math.inf, math.inf),
) -> Estimate:
    """:func:`mean_estimate` from a sample's sufficient statistics instead of its values.

    Parameters
    ----------
    m : gamesim.core.summary.Moments
        ``n``, sums (exact for integer data) and range of the sample (merged chunk
        by chunk by a sweep).
    confidence, bounds
        As :func:`mean_estimate`.

    Returns
    -------
    Estimate
        The same interval as :func:`mean_estimate` on the values. For integer data
        the mean is the same float; the standard error is the correctly rounded
        one (numpy's two-pass ``std`` may differ from it in the last bits).

    Raises
    ------
    ValueError
        If ``m.n == 0``, or ``bounds`` is not ``lo <= hi``.
    """
    if m.n == 0:
        raise ValueError("mean of an empty sample")
    lo_b, hi_b = (float(b) for b in bounds)
    if not lo_b <= hi_b:
        raise ValueError(f"bounds = {bounds!r}, must be (lo, hi) with lo <= hi")
    sd = m.std(ddof=1) if m.n > 1 else math.nan
    constant = m.n == 1 or sd == 0.0 or m.constant
    return _mean_interval(m.n, m.mean(), sd, m.vmin if constant else None, confidence, lo_b, hi_b)


def _mean_interval(
    n: int, m: float, sd: float, constant_value: float | None, confidence: float, lo_b: float, hi_b: float
) -> Estimate:
    """The mean's estimate from ``n``, mean and standard deviation (``constant_value``: all values equal it)."""
    se = sd / math.sqrt(n) if n > 1 else math.nan
    if constant_value is not None:
        lo, hi = _constant_sample_interval(constant_value, n, confidence, lo_b, hi_b)
        return Estimate(n, m, se, lo, hi)
    lo, hi = sps.t.interval(confidence, n - 1, loc=m, scale=se)
    return Estimate(n, m, se, float(lo), float(hi))


def _constant_sample_interval(v: float, n: int, confidence: float, lo: float, hi: float) -> tuple[float, float]:
    """Interval for the mean when all ``n`` values equal ``v`` (rule-of-three bound).

    The fraction ``p`` of trials whose value differs from ``v`` is at most
    ``1 - (alpha / 2) ** (1 / n)`` (Clopper-Pearson upper bound for 0 of ``n``);
    such trials move the mean at most ``p * (v - lo)`` down and ``p * (hi - v)`` up.
    """
    p_other = 1.0 - ((1.0 - confidence) / 2.0) ** (1.0 / n)
    down = 0.0 if v <= lo else (math.inf if math.isinf(lo) else p_other * (v - lo))
    up = 0.0 if v >= hi else (math.inf if math.isinf(hi) else p_other * (hi - v))
    return v - down, v + up


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
    a = np.sort(np.where(np.isnan(a), np.inf, a))
    return quantile_estimate_from_order_statistics(int(a.size), q, lambda k: float(a[k]), confidence=confidence)


def quantile_estimate_from_order_statistics(
    n: int, q: float, order_statistic: Callable[[int], float], *, confidence: float = CONFIDENCE
) -> Estimate:
    """:func:`quantile_estimate` from a function giving the sample's order statistics.

    Parameters
    ----------
    n : int
        Sample size, ``>= 1``.
    q : float
        Quantile level in ``(0, 1)``.
    order_statistic : callable
        ``order_statistic(k)`` is the ``k``-th smallest value (0-based, ``nan``
        counted as ``+inf``); called for at most three ``k``. A sweep passes one
        that reads the merged value counts
        (:func:`gamesim.core.summary.order_statistic`).
    confidence : float, default 0.95

    Returns
    -------
    Estimate
        The inverted-CDF sample quantile (numpy's ``method="inverted_cdf"``) and
        the order-statistic interval of ``scipy.stats.quantile_test`` (the same
        indices, from the binomial distribution of ``n`` and ``q``); a bound is
        ``nan`` where ``n`` is too small for it.

    Raises
    ------
    ValueError
        If ``n < 1`` or ``q`` is not in ``(0, 1)``.
    """
    if n < 1:
        raise ValueError("quantile of an empty sample")
    if not 0.0 < q < 1.0:
        raise ValueError(f"q = {q}, must be in (0, 1)")
    index = float(n) * float(q) - 1.0  # numpy's virtual index for inverted_cdf
    below = math.floor(index)
    k = max(0, int(below if index - below == 0 else below + 1))
    est = order_statistic(min(k, n - 1))
    bd = sps.binom(n, q)
    alpha = (1 - confidence) / 2
    low_index = int(bd.ppf(alpha)) - 1
    high_index = int(bd.isf(alpha))
    low = order_statistic(low_index) if low_index >= 0 else math.nan
    high = order_statistic(high_index) if high_index < n else math.nan
    return Estimate(n, float(est), math.nan, float(low), float(high))


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
