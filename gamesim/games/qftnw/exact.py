"""Exact distribution of the first rounds of QftNW by enumeration (the tests' oracle).

While no card put on the deck bottom has come back up, the territory cards
flipped are a uniformly random sequence drawn without replacement from the
cards not yet seen (the deck is shuffled and cards go back only to the bottom).
So for ``max_rounds <= n_cards - 2`` (``- 3`` under 上級ルール, whose deck top is also
seen) the game truncated at ``max_rounds`` rounds is a finite Markov chain over
states ``(holdings, funds, locked cards, unseen cards by type, visible deck top,
any bankruptcy so far)``, enumerated here exactly with the rules core and the
policies' scalar probabilities. Its results are exact values of the task
metrics for games capped at ``max_rounds`` (unfinished games counted as such).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from gamesim.core.validate import Pair, validate_params

from .policies import Obs, Policy, make_policy
from .rules import PARAMS, Cond, QftnwParams, _play_round

__all__ = ["EXACT_MAX_STATES", "exact_truncated"]

#: Safety cap on live states per round (ValueError beyond it).
EXACT_MAX_STATES: int = 400_000


@validate_params(p=PARAMS, policies=Pair("a pair of policies (one per seat)", (tuple, list)))
def exact_truncated(p: QftnwParams, policies: tuple[Any, Any] = ("uniform", "uniform")) -> dict[str, float]:
    """Exact expectations of the per-game metrics for games capped at ``p.max_rounds`` rounds.

    Parameters
    ----------
    p : QftnwParams
        Rules; ``p.max_rounds`` is the number of rounds enumerated.
    policies : pair of str or Policy
        Seat strategies (any policy: their scalar bid probabilities are used).

    Returns
    -------
    dict of str to float
        ``p0_wins``, ``p1_wins``, ``unfinished``, ``cond_three``, ``cond_straight5``,
        ``cond_straight3``, ``any_bankruptcy`` (probabilities); ``bankruptcies``,
        ``bankruptcies_p0``, ``bankruptcies_p1``, ``seat_margin`` (expectations; seat margin is
        P(seat 0 wins) - P(seat 1 wins)).

    Raises
    ------
    ValueError
        If ``p.max_rounds`` exceeds the rounds for which the enumeration is exact
        (``n_cards - 2``, or ``n_cards - 3`` under 上級ルール), or the state space exceeds
        :data:`EXACT_MAX_STATES`.

    Notes
    -----
    Cost grows quickly with ``max_rounds``: a few rounds of the 35-card game, or whole games
    of a small deck (e.g. 3 types x 3 copies with pairs winning).
    """
    pol: tuple[Policy, Policy] = (make_policy(policies[0]), make_policy(policies[1]))
    T, N = p.n_types, p.n_cards
    limit = N - 3 if p.advanced else N - 2
    if p.max_rounds > limit:
        raise ValueError(f"max_rounds = {p.max_rounds}: the enumeration is exact only up to {limit} rounds")
    pool0 = tuple([p.n_copies] * T)
    states: dict[tuple, float] = defaultdict(float)
    for t0 in range(T):
        for t1 in range(T):
            c1 = pool0[t1] - (t0 == t1)
            if c1 <= 0:
                continue
            pr = pool0[t0] / N * c1 / (N - 1)
            pool = list(pool0)
            pool[t0] -= 1
            pool[t1] -= 1
            h0 = [0] * T
            h1 = [0] * T
            h0[t0] += 1
            h1[t1] += 1
            base = (tuple(h0), tuple(h1), p.start_funds, p.start_funds, 0, 0)
            if p.advanced:
                tot = N - 2
                for tn in range(T):
                    if pool[tn]:
                        pl = list(pool)
                        pl[tn] -= 1
                        states[base + (tuple(pl), tn, False)] += pr * pool[tn] / tot
            else:
                states[base + (tuple(pool), -1, False)] += pr
    namers = (lambda hb, hn: pol[0].name_type_one(hb, hn, p), lambda hb, hn: pol[1].name_type_one(hb, hn, p))
    res: dict[str, float] = defaultdict(float)
    conds = {int(Cond.THREE): "cond_three", int(Cond.STRAIGHT5): "cond_straight5",
             int(Cond.STRAIGHT3): "cond_straight3"}
    for _ in range(p.max_rounds):
        nxt_states: dict[tuple, float] = defaultdict(float)
        for (h0, h1, f0, f1, l0, l1, pool, nxt, had), pr in states.items():
            tot = sum(pool)
            # chance: the flipped card and, under 上級ルール, the new visible deck top. Under 上級ルール
            # the flipped card is the top seen last round (nxt) and the new top is drawn now.
            flips = []
            for t, c in enumerate(pool):
                if c:
                    pl = list(pool)
                    pl[t] -= 1
                    flips.append((nxt, t, tuple(pl), c / tot) if p.advanced else (t, -1, tuple(pl), c / tot))
            for flip, shown, pool_f, pf in flips:
                pr0 = pol[0].probs_one(Obs(f0, f1, h0, h1, flip, shown, l0, l1), p)
                pr1 = pol[1].probs_one(Obs(f1, f0, h1, h0, flip, shown, l1, l0), p)
                for a in range(1, 6):
                    pa = pr0[a - 1]
                    if pa <= 0:
                        continue
                    for b in range(1, 6):
                        pb = pr1[b - 1]
                        if pb <= 0:
                            continue
                        q = pr * pf * pa * pb
                        o = _play_round(h0, h1, f0, f1, a, b, flip, p, namers)
                        if o.bankrupt >= 0:
                            res["bankruptcies_p%d" % o.bankrupt] += q
                            if not had:
                                res["any_bankruptcy"] += q
                        if o.winner >= 0:
                            res[f"p{o.winner}_wins"] += q
                            res[conds[o.cond]] += q
                            continue
                        key = (o.hold0, o.hold1, o.f0, o.f1, o.lock0, o.lock1)
                        had2 = had or o.bankrupt >= 0
                        nxt_states[key + (pool_f, shown, had2)] += q
        states = nxt_states
        if len(states) > EXACT_MAX_STATES:
            raise ValueError(f"exact enumeration too large ({len(states)} states); use fewer rounds")
    out = {k: float(res[k]) for k in ("p0_wins", "p1_wins", "cond_three", "cond_straight5", "cond_straight3",
                                      "any_bankruptcy", "bankruptcies_p0", "bankruptcies_p1")}
    out["unfinished"] = float(sum(states.values()))
    out["bankruptcies"] = out["bankruptcies_p0"] + out["bankruptcies_p1"]
    out["seat_margin"] = out["p0_wins"] - out["p1_wins"]
    return out
