"""Plain-Python, one-game-at-a-time reference of the QftNW rules.

The deck is a ``collections.deque`` of territory types, holdings are lists, and
every step calls the scalar rules core (:mod:`gamesim.games.qftnw.rules`) and the
policies' scalar forms. Slow on purpose: it is the tests' independent
formulation of the vectorized simulator and the benchmark's plain-Python
baseline.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from gamesim.core.lazy import lazy_module
from gamesim.core.rng import RngLike
from gamesim.core.validate import Instance, Int, Pair, ParamTypeError, Rng, Unchecked, validate_params

from .policies import Obs, Policy, make_policy
from .rules import PARAMS, WIN_CONDITIONS, QftnwParams, edition_params, _play_round

if TYPE_CHECKING:
    import pandas as pd
else:  # imported on first use: sweep workers never need it
    pd = lazy_module("pandas")

__all__ = ["reference_game", "reference_simulate"]


class _Uniforms:
    """Uniform(0, 1) numbers from a Generator, fetched in blocks (fewer calls, same law)."""

    def __init__(self, rng: np.random.Generator, block: int = 256):
        self.rng, self.block = rng, block
        self.buf: list[float] = []

    def __call__(self) -> float:
        if not self.buf:
            self.buf = self.rng.random(self.block).tolist()
        return self.buf.pop()


def _draw(probs: Sequence[float], u: float) -> int:
    total = sum(probs)
    x = u * total
    acc = 0.0
    last = 0
    for i, q in enumerate(probs):
        if q > 0:
            last = i
            acc += q
            if x < acc:
                return i + 1
    return last + 1


_POLICY = Instance(Policy, "a Policy (make_policy('uniform') ...)")


@validate_params(p=PARAMS, pol0=_POLICY, pol1=_POLICY,
                 rng=Unchecked("duck-typed (permutation, and random unless _u is given): checked in the body"),
                 check=Unchecked("a flag, used for its truth value"))
def reference_game(p: QftnwParams, pol0: Policy, pol1: Policy, rng: np.random.Generator,
                   *, check: bool = True, _u: _Uniforms | None = None) -> dict[str, Any]:
    """Play one game, one round at a time.

    Parameters
    ----------
    p : QftnwParams
        Rules.
    pol0, pol1 : Policy
        Strategies of seat 0 (bids first in no sense: bids are simultaneous) and seat 1.
    rng : numpy.random.Generator
    check : bool, default True
        Assert after every round that every type's cards are conserved (deck + face-up + holdings
        = ``n_copies``).

    Returns
    -------
    dict
        ``rounds, winner (0/1/-1), win_condition ("three"/"straight5"/"straight3"/""),
        bankruptcies, bankruptcies_p0, bankruptcies_p1, min_funds_p0, min_funds_p1,
        mean_funds_p0, mean_funds_p1, ended ("win"/"cap"/"deck_empty")``.

    Raises
    ------
    AssertionError
        With ``check``, if a card is created or lost (a bug).
    ParamTypeError
        If ``p`` is not a QftnwParams, a policy is not a :class:`Policy` (use
        :func:`make_policy` for names) or ``rng`` has no ``permutation``/``random``
        methods (a numpy Generator, or a stand-in such as the benchmark's).
    """
    if not callable(getattr(rng, "permutation", None)) or (_u is None and not callable(getattr(rng, "random", None))):
        raise ParamTypeError("rng", rng, "a numpy Generator (np.random.default_rng(seed)) or an object with "
                             "its permutation and random methods")
    u = _u or _Uniforms(rng)
    T = p.n_types
    order = rng.permutation(p.n_cards) // p.n_copies
    deck = deque(int(t) for t in order)
    hold = [[0] * T, [0] * T]
    hold[0][deck.popleft()] += 1
    hold[1][deck.popleft()] += 1
    f = [p.start_funds, p.start_funds]
    lock = [0, 0]
    bk = [0, 0]
    minf = [p.start_funds, p.start_funds]
    sumf = [0, 0]
    rounds = 0
    winner, cond, ended = -1, 0, "cap"
    while rounds < p.max_rounds:
        if not deck:
            ended = "deck_empty"
            break
        flip = deck.popleft()
        nxt = deck[0] if (p.advanced and deck) else -1
        h0, h1 = tuple(hold[0]), tuple(hold[1])
        pr0 = pol0.probs_one(Obs(f[0], f[1], h0, h1, flip, nxt, lock[0], lock[1]), p)
        pr1 = pol1.probs_one(Obs(f[1], f[0], h1, h0, flip, nxt, lock[1], lock[0]), p)
        a = _draw(pr0, u())
        b = _draw(pr1, u())
        o = _play_round(hold[0], hold[1], f[0], f[1], a, b, flip, p,
                       (lambda hb, hn: pol0.name_type_one(hb, hn, p), lambda hb, hn: pol1.name_type_one(hb, hn, p)))
        minf[0] = min(minf[0], o.min_f0)
        minf[1] = min(minf[1], o.min_f1)
        if o.bankrupt >= 0:
            bk[o.bankrupt] += 1
        hold = [list(o.hold0), list(o.hold1)]
        f = [o.f0, o.f1]
        deck.extend(o.to_bottom)
        lock = [o.lock0, o.lock1]
        sumf[0] += f[0]
        sumf[1] += f[1]
        rounds += 1
        if check:
            for tt in range(T):
                n = hold[0][tt] + hold[1][tt] + sum(1 for x in deck if x == tt)
                assert n == p.n_copies, (tt, n)
        winner, cond = o.winner, o.cond
        if winner >= 0:
            ended = "win"
            break
    return {
        "rounds": rounds,
        "winner": winner,
        "win_condition": WIN_CONDITIONS[cond - 1] if cond else "",
        "bankruptcies": bk[0] + bk[1],
        "bankruptcies_p0": bk[0],
        "bankruptcies_p1": bk[1],
        "min_funds_p0": minf[0],
        "min_funds_p1": minf[1],
        "mean_funds_p0": sumf[0] / rounds if rounds else float(p.start_funds),
        "mean_funds_p1": sumf[1] / rounds if rounds else float(p.start_funds),
        "ended": ended,
    }


#: Largest ``n_games`` of the plain-Python reference.
MAX_REFERENCE_GAMES: int = 1_000_000


@validate_params(n_games=Int(0, MAX_REFERENCE_GAMES),
                 edition=Unchecked("checked by edition_params"), advanced=Unchecked("checked by edition_params"),
                 policies=Pair("a pair of policies (one per seat)", (tuple, list)), rng=Rng(),
                 check=Unchecked("a flag, used for its truth value"))
def reference_simulate(n_games: int, *, edition: str = "original", advanced: bool = False,
                       policies: Sequence[Any] = ("uniform", "uniform"), rng: RngLike = None,
                       check: bool = True, **rules: Any) -> pd.DataFrame:
    """Scalar counterpart of :func:`gamesim.games.qftnw.simulate` (same columns).

    Parameters
    ----------
    n_games : int
        Games to play (>= 0).
    edition, advanced, policies, rng, **rules
        As in :func:`gamesim.games.qftnw.simulate`.
    check : bool, default True
        Card-conservation assertions after every round.

    Returns
    -------
    pandas.DataFrame
        One row per game, columns as :func:`reference_game` plus ``unfinished``.

    Raises
    ------
    ParamError
        (``ValueError``/``TypeError``) bad edition, rule value or policy name, ``n_games`` not an
        integer in 0..1,000,000 (the reference is slow on purpose), a bad ``rng``.
    """
    p = rules.pop("params", None) or edition_params(edition, advanced=advanced, **rules)
    pol = [make_policy(s) for s in policies]
    u = _Uniforms(rng)
    rows = [reference_game(p, pol[0], pol[1], rng, check=check, _u=u) for _ in range(n_games)]
    df = pd.DataFrame(rows, columns=_COLUMNS)
    df["unfinished"] = df["winner"] < 0
    return df


_COLUMNS = ["rounds", "winner", "win_condition", "bankruptcies", "bankruptcies_p0", "bankruptcies_p1",
            "min_funds_p0", "min_funds_p1", "mean_funds_p0", "mean_funds_p1", "ended"]
