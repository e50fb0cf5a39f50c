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
from scipy import special

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
    "tango_interval",
    "paired_proportion_difference",
    "paired_proportion_ratio",
    "paired_mean_ratio",
    "paired_ratio_interval",
    "wilson_bounds",
    "not_estimable_note",
    "dkw_half_width",
    "two_stage_trials",
    "MIN_INFORMATIVE",
    "paired_difference_p_value",
    "holm_adjust",
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
        If ``n < 1`` or ``k`` is outside ``[0, n]``.
    """
    k, n = int(k), int(n)
    if n < 1:
        raise ValueError(f"n = {n}, must be >= 1")
    if not 0 <= k <= n:
        raise ValueError(f"k = {k}, must be in [0, n] with n = {n}")
    p = k / n
    # scipy.stats.binomtest(k, n).proportion_ci(method="wilson"), the same operations in the same order
    # (bit-identical, tested): binomtest also computes a p-value, a sum of binomial terms that cost 30
    # times the interval (most of a small target search's time)
    z = special.ndtri(0.5 + 0.5 * confidence)
    denom = 2 * (n + z**2)
    center = (2 * n * p + z**2) / denom
    delta = z / denom * np.sqrt(4 * n * p * (1 - p) + z**2)
    low = 0.0 if k == 0 else float(center - delta)
    high = 1.0 if k == n else float(center + delta)
    return Estimate(n, p, math.sqrt(p * (1.0 - p) / n), low, high)


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
    lo, hi = _t_interval(confidence, n - 1, m, se)
    return Estimate(n, m, se, lo, hi)


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
    alpha = (1 - confidence) / 2
    ppf, isf = _binom_quantiles(alpha, n, q)
    low_index, high_index = int(ppf) - 1, int(isf)
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


# ---------------------------------------------------------------------------
# Paired comparisons from sufficient statistics.
#
# Every formula below takes counts or moments, never per-trial arrays, so the
# same function serves a sweep that keeps per-chunk summaries (2x2 tables of
# paired outcomes, sums and sums of squares) and one that reads whole arrays.
# Naming of the paired 2x2 table (variant first, baseline second):
#   n11 both succeed, n10 variant only, n01 baseline only, n00 neither.
# ---------------------------------------------------------------------------


# The normal and Student-t quantiles and tails, and the binomial quantiles of the order-statistic interval,
# from scipy.special: the functions scipy.stats.norm, scipy.stats.t and scipy.stats.binom call (bit-identical
# results). Importing scipy.stats costs every process that starts gamesim (the command, each report kernel,
# each worker) about half a second.

try:  # private names of scipy.special, loaded with it; None where a scipy has moved them
    from scipy.special._ufuncs import _binom_isf as _BINOM_ISF, _binom_ppf as _BINOM_PPF
except ImportError:  # pragma: no cover - depends on the scipy version
    _BINOM_ISF = _BINOM_PPF = None


def _t_ppf(q: float, df: float) -> float:
    """``scipy.stats.t.ppf(q, df)`` for ``df > 0`` (``nan`` otherwise)."""
    return float(special.stdtrit(df, q)) if df > 0 else math.nan


def _t_interval(confidence: float, df: float, loc: float, scale: float) -> tuple[float, float]:
    """``scipy.stats.t.interval(confidence, df, loc=loc, scale=scale)``: ``nan`` bounds unless
    ``df > 0`` and ``scale > 0`` (as scipy)."""
    if not (df > 0 and scale > 0 and loc == loc):
        return math.nan, math.nan
    q1, q2 = (1.0 - confidence) / 2, (1.0 + confidence) / 2
    return (float(special.stdtrit(df, q1) * scale + loc), float(special.stdtrit(df, q2) * scale + loc))


def _binom_quantiles(p: float, n: int, q: float) -> tuple[float, float]:
    """``scipy.stats.binom(n, q).ppf(p)`` and ``.isf(p)`` for ``0 < p < 1``, by the functions they call
    (Boost's quantiles, loaded with scipy.special); through scipy.stats where a scipy has moved them."""
    if _BINOM_PPF is None or _BINOM_ISF is None:
        from scipy import stats as sps

        bd = sps.binom(n, q)
        return float(bd.ppf(p)), float(bd.isf(p))
    return float(_BINOM_PPF(p, n, q)), float(_BINOM_ISF(p, n, q))


def _z(confidence: float) -> float:
    return float(special.ndtri(0.5 + confidence / 2.0))


def _check_table(n11: int, n10: int, n01: int, n00: int) -> tuple[int, int, int, int]:
    cells = (n11, n10, n01, n00)
    for name, v in zip(("n11", "n10", "n01", "n00"), cells):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
            raise ValueError(f"{name} = {v!r}, must be an integer >= 0")
    if sum(cells) < 1:
        raise ValueError("paired 2x2 table is empty, must hold at least 1 pair")
    return tuple(int(v) for v in cells)  # type: ignore[return-value]


def tango_interval(
    n10: npt.ArrayLike, n01: npt.ArrayLike, n: npt.ArrayLike, *, confidence: float = CONFIDENCE
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Tango's score interval for the difference of two paired proportions, vectorised.

    Parameters
    ----------
    n10, n01 : array_like of int
        Discordant pair counts: variant succeeds and baseline fails (``n10``),
        baseline succeeds and variant fails (``n01``). Broadcast together.
    n : array_like of int
        Number of pairs (``>= n10 + n01``, ``>= 1``).
    confidence : float, default 0.95

    Returns
    -------
    (ndarray, ndarray)
        Lower and upper bounds of ``p_variant - p_baseline``, float64, in
        ``[-1, 1]``.

    Notes
    -----
    Tango, T. (1998), "Equivalence test and confidence interval for the
    difference in proportions for the paired-sample design", Statistics in
    Medicine 17(8). The interval is the set of ``d`` with
    ``|Z(d)| <= z``, ``Z(d) = (n10 - n01 - n d) / sqrt(n (2 q(d) + d (1 - d)))``
    where ``q(d)`` is the maximum-likelihood estimate of
    ``P(baseline only)`` under ``p_variant - p_baseline = d`` (root of
    ``2n q^2 + (-n10 - n01 + (2n - n10 + n01) d) q - n01 d (1 - d) = 0``).
    It never collapses to a point: with no discordant pair the bounds are
    ``+/- z^2 / (n + z^2)``. ``Z`` is decreasing in ``d``; both bounds are
    found by 64 bisection steps on whole arrays.
    """
    b = np.asarray(n10, dtype=np.float64)
    c = np.asarray(n01, dtype=np.float64)
    nn = np.asarray(n, dtype=np.float64)
    b, c, nn = np.broadcast_arrays(b, c, nn)
    z = _z(confidence)

    def score(d: np.ndarray) -> np.ndarray:
        bb = -b - c + (2 * nn - b + c) * d
        cc = -c * d * (1 - d)
        q = (-bb + np.sqrt(np.maximum(bb * bb - 8 * nn * cc, 0.0))) / (4 * nn)
        var = np.maximum(nn * (2 * q + d * (1 - d)), 1e-300)
        return (b - c - nn * d) / np.sqrt(var)

    d_hat = (b - c) / nn

    def solve(lo: np.ndarray, hi: np.ndarray, level: float) -> np.ndarray:
        # Z(lo) >= level >= Z(hi); bisect on the decreasing score
        lo, hi = lo.copy(), hi.copy()
        for _ in range(64):
            mid = 0.5 * (lo + hi)
            above = score(mid) >= level
            lo = np.where(above, mid, lo)
            hi = np.where(above, hi, mid)
        return 0.5 * (lo + hi)

    eps = 1e-12
    low = solve(np.full_like(d_hat, -1.0 + eps), d_hat, z)
    high = solve(d_hat, np.full_like(d_hat, 1.0 - eps), -z)
    return np.clip(low, -1.0, 1.0), np.clip(high, -1.0, 1.0)


def paired_proportion_difference(
    n11: int, n10: int, n01: int, n00: int, *, confidence: float = CONFIDENCE
) -> Estimate:
    """Difference ``p_variant - p_baseline`` of paired proportions from their 2x2 table (Tango's score interval).

    Parameters
    ----------
    n11, n10, n01, n00 : int
        Paired outcome counts (both, variant only, baseline only, neither), each ``>= 0``.
    confidence : float, default 0.95

    Returns
    -------
    Estimate
        ``n`` pairs, ``estimate = (n10 - n01) / n``, ``se`` the plug-in standard
        error ``sqrt((n10 + n01) / n - estimate^2) / sqrt(n)``, and the interval of
        :func:`tango_interval` (non-zero width even at 0/n and n/n).

    Raises
    ------
    ValueError
        A negative, non-integer or boolean count, or an empty table.
    """
    n11, n10, n01, n00 = _check_table(n11, n10, n01, n00)
    n = n11 + n10 + n01 + n00
    d = (n10 - n01) / n
    se = math.sqrt(max((n10 + n01) / n - d * d, 0.0) / n)
    lo, hi = tango_interval(n10, n01, n, confidence=confidence)
    return Estimate(n, d, se, float(min(lo, d)), float(max(hi, d)))


def wilson_bounds(
    k: npt.ArrayLike, n: npt.ArrayLike, *, confidence: float = CONFIDENCE
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Wilson score bounds of ``k / n``, vectorised (the closed form of scipy's ``method="wilson"``).

    Parameters
    ----------
    k, n : array_like of int
        Successes and trials (``0 <= k <= n``, ``n >= 1``), broadcast together.
    confidence : float, default 0.95

    Returns
    -------
    (ndarray, ndarray)
        Lower and upper bounds, float64, clipped to ``[0, 1]``.
    """
    kk = np.asarray(k, dtype=np.float64)
    nn = np.asarray(n, dtype=np.float64)
    z = _z(confidence)
    p = kk / nn
    den = 1 + z * z / nn
    centre = (p + z * z / (2 * nn)) / den
    half = z * np.sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn)) / den
    lo = np.where(kk == 0, 0.0, np.clip(centre - half, 0.0, 1.0))  # exact 0 and 1 at the ends (no rounding residue)
    hi = np.where(kk == nn, 1.0, np.clip(centre + half, 0.0, 1.0))
    return lo, hi


def paired_ratio_interval(
    n11: npt.ArrayLike, n10: npt.ArrayLike, n01: npt.ArrayLike, n00: npt.ArrayLike, *, confidence: float = CONFIDENCE
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Score interval for ``p_variant / p_baseline`` for many paired 2x2 tables at once.

    Parameters
    ----------
    n11, n10, n01, n00 : array_like of int
        Paired outcome counts (both, variant only, baseline only, neither),
        broadcast together; every table holds at least one pair.
    confidence : float, default 0.95

    Returns
    -------
    (ndarray, ndarray)
        Bounds, float64. The lower bound is 0 where the variant never succeeded;
        the upper bound is ``inf`` where the baseline never succeeded (the score
        statistic then never reaches ``-z``).

    Notes
    -----
    Inverts the score test of ``p_variant = t p_baseline`` (Nam, J. & Blackwelder,
    W. C. (2002), Statistics in Medicine 21(5); Tang, N.-S., Tang, M.-L. & Chan,
    I. S. F. (2003), Biometrical Journal 45(8)):
    ``T(t) = (n11 + n10 - t (n11 + n01)) / sqrt(n (1 + t) q + (n11 + n10 + n01)(t - 1))``
    with ``q`` the constrained maximum-likelihood ``P(baseline only)``, root of
    ``n (1 + t) q^2 + ((n11 + n01) t^2 - (n11 + n10 + 2 n01)) q + n01 (1 - t)(n11 + n10 + n01) / n = 0``
    (checked against a numerical constrained maximisation in the tests). ``T``
    decreases in ``t``; the bounds solve ``T = +/- z`` by 80 bisection steps on
    ``log t`` over whole arrays. At ``n/n`` against ``n/n`` the interval is
    ``[1 / (1 + z^2/n), 1 + z^2/n]``: never a point.
    """
    x11, x10, x01, x00 = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in (n11, n10, n01, n00)))
    n = x11 + x10 + x01 + x00
    z = _z(confidence)
    s = x11 + x10 + x01

    def score(t: np.ndarray) -> np.ndarray:
        a = n * (1 + t)
        b = (x11 + x01) * t * t - (x11 + x10 + 2 * x01)
        c = x01 * (1 - t) * s / n
        q = (-b + np.sqrt(np.maximum(b * b - 4 * a * c, 0.0))) / (2 * a)
        den = np.maximum(n * (1 + t) * q + s * (t - 1), 1e-300)
        return (x11 + x10 - t * (x11 + x01)) / np.sqrt(den)

    lo_log, hi_log = math.log(1e-12), math.log(1e12)

    def solve(level: float) -> np.ndarray:
        lo = np.full(n.shape, lo_log)
        hi = np.full(n.shape, hi_log)
        for _ in range(80):
            mid = 0.5 * (lo + hi)
            above = score(np.exp(mid)) >= level
            lo = np.where(above, mid, lo)
            hi = np.where(above, hi, mid)
        return np.exp(0.5 * (lo + hi))

    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        low = solve(z)
        high = solve(-z)
        low = np.where((x11 + x10 == 0) | (score(np.exp(lo_log)) < z), 0.0, low)
        high = np.where((x11 + x01 == 0) | (score(np.exp(hi_log)) > -z), np.inf, high)
    return low, high


def not_estimable_note(n: int, what: str = "baseline 0") -> str:
    """The reason shown in tables for a ratio without a point estimate: ``"not estimable (baseline 0 in n trials)"``."""
    return f"not estimable ({what} in {n} trials)"


def paired_proportion_ratio(
    n11: int, n10: int, n01: int, n00: int, *, confidence: float = CONFIDENCE
) -> tuple[Estimate, str]:
    """Ratio ``p_variant / p_baseline`` of paired proportions from their 2x2 table.

    Parameters
    ----------
    n11, n10, n01, n00 : int
        Paired outcome counts (both, variant only, baseline only, neither), each ``>= 0``.
    confidence : float, default 0.95

    Returns
    -------
    (Estimate, str)
        The ratio with the score interval of :func:`paired_ratio_interval`, and a note: ``""``, or
        ``"not estimable (baseline 0 in n trials)"`` when the baseline never
        succeeded; the estimate is then ``nan``, the interval still honest:
        ``[lower, inf)`` (``lower > 0`` when the variant succeeded often enough).
        Behaviour at the boundary: at ``n/n`` against ``n/n`` the interval is
        ``[1 / (1 + z^2/n), 1 + z^2/n]`` (never a point);
        at ``0`` successes of the variant it is ``[0, upper]``. ``se`` is the
        delta-method standard error of the ratio (``nan`` where not estimable).

    Raises
    ------
    ValueError
        As :func:`paired_proportion_difference`.
    """
    n11, n10, n01, n00 = _check_table(n11, n10, n01, n00)
    n = n11 + n10 + n01 + n00
    lo_a, hi_a = paired_ratio_interval(n11, n10, n01, n00, confidence=confidence)
    lo, hi = float(lo_a), float(hi_a)
    if n11 + n01 == 0:
        return Estimate(n, math.nan, math.nan, lo, hi), not_estimable_note(n)
    r = (n11 + n10) / (n11 + n01)
    # delta method: var(log r) = (n10 + n01) / ((n11 + n10)(n11 + n01)) for paired proportions
    se = r * math.sqrt((n10 + n01) / ((n11 + n10) * (n11 + n01))) if n11 + n10 > 0 else math.nan
    return Estimate(n, r, se, min(lo, r), max(hi, r)), ""


def paired_mean_ratio(
    n: int,
    sum_a: float,
    sum_b: float,
    sumsq_a: float,
    sumsq_b: float,
    sum_ab: float,
    *,
    confidence: float = CONFIDENCE,
) -> tuple[Estimate, str]:
    """Ratio ``mean(a) / mean(b)`` of paired non-negative samples from their moments (Fieller's interval).

    Parameters
    ----------
    n : int
        Pairs, ``>= 2``.
    sum_a, sum_b, sumsq_a, sumsq_b, sum_ab : float
        Sums of ``a``, ``b``, ``a^2``, ``b^2`` and ``a*b`` over the pairs (``a`` the
        variant, ``b`` the baseline; all values ``>= 0``).
    confidence : float, default 0.95

    Returns
    -------
    (Estimate, str)
        Fieller's interval (the set of ``t`` whose paired Student-t test of
        ``mean(a - t b) = 0`` does not reject), using the pairs' covariance, and a
        note. Where the baseline mean is 0 (every baseline value 0), or not
        distinguishable from 0 (Fieller's set is unbounded), the estimate is
        ``nan`` (respectively kept) and the interval ``[lower, inf)``, with the note
        ``"not estimable (baseline 0 in n trials)"`` or ``"not estimable
        (baseline mean not distinguishable from 0 in n trials)"``. An exactly
        proportional pair (``a = c b``) gives the point ``[c, c]``: the data allow
        no other ratio.

    Raises
    ------
    ValueError
        If ``n < 2``.
    """
    n = int(n)
    if n < 2:
        raise ValueError(f"n = {n}, must be >= 2 for a paired ratio")
    ma, mb = sum_a / n, sum_b / n
    vaa = max(sumsq_a - n * ma * ma, 0.0) / (n - 1) / n
    vbb = max(sumsq_b - n * mb * mb, 0.0) / (n - 1) / n
    vab = (sum_ab - n * ma * mb) / (n - 1) / n
    t = _t_ppf(0.5 + confidence / 2.0, n - 1)
    t2 = t * t
    if mb <= 0.0:
        return Estimate(n, math.nan, math.nan, 0.0, math.inf), not_estimable_note(n)
    r = ma / mb
    se = math.sqrt(max(vaa - 2 * r * vab + r * r * vbb, 0.0)) / mb
    g = mb * mb - t2 * vbb
    h = ma * mb - t2 * vab
    k = ma * ma - t2 * vaa
    disc = h * h - g * k
    if g <= 0.0:
        note = not_estimable_note(n, "baseline mean not distinguishable from 0")
        # unbounded Fieller set: keep the finite lower bound where the set is one ray
        low = (h - math.sqrt(disc)) / g if disc > 0 and g < 0 and h < 0 else 0.0
        return Estimate(n, r, se, max(0.0, min(low, r)) if low > 0 else 0.0, math.inf), note
    root = math.sqrt(max(disc, 0.0))
    lo, hi = (h - root) / g, (h + root) / g
    return Estimate(n, r, se, min(lo, r), max(hi, r)), ""


def dkw_half_width(n: int, *, confidence: float = CONFIDENCE) -> float:
    """Half-width of the Dvoretzky-Kiefer-Wolfowitz simultaneous band for a distribution function.

    Parameters
    ----------
    n : int
        Trials, ``>= 1``.
    confidence : float, default 0.95

    Returns
    -------
    float
        ``eps = sqrt(log(2 / alpha) / (2 n))``: with probability at least
        ``confidence`` the whole empirical CDF lies within ``eps`` of the true CDF
        at every value at once (Massart's constant, valid for any distribution,
        discrete ones included, where the band is conservative).
    """
    n = int(n)
    if n < 1:
        raise ValueError(f"n = {n}, must be >= 1")
    return math.sqrt(math.log(2.0 / (1.0 - confidence)) / (2.0 * n))


#: Fewest informative trials (values other than the most common one) a precision
#: plan must reach: the t interval of a mostly-zero count covers 94.3% when the
#: second stage sees about 100 non-zero values and 94.9% at about 200 (Godtear
#: wounds, 3 damage dice against protection 4, 4,000 replications each).
MIN_INFORMATIVE = 200

#: Safety factor on the pilot's variance when planning the second stage.
PLAN_INFLATION = 1.2


def two_stage_trials(
    n_pilot: int,
    sd: float,
    n_informative: int,
    half_width: float,
    *,
    cap: int,
    confidence: float = CONFIDENCE,
    min_informative: int = MIN_INFORMATIVE,
) -> int:
    """Second-stage size of the two-stage precision rule, planned from a pilot only.

    Parameters
    ----------
    n_pilot : int
        Pilot trials (``>= 2``).
    sd : float
        Pilot standard deviation (``sqrt(p (1 - p))`` for a proportion; ``nan``
        when the pilot cannot give one).
    n_informative : int
        Pilot trials whose value differs from the pilot's most common value
        (``min(k, n - k)`` for a proportion).
    half_width : float
        Wanted 95% half-width, in the metric's units (``> 0``).
    cap : int
        Most second-stage trials allowed (``>= 0``).
    confidence : float, default 0.95
    min_informative : int, default MIN_INFORMATIVE

    Returns
    -------
    int
        ``min(cap, max(ceil(1.2 (t sd / half_width)^2), ceil(min_informative * n_pilot / n_informative)))``:
        enough trials for the half-width by the pilot's variance (inflated by
        ``PLAN_INFLATION``), and enough to expect ``min_informative`` informative
        values; ``cap`` when the pilot saw no informative value or no finite ``sd``.

    Raises
    ------
    ValueError
        If ``n_pilot < 2``, ``half_width <= 0`` or ``cap < 0``.

    Notes
    -----
    The second stage's trials are fresh: the estimate and interval are computed
    from them alone, so given the planned size they are an ordinary fixed-size
    sample and the interval has its fixed-``n`` coverage. The pilot decides only
    how many trials to run, never which trials are reported (docs/reliability.md).
    """
    if n_pilot < 2:
        raise ValueError(f"n_pilot = {n_pilot}, must be >= 2")
    if not half_width > 0:
        raise ValueError(f"half_width = {half_width}, must be > 0")
    if cap < 0:
        raise ValueError(f"cap = {cap}, must be >= 0")
    if n_informative <= 0 or not math.isfinite(sd):
        return int(cap)
    t = _t_ppf(0.5 + confidence / 2.0, n_pilot - 1)
    by_var = math.ceil(PLAN_INFLATION * (t * sd / half_width) ** 2)
    by_info = math.ceil(min_informative * n_pilot / n_informative)
    return int(min(cap, max(by_var, by_info)))


def paired_difference_p_value(kind: str, *, n: int, n10: int = 0, n01: int = 0, sum_d: float = 0.0,
                              sumsq_d: float = 0.0) -> float:
    """Two-sided p-value of "no difference" for a paired comparison, from sufficient statistics.

    Parameters
    ----------
    kind : {"proportion", "mean"}
        ``"proportion"``: the score test at difference 0 (Tango's statistic at
        ``d = 0``, i.e. McNemar's ``(n10 - n01) / sqrt(n10 + n01)``; 1 when no pair
        is discordant), so it rejects exactly when Tango's interval excludes 0.
        ``"mean"``: the paired Student-t test on the differences.
    n : int
        Pairs.
    n10, n01 : int
        Discordant counts (proportions).
    sum_d, sumsq_d : float
        Sum and sum of squares of the per-pair differences (means).

    Returns
    -------
    float
        In ``[0, 1]``.

    Raises
    ------
    ValueError
        An unknown kind, or ``n < 2`` for means.
    """
    if kind == "proportion":
        if n10 + n01 == 0:
            return 1.0
        z = (n10 - n01) / math.sqrt(n10 + n01)
        return float(2 * special.ndtr(-abs(z)))
    if kind != "mean":
        raise ValueError(f"kind = {kind!r}, must be 'proportion' or 'mean'")
    if n < 2:
        raise ValueError(f"n = {n}, must be >= 2")
    m = sum_d / n
    var = max(sumsq_d - n * m * m, 0.0) / (n - 1)
    if var == 0.0:
        return 1.0 if m == 0 else 0.0
    t = m / math.sqrt(var / n)
    return float(2 * special.stdtr(n - 1, -abs(t))) if n > 1 else math.nan


def holm_adjust(p_values: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Holm's step-down adjusted p-values (family-wise error rate control).

    Parameters
    ----------
    p_values : array_like of float, shape (m,)
        Raw p-values of one family, each in ``[0, 1]``.

    Returns
    -------
    ndarray of float64, shape (m,)
        Adjusted p-values in the input order: ``p_(i) -> max_{k <= i} min(1, (m - k + 1) p_(k))``
        over the sorted order. Rejecting where the adjusted value is below ``alpha``
        keeps the chance of any false "different" at most ``alpha``
        (Holm, S. (1979), Scandinavian Journal of Statistics 6(2)).
    """
    p = np.asarray(p_values, dtype=np.float64).ravel()
    m = p.size
    if m == 0:
        return p
    order = np.argsort(p, kind="stable")
    adj = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    out = np.empty(m)
    out[order] = adj
    return out
