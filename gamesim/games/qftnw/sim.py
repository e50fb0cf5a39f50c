"""Vectorized batch simulator of Quest for the New World (axis 0 = game).

All games of a chunk advance one round together, in lockstep, on numpy arrays:
the deck of every game is a row of a circular buffer (cards put "face down on
the deck bottom" are written after the last card), holdings are count arrays of
shape ``(games, n_types)``, and funds and locked cards are vectors. Games that
end leave the *active set*: their results are written out and the state arrays
are compacted (when at least an eighth of the active rows are done), so late
rounds only touch the games still running. Chunks of at most ``chunk_size``
games bound the memory.

Win conditions are checked through lookup tables over the *presence masks* of
the two players' territory types (``2**n_types`` x ``2**n_types`` entries, built once
with the vectorized rules in :mod:`gamesim.games.qftnw.vecrules`), plus a count
test for three of a kind.

The rules are those of :mod:`gamesim.games.qftnw.rules` (reading in
``docs/rules/qftnw.md``); the scalar reference :mod:`gamesim.games.qftnw.reference`
implements them independently and the tests compare the two.

Random streams (:class:`gamesim.core.rng.KeyedStreams`): the opening shuffle of the deck
has its own stream, and each seat's bid in each round another, keyed ``(round, seat)`` and
drawn for the games of the chunk (one uniform per game, used or not; game ``g`` reads
number ``g`` even after the finished games were compacted away). A rule change (start
funds, a win condition) then leaves the deck and every bid draw of every game on the same
numbers, so variants compared with common random numbers stay paired round by round.

Entry point shared by every game: :func:`simulate` ``(params, n_games, *, rng=None)`` with a
:class:`~gamesim.games.qftnw.rules.QftnwParams` returns :func:`run_games`'s arrays; called the way
it always was, ``simulate(n_games, edition=..., ...)``, it still returns the DataFrame.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, overload

import numpy as np
import numpy.typing as npt

from gamesim.core.batching import chunk_spans
from gamesim.core.lazy import lazy_module
from gamesim.core.registry import ParamError
from gamesim.core.rng import KeyedStreams, RngLike
from gamesim.core.validate import Bool, Int, Pair, ParamTypeError, Rng, Unchecked, check_int, validate_params

from .policies import ObsBatch, Policy, make_policy
from .rules import PARAMS, WIN_CONDITIONS, Cond, QftnwParams, edition_params
from .vecrules import cond_table as _cond_table
from .vecrules import resolve_bids_vec, win_condition_vec

if TYPE_CHECKING:
    import pandas as pd
else:  # imported on first use: sweep workers never need it
    pd = lazy_module("pandas")

__all__ = ["CHUNK_SIZE", "MAX_GAMES", "MAX_CHUNK", "MAX_CHUNK_CELLS", "ENDED", "run_games", "simulate", "GAME_COLUMNS"]

#: Games simulated at once (memory: about 100 bytes per game plus the deck row).
CHUNK_SIZE: int = 100_000
#: Largest ``n_games`` (time), ``chunk_size`` and ``chunk_size x n_cards`` (memory) accepted.
MAX_GAMES: int = 10_000_000
MAX_CHUNK: int = 1_000_000
MAX_CHUNK_CELLS: int = 20_000_000
#: ``ended`` codes: 0 a player won, 1 the round cap was reached, 2 the deck ran out.
ENDED: tuple[str, ...] = ("win", "cap", "deck_empty")
#: Columns of :func:`simulate`'s DataFrame.
GAME_COLUMNS: tuple[str, ...] = (
    "rounds", "winner", "win_condition", "bankruptcies", "bankruptcies_p0", "bankruptcies_p1",
    "min_funds_p0", "min_funds_p1", "mean_funds_p0", "mean_funds_p1", "ended", "unfinished",
)

_I64 = np.int64


class _Cond:
    """Win-condition evaluation for both players of many games."""

    def __init__(self, p: QftnwParams):
        self.p = p
        self.table = _cond_table(p)
        self.pow2 = (1 << np.arange(p.n_types)).astype(_I64)

    def __call__(self, h0: np.ndarray, h1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        p = self.p
        if self.table is None:
            return win_condition_vec(h0, h1, p), win_condition_vec(h1, h0, p)
        m0 = (h0 > 0) @ self.pow2
        m1 = (h1 > 0) @ self.pow2
        t0 = h0.max(axis=1) >= p.n_of_a_kind
        t1 = h1.max(axis=1) >= p.n_of_a_kind
        c0 = np.where(t0, int(Cond.THREE), self.table[m0, m1])
        c1 = np.where(t1, int(Cond.THREE), self.table[m1, m0])
        return c0, c1



def _push(deck: np.ndarray, head: np.ndarray, size: np.ndarray, rows: np.ndarray, t: np.ndarray,
          count: np.ndarray | int, n_cards: int) -> None:
    """Put ``count`` cards of type ``t`` face down at the bottom of the decks of ``rows``."""
    if rows.size == 0:
        return
    cnt = np.broadcast_to(np.asarray(count, dtype=_I64), rows.shape)
    kmax = int(cnt.max())
    for k in range(kmax):
        sel = cnt > k
        r = rows[sel]
        pos = (head[r] + size[r]) % n_cards
        deck[r, pos] = t[sel]
        size[r] += 1


def _bankrupt(rows: np.ndarray, hb: np.ndarray, ho: np.ndarray, namer: Policy, p: QftnwParams,
              deck: np.ndarray, head: np.ndarray, size: np.ndarray) -> None:
    """Bankruptcy penalty for ``rows``: ``hb`` is the bankrupt's holdings, ``ho`` the opponent's."""
    if rows.size == 0:
        return
    t = namer.name_type_batch(hb[rows], ho[rows], p)
    ok = t >= 0
    rows, t = rows[ok], t[ok]
    if rows.size == 0:
        return
    c = hb[rows, t].astype(_I64)
    hb[rows, t] = 0
    if p.transfer == "discard_all":
        _push(deck, head, size, rows, t, c, p.n_cards)
    else:
        ho[rows, t] += (c - 1).astype(ho.dtype)
        _push(deck, head, size, rows, t, 1, p.n_cards)


def _check_cards(deck: np.ndarray, head: np.ndarray, size: np.ndarray, h0: np.ndarray, h1: np.ndarray,
                 live: np.ndarray, p: QftnwParams) -> None:
    N = p.n_cards
    pos = (head[:, None] + np.arange(N)) % N
    valid = np.arange(N)[None, :] < size[:, None]
    vals = np.take_along_axis(deck, pos, axis=1)
    for t in range(p.n_types):
        n = ((vals == t) & valid).sum(axis=1) + h0[:, t] + h1[:, t]
        bad = live & (n != p.n_copies)
        if bad.any():
            raise AssertionError(f"card conservation broken for type {t}: {n[bad][:5]}")


@lru_cache(maxsize=16)
def _bid_tables(p: QftnwParams) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Round outcome for every (bid0, bid1, funds0, funds1), built with :func:`resolve_bids_vec`.

    Index ``((a * 6 + b) * (cap + 1) + f0) * (cap + 1) + f1``; returns (winner, funds0, funds1).
    """
    c1 = p.fund_cap + 1
    a, b, f0, f1 = (x.ravel() for x in np.meshgrid(np.arange(6), np.arange(6), np.arange(c1), np.arange(c1),
                                                    indexing="ij"))
    w, g0, g1 = resolve_bids_vec(a, b, f0, f1, p)
    for t in (w, g0, g1):
        t.setflags(write=False)
    return w, g0, g1


def _run_chunk(p: QftnwParams, pol0: Policy, pol1: Policy, n: int, rng: np.random.Generator,
               check: bool) -> dict[str, np.ndarray]:
    N, T = p.n_cards, p.n_types
    K = p.n_of_a_kind
    C1 = p.fund_cap + 1
    hdt = np.int16
    out = {
        "rounds": np.zeros(n, _I64), "winner": np.full(n, -1, _I64), "cond": np.zeros(n, _I64),
        "bk0": np.zeros(n, _I64), "bk1": np.zeros(n, _I64), "minf0": np.zeros(n, _I64),
        "minf1": np.zeros(n, _I64), "sumf0": np.zeros(n, _I64), "sumf1": np.zeros(n, _I64),
        "ended": np.ones(n, _I64),
    }
    cond_of = _Cond(p)
    table = cond_of.table
    bit = cond_of.pow2
    tw, tg0, tg1 = _bid_tables(p)
    streams = KeyedStreams(rng)
    deck = streams(0).permuted(np.broadcast_to((np.arange(N) // p.n_copies).astype(np.int8), (n, N)), axis=1)
    r = np.arange(n)
    h0 = np.zeros((n, T), hdt)
    h1 = np.zeros((n, T), hdt)
    h0[r, deck[:, 0]] = 1
    h1[r, deck[:, 1]] = 1
    mask0 = bit[deck[:, 0]]  # presence masks of the territory types held
    mask1 = bit[deck[:, 1]]
    head = np.full(n, 2, _I64)
    size = np.full(n, N - 2, _I64)
    f0 = np.full(n, p.start_funds, _I64)
    f1 = f0.copy()
    l0 = np.zeros(n, _I64)
    l1 = np.zeros(n, _I64)
    bk0 = np.zeros(n, _I64)
    bk1 = np.zeros(n, _I64)
    minf0 = f0.copy()
    minf1 = f0.copy()
    sumf0 = np.zeros(n, _I64)
    sumf1 = np.zeros(n, _I64)
    gid = np.arange(n)
    live = np.ones(n, bool)
    n_dead = 0
    rnd = 0  # every active game has played the same number of rounds (lockstep)

    def finish(sel: np.ndarray, winner: np.ndarray | int, cond: np.ndarray | int, ended: int) -> None:
        g = gid[sel]
        out["rounds"][g] = rnd
        out["winner"][g] = winner
        out["cond"][g] = cond
        out["bk0"][g], out["bk1"][g] = bk0[sel], bk1[sel]
        out["minf0"][g], out["minf1"][g] = minf0[sel], minf1[sel]
        out["sumf0"][g], out["sumf1"][g] = sumf0[sel], sumf1[sel]
        out["ended"][g] = ended

    while gid.size:
        m = gid.size
        r = np.arange(m)
        empty = size <= 0
        if empty.any():
            sel = np.flatnonzero(empty & live)
            finish(sel, -1, 0, 2)
            n_dead += sel.size
            live &= ~empty
            size[empty] = 1  # dead rows keep running harmlessly until compaction
        flip = deck[r, head].astype(_I64)
        head += 1
        head[head == N] = 0
        size -= 1
        nxt = None
        if p.advanced:
            nxt = np.where(size > 0, deck[r, head], -1).astype(_I64)
        top = int(gid[-1]) + 1  # a prefix of the round's draws holds every game still running
        u0 = streams(1, rnd, 0).random(top)[gid]
        u1 = streams(1, rnd, 1).random(top)[gid]
        a = pol0.bid_from_uniform(ObsBatch(f0, f1, h0, h1, flip, nxt, l0, l1), p, u0)
        b = pol1.bid_from_uniform(ObsBatch(f1, f0, h1, h0, flip, nxt, l1, l0), p, u1)
        k = ((a * 6 + b) * C1 + f0) * C1 + f1
        w = tw[k]
        g0 = tg0[k]
        g1 = tg1[k]
        np.minimum(minf0, g0, out=minf0)
        np.minimum(minf1, g1, out=minf1)
        b0 = g0 <= 0
        b1 = g1 <= 0
        anyb = b0 | b1
        brows = np.flatnonzero(anyb)
        if brows.size:
            bk0 += b0
            bk1 += b1
            g0[brows] = p.reset_funds
            g1[brows] = p.reset_funds
            _bankrupt(np.flatnonzero(b0), h0, h1, pol1, p, deck, head, size)
            _bankrupt(np.flatnonzero(b1), h1, h0, pol0, p, deck, head, size)
        f0, f1 = g0, g1
        # the bid winner takes the territory; a tie sends it face down to the deck bottom
        t0 = np.flatnonzero(w == 0)
        ft0 = flip[t0]
        h0[t0, ft0] += 1
        t1 = np.flatnonzero(w == 1)
        ft1 = flip[t1]
        h1[t1, ft1] += 1
        tie = np.flatnonzero(w < 0)
        if tie.size:
            pos = head[tie] + size[tie]
            pos[pos >= N] -= N
            deck[tie, pos] = flip[tie]
            size[tie] += 1
        if p.advanced:
            l0 = np.where(w < 0, 0, a)
            l1 = np.where(w < 0, 0, b)
        sumf0 += f0
        sumf1 += f1
        rnd += 1
        if check:
            _check_cards(deck, head, size, h0, h1, live, p)
        if brows.size:  # holdings changed beyond the taken card: recompute masks
            mask0[brows] = (h0[brows] > 0) @ bit
            mask1[brows] = (h1[brows] > 0) @ bit
        # win check. Without a bankruptcy only the taker's holdings grew (and the other player's
        # conditions can only have been spoiled), so only the taker can newly satisfy a condition.
        wins: list[tuple[np.ndarray, np.ndarray | int, np.ndarray]] = []
        for rows, ft, hs, ms, mo, who in ((t0, ft0, h0, mask0, mask1, 0), (t1, ft1, h1, mask1, mask0, 1)):
            if not rows.size:
                continue
            ms[rows] |= bit[ft]
            if table is not None:
                c = np.where(hs[rows, ft] >= K, int(Cond.THREE), table[ms[rows], mo[rows]])
            else:
                c = (cond_of(h0[rows], h1[rows]))[who]
            hit = c > 0
            if hit.any():
                wins.append((rows[hit], who, c[hit]))
        if brows.size:  # a bankruptcy: full check of both players, the non-bankrupt wins ties
            c0, c1 = cond_of(h0[brows], h1[brows])
            bb0 = b0[brows]
            win = np.where((c0 > 0) & (c1 > 0), np.where(bb0, 1, 0),
                           np.where(c0 > 0, 0, np.where(c1 > 0, 1, -1)))
            cond = np.where(win == 0, c0, c1)
            hit = win >= 0
            wins = [(rw[~anyb[rw]], who, c[~anyb[rw]]) for rw, who, c in wins]
            if hit.any():
                wins.append((brows[hit], win[hit], cond[hit]))
        for rows, who, c in wins:
            rows_live = live[rows]
            if not rows_live.all():
                rows, c = rows[rows_live], c[rows_live]
                who = who if np.isscalar(who) else who[rows_live]
            if rows.size:
                finish(rows, who, c, 0)
                n_dead += rows.size
                live[rows] = False
        if rnd >= p.max_rounds:
            finish(np.flatnonzero(live), -1, 0, 1)
            break
        if n_dead and (n_dead * 8 >= m or n_dead == m):
            keep = np.flatnonzero(live)
            gid = gid[keep]
            deck, head, size = deck[keep], head[keep], size[keep]
            h0, h1, mask0, mask1 = h0[keep], h1[keep], mask0[keep], mask1[keep]
            f0, f1, l0, l1 = f0[keep], f1[keep], l0[keep], l1[keep]
            bk0, bk1 = bk0[keep], bk1[keep]
            minf0, minf1, sumf0, sumf1 = minf0[keep], minf1[keep], sumf0[keep], sumf1[keep]
            live = np.ones(keep.size, bool)
            n_dead = 0
    return out


#: The seats' strategies: two items, each a spec string or a Policy (make_policy checks them).
POLICY_PAIR = Pair("a pair of policies (one per seat)")


@validate_params(p=PARAMS, n_games=Int(0, MAX_GAMES), chunk_size=Int(1, MAX_CHUNK), check=Bool(),
                 policies=POLICY_PAIR, rng=Rng())
def run_games(p: QftnwParams, policies: Sequence[Any], n_games: int, *, rng: RngLike = None,
              chunk_size: int = CHUNK_SIZE, check: bool = False) -> dict[str, npt.NDArray[Any]]:
    """Simulate ``n_games`` independent games; per-game arrays.

    Parameters
    ----------
    p : QftnwParams
        Rules (see :func:`gamesim.games.qftnw.rules.edition_params`).
    policies : sequence of 2 (str or Policy)
        Strategies of seats 0 and 1 (spec strings as in
        :func:`gamesim.games.qftnw.policies.make_policy`).
    n_games : int
        Number of games (>= 0).
    rng : int, SeedSequence, Generator or None, keyword-only
        Random source, normalised by ``numpy.random.default_rng``.
    chunk_size : int, default CHUNK_SIZE
        Games simulated at once (memory bound).
    check : bool, default False
        Assert card conservation (every type: deck + holdings = ``n_copies``) after every round
        (slow; for tests).

    Returns
    -------
    dict of str to ndarray, each of shape (n_games,)
        ``rounds`` (int64, rounds played), ``winner`` (int64: 0, 1, or -1 unfinished), ``cond``
        (int64 :class:`~gamesim.games.qftnw.rules.Cond` code, 0 when unfinished), ``bk0``,
        ``bk1`` (bankruptcies of each seat), ``minf0``, ``minf1`` (lowest funds reached, before any
        reset: <= 0 means a bankruptcy), ``sumf0``, ``sumf1`` (sum over rounds of end-of-round
        funds), ``ended`` (int64 index into :data:`ENDED`).

    Raises
    ------
    ParamError
        (``ValueError``; ``ParamTypeError``, also a ``TypeError``, for wrong types) ``n_games`` not
        an integer in 0..10**7, ``chunk_size`` not in 1..1,000,000 or with ``chunk_size x n_cards``
        above 20,000,000 (memory), not two policies, an unknown policy, a bad ``rng``.
    AssertionError
        With ``check``, if a card is created or lost (a bug).
    """
    if chunk_size * p.n_cards > MAX_CHUNK_CELLS:  # a relation of two arguments: checked here
        raise ParamError("chunk_size", chunk_size, f"at most {MAX_CHUNK_CELLS // p.n_cards:,} with {p.n_cards} territory "
                         f"cards (chunk_size x n_cards <= {MAX_CHUNK_CELLS:,}, memory)")
    pol0, pol1 = (make_policy(s) for s in policies)
    parts = [_run_chunk(p, pol0, pol1, stop - s, rng, check) for s, stop in chunk_spans(n_games, chunk_size)]
    keys = ("rounds", "winner", "cond", "bk0", "bk1", "minf0", "minf1", "sumf0", "sumf1", "ended")
    if not parts:
        return {k: np.zeros(0, _I64) for k in keys}
    return {k: np.concatenate([q[k] for q in parts]) for k in keys}


#: Unchecked body of :func:`run_games`, for callers that checked its arguments (:func:`simulate`).
_run_games = run_games.__wrapped__


def to_frame(r: dict[str, npt.NDArray[Any]], p: QftnwParams) -> pd.DataFrame:
    """Per-game arrays of :func:`run_games` as :func:`simulate`'s DataFrame."""
    rounds = r["rounds"]
    safe = np.maximum(rounds, 1)
    labels = np.array(("",) + WIN_CONDITIONS, dtype=object)
    df = pd.DataFrame({
        "rounds": rounds,
        "winner": r["winner"],
        "win_condition": labels[r["cond"]],
        "bankruptcies": r["bk0"] + r["bk1"],
        "bankruptcies_p0": r["bk0"],
        "bankruptcies_p1": r["bk1"],
        "min_funds_p0": r["minf0"],
        "min_funds_p1": r["minf1"],
        "mean_funds_p0": np.where(rounds > 0, r["sumf0"] / safe, float(p.start_funds)),
        "mean_funds_p1": np.where(rounds > 0, r["sumf1"] / safe, float(p.start_funds)),
        "ended": np.array(ENDED, dtype=object)[r["ended"]],
    })
    df["unfinished"] = df["winner"] < 0
    return df


@overload
def simulate(params: QftnwParams, n_games: int, *, rng: RngLike = None,
             policies: Sequence[Any] = ("uniform", "uniform"),
             chunk_size: int = CHUNK_SIZE) -> dict[str, npt.NDArray[Any]]: ...


@overload
def simulate(params: int | None = None, n_games: int | None = None, *, rng: RngLike = None, edition: str = "original",
             advanced: bool = False, policies: Sequence[Any] = ("uniform", "uniform"), chunk_size: int = CHUNK_SIZE,
             **rules: Any) -> pd.DataFrame: ...


@validate_params(
    params=Unchecked("a QftnwParams or n_games: the form is told apart in the body"),
    n_games=Unchecked("the second positional argument or a keyword, by form: checked in the body"),
    rng=Rng(),
    edition=Unchecked("checked by edition_params (DataFrame form), refused with a QftnwParams"),
    advanced=Unchecked("checked by edition_params (DataFrame form), refused with a QftnwParams"),
    policies=POLICY_PAIR,
    chunk_size=Int(1, MAX_CHUNK),
)
def simulate(params: QftnwParams | int | None = None, n_games: int | None = None, *, rng: RngLike = None,
             edition: str = "original", advanced: bool = False, policies: Sequence[Any] = ("uniform", "uniform"),
             chunk_size: int = CHUNK_SIZE, **rules: Any) -> dict[str, npt.NDArray[Any]] | pd.DataFrame:
    """Simulate whole games of Quest for the New World: per-game arrays, or one row per game.

    Two forms, told apart by the type of the first argument:

    * ``simulate(params, n_games, *, rng=None, policies=..., chunk_size=...)`` with a
      :class:`~gamesim.games.qftnw.rules.QftnwParams`: every game's common entry point; returns
      :func:`run_games`'s dict of arrays (the same random streams: identical arrays for the
      same ``rng``). ``edition``, ``advanced`` and rule overrides belong in ``params`` here.
    * ``simulate(n_games, *, edition=..., advanced=..., policies=..., rng=..., **rules)`` (the
      form this function always had): the rules from :func:`~gamesim.games.qftnw.rules.edition_params`
      and a :class:`pandas.DataFrame` (:func:`to_frame`).

    Parameters
    ----------
    params : QftnwParams or int
        The rules (first form), or the number of games (second form, >= 0).
    n_games : int or None, default None
        Number of games (>= 0): the second positional argument in the first form; in the second
        form only as a keyword (``simulate(n_games=1000)``).
    edition : {"original", "spa", "v2"}, default "original"
        ``original`` = #29 クエストフォーザニューワールド; ``spa`` = QftNW スパ帝国版ルール;
        ``v2`` = QftNW スパ帝国版ルール ver.2 (see :func:`~gamesim.games.qftnw.rules.edition_params`).
    advanced : bool, default False
        上級ルール (visible deck top; no bidding the same card two rounds running; a tie lifts it).
    policies : pair of str or Policy, default ("uniform", "uniform")
        Seat 0 and seat 1 strategies: ``"uniform"``, ``"cautious"``, ``"greedy"``,
        ``"mixed:p1,p2,p3,p4,p5"``, ``"equilibrium"`` or ``"equilibrium:fund_weight,bankrupt_penalty"``.
    rng : int, SeedSequence, Generator or None, keyword-only
        Random source, normalised with ``numpy.random.default_rng``; ``None`` = fresh entropy.
    chunk_size : int, default 100,000
        Games simulated at once (memory bound).
    **rules
        Overrides of any :class:`~gamesim.games.qftnw.rules.QftnwParams` field, e.g.
        ``start_funds=4, fund_cap=6, gain=2, n_copies=4, tie_floor="both", max_rounds=2000``.

    Returns
    -------
    dict of str to ndarray or pandas.DataFrame
        First form: :func:`run_games`'s arrays, each of shape (n_games,). Second form: one row
        per game (n_games rows) with columns

        - ``rounds`` (int64): rounds played (the cap for unfinished games);
        - ``winner`` (int64): 0 or 1 (seat), -1 when unfinished;
        - ``win_condition`` (str): ``"three"``, ``"straight5"``, ``"straight3"``, or ``""``
          when unfinished (a player meeting several conditions gets the first in this order);
        - ``bankruptcies`` (int64): both players together; ``bankruptcies_p0``, ``bankruptcies_p1``;
        - ``min_funds_p0``, ``min_funds_p1`` (int64): lowest funds reached, before the reset (<= 0:
          went bankrupt at least once);
        - ``mean_funds_p0``, ``mean_funds_p1`` (float64): mean of end-of-round funds (after any
          reset), in funds;
        - ``ended`` (str): ``"win"``, ``"cap"`` (``max_rounds`` reached) or ``"deck_empty"``;
        - ``unfinished`` (bool): ``winner == -1``. Unfinished games are kept, never dropped.

    Raises
    ------
    ParamError
        (a ``ValueError``; ``ParamTypeError``, also a ``TypeError``, for a wrong type: ``2.5`` or
        ``True`` for an integer, ``"no"`` for ``advanced``) unknown edition, rule field or policy;
        a rule value out of range (``start_funds`` above ``fund_cap`` included, see
        :meth:`~gamesim.games.qftnw.rules.QftnwParams.validate`); ``n_games`` not in 0..10**7;
        ``chunk_size`` as :func:`run_games`; a bad ``rng``; with a QftnwParams, ``edition``,
        ``advanced`` or a rule override also given (they belong in ``params``).
    ParamTypeError
        (a ``TypeError``) In the second form, ``n_games`` given both positionally and as a keyword.

    Notes
    -----
    Rulebook: ``shared/seeds/gimmick_warehouse_qftnw_icecream_kaminoikari_mecharena_ja.txt``;
    reading in ``docs/rules/qftnw.md``. Vectorized over games in lockstep; finished games leave
    the active set.

    Examples
    --------
    >>> df = simulate(1000, edition="spa", rng=1)
    >>> sorted(df.columns[:4])
    ['bankruptcies', 'rounds', 'win_condition', 'winner']
    >>> r = simulate(edition_params("spa"), 1000, rng=1)
    >>> r["winner"].shape
    (1000,)
    """
    if isinstance(params, QftnwParams):
        if edition != "original" or advanced is not False or rules:
            bad = "edition" if edition != "original" else "advanced" if advanced is not False else sorted(rules)[0]
            raise ParamError(bad, rules.get(bad, edition if bad == "edition" else advanced),
                             "unset with a QftnwParams (set it in params: edition_params(...) or QftnwParams(...))")
        n_games = check_int("n_games", n_games, min=0, max=MAX_GAMES)
        return _run_games(params, policies, n_games, rng=rng, chunk_size=chunk_size)
    if params is not None and n_games is not None:
        raise ParamTypeError("n_games", n_games, "given once: simulate(n_games, ...) or simulate(params, n_games)")
    n_games = check_int("n_games", params if params is not None else n_games, min=0, max=MAX_GAMES)
    p = edition_params(edition, advanced=advanced, **rules)
    return to_frame(_run_games(p, policies, n_games, rng=rng, chunk_size=chunk_size), p)
