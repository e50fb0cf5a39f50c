"""Vectorized batch simulator of the ガッチャ ~God Chance~ gacha bag.

Axis 0 is the trial. All trials advance one pull session at a time, in
lockstep, with numpy arrays of bag counts; the only Python loops are over
sessions (and over Overdrive chains and mid-session bag refills, which run on
the subset of trials they concern). Trials are processed in chunks of at most
:data:`CHUNK_SIZE` so memory is bounded for any ``n_trials``.

Sampling (the reading of the rules is that of :mod:`gamesim.games.gacha.rules`):

* God Chance chips drawn in a session segment of ``t`` pulls from a bag with
  ``gc`` God Chance and ``ot`` other chips: ``Generator.hypergeometric(gc, ot, t)``;
  when no bag holds more than one God Chance chip this is a Bernoulli
  ``u * (gc + ot) < t * gc`` drawn from one uniform per trial (identical law, cheaper).
* SR chips are not drawn session by session: SR and N chips differ only in the
  ``sr_drawn`` tally, and the non-God-Chance chips drawn from one bag (between two
  bag creations) are a uniformly random subset of that bag's SR+N chips (removals
  in 疑惑の運営モード are uniform and unseen too), so the SR count of a bag is drawn
  once, ``hypergeometric(n_sr, n_n, others_drawn)``, when the bag is remade or the
  schedule ends. Totals per trial have exactly the rules' distribution.
* 疑惑の運営モード removals at each bag creation: ``k`` from ``DoubtfulConfig``, the
  God Chance chips among them hypergeometric.
* God Chance cards: ``Generator.integers(n_characters)``; the navi character is
  card 0 (by symmetry which character is the navi does not matter). In the
  one-draw-per-bag kernel (:func:`run_schedule` without Overdrive) the characters
  owned are drawn by inverse CDF from their own stream (``rng.spawn(1)[0]``, made
  before any other draw): one uniform per trial, whatever the bag loop used, so two
  bags one chip apart give trial ``i`` the same card uniform (common random numbers).

Overdrive sessions are processed breadth-first after the session that triggered
them (all Overdrive sessions have the same size and cards are iid, so this equals
the rulebook's depth-first order 「ただちに」 in distribution; the scalar reference
uses depth-first order and the tests compare the two).

Single-player schedules without Overdrive (:func:`run_schedule`) use a faster kernel
with the same distribution: one chance outcome per bag cycle instead of one draw per
session (see the comment block above ``_alias_table``).

Entry point shared by every game: :func:`simulate` ``(params, n_games, *, rng=None)`` takes a
:class:`~gamesim.games.gacha.rules.GachaParams` (bag, characters, 疑惑の運営モード and Overdrive,
checked once when built) and returns :func:`run_schedule`'s arrays. The other functions keep
their separate ``bag, n_characters, doubtful, overdrive_pulls`` arguments
(``**params.kwargs()`` fills them from a GachaParams).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from gamesim.core.batching import chunk_spans
from gamesim.core.lazy import lazy_module
from gamesim.core.rng import RngLike

from gamesim.core.validate import Bool, Instance, Int, Optional, Rng, validate_params

from .kernels import (
    _I64,
    CHUNK_SIZE,
    _Cfg,
    _chunks,
    _flush_sr,
    _fresh_bag,
    _play_session,
)
from .rules import (
    CONFIG,
    MAX_PLAYERS,
    MAX_PTC_SESSIONS,
    MAX_PULLS,
    MAX_TRIALS,
    N_TRIALS,
    SCHEDULE,
    SESSION_SIZE,
    SESSIONS,
    BagConfig,
    DoubtfulConfig,
    GachaParams,
    _check_config,
    _check_max_pulls,
    _check_schedule,
    _owned_transition_matrix,
)


if TYPE_CHECKING:
    import pandas as pd
else:  # imported on first use: sweep workers never need it
    pd = lazy_module("pandas")

__all__ = [
    "CHUNK_SIZE",
    "MAX_TRIALS",
    "MAX_PLAYERS",
    "MAX_PTC_SESSIONS",
    "run_shared",
    "run_schedule",
    "run_pulls_to_complete",
    "simulate_schedule",
    "simulate_shared",
    "simulate_pulls_to_complete",
    "simulate",
]

@validate_params(schedule=SCHEDULE, n_trials=N_TRIALS, n_players=Int(1, MAX_PLAYERS), **CONFIG,
                 stop_at_completion=Bool(), rng=Rng())
def run_shared(
    schedule: Sequence[tuple[int, int]],
    n_trials: int,
    *,
    n_players: int,
    rng: RngLike = None,
    bag: BagConfig = BagConfig(),
    n_characters: int = 5,
    doubtful: DoubtfulConfig | None = None,
    overdrive_pulls: int | None = None,
    stop_at_completion: bool = False,
) -> dict[str, npt.NDArray[np.int64] | npt.NDArray[np.bool_]]:
    """Array kernel: several players pulling from one shared bag.

    Parameters
    ----------
    schedule : sequence of (int, int)
        ``(player, pulls)`` sessions in order; players numbered 1..``n_players``,
        pulls 0..:data:`~gamesim.games.gacha.rules.MAX_SESSION_PULLS`, at most
        :data:`~gamesim.games.gacha.rules.MAX_SESSIONS` sessions.
    n_trials : int
        Independent trials, 0..:data:`MAX_TRIALS`.
    n_players : int
        Players, 1..:data:`MAX_PLAYERS`.
    rng : int, SeedSequence, Generator or None, default None
    bag, n_characters, doubtful, overdrive_pulls
        As in :func:`simulate_shared`.
    stop_at_completion : bool, default False
        End each trial's game at the first コンスリート (the rulebook's end condition,
        used by :func:`simulate_shared` and the ``shared`` task). The kernel default is
        False so that one-player schedules (:func:`run_schedule`) keep counting
        after completion.

    Returns
    -------
    dict of str to ndarray
        ``"god_chances"`` (int64), ``"characters_owned"`` (int64), ``"complete"``
        (bool), ``"pulls"`` (int64, including Overdrive pulls), each of shape
        ``(n_trials, n_players)``; ``"sr_drawn"`` (int64, shape ``(n_trials,)``,
        SR chips drawn by all players together); ``"winner"`` (int64, shape
        ``(n_trials,)``: the first player to complete, 0 = nobody).

    Raises
    ------
    ParamTypeError
        If an argument has the wrong type (a float or bool for an integer, ...).
    ParamError
        If a player is outside 1..n_players, a size is out of range, or the
        configuration is invalid (see :func:`~gamesim.games.gacha.rules.check_config`).

    Notes
    -----
    With ``stop_at_completion`` a trial whose player completes during a session stops
    after that session (with its whole Overdrive chain: only that player pulls in it,
    so the winner is the same as when stopping at the completing God Chance; its God
    Chance and pull counts include the rest of the chain).
    """
    sched0, n_players = _check_schedule(schedule, n_players)
    _check_config(bag, n_characters, doubtful, overdrive_pulls)
    stop = stop_at_completion
    gen = rng
    cfg = _Cfg.make(bag, n_characters, doubtful, overdrive_pulls)
    sched = [(p - 1, m) for p, m in sched0]
    out_gc = np.zeros((n_trials, n_players), dtype=_I64)
    out_own = np.zeros((n_trials, n_players), dtype=_I64)
    out_pulls = np.zeros((n_trials, n_players), dtype=_I64)
    out_sr = np.zeros(n_trials, dtype=_I64)
    out_win = np.zeros(n_trials, dtype=_I64)
    start = 0
    for size in _chunks(n_trials, n_players, n_characters):
        b = _fresh_bag(size, gen, cfg)
        owned = np.zeros((size, n_players, n_characters), dtype=bool)
        gcount = np.zeros((n_players, size), dtype=_I64)  # player-major: contiguous rows
        pulls = np.zeros((n_players, size), dtype=_I64)  # all pulls, Overdrive included
        winner = np.zeros(size, dtype=_I64)
        live = None  # trials still playing (None = all)
        for p, m in sched:
            if live is None:
                touched = _play_session(b, owned, gcount, pulls, p, m, gen, cfg)
                pulls[p] += m
            else:
                sub = b.take(live)
                o_sub, g_sub, q_sub = owned[live], gcount[:, live], pulls[:, live]
                t_sub = _play_session(sub, o_sub, g_sub, q_sub, p, m, gen, cfg)
                b.put(live, sub)
                owned[live], gcount[:, live], pulls[:, live] = o_sub, g_sub, q_sub
                pulls[p, live] += m
                touched = live[t_sub]
            if stop and touched.size:
                won = touched[(winner[touched] == 0) & owned[touched, p].all(axis=1)]
                if won.size:
                    winner[won] = p + 1
                    live = np.flatnonzero(winner == 0)
                    if live.size == 0:
                        break
        _flush_sr(b, None, gen, cfg)
        sl = slice(start, start + size)
        out_gc[sl] = gcount.T
        out_own[sl] = owned.sum(axis=2)
        out_pulls[sl] = pulls.T
        out_sr[sl] = b.sr
        if stop:
            out_win[sl] = winner
        else:  # first completion cannot be told apart afterwards: report none
            out_win[sl] = 0
        start += size
    return {
        "god_chances": out_gc,
        "characters_owned": out_own,
        "complete": out_own == n_characters,
        "pulls": out_pulls,
        "sr_drawn": out_sr,
        "winner": out_win,
    }


# ---------------------------------------------------------------------------
# Single-player schedule without Overdrive: one draw per bag cycle
# ---------------------------------------------------------------------------
#
# Without Overdrive a player's schedule is fixed in advance, so the pulls form one
# sequence 1..T (T = total pulls) cut into sessions. A bag made just before pull s + 1
# is pulled consecutively until it is remade, and that happens either when it empties
# (after pull s + N', N' = chips in it, mid-session or not) or at the end of the session
# in which its last God Chance chip is drawn, whichever comes first; a bag from which a
# 疑惑の運営モード removal took a God Chance chip is only remade when empty (its drawn
# count can never reach n_god_chance). The bag's God Chance chips sit at a uniformly
# random set of positions of its random order, so one chance outcome per bag decides
# its cycle: k removed, h God Chance chips among them, and the position X of the last
# God Chance chip (X = N' when h > 0; X = 1 when the bag holds no God Chance chip at all,
# n_god_chance = 0, whose bag is remade after every session). The cycle then ends at
# min(E[s + X], s + N'), E[t] = the end of the session holding pull t, and brings
# n_god_chance - h God Chances, unless the schedule ends first (s + X > T): then the
# God Chance chips among the first T - s positions are hypergeometric given X. SR chips
# among the other chips drawn from one bag are hypergeometric(n_sr, n_n, others) (see
# the module notes), and the characters owned after G God Chances follow the coupon
# collector's chain, so a trial needs one outcome per bag cycle, one SR count per
# cycle and one owned count at the end, instead of one draw per session.
#
# Each discrete law is sampled from one uniform: the cycle outcome by Walker's alias
# method, the SR count and the owned count by a guide table over the inverse CDF (the
# owned count by an alias table, then card by card, when the guide table would be too
# large; tables built once per configuration, exact up to float64 rounding of the
# probabilities).
# With at most one God Chance chip per bag (a partial cycle then brings none) the
# cycle's bookkeeping is tabulated by (pulls before the bag, outcome), see
# _schedule_table. Zero-size sessions draw nothing and only remake a bag that nothing
# has been drawn from, which changes no law. With Overdrive the sessions depend on the
# cards drawn, so run_schedule keeps the session-by-session kernel of run_shared.

#: Largest alias table (entries) built for the owned counts when their guide table would
#: exceed :data:`_GUIDE_MAX`; larger configurations draw the cards with ``Generator.integers``.
_ALIAS_MAX: int = 200_000
#: Largest guide table (entries) built for the SR counts (larger bags draw them with
#: ``Generator.hypergeometric``) and for the owned counts.
_GUIDE_MAX: int = 4_000_000
#: Largest bag (chips) for which the per-bag outcome table is built; larger bags use
#: the session-by-session path.
_CYCLE_BAG_MAX: int = 20_000
#: Largest ``T + bag total`` for the session-end lookup table; longer schedules look
#: session ends up with ``np.searchsorted``.
_END_TABLE_MAX: int = 2_000_000
#: Largest (T + 1) * outcomes table of per-cycle bookkeeping (see :func:`_schedule_table`).
_STATE_TABLE_MAX: int = 1_000_000
#: The schedule kernel tallies SR + (God Chances << shift) in one integer: shift 14
#: (int16 table, int32 tally) for fewer than 2**14 pulls, else 20 (int32, int64; the
#: tabulated kernel needs fewer than 2**20 pulls).
_TALLY_SHIFT: int = 14
_TALLY_SHIFT_WIDE: int = 20
#: Trials per chunk of :func:`_schedule_table` (about 45 bytes of buffers per trial;
#: 2**16 measured faster than 2**15 and 2**17).
_TABLE_CHUNK: int = 65_536
#: Finished trials stay in the arrays (they draw nothing that changes them) until the
#: live ones fall below this fraction; then the arrays are compacted.
_COMPACT: float = 0.25


def _alias_table(pmf: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Walker/Vose alias tables for each row of ``pmf`` (shape (rows, K)), flattened.

    Returns ``prob`` (float64) and ``alias`` (int64), each of shape (rows * K,): for a
    uniform ``u`` and row ``r``, ``y = u * K``, ``j = floor(y)``, the outcome is ``j`` if
    ``y - j < prob[r * K + j]`` else ``alias[r * K + j]``.
    """
    rows, k = pmf.shape
    prob = np.ones(rows * k)
    alias = np.tile(np.arange(k, dtype=_I64), rows)
    for r in range(rows):
        p = pmf[r] / pmf[r].sum() * k
        small = [j for j in range(k) if p[j] < 1.0]
        large = [j for j in range(k) if p[j] >= 1.0]
        while small and large:
            a, b = small.pop(), large.pop()
            prob[r * k + a] = p[a]
            alias[r * k + a] = b
            p[b] = (p[b] + p[a]) - 1.0
            (small if p[b] < 1.0 else large).append(b)
        # leftovers have p == 1 up to rounding: keep prob 1, alias itself
    return prob, alias


def _alias_draw(u: np.ndarray, row: np.ndarray | int, k: int, prob: np.ndarray, alias: np.ndarray) -> np.ndarray:
    """Outcomes of :func:`_alias_table` tables for uniforms ``u`` in rows ``row``."""
    y = u * k
    j = y.astype(_I64)  # u <= 1 - 2**-53, so floor(u * k) <= k - 1 in float64
    idx = j if isinstance(row, int) and row == 0 else j + row * k
    return np.where(y - j < prob[idx], j, alias[idx])


@dataclass(frozen=True)
class _Guide:
    """Inverse-CDF sampling through a guide table (one row per law).

    ``q[row * bins + floor(u * bins)]`` is the outcome when the whole bin
    ``[b / bins, (b + 1) / bins)`` maps to one outcome of the inverse CDF, -1 when a CDF
    step falls inside the bin; those few draws are finished by comparing ``u`` with
    ``cdf[row]``. The outcome is always ``#{c : cdf[row, c] <= u}``, the inverse CDF.
    """

    bins: int
    cdf: npt.NDArray[np.float64]  # (rows, K - 1): P(outcome <= c), c = 0..K-2
    q: npt.NDArray[np.int16] | npt.NDArray[np.int32]


def _guide_bins(k: int) -> int:
    """Bins per row: a power of two >= 256 k (at most k / 256 of the draws need the CDF)."""
    return 1 << max(10, int(math.ceil(math.log2(256 * k))))


def _guide_table(pmf: npt.NDArray[np.float64], bins: int) -> _Guide:
    """Guide tables for each row of ``pmf`` (shape (rows, K))."""
    rows, k = pmf.shape
    cdf = np.cumsum(pmf / pmf.sum(axis=1, keepdims=True), axis=1)[:, : k - 1]
    lo = np.arange(bins) / bins
    hi = np.arange(1, bins + 1) / bins
    q = np.empty((rows, bins), dtype=np.int16 if k < 2**15 else np.int32)
    for r in range(rows):
        a = np.searchsorted(cdf[r], lo, side="right")  # outcome at u = lo
        b = np.searchsorted(cdf[r], hi, side="left")  # outcome just below hi
        q[r] = np.where(a == b, a, -1)
    return _Guide(bins, cdf, q.ravel())


def _guide_draw(u: np.ndarray, offset: np.ndarray, guide: _Guide) -> np.ndarray:
    """Outcomes for uniforms ``u`` in rows ``offset // guide.bins`` (``offset`` = row * bins)."""
    b = u * guide.bins
    out = guide.q.take(offset + b.astype(_I64))
    amb = np.flatnonzero(out < 0)
    if amb.size:
        out = out.astype(_I64)
        out[amb] = (guide.cdf[offset[amb] // guide.bins] <= u[amb, None]).sum(axis=1)
    return out


@dataclass(frozen=True)
class _Cycles:
    """Per-bag chance outcomes of the schedule kernel (see the notes above)."""

    uniform_n: int  # > 0: X uniform on 1..uniform_n, one God Chance chip, bag of uniform_n
    prob: npt.NDArray[np.float64]
    alias: npt.NDArray[np.int64]
    x: npt.NDArray[np.int64]  # position deciding the cycle's end
    gc: npt.NDArray[np.int64]  # God Chance chips drawn in a complete cycle
    cap: npt.NDArray[np.int64]  # chips in the bag (N')
    pa: npt.NDArray[np.int64]  # partial cycle: God Chance chips ~ hypergeometric(pa, pb, r)
    pb: npt.NDArray[np.int64]
    n_sr: int
    n_n: int
    sr_guide: _Guide | None  # guide table of hypergeometric(n_sr, n_n, o), one row per o = 0..n_ot
    key: tuple[BagConfig, DoubtfulConfig | None]  # the arguments of _cycles


@lru_cache(maxsize=32)
def _cycles(bag: BagConfig, doubtful: DoubtfulConfig | None) -> _Cycles:
    from scipy.stats import hypergeom  # here, not at import: a sweep worker of another game never needs it

    g, tot = bag.n_god_chance, bag.total
    ks = [(0, 1.0)] if doubtful is None else [
        (k, p) for k, p in zip(doubtful.k_values, doubtful.probabilities) if p > 0]
    rows: list[tuple[float, int, int, int, int, int]] = []  # (p, x, gc, cap, pa, pb)
    for k, pk in ks:
        cap = tot - k
        if g == 0:
            rows.append((pk, 1, 0, cap, 0, 0))
            continue
        hs = np.arange(max(0, k - (tot - g)), min(g, k) + 1)
        for h, ph in zip(hs.tolist(), (pk * hypergeom.pmf(hs, tot, g, k)).tolist()):
            if h > 0:  # a God Chance chip hidden: the bag is remade only when empty
                rows.append((ph, cap, g - h, cap, g - h, cap - (g - h)))
                continue
            # the last of the g God Chance chips at position m: C(m-1, g-1) / C(cap, g),
            # by the recurrence P(m - 1) = P(m) (m - g) / (m - 1) from P(cap) = g / cap
            pm = [0.0] * (cap + 1)
            pm[cap] = g / cap
            for m in range(cap, g, -1):
                pm[m - 1] = pm[m] * (m - g) / (m - 1)
            rows.extend((ph * pm[m], m, g, cap, g - 1, m - g) for m in range(g, cap + 1))
    arr = np.array(rows)
    prob, alias = _alias_table(arr[:, 0][None, :])
    col = lambda i: arr[:, i].astype(_I64)  # noqa: E731
    n_ot = bag.n_sr + bag.n_n
    sr_guide = None
    bins = _guide_bins(bag.n_sr + 1)
    if bag.n_sr and bag.n_n and (n_ot + 1) * bins <= _GUIDE_MAX:
        sr_guide = _guide_table(
            hypergeom.pmf(np.arange(bag.n_sr + 1)[None, :], n_ot, bag.n_sr, np.arange(n_ot + 1)[:, None]), bins)
    return _Cycles(tot if (g == 1 and doubtful is None) else 0, prob, alias, col(1), col(2), col(3), col(4),
                   col(5), bag.n_sr, bag.n_n, sr_guide, (bag, doubtful))


def _sr_counts(o: np.ndarray, rng: np.random.Generator, cy: _Cycles) -> np.ndarray | int:
    """SR chips among ``o`` other chips drawn from one bag (hypergeometric)."""
    if cy.n_sr == 0:
        return 0
    if cy.n_n == 0:
        return o
    if cy.sr_guide is None:
        return rng.hypergeometric(cy.n_sr, cy.n_n, o)
    return _guide_draw(rng.random(o.size), o * cy.sr_guide.bins, cy.sr_guide)


def _owned_pmf(n_characters: int, g_max: int) -> npt.NDArray[np.float64]:
    """P(characters owned = c | G God Chances), rows G = 0..g_max, columns c = 0..n."""
    n = n_characters
    step = _owned_transition_matrix(n)
    pmf = np.zeros((g_max + 1, n + 1))
    v = np.zeros(n + 1)
    v[0] = 1.0
    for gi in range(g_max + 1):
        pmf[gi] = v
        v = v @ step
    return pmf


@lru_cache(maxsize=64)
def _owned_alias(n_characters: int, g_max: int) -> tuple[np.ndarray, np.ndarray]:
    """Alias tables of P(characters owned = c | G God Chances), G = 0..g_max."""
    return _alias_table(_owned_pmf(n_characters, g_max))


@lru_cache(maxsize=16)
def _owned_guide(n_characters: int, rows: int) -> _Guide:
    """Guide tables of P(characters owned = c | G God Chances), G = 0..rows - 1."""
    pmf = _owned_pmf(n_characters, rows - 1)
    return _guide_table(pmf, _guide_bins(n_characters + 1))


def _owned_counts(gcount: np.ndarray, rng: np.random.Generator, n_characters: int) -> np.ndarray:
    """Characters owned after ``gcount`` God Chances (uniform cards, coupon collector)."""
    g_max = int(gcount.max()) if gcount.size else 0
    n = n_characters
    rows = 1 << g_max.bit_length()  # a power of two > g_max: few distinct tables
    if rows * _guide_bins(n + 1) <= _GUIDE_MAX:  # guide table: fewest passes per draw
        g = _owned_guide(n, rows)
        return _guide_draw(rng.random(gcount.size), gcount * g.bins, g)
    if (g_max + 1) * (n + 1) <= _ALIAS_MAX:
        prob, alias = _owned_alias(n, g_max)
        return _alias_draw(rng.random(gcount.size), gcount, n + 1, prob, alias)
    # large tables: draw the cards and count distinct ones per trial
    cards = rng.integers(n, size=int(gcount.sum()))
    key = np.repeat(np.arange(gcount.size, dtype=_I64), gcount) * n + cards
    return np.bincount(np.unique(key) // n, minlength=gcount.size).astype(_I64)


@lru_cache(maxsize=8)
def _sr_gc_guide(bag: BagConfig, doubtful: DoubtfulConfig | None, wide: bool) -> tuple[np.ndarray, np.ndarray]:
    """The SR guide table of ``_cycles(bag, doubtful)`` with the cycle's God Chance folded in.

    Row ``2 o + g`` (``o`` others drawn, ``g`` God Chances of the cycle, 0 or 1) holds
    the SR outcome plus ``g << shift`` (-1 where the bin is ambiguous, as in
    :class:`_Guide`), so one gather and one add tally both counts; ``shift`` is
    :data:`_TALLY_SHIFT` (int16 entries) or, if ``wide``, :data:`_TALLY_SHIFT_WIDE`
    (int32 entries). Also returns the CDF rows scaled by ``bins`` (exact: ``bins`` is a
    power of two), for comparing with ``u * bins``.
    """
    g = _cycles(bag, doubtful).sr_guide
    assert g is not None
    q = g.q.reshape(-1, g.bins)
    shift = _TALLY_SHIFT_WIDE if wide else _TALLY_SHIFT
    dt = np.int32 if wide else np.int16
    q2 = np.empty((q.shape[0], 2, g.bins), dtype=dt)
    q2[:, 0] = q
    q2[:, 1] = np.where(q < 0, -1, q.astype(dt) + (1 << shift))
    return q2.ravel(), g.cdf * g.bins


def _schedule_table(total: int, lookup, god: np.ndarray, sr: np.ndarray,  # type: ignore[no-untyped-def]
                    rng: np.random.Generator, cy: _Cycles) -> None:
    """The kernel's loop with every cycle's bookkeeping tabulated by (pulls so far, outcome).

    For at most one God Chance chip per bag (a partial cycle then brings no God Chance)
    the state of a trial is the number ``s`` of pulls before its current bag; one packed
    table maps ``s * n_outcomes + outcome`` to the next ``s`` (times ``n_outcomes``) and
    to the row of the cycle's SR law, whose guide table also carries the cycle's God
    Chance (:func:`_sr_gc_guide`), so a cycle costs two uniforms, one gather for the state
    and one gather plus one add for the tallies, all into preallocated buffers. The end state
    ``s = T`` maps to itself with no God Chance and SR row 0 (always 0 SR), so finished
    trials may stay in the arrays. Fills ``god`` and ``sr`` in place.
    """
    n_out = cy.x.size
    guide = cy.sr_guide
    assert guide is not None
    bins = guide.bins
    wide = total >= 1 << _TALLY_SHIFT
    shift = _TALLY_SHIFT_WIDE if wide else _TALLY_SHIFT  # tallies (<= total) < 2**shift
    assert total < 1 << shift
    q2, cdf_b = _sr_gc_guide(*cy.key, wide)
    st = np.arange(total + 1, dtype=_I64)[:, None]
    end = np.minimum(lookup(st + cy.x[None, :] - 1), st + cy.cap[None, :])
    gc_t = cy.gc[None, :] * (end <= total)
    np.minimum(end, total, out=end)
    off_t = (((end - st - gc_t) * 2 + gc_t) * bins).ravel()  # row offset in q2
    nxt_t = (end * n_out).ravel()
    assert off_t.max() < 2**32
    packed = (nxt_t << 32) | off_t  # one gather per cycle for both
    assert off_t[-n_out:].max() == 0 and (nxt_t[-n_out:] == total * n_out).all()  # the fixed point
    last = total * n_out
    uniform = cy.uniform_n
    acc_t = _I64 if wide else np.int32  # SR + (God Chances << shift) < 2**(2 * shift)
    log_bins = bins.bit_length() - 1
    cdf_b = np.repeat(cdf_b, 2, axis=0)  # one CDF row per q2 row
    gc_add = np.tile(np.array([0, 1 << shift], dtype=acc_t), cdf_b.shape[0] // 2)
    chunks = [min(_TABLE_CHUNK, god.size - s) for s in range(0, god.size, _TABLE_CHUNK)]
    size0 = max(chunks, default=0)
    ub = np.empty(size0)  # uniforms
    ib = np.empty(size0, dtype=np.int32)  # floor(u * k), cast through int32 (cheaper than to int64)
    idx_b = np.empty(size0, dtype=_I64)
    off_b = np.empty(size0, dtype=_I64)
    q_b = np.empty(size0, dtype=q2.dtype)
    live_b = np.empty(size0, dtype=bool)
    start = 0
    for size in chunks:
        base = np.zeros(size, dtype=_I64)  # s * n_outcomes
        acc = np.zeros(size, dtype=acc_t)  # SR + (God Chances << shift)
        res, rows = acc, None  # tallies of the chunk; rows of ``res`` still in ``acc`` (None: all)
        while base.size and total:
            m = base.size
            u, i32, idx, off, qv, live = ub[:m], ib[:m], idx_b[:m], off_b[:m], q_b[:m], live_b[:m]
            rng.random(out=u)
            if uniform:
                np.multiply(u, uniform, out=u)
                i32[...] = u  # truncation; u <= 1 - 2**-53: floor(u * N) <= N - 1
                idx[...] = i32
            else:
                idx[...] = _alias_draw(u, 0, n_out, cy.prob, cy.alias)
            np.add(idx, base, out=idx)
            packed.take(idx, out=off, mode="wrap")  # idx is in range; "wrap" does not buffer ``out``
            np.right_shift(off, 32, out=base)
            np.bitwise_and(off, 0xFFFFFFFF, out=off)
            # SR chips of the cycle (and its God Chance): guide-table draw in its row
            rng.random(out=u)
            np.multiply(u, bins, out=u)  # exact: bins is a power of two
            i32[...] = u
            idx[...] = i32
            np.add(idx, off, out=idx)
            q2.take(idx, out=qv, mode="wrap")
            np.less(qv, 0, out=live)
            amb = live.nonzero()[0]
            if amb.size:  # a CDF step inside the bin: the inverse CDF by comparing u * bins
                r = idx.take(amb) >> log_bins
                qv[amb] = (cdf_b[r] <= u.take(amb)[:, None]).sum(axis=1) + gc_add.take(r)
            np.add(acc, qv, out=acc)
            np.less(base, last, out=live)
            n_live = int(np.count_nonzero(live))
            if n_live < _COMPACT * m:  # compact: drop finished trials (they are a fixed point)
                keep = live.nonzero()[0]
                if rows is None:
                    rows = keep
                else:
                    res[rows] = acc
                    rows = rows.take(keep)
                base, acc = base.take(keep), acc.take(keep)
        if rows is not None:
            res[rows] = acc
        god[start:start + size] = res >> shift
        sr[start:start + size] = res & ((1 << shift) - 1)
        start += size


def _schedule_cycles(sessions: list[int], n_trials: int, rng: np.random.Generator, cfg: _Cfg,
                     cy: _Cycles) -> dict[str, np.ndarray]:
    """The one-draw-per-bag kernel of :func:`run_schedule` (no Overdrive)."""
    ends = np.cumsum(np.asarray([m for m in sessions if m > 0], dtype=_I64))
    total = int(ends[-1]) if ends.size else 0
    big = total + cfg.total + 1  # "after the schedule" marker, > any s + N'
    x_max = int(cy.x.max()) if cy.uniform_n == 0 else cy.uniform_n
    if total + x_max < _END_TABLE_MAX:
        # end_at[t] = end of the session holding pull t + 1 (t = 0..T-1), ``big`` beyond
        end_at = np.full(total + x_max + 1, big, dtype=_I64)
        if total:
            end_at[:total] = ends[np.searchsorted(ends, np.arange(1, total + 1))]
        lookup = end_at.take
    else:
        ends_b = np.append(ends, big)
        lookup = lambda t: ends_b[np.searchsorted(ends, t + 1)]  # noqa: E731
    # The cards of the God Chances come from their own stream, spawned before any draw: the
    # bag loop above uses a number of uniforms that depends on the bag, so two bags one chip
    # apart would otherwise give trial i's cards different numbers (common random numbers
    # then narrowed bag_n 45 vs 44 on ``complete`` by 6%; with this stream, see docs/comparisons.md).
    card_rng = rng.spawn(1)[0]
    god = np.zeros(n_trials, dtype=_I64)
    sr = np.zeros(n_trials, dtype=_I64)
    owned = np.zeros(n_trials, dtype=_I64)
    tabulated = (cfg.n_gc <= 1 and cy.sr_guide is not None and (total + 1) * cy.x.size <= _STATE_TABLE_MAX
                 and total < 1 << _TALLY_SHIFT_WIDE)
    if tabulated:
        _schedule_table(total, lookup, god, sr, rng, cy)
    start = 0
    for size in [] if tabulated else _chunks(n_trials, 1, 1):
        rows = np.arange(start, start + size)
        s = np.zeros(size, dtype=_I64)  # pulls before the current bag
        gk = np.zeros(size, dtype=_I64)
        sk = np.zeros(size, dtype=_I64)
        while s.size and total:
            u = rng.random(s.size)
            if cy.uniform_n:
                x0 = (u * cy.uniform_n).astype(_I64)  # X - 1
                end = np.minimum(lookup(s + x0), s + cy.uniform_n)
                full = end <= total
                gc = full.astype(_I64)  # partial cycle: the only chip is beyond T
                np.minimum(end, total, out=end)
            else:
                o = _alias_draw(u, 0, cy.x.size, cy.prob, cy.alias)
                cap = cy.cap[o]
                end = np.minimum(lookup(s + cy.x[o] - 1), s + cap)
                full = end <= total
                gc = cy.gc[o] * full
                np.minimum(end, total, out=end)
                if cfg.n_gc >= 2:  # partial cycle: God Chance chips among its first pulls
                    part = np.flatnonzero(~full)
                    if part.size:
                        op = o[part]
                        gc[part] = rng.hypergeometric(cy.pa[op], cy.pb[op], end[part] - s[part])
            gk += gc
            sk += _sr_counts(end - s - gc, rng, cy)
            s = end
            live = s < total
            n_live = int(np.count_nonzero(live))
            if 4 * n_live < 3 * s.size:  # compact: drop finished trials
                done = ~live
                god[rows[done]], sr[rows[done]] = gk[done], sk[done]
                rows, s, gk, sk = rows[live], s[live], gk[live], sk[live]
        god[rows], sr[rows] = gk, sk
        start += size
    for lo, hi in chunk_spans(n_trials, CHUNK_SIZE):  # chunked: bounded temporaries
        owned[lo:hi] = _owned_counts(god[lo:hi], card_rng, cfg.n_characters)
    return {"god_chances": god, "complete": owned == cfg.n_characters, "characters_owned": owned,
            "sr_drawn": sr, "pulls": np.full(n_trials, total, dtype=_I64)}


@validate_params(sessions=SESSIONS, n_trials=N_TRIALS, **CONFIG, rng=Rng())
def run_schedule(
    sessions: Sequence[int],
    n_trials: int,
    *,
    rng: RngLike = None,
    bag: BagConfig = BagConfig(),
    n_characters: int = 5,
    doubtful: DoubtfulConfig | None = None,
    overdrive_pulls: int | None = None,
) -> dict[str, npt.NDArray[np.int64] | npt.NDArray[np.bool_]]:
    """Array kernel of :func:`simulate_schedule`: one player, arrays of shape (n_trials,).

    Parameters
    ----------
    sessions, n_trials, rng, bag, n_characters, doubtful, overdrive_pulls
        As in :func:`simulate_schedule`.

    Returns
    -------
    dict of str to ndarray
        ``god_chances``, ``complete``, ``characters_owned``, ``sr_drawn``, ``pulls``,
        each of shape (n_trials,).

    Raises
    ------
    ValueError
        As :func:`simulate_schedule`.

    Notes
    -----
    Without Overdrive (``overdrive_pulls=None``) and for bags of at most
    :data:`_CYCLE_BAG_MAX` chips, one chance outcome per bag cycle (see the comment
    block above :func:`_alias_table`): about ``T / 25`` bag cycles per trial for ``T``
    pulls from the default bag, two uniforms each (position of the God Chance chip, SR
    count) plus one per trial (characters owned), instead of one draw per session, with
    the same distribution. With Overdrive the schedule depends on the cards drawn and the
    session-by-session kernel of :func:`run_shared` is used.
    """
    # The same checks as every other public gacha function (issue 9): nothing truncated
    # (``[2.5]`` is refused, not pulled as 2), every size bounded before any work.
    ses = sessions
    _check_config(bag, n_characters, doubtful, overdrive_pulls)
    if overdrive_pulls is None and bag.total <= _CYCLE_BAG_MAX:
        cfg = _Cfg.make(bag, n_characters, doubtful, overdrive_pulls)
        return _schedule_cycles(ses, n_trials, rng, cfg, _cycles(bag, doubtful))
    r = _run_shared([(1, m) for m in ses], n_trials, n_players=1, rng=rng, bag=bag,
                   n_characters=n_characters, doubtful=doubtful, overdrive_pulls=overdrive_pulls)
    return {
        "god_chances": r["god_chances"][:, 0],
        "complete": r["complete"][:, 0],
        "characters_owned": r["characters_owned"][:, 0],
        "sr_drawn": r["sr_drawn"],
        "pulls": r["pulls"][:, 0],
    }


_run_shared = run_shared.__wrapped__
_run_schedule = run_schedule.__wrapped__


@validate_params(params=Instance(GachaParams, "a GachaParams"), n_games=N_TRIALS, sessions=SESSIONS, rng=Rng())
def simulate(params: GachaParams, n_games: int, *, rng: RngLike = None,
             sessions: Sequence[int] = (10,) * 10) -> dict[str, npt.NDArray[np.int64] | npt.NDArray[np.bool_]]:
    """One player pulls ``sessions`` from a fresh bag, ``n_games`` trials: every game's common entry point.

    Delegates to :func:`run_schedule` with the set-up of ``params`` (the same random streams:
    identical arrays for the same ``rng``).

    Parameters
    ----------
    params : GachaParams
        Bag, characters, 疑惑の運営モード and Overdrive (checked when it was built).
    n_games : int
        Independent trials, 0..:data:`MAX_TRIALS`.
    rng : int, SeedSequence, Generator or None, keyword-only, default None
        Normalised with ``np.random.default_rng``.
    sessions : sequence of int, keyword-only, default (10,) * 10
        Session sizes (pulls), in order: the ``schedule`` task's default of 100 pulls in
        sessions of 10.

    Returns
    -------
    dict of str to ndarray, each shape (n_games,)
        As :func:`run_schedule`: ``god_chances``, ``complete`` (bool), ``characters_owned``,
        ``sr_drawn`` (chips), ``pulls``.

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``params`` is not a :class:`GachaParams`, or an argument has the
        wrong type (as :func:`run_schedule`).
    ParamError
        (a ``ValueError``) As :func:`simulate_schedule` (a session size or ``n_games`` out of range).
    """
    return _run_schedule(sessions, n_games, rng=rng, bag=params.bag, n_characters=params.n_characters,
                        doubtful=params.doubtful, overdrive_pulls=params.overdrive_pulls)


@validate_params(sessions=SESSIONS, n_trials=N_TRIALS, **CONFIG, rng=Rng())
def simulate_schedule(
    sessions: Sequence[int],
    n_trials: int,
    *,
    rng: RngLike = None,
    bag: BagConfig = BagConfig(),
    n_characters: int = 5,
    doubtful: DoubtfulConfig | None = None,
    overdrive_pulls: int | None = None,
) -> pd.DataFrame:
    """Simulate one player pulling a schedule of sessions from a fresh bag.

    Parameters
    ----------
    sessions : sequence of int
        Session sizes (pulls, >= 0), in order.
    n_trials : int
        Independent trials (>= 0).
    rng : int, SeedSequence, Generator or None, default None
        Normalised with ``np.random.default_rng``.
    bag : BagConfig, default BagConfig()
        Full-bag contents (chips).
    n_characters : int, default 5
        God Chance cards / UR characters.
    doubtful : DoubtfulConfig or None, default None
        疑惑の運営モード; ``None`` = off.
    overdrive_pulls : int or None, default None
        Extra pulls when a God Chance shows the navi character (Overdrive);
        ``None`` = no navi (エキスパートモード).

    Returns
    -------
    pandas.DataFrame
        One row per trial: ``god_chances`` (int64), ``complete`` (bool: コンスリート),
        ``characters_owned`` (int64), ``sr_drawn`` (int64, SR chips),
        ``pulls`` (int64, all pulls drawn including Overdrive pulls).

    Raises
    ------
    ParamTypeError
        If an argument has the wrong type (a session size or ``n_trials`` that is a
        float such as ``2.5`` or ``3.0``, or a bool; ``rng = True``).
    ParamError
        If a session size is outside 0..:data:`MAX_SESSION_PULLS`, there are more than
        :data:`MAX_SESSIONS` sessions, ``n_trials`` is outside 0..:data:`MAX_TRIALS`, or
        the configuration is invalid (:func:`~gamesim.games.gacha.rules.check_config`:
        ``n_characters`` outside 1..100, a doubtful ``k`` >= the bag total, ...).

    Notes
    -----
    Rules read as in ``docs/rules/gacha.md`` (seed ``gacha_god_chance_rules_ja.txt``:
    ガチャ袋作成, ガチャを引く, God Chance, Overdrive, 疑惑の運営モード).

    Without Overdrive the trials draw one chance outcome per bag cycle (where the bag's
    last God Chance chip lies, and the 疑惑の運営モード removal), one SR count per cycle and
    one owned-character count per trial, all by exact inverse-CDF or alias sampling of
    the rules' laws: about 30 uniforms per trial for 300 single pulls from the default
    bag (a bag cycle lasts about 25 pulls). With Overdrive the session-by-session kernel of :func:`simulate_shared` runs.

    Examples
    --------
    >>> df = simulate_schedule([10] * 10, 1000, rng=1)
    >>> bool((df.god_chances <= df.pulls).all())
    True
    """
    return pd.DataFrame(_run_schedule(sessions, n_trials, rng=rng, bag=bag, n_characters=n_characters,
                                     doubtful=doubtful, overdrive_pulls=overdrive_pulls))


@validate_params(schedule=SCHEDULE, n_trials=N_TRIALS, n_players=Optional(Int(1, MAX_PLAYERS)), **CONFIG,
                 stop_at_completion=Bool(), rng=Rng())
def simulate_shared(
    schedule: Sequence[tuple[int, int]],
    n_trials: int,
    *,
    n_players: int | None = None,
    rng: RngLike = None,
    bag: BagConfig = BagConfig(),
    n_characters: int = 5,
    doubtful: DoubtfulConfig | None = None,
    overdrive_pulls: int | None = None,
    stop_at_completion: bool = True,
) -> pd.DataFrame:
    """Simulate several players sharing one gacha bag, until someone completes.

    Parameters
    ----------
    schedule : sequence of (int, int)
        ``(player, pulls)`` sessions in order; players are numbered from 1.
    n_trials : int
        Independent trials, 0..:data:`MAX_TRIALS`.
    n_players : int or None, default None
        Players, 1..:data:`MAX_PLAYERS`; ``None`` = the largest player number in
        ``schedule``.
    rng, bag, n_characters, doubtful, overdrive_pulls
        As in :func:`simulate_schedule`. Overdrive sessions belong to the player
        whose God Chance triggered them.
    stop_at_completion : bool, default True
        The rulebook's end condition コンスリート: 「いずれかのラウンド中にURキャラカードを全て
        集めたスレイヤーは直ちにゲームに勝利します」: the game ends at the first completion.
        False = the alternative reading, everyone keeps pulling the whole schedule.

    Returns
    -------
    pandas.DataFrame
        Columns ``god_chances_p{i}`` (int64), ``complete_p{i}`` (bool),
        ``characters_owned_p{i}`` (int64), ``pulls_p{i}`` (int64) for i = 1..n_players,
        and ``winner`` (int64: the player who completed first, 0 = nobody; always 0
        when ``stop_at_completion`` is False). With the stop, ``complete_p{i}`` is true
        only for the winner.

    Raises
    ------
    ParamTypeError, ParamError
        If a player number is outside 1..n_players, or as :func:`run_shared`.

    Notes
    -----
    The bag is shared (whatever one player leaves stays for the next session);
    each player has their own collection of UR characters. Rulebook ゲームの終了条件
    (コンスリート); docs/rules/gacha.md.
    """
    sched, n_players = _check_schedule(schedule, n_players)
    r = _run_shared(sched, n_trials, n_players=n_players, rng=rng, bag=bag, n_characters=n_characters,
                   doubtful=doubtful, overdrive_pulls=overdrive_pulls, stop_at_completion=stop_at_completion)
    cols: dict[str, np.ndarray] = {}
    for i in range(n_players):
        cols[f"god_chances_p{i + 1}"] = r["god_chances"][:, i]
        cols[f"complete_p{i + 1}"] = r["complete"][:, i]
        cols[f"characters_owned_p{i + 1}"] = r["characters_owned"][:, i]
        cols[f"pulls_p{i + 1}"] = r["pulls"][:, i]
    cols["winner"] = r["winner"]
    return pd.DataFrame(cols)


@validate_params(session_size=SESSION_SIZE, n_trials=N_TRIALS, max_pulls=MAX_PULLS, **CONFIG, rng=Rng())
def run_pulls_to_complete(
    session_size: int,
    n_trials: int,
    *,
    max_pulls: int = 2000,
    rng: RngLike = None,
    bag: BagConfig = BagConfig(),
    n_characters: int = 5,
    doubtful: DoubtfulConfig | None = None,
    overdrive_pulls: int | None = None,
) -> dict[str, npt.NDArray[np.float64] | npt.NDArray[np.int64]]:
    """Array kernel of :func:`simulate_pulls_to_complete`.

    Returns
    -------
    dict of str to ndarray, each of shape (n_trials,)
        ``pulls_to_complete`` (float64, NaN if not complete within ``max_pulls``),
        ``god_chances`` (int64, at completion or at the cap) and ``completed`` (bool).

    Raises
    ------
    ParamTypeError, ParamError
        As :func:`simulate_pulls_to_complete`.
    """
    _check_max_pulls(max_pulls, session_size)
    _check_config(bag, n_characters, doubtful, overdrive_pulls)
    gen = rng
    cfg = _Cfg.make(bag, n_characters, doubtful, overdrive_pulls)
    n_sessions = int(max_pulls) // int(session_size)
    if bag.n_god_chance == 0:  # no God Chance chip: completion is impossible, nothing to pull for
        n_sessions = 0
    ptc = np.full(n_trials, np.nan)
    gcs = np.zeros(n_trials, dtype=_I64)
    start = 0
    for size in _chunks(n_trials, 1, n_characters):
        b = _fresh_bag(size, gen, cfg)
        owned = np.zeros((size, 1, n_characters), dtype=bool)
        gcount = np.zeros((1, size), dtype=_I64)
        pulls = np.zeros((1, size), dtype=_I64)
        alive = np.arange(start, start + size)  # original trial of each row
        done = np.zeros(size, dtype=bool)
        for j in range(1, n_sessions + 1):
            touched = _play_session(b, owned, gcount, pulls, 0, int(session_size), gen, cfg)
            if touched.size:
                t = touched[~done[touched]]
                newly = t[owned[t, 0].all(axis=1)]
                if newly.size:
                    done[newly] = True
                    ptc[alive[newly]] = j * session_size
                    gcs[alive[newly]] = gcount[0, newly]
                    n_done = int(done.sum())
                    if n_done == done.size:
                        break
                    if n_done > done.size // 4:
                        keep = np.flatnonzero(~done)
                        b = b.take(keep)
                        owned, gcount, pulls = owned[keep], gcount[:, keep], pulls[:, keep]
                        alive, done = alive[keep], done[keep]
        rest = ~done
        gcs[alive[rest]] = gcount[0, rest]
        start += size
    return {"pulls_to_complete": ptc, "god_chances": gcs, "completed": ~np.isnan(ptc)}


_run_pulls_to_complete = run_pulls_to_complete.__wrapped__


@validate_params(session_size=SESSION_SIZE, n_trials=N_TRIALS, max_pulls=MAX_PULLS, **CONFIG, rng=Rng())
def simulate_pulls_to_complete(
    session_size: int,
    n_trials: int,
    *,
    max_pulls: int = 2000,
    rng: RngLike = None,
    bag: BagConfig = BagConfig(),
    n_characters: int = 5,
    doubtful: DoubtfulConfig | None = None,
    overdrive_pulls: int | None = None,
) -> pd.DataFrame:
    """Simulate pulling sessions of ``session_size`` until コンスリート (all characters).

    Parameters
    ----------
    session_size : int
        Pulls per scheduled session, 1..:data:`~gamesim.games.gacha.rules.MAX_SESSION_PULLS`.
    n_trials : int
        Independent trials, 0..:data:`MAX_TRIALS`.
    max_pulls : int, default 2000
        Cap on scheduled pulls (>= 0): at most ``max_pulls // session_size`` sessions,
        itself at most :data:`MAX_PTC_SESSIONS`.
    rng, bag, n_characters, doubtful, overdrive_pulls
        As in :func:`simulate_schedule`.

    Returns
    -------
    pandas.DataFrame
        ``pulls_to_complete`` (float64: scheduled pulls paid for until complete,
        at session granularity, NOT counting free Overdrive pulls; NaN if not
        complete within ``max_pulls``) and ``god_chances`` (int64, at completion
        or at the cap).

    Raises
    ------
    ParamTypeError
        If an argument has the wrong type (a float, even ``10.0``, or a bool for an
        integer; ``bag`` not a BagConfig ...).
    ParamError
        If a value is out of range (``max_pulls = -10``, ``n_characters = 10**9``),
        or the configuration is invalid (:func:`~gamesim.games.gacha.rules.check_config`).
    """
    r = _run_pulls_to_complete(session_size, n_trials, max_pulls=max_pulls, rng=rng, bag=bag,
                              n_characters=n_characters, doubtful=doubtful,
                              overdrive_pulls=overdrive_pulls)
    return pd.DataFrame({"pulls_to_complete": r["pulls_to_complete"], "god_chances": r["god_chances"]})
