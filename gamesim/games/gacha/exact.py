"""Exact solvers for ガッチャ ~God Chance~ by dynamic programming over bag states.

The bag between sessions is a finite Markov chain whose transitions are listed by
:func:`gamesim.games.gacha.rules.session_outcomes`. For the God Chance count only
God Chance chips matter, so SR and N chips are merged into one "other" kind (an
exact reduction: draws and removals are uniform over chips) and a state is keyed
by ``(God Chance chips in bag, other chips in bag, God Chance chips drawn since
the last bag creation)``; which chips are hidden in 疑惑の運営モード does not
affect the future beyond ``gc_drawn``.

Overdrive is **not** covered: every function here models the rules with
``overdrive_pulls = None`` (no navi character / エキスパートモード). Use the
simulator for Overdrive.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from .rules import (
    BagConfig,
    BagState,
    DoubtfulConfig,
    bag_creation_outcomes,
    coupon_collector_probability,
    owned_transition_matrix,
    session_outcomes,
)

__all__ = [
    "exact_god_chance_pmf",
    "exact_completion_probability",
    "exact_completion_curve",
    "exact_pulls_to_complete",
    "exact_expected_characters_owned",
]

_Key = tuple[int, int, int]


def _merged(bag: BagConfig) -> BagConfig:
    return BagConfig(bag.n_god_chance, 0, bag.n_sr + bag.n_n)


def _key(st: BagState) -> _Key:
    return (st.in_bag[0], st.in_bag[1] + st.in_bag[2], st.gc_drawn)


@lru_cache(maxsize=64)
def _chain(
    sizes: tuple[int, ...], bag: BagConfig, doubtful: DoubtfulConfig | None
) -> tuple[npt.NDArray[np.float64], dict[int, npt.NDArray[np.float64]]]:
    """Initial distribution over bag states and per-session-size transition tensors.

    Returns ``init`` of shape (S,) and, for every size m, ``T[m]`` of shape
    (g_max + 1, S, S) with ``T[m][g, i, j]`` = P(g God Chances and state j | state i).
    """
    mb = _merged(bag)
    index: dict[_Key, int] = {}
    reps: list[BagState] = []

    def idx(st: BagState) -> int:
        k = _key(st)
        if k not in index:
            index[k] = len(reps)
            reps.append(st)
        return index[k]

    init_pairs = [(idx(st), p) for st, p in bag_creation_outcomes(mb, doubtful)]
    edges: dict[int, list[tuple[int, int, int, float]]] = {m: [] for m in sizes}
    done = 0
    while done < len(reps):
        st = reps[done]
        i = done
        done += 1
        for m in sizes:
            for out in session_outcomes(st, m, mb, doubtful):
                edges[m].append((out.drawn[0], i, idx(out.state), out.probability))
    n_states = len(reps)
    init = np.zeros(n_states)
    for i, p in init_pairs:
        init[i] += p
    mats: dict[int, npt.NDArray[np.float64]] = {}
    for m in sizes:
        gmax = max((e[0] for e in edges[m]), default=0)
        t = np.zeros((gmax + 1, n_states, n_states))
        for g, i, j, p in edges[m]:
            t[g, i, j] += p
        mats[m] = t
    return init, mats


def _prepare(
    sessions: Sequence[int], counted: Sequence[bool] | None, bag: BagConfig, doubtful: DoubtfulConfig | None
) -> tuple[list[int], list[bool], npt.NDArray[np.float64], dict[int, npt.NDArray[np.float64]]]:
    ses = [int(m) for m in sessions]
    if any(m < 0 for m in ses):
        raise ValueError(f"sessions = {sessions!r}: session sizes must be >= 0")
    cnt = [True] * len(ses) if counted is None else [bool(c) for c in counted]
    if len(cnt) != len(ses):
        raise ValueError(f"counted has {len(cnt)} entries, sessions has {len(ses)}")
    init, mats = _chain(tuple(sorted(set(ses))), bag, doubtful)
    return ses, cnt, init, mats


def exact_god_chance_pmf(
    sessions: Sequence[int],
    *,
    bag: BagConfig = BagConfig(),
    doubtful: DoubtfulConfig | None = None,
    counted: Sequence[bool] | None = None,
) -> npt.NDArray[np.float64]:
    """Exact distribution of the number of God Chances over a schedule of sessions.

    Parameters
    ----------
    sessions : sequence of int
        Session sizes (pulls), in order, pulled from a freshly made bag.
    bag : BagConfig, default BagConfig()
        Full-bag contents (chips).
    doubtful : DoubtfulConfig or None, default None
        疑惑の運営モード removals; ``None`` = normal rules.
    counted : sequence of bool or None, default None
        Which sessions' God Chances are counted (e.g. one player's sessions of a
        shared schedule); ``None`` = all.

    Returns
    -------
    ndarray of float64, shape (G_max + 1,)
        ``pmf[G]`` = P(G God Chances); sums to 1. Trailing impossible counts
        are trimmed, so ``pmf[-1] > 0``.

    Raises
    ------
    ValueError
        If a session size is negative or ``counted`` has the wrong length.

    Notes
    -----
    Dynamic programming over bag states (rules core: ガチャ袋作成, ガチャを引く,
    疑惑の運営モード). Overdrive is not modelled.
    """
    ses, cnt, init, mats = _prepare(sessions, counted, bag, doubtful)
    width = 1 + sum(mats[m].shape[0] - 1 for m, c in zip(ses, cnt) if c)
    v = np.zeros((init.size, width))
    v[:, 0] = init
    for m, c in zip(ses, cnt):
        t = mats[m]
        if not c:
            v = t.sum(axis=0).T @ v
            continue
        new = np.zeros_like(v)
        for g in range(t.shape[0]):
            new[:, g:] += t[g].T @ v[:, : width - g]
        v = new
    pmf = v.sum(axis=0)
    nz = np.flatnonzero(pmf)
    return pmf[: (nz[-1] + 1) if nz.size else 1]


def exact_completion_curve(
    sessions: Sequence[int],
    *,
    bag: BagConfig = BagConfig(),
    n_characters: int = 5,
    doubtful: DoubtfulConfig | None = None,
    counted: Sequence[bool] | None = None,
) -> npt.NDArray[np.float64]:
    """P(コンスリート after session j) for every session j, in one DP pass.

    Parameters
    ----------
    sessions, bag, doubtful, counted
        As in :func:`exact_god_chance_pmf`.
    n_characters : int, default 5
        Characters (God Chance cards).

    Returns
    -------
    ndarray of float64, shape (len(sessions),)
        Non-decreasing; entry j is P(all characters owned after session j).

    Raises
    ------
    ValueError
        As :func:`exact_god_chance_pmf`, or ``n_characters < 1``.

    Notes
    -----
    The DP state is (bag state, characters owned); each God Chance moves the owned
    count by the coupon-collector step (God Chance: uniform card, gained if not
    owned). Overdrive is not modelled.
    """
    if n_characters < 1:
        raise ValueError(f"n_characters = {n_characters!r}, must be >= 1")
    ses, cnt, init, mats = _prepare(sessions, counted, bag, doubtful)
    step = owned_transition_matrix(n_characters)
    gmax = max((t.shape[0] for t in mats.values()), default=1)
    powers = [np.eye(n_characters + 1)]
    for _ in range(gmax):
        powers.append(powers[-1] @ step)
    v = np.zeros((init.size, n_characters + 1))
    v[:, 0] = init
    curve = np.empty(len(ses))
    for j, (m, c) in enumerate(zip(ses, cnt)):
        t = mats[m]
        if not c:
            v = t.sum(axis=0).T @ v
        else:
            v = sum(t[g].T @ v @ powers[g] for g in range(t.shape[0]))
        curve[j] = v[:, -1].sum()
    return curve


def exact_completion_probability(
    sessions: Sequence[int],
    *,
    bag: BagConfig = BagConfig(),
    n_characters: int = 5,
    doubtful: DoubtfulConfig | None = None,
    counted: Sequence[bool] | None = None,
) -> float:
    """Exact P(コンスリート) after a schedule: the God Chance PMF and coupon collector.

    Parameters
    ----------
    sessions, bag, doubtful, counted
        As in :func:`exact_god_chance_pmf`.
    n_characters : int, default 5

    Returns
    -------
    float
        ``sum_G pmf[G] * P(complete | G)``.

    Raises
    ------
    ValueError
        As :func:`exact_god_chance_pmf`.

    Notes
    -----
    Overdrive is not modelled.
    """
    pmf = exact_god_chance_pmf(sessions, bag=bag, doubtful=doubtful, counted=counted)
    return float(pmf @ coupon_collector_probability(np.arange(pmf.size), n_characters))


def exact_expected_characters_owned(
    sessions: Sequence[int],
    *,
    bag: BagConfig = BagConfig(),
    n_characters: int = 5,
    doubtful: DoubtfulConfig | None = None,
    counted: Sequence[bool] | None = None,
) -> float:
    """Exact expected characters owned, ``n (1 - E[(1 - 1/n)^G])``.

    Parameters
    ----------
    sessions, bag, doubtful, counted
        As in :func:`exact_god_chance_pmf`.
    n_characters : int, default 5

    Returns
    -------
    float
        Expected UR characters owned (characters).

    Notes
    -----
    Each character is missed by one God Chance with probability ``1 - 1/n``.
    Overdrive is not modelled.
    """
    pmf = exact_god_chance_pmf(sessions, bag=bag, doubtful=doubtful, counted=counted)
    n = n_characters
    return float(n * (1.0 - pmf @ (1.0 - 1.0 / n) ** np.arange(pmf.size)))


def exact_pulls_to_complete(
    session_size: int,
    *,
    bag: BagConfig = BagConfig(),
    n_characters: int = 5,
    doubtful: DoubtfulConfig | None = None,
    quantiles: Sequence[float] = (0.5, 0.9),
    tol: float = 1e-12,
    max_pulls: int | None = None,
    max_sessions: int = 1_000_000,
) -> dict[str, float]:
    """Exact quantiles and mean of the pulls paid until コンスリート.

    Parameters
    ----------
    session_size : int
        Pulls per session (>= 1); sessions repeat until complete.
    bag, n_characters, doubtful
        As in :func:`exact_completion_curve`.
    quantiles : sequence of float, default (0.5, 0.9)
        Probabilities in (0, 1).
    tol : float, default 1e-12
        The DP stops once P(not complete) < ``tol`` (truncation error of the mean
        is about ``tol`` times the tail's mean length).
    max_pulls : int or None, default None
        If given, also return ``"completed"``: P(complete within ``max_pulls``
        pulls, at session granularity).
    max_sessions : int, default 1_000_000
        Safety cap on the DP length.

    Returns
    -------
    dict of str to float
        ``"q50"``, ``"q90"`` (one key ``f"q{round(100 q)}"`` per quantile: the smallest
        ``j * session_size`` with P(complete after j sessions) >= q, in pulls),
        ``"mean"`` (pulls) and, with ``max_pulls``, ``"completed"``. Values are
        ``inf``/``nan`` when completion is impossible (no God Chance chip).

    Raises
    ------
    ValueError
        If ``session_size < 1`` or a quantile is outside (0, 1).

    Notes
    -----
    Pulls are counted at session granularity (a player pays for whole sessions).
    Overdrive is not modelled.
    """
    if session_size < 1:
        raise ValueError(f"session_size = {session_size!r}, must be >= 1")
    qs = [float(q) for q in quantiles]
    if any(not 0 < q < 1 for q in qs):
        raise ValueError(f"quantiles = {quantiles!r}, each must be in (0, 1)")
    out: dict[str, float] = {}
    if bag.n_god_chance == 0:
        for q in qs:
            out[f"q{round(100 * q)}"] = float("inf")
        out["mean"] = float("inf")
        if max_pulls is not None:
            out["completed"] = 0.0
        return out
    init, mats = _chain((int(session_size),), bag, doubtful)
    t = mats[int(session_size)]
    step = owned_transition_matrix(n_characters)
    powers = [np.eye(n_characters + 1)]
    for _ in range(t.shape[0]):
        powers.append(powers[-1] @ step)
    # combined transition on (state, owned) flattened: kron form per g
    n_s, n_c = init.size, n_characters + 1
    big = sum(np.kron(t[g], powers[g]) for g in range(t.shape[0]))
    v = np.zeros(n_s * n_c)
    v[::n_c] = init
    complete_idx = np.arange(n_s) * n_c + n_characters
    curve = []
    p = 0.0
    while (1.0 - p) >= tol and len(curve) < max_sessions:
        v = v @ big
        p = float(v[complete_idx].sum())
        curve.append(p)
    c = np.asarray(curve)
    for q in qs:
        j = int(np.searchsorted(c, q - 1e-12, side="left"))
        out[f"q{round(100 * q)}"] = float((j + 1) * session_size) if j < c.size else float("inf")
    out["mean"] = float(session_size * (1.0 + np.sum(1.0 - c[:-1]))) if c.size else float("nan")
    if max_pulls is not None:
        k = int(max_pulls) // int(session_size)
        out["completed"] = float(c[k - 1]) if 1 <= k <= c.size else (0.0 if k < 1 else 1.0)
    return out
