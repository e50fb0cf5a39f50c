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

from gamesim.core.registry import ParamError
from gamesim.core.validate import Bool, Float, FloatList, Int, Optional, Unchecked, check_bool, validate_params

from .rules import (
    BAG,
    DOUBTFUL,
    MAX_SESSION_PULLS,
    MAX_SESSIONS,
    N_CHARACTERS,
    SCHEDULE,
    SESSION_SIZE,
    SESSIONS,
    BagConfig,
    BagState,
    DoubtfulConfig,
    _check_fits,
    _check_schedule,
    _creation,
    _owned_transition_matrix,
    _session_outcomes,
)

__all__ = [
    "exact_god_chance_pmf",
    "exact_completion_probability",
    "exact_completion_curve",
    "exact_pulls_to_complete",
    "exact_expected_characters_owned",
    "exact_expected_god_chances",
    "exact_shared",
    "MAX_EXACT_STATES",
    "MAX_EXACT_WORK",
]

#: Most bag states the exact solvers explore (the default bag has about 100).
MAX_EXACT_STATES: int = 3000
#: Most floating-point operations (estimated up front) one exact call may take.
MAX_EXACT_WORK: float = 3e9

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

    init_pairs = [(idx(st), p) for st, p in _creation(mb, doubtful)]
    edges: dict[int, list[tuple[int, int, int, float]]] = {m: [] for m in sizes}
    done = 0
    while done < len(reps):
        st = reps[done]
        i = done
        done += 1
        if len(reps) > MAX_EXACT_STATES:
            raise ParamError("bag", bag, f"a bag with at most {MAX_EXACT_STATES} reachable states for the exact "
                             "solver (use the simulator for bigger bags)")
        for m in sizes:
            for out in _session_outcomes(st, m, mb, doubtful):
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


def _check_exact_sizes(ses: list[int], bag: BagConfig, doubtful: DoubtfulConfig | None) -> None:
    """Refuse session sizes whose exact session outcomes would take too long."""
    if doubtful is not None and ses:
        cap = min(MAX_SESSION_PULLS, 10 * (bag.total - doubtful.k_max))
        if max(ses) > cap:
            raise ParamError("sessions", ses, f"session sizes <= {cap} in 疑惑の運営モード for the exact solver "
                             "(10 bags; use the simulator for longer sessions)")


def _prepare(
    sessions: Sequence[int], counted: Sequence[bool] | None, bag: BagConfig, doubtful: DoubtfulConfig | None,
    n_characters: int = 5,
) -> tuple[list[int], list[bool], npt.NDArray[np.float64], dict[int, npt.NDArray[np.float64]]]:
    """The relations of checked arguments (doubtful and bag, counted and sessions, sizes), and the chain."""
    _check_fits(doubtful, bag)
    ses = sessions
    if counted is None:
        cnt = [True] * len(ses)
    else:
        if isinstance(counted, (str, bytes)) or not isinstance(counted, (Sequence, np.ndarray)):
            raise ParamError("counted", counted, "a sequence of bools, one per session")
        cnt = [check_bool(f"counted[{i}]", c) for i, c in enumerate(counted)]
        if len(cnt) != len(ses):
            raise ParamError("counted", counted, f"{len(ses)} bools, one per session")
    _check_exact_sizes(ses, bag, doubtful)
    init, mats = _chain(tuple(sorted(set(ses))), bag, doubtful)
    return ses, cnt, init, mats


def _owned_distribution(
    ses: list[int], cnt: list[bool], init: npt.NDArray[np.float64], mats: dict[int, npt.NDArray[np.float64]],
    n_characters: int,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Joint law of (bag state, characters owned) after each session; returns (final, curve)."""
    n_s = init.size
    work = sum((mats[m].shape[0]) * (n_s * n_s * (n_characters + 1) + n_s * (n_characters + 1) ** 2)
               for m in ses)
    if work > MAX_EXACT_WORK:
        raise ParamError("sessions", f"{len(ses)} sessions", f"a schedule the exact solver covers in seconds "
                         f"(estimated {work:.2g} operations > {MAX_EXACT_WORK:.2g}; use the simulator)")
    step = _owned_transition_matrix(n_characters)
    gmax = max((t.shape[0] for t in mats.values()), default=1)
    powers = [np.eye(n_characters + 1)]
    for _ in range(gmax):
        powers.append(powers[-1] @ step)
    v = np.zeros((n_s, n_characters + 1))
    v[:, 0] = init
    curve = np.empty(len(ses))
    for j, (m, c) in enumerate(zip(ses, cnt)):
        t = mats[m]
        if not c:
            v = t.sum(axis=0).T @ v
        else:
            v = sum(t[g].T @ v @ powers[g] for g in range(t.shape[0]))
        curve[j] = v[:, -1].sum()
    return v, curve


#: Which sessions' God Chances count (one bool per session: a relation, checked in the body).
COUNTED = Unchecked("None or one bool per session: checked in the body (its length is len(sessions))")


@validate_params(bag=BAG, doubtful=DOUBTFUL, sessions=SESSIONS, counted=COUNTED)
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
    ParamTypeError
        (a ``TypeError``) If ``sessions`` is not a sequence of integers (floats such as
        ``2.5`` or ``3.0`` and bools are refused), ``counted`` not a sequence of bools,
        ``bag`` not a BagConfig or ``doubtful`` not a DoubtfulConfig/None.
    ParamError
        (a ``ValueError``) If a session size is outside 0..:data:`MAX_SESSION_PULLS`
        (in 疑惑の運営モード: 10 bags), there are more than :data:`MAX_SESSIONS`
        sessions, ``counted`` has the wrong length, a doubtful k is >= the bag total, the
        bag has more than :data:`MAX_EXACT_STATES` states, or the estimated work exceeds
        :data:`MAX_EXACT_WORK` (the PMF's width grows with the schedule: use
        :func:`exact_expected_god_chances` or the simulator).

    Notes
    -----
    Dynamic programming over bag states (rules core: ガチャ袋作成, ガチャを引く,
    疑惑の運営モード). Overdrive is not modelled.
    """
    ses, cnt, init, mats = _prepare(sessions, counted, bag, doubtful)
    width = 1 + sum(mats[m].shape[0] - 1 for m, c in zip(ses, cnt) if c)
    n_s = init.size
    work = sum(mats[m].shape[0] * n_s * n_s * width for m in ses)
    if work > MAX_EXACT_WORK:
        raise ParamError("sessions", f"{len(ses)} sessions", f"a schedule the exact PMF covers in seconds "
                         f"(estimated {work:.2g} operations > {MAX_EXACT_WORK:.2g}; use "
                         "exact_expected_god_chances or the simulator)")
    v = np.zeros((n_s, width))
    v[:, 0] = init
    cur = 1  # columns that can be non-zero so far
    for m, c in zip(ses, cnt):
        t = mats[m]
        if not c:
            v[:, :cur] = t.sum(axis=0).T @ v[:, :cur]
            continue
        new = np.zeros_like(v)
        nxt = min(width, cur + t.shape[0] - 1)
        for g in range(t.shape[0]):
            new[:, g:g + cur] += t[g].T @ v[:, :cur]
        v, cur = new, nxt
    pmf = v.sum(axis=0)
    nz = np.flatnonzero(pmf)
    return pmf[: (nz[-1] + 1) if nz.size else 1]


@validate_params(n_characters=N_CHARACTERS, bag=BAG, doubtful=DOUBTFUL, sessions=SESSIONS, counted=COUNTED)
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
    ParamTypeError, ParamError
        As :func:`exact_god_chance_pmf`, or ``n_characters`` not an integer in
        1..:data:`~gamesim.games.gacha.rules.MAX_CHARACTERS`.

    Notes
    -----
    The DP state is (bag state, characters owned); each God Chance moves the owned
    count by the coupon-collector step (God Chance: uniform card, gained if not
    owned). Overdrive is not modelled.
    """
    ses, cnt, init, mats = _prepare(sessions, counted, bag, doubtful, n_characters)
    return _owned_distribution(ses, cnt, init, mats, n_characters)[1]


@validate_params(n_characters=N_CHARACTERS, bag=BAG, doubtful=DOUBTFUL, sessions=SESSIONS, counted=COUNTED)
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
    ParamTypeError, ParamError
        As :func:`exact_completion_curve`.

    Notes
    -----
    Computed by the (bag state, characters owned) DP of :func:`exact_completion_curve`
    (equal to the PMF combined with the coupon-collector formula, without the PMF's
    width). Overdrive is not modelled.
    """
    ses, cnt, init, mats = _prepare(sessions, counted, bag, doubtful, n_characters)
    v, _ = _owned_distribution(ses, cnt, init, mats, n_characters)
    return float(v[:, -1].sum())


@validate_params(n_characters=N_CHARACTERS, bag=BAG, doubtful=DOUBTFUL, sessions=SESSIONS, counted=COUNTED)
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

    Raises
    ------
    ParamTypeError, ParamError
        As :func:`exact_completion_curve`.

    Notes
    -----
    ``sum_c c P(c owned)`` from the (bag state, characters owned) DP; equal to
    ``n (1 - E[(1 - 1/n)^G])`` (each character is missed by one God Chance with
    probability ``1 - 1/n``). Overdrive is not modelled.
    """
    ses, cnt, init, mats = _prepare(sessions, counted, bag, doubtful, n_characters)
    v, _ = _owned_distribution(ses, cnt, init, mats, n_characters)
    return float(v.sum(axis=0) @ np.arange(n_characters + 1))


@validate_params(bag=BAG, doubtful=DOUBTFUL, sessions=SESSIONS, counted=COUNTED)
def exact_expected_god_chances(
    sessions: Sequence[int],
    *,
    bag: BagConfig = BagConfig(),
    doubtful: DoubtfulConfig | None = None,
    counted: Sequence[bool] | None = None,
) -> float:
    """Exact expected number of God Chances over a schedule (no PMF needed).

    Parameters
    ----------
    sessions, bag, doubtful, counted
        As in :func:`exact_god_chance_pmf`.

    Returns
    -------
    float
        ``E[G]`` (God Chances).

    Raises
    ------
    ParamTypeError, ParamError
        As :func:`exact_god_chance_pmf` (without the PMF's work limit).

    Notes
    -----
    Linearity: the sum over sessions of the expected God Chance chips drawn, with the
    bag state's law carried forward. Overdrive is not modelled.
    """
    ses, cnt, init, mats = _prepare(sessions, counted, bag, doubtful)
    v = init.copy()
    total = 0.0
    for m, c in zip(ses, cnt):
        t = mats[m]
        if c:
            total += float(v @ np.tensordot(np.arange(t.shape[0]), t, axes=1).sum(axis=1))
        v = v @ t.sum(axis=0)
    return total


@validate_params(session_size=SESSION_SIZE, bag=BAG, n_characters=N_CHARACTERS, doubtful=DOUBTFUL,
                 quantiles=FloatList(0.0, 1.0, max_len=100), tol=Float(1e-15, 0.5),
                 max_pulls=Optional(Int(0, MAX_SESSION_PULLS * MAX_SESSIONS)), max_sessions=Int(1, 10_000_000))
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
    ParamTypeError
        If an argument has the wrong type (``session_size`` or ``max_pulls`` a float
        or bool, ``quantiles`` not numbers ...).
    ParamError
        If ``session_size`` is outside 1..:data:`MAX_SESSION_PULLS`, a quantile is
        outside (0, 1), ``tol`` outside [1e-15, 0.5], ``max_pulls`` outside
        0..:data:`MAX_SESSION_PULLS` * :data:`MAX_SESSIONS`, ``max_sessions`` outside
        1..10_000_000, or the joint (bag state, owned) chain is too big (more than
        :data:`MAX_EXACT_STATES` entries).

    Notes
    -----
    Pulls are counted at session granularity (a player pays for whole sessions).
    Overdrive is not modelled.
    """
    _check_fits(doubtful, bag)
    qs = quantiles
    if any(not 0 < q < 1 for q in qs):  # open bounds: not declarable
        raise ParamError("quantiles", quantiles, "numbers in (0, 1)")
    _check_exact_sizes([session_size], bag, doubtful)
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
    step = _owned_transition_matrix(n_characters)
    powers = [np.eye(n_characters + 1)]
    for _ in range(t.shape[0]):
        powers.append(powers[-1] @ step)
    # combined transition on (state, owned) flattened: kron form per g
    n_s, n_c = init.size, n_characters + 1
    if n_s * n_c > MAX_EXACT_STATES:
        raise ParamError("n_characters", n_characters, f"a (bag state, characters owned) chain of at most "
                         f"{MAX_EXACT_STATES} entries ({n_s} bag states x {n_c}); use the simulator")
    from scipy import sparse

    big_t = sum(sparse.kron(sparse.csr_matrix(t[g]), sparse.csr_matrix(powers[g])) for g in range(t.shape[0]))
    big_t = sparse.csr_matrix(big_t).T.tocsr()  # v_next = big_t @ v
    v = np.zeros(n_s * n_c)
    v[::n_c] = init
    complete_idx = np.arange(n_s) * n_c + n_characters
    budget = max(1, int(MAX_EXACT_WORK // max(1, big_t.nnz)))
    curve = []
    p = 0.0
    while (1.0 - p) >= tol and len(curve) < max_sessions:
        if len(curve) >= budget:
            raise ParamError("tol", tol, f"a tolerance reached within the exact solver's budget ({budget} sessions "
                             f"here, P(not complete) still {1 - p:.2g}); raise tol or use the simulator")
        v = big_t @ v
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


@validate_params(schedule=SCHEDULE, n_players=Optional(Int(1, 4)), stop_at_completion=Bool(),
                 n_characters=N_CHARACTERS, bag=BAG, doubtful=DOUBTFUL)
def exact_shared(
    schedule: Sequence[tuple[int, int]],
    *,
    n_players: int | None = None,
    bag: BagConfig = BagConfig(),
    n_characters: int = 5,
    doubtful: DoubtfulConfig | None = None,
    stop_at_completion: bool = True,
) -> dict[str, float]:
    """Exact outcome of players sharing one bag: who completes (first), God Chances.

    Parameters
    ----------
    schedule : sequence of (int, int)
        ``(player, pulls)`` sessions in order, players numbered from 1.
    n_players : int or None, default None
        Players (1..4 here: the joint law of every player's collection is carried);
        ``None`` = the largest player number in ``schedule``.
    bag, n_characters, doubtful
        As in :func:`exact_completion_curve`.
    stop_at_completion : bool, default True
        The game ends at the first コンスリート (rulebook); False = everyone pulls the
        whole schedule.

    Returns
    -------
    dict of str to float
        ``"complete_p{i}"``: P(player i completes; with the stop: completes first, i.e.
        wins), ``"god_chances_p{i}"``: expected God Chances of player i until the game
        ends, and ``"nobody_completes"``: P(no player completes).

    Raises
    ------
    ParamTypeError, ParamError
        If an argument has the wrong type or is out of range (as
        :func:`~gamesim.games.gacha.sim.simulate_shared`, with at most 4 players), or
        the estimated work exceeds :data:`MAX_EXACT_WORK`.

    Notes
    -----
    Dynamic programming over (bag state, characters owned by each player); with the
    stop, the mass in which the pulling player has just completed is removed (the game
    is over) and counted as that player's win. Only one player pulls per session, so
    two players never complete at once. Overdrive is not modelled. Rulebook
    ゲームの終了条件: 「いずれかのラウンド中にURキャラカードを全て集めたスレイヤーは直ちに
    ゲームに勝利します」.
    """
    sched, n_players = _check_schedule(schedule, n_players)
    if n_players > 4:  # None: the largest player of the schedule
        raise ParamError("n_players", n_players, "an integer in 1..4 for the exact solver")
    stop = stop_at_completion
    ses = [m for _, m in sched]
    ses, _, init, mats = _prepare(ses, None, bag, doubtful, n_characters)
    n_s, n_c = init.size, n_characters + 1
    joint = n_c ** n_players
    work = sum(mats[m].shape[0] * (n_s * n_s * joint + n_s * joint * n_c) for m in ses)
    if work > MAX_EXACT_WORK:
        raise ParamError("schedule", f"{len(ses)} sessions", f"a schedule the exact solver covers in seconds "
                         f"(estimated {work:.2g} operations > {MAX_EXACT_WORK:.2g}; use the simulator)")
    step = _owned_transition_matrix(n_characters)
    gmax = max((t.shape[0] for t in mats.values()), default=1)
    powers = [np.eye(n_c)]
    for _ in range(gmax):
        powers.append(powers[-1] @ step)
    v = np.zeros((n_s,) + (n_c,) * n_players)
    v[(slice(None),) + (0,) * n_players] = init
    wins = np.zeros(n_players)
    gcs = np.zeros(n_players)
    for p, m in sched:
        i = p - 1
        t = mats[m]
        r = np.tensordot(np.arange(t.shape[0]), t, axes=1).sum(axis=1)  # expected GC per state
        gcs[i] += float(r @ v.reshape(n_s, -1).sum(axis=1))
        flat = v.reshape(n_s, -1)
        new = np.zeros_like(v)
        for g in range(t.shape[0]):
            moved = (t[g].T @ flat).reshape(v.shape)
            new += np.moveaxis(np.tensordot(moved, powers[g], axes=([i + 1], [0])), -1, i + 1)
        v = new
        if stop:
            idx = (slice(None),) * (i + 1) + (n_characters,)
            wins[i] += float(v[idx].sum())
            v[idx] = 0.0
    out: dict[str, float] = {}
    for i in range(n_players):
        if stop:
            out[f"complete_p{i + 1}"] = float(wins[i])
        else:
            idx = (slice(None),) * (i + 1) + (n_characters,)
            out[f"complete_p{i + 1}"] = float(v[idx].sum())
        out[f"god_chances_p{i + 1}"] = float(gcs[i])
    if stop:
        out["nobody_completes"] = float(v.sum())
    else:
        out["nobody_completes"] = float(v[(slice(None),) + (slice(0, n_characters),) * n_players].sum())
    return out
