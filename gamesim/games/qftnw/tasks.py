"""Sweepable tasks of Quest for the New World (registered as game ``"qftnw"``).

One task, ``game``: whole two-player games under an edition's rules, with
every rule number a designer would tune and both seats' policies as
parameters. Per-game metrics: length, bankruptcies (破産), winner and seat,
win condition, funds trajectory summary. Where the truncated game is small
enough for exact enumeration (:func:`gamesim.games.qftnw.exact.exact_truncated`)
the exact values fill the ``exact`` column.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from gamesim.core.registry import Metric, Param, ParamError, Task

from .exact import exact_truncated
from .policies import make_policy
from .rules import EDITIONS, MAX_COPIES, MAX_FUND_CAP, MAX_ROUNDS, TIE_FLOORS, QftnwParams, edition_params
from .sim import simulate

__all__ = ["TASKS", "GAME_TASK", "GAME_PARAMS", "default_params", "rules_from_params", "policies_from_params",
           "check_game"]

GAME_PARAMS: tuple[Param, ...] = (
    Param("edition", "str", "original", "rule edition: original (#29), spa (スパ帝国版), v2 (スパ帝国版 ver.2)",
          choices=EDITIONS),
    Param("advanced", "bool", False, "上級ルール: deck top visible, no same hand card two rounds running"),
    Param("policy0", "str", "uniform", "seat 0 strategy: uniform, cautious, greedy, mixed[:p1,..,p5], "
          "equilibrium[:fund_weight,bankrupt_penalty], optionally @most/@spoil/@take: how it names the "
          "bankrupt opponent's type (most held / spoil its near win / best for its own win; default most)"),
    Param("policy1", "str", "uniform", "seat 1 strategy (as policy0)"),
    Param("mixed_probs", "float_list", [0.2, 0.2, 0.2, 0.2, 0.2],
          "weights of bids 1..5 for a bare 'mixed' policy", min=0, max=1e12),
    Param("fund_weight", "float", 1.0, "equilibrium payoff: value of one fund in territory cards",
          min=-1e6, max=1e6),
    Param("bankrupt_penalty", "float", 2.0, "equilibrium payoff: extra cost of a bankruptcy (territory cards)",
          min=-1e6, max=1e6),
    Param("start_funds", "int", 5, "starting funds (funds; at most fund_cap)", min=1, max=MAX_FUND_CAP),
    Param("reset_funds", "int", None, "funds after a bankruptcy (funds; default start_funds)", min=1,
          max=MAX_FUND_CAP, optional=True),
    Param("fund_cap", "int", 6, "funds cap (funds)", min=1, max=MAX_FUND_CAP),
    Param("gain", "int", None, "funds gained winning by exactly one (default: 1 original, 2 Spa editions)",
          min=0, max=MAX_FUND_CAP, optional=True),
    Param("tie_floor", "str", None, "tie: 'each' = never below 1 (original's text, its default); 'both' = "
          "no loss only when both at 1 (Spa editions' literal text, their default)", choices=TIE_FLOORS,
          optional=True),
    Param("transfer", "str", None, "bankruptcy penalty: discard_all (original) or "
          "one_discard_rest_to_opponent (Spa); default by edition",
          choices=("discard_all", "one_discard_rest_to_opponent"), optional=True),
    Param("straight3", "bool", None, "opponent-free three-card straight wins (default: original/spa yes, "
          "v2 no)", optional=True),
    Param("n_types", "int", 7, "territory types (A..G)", min=1, max=26),
    Param("n_copies", "int", 5, "cards per territory type", min=1, max=MAX_COPIES),
    Param("n_of_a_kind", "int", 3, "same-type cards that win", min=2, max=MAX_COPIES),
    Param("long_straight", "int", 5, "length of the winning straight (types)", min=2, max=26),
    Param("short_straight", "int", 3, "length of the opponent-free straight (types)", min=2, max=26),
    Param("max_rounds", "int", 2000, "round cap: games not over are reported unfinished (rounds)", min=1,
          max=MAX_ROUNDS),
)


def default_params(**overrides: Any) -> dict[str, Any]:
    """Resolved parameter dict of the ``game`` task: defaults updated with ``overrides``.

    Raises
    ------
    KeyError
        If an override is not a parameter of the task.
    """
    return GAME_TASK.defaults(**overrides)


_RULE_KEYS = ("start_funds", "reset_funds", "fund_cap", "gain", "tie_floor", "transfer", "straight3",
              "n_types", "n_copies", "n_of_a_kind", "long_straight", "short_straight", "max_rounds")


def rules_from_params(params: Mapping[str, Any]) -> QftnwParams:
    """The :class:`QftnwParams` of a resolved parameter dict (``None`` = edition default).

    Raises
    ------
    ValueError
        A rule value out of range (see :meth:`QftnwParams.validate`).
    """
    kw = {k: params.get(k) for k in _RULE_KEYS}
    return edition_params(str(params["edition"]), advanced=bool(params["advanced"]), **kw)


def policies_from_params(params: Mapping[str, Any]) -> tuple[Any, Any]:
    """Both seats' :class:`~gamesim.games.qftnw.policies.Policy` objects.

    Raises
    ------
    ValueError
        Unknown policy name or bad arguments.
    """
    kw = dict(mixed_probs=params.get("mixed_probs"), fund_weight=float(params.get("fund_weight", 1.0)),
              bankrupt_penalty=float(params.get("bankrupt_penalty", 2.0)))
    return make_policy(params["policy0"], **kw), make_policy(params["policy1"], **kw)


def check_game(params: Mapping[str, Any]) -> None:
    """Cross-field checks of the ``game`` task.

    Raises
    ------
    ParamError
        ``start_funds``/``reset_funds`` above ``fund_cap`` (key ``fund_cap``); ``policy0``/``policy1``
        unknown or malformed; ``mixed_probs`` not five non-negative weights with a positive sum;
        any other rule out of range (key named in the message).
    """
    cap = int(params["fund_cap"])
    for k in ("start_funds", "reset_funds"):
        v = params.get(k)
        if v is not None and int(v) > cap:
            raise ParamError(k, v, f"an integer in 1..fund_cap ({cap})")
    mp = params.get("mixed_probs")
    if mp is not None and (len(mp) != 5 or min(mp) < 0 or sum(mp) <= 0):
        raise ParamError("mixed_probs", mp, "five non-negative weights (bids 1..5) with a positive sum")
    for k in ("policy0", "policy1"):
        try:
            make_policy(params[k], mixed_probs=mp, fund_weight=float(params["fund_weight"]),
                        bankrupt_penalty=float(params["bankrupt_penalty"]))
        except ValueError as exc:
            raise ParamError(k, params[k], f"a policy spec ({exc})") from None
    try:
        rules_from_params(params)
    except ParamError:
        raise
    except ValueError as exc:
        msg = str(exc)
        key = msg.split(" ", 1)[0]
        key = key if key in params else "edition"
        raise ParamError(key, params.get(key), msg.split("must be ", 1)[-1]) from None


def _sim_game(params: Mapping[str, Any], n_trials: int, *, rng: np.random.Generator
              ) -> dict[str, npt.NDArray[Any]]:
    p = rules_from_params(params)
    r = simulate(p, n_trials, rng=rng, policies=policies_from_params(params))
    w, c, rounds = r["winner"], r["cond"], r["rounds"]
    bk = r["bk0"] + r["bk1"]
    fin = w >= 0
    safe = np.maximum(rounds, 1)
    return {
        "rounds": np.where(fin, rounds, np.nan),
        "unfinished": ~fin,
        "p0_wins": w == 0,
        "p1_wins": w == 1,
        "seat_margin": np.where(w == 0, 1.0, np.where(w == 1, -1.0, 0.0)),
        "cond_three": c == 1,
        "cond_straight5": c == 2,
        "cond_straight3": c == 3,
        "bankruptcies": bk.astype(float),
        "bankruptcies_p0": r["bk0"].astype(float),
        "bankruptcies_p1": r["bk1"].astype(float),
        "any_bankruptcy": bk > 0,
        "bankruptcies_per_round": bk / safe,
        "min_funds_p0": r["minf0"].astype(float),
        "min_funds_p1": r["minf1"].astype(float),
        "mean_funds_p0": r["sumf0"] / safe,
        "mean_funds_p1": r["sumf1"] / safe,
    }


_EXACT_KEYS = {
    "p0_wins": "proportion", "p1_wins": "proportion", "unfinished": "proportion", "cond_three": "proportion",
    "cond_straight5": "proportion", "cond_straight3": "proportion", "any_bankruptcy": "proportion",
    "bankruptcies": "mean", "bankruptcies_p0": "mean", "bankruptcies_p1": "mean", "seat_margin": "mean",
}


def _exact_game(params: Mapping[str, Any]) -> dict[str, float]:
    """Exact values for truncated games small enough to enumerate, else {}."""
    p = rules_from_params(params)
    small = (p.max_rounds <= 2 and not p.advanced) or (p.n_cards <= 9 and p.max_rounds <= 6)
    if not small:
        return {}
    try:
        ex = exact_truncated(p, policies_from_params(params))
    except ValueError:
        return {}
    return {f"{k}:{s}": ex[k] for k, s in _EXACT_KEYS.items()}


GAME_TASK = Task(
    name="game",
    simulate=_sim_game,
    metrics=(
        Metric("rounds", "mean", quantiles=(0.5, 0.9),
               doc="rounds until a player wins (rounds; NaN = unfinished at max_rounds, censored)"),
        Metric("unfinished", "proportion", doc="no winner within max_rounds (or deck ran out)"),
        Metric("p0_wins", "proportion", doc="seat 0 wins"),
        Metric("p1_wins", "proportion", doc="seat 1 wins"),
        Metric("seat_margin", "mean", doc="P(seat 0 wins) - P(seat 1 wins): +1 / -1 / 0 per game"),
        Metric("cond_three", "proportion", doc="game won by three of one type"),
        Metric("cond_straight5", "proportion", doc="game won by a five-card straight"),
        Metric("cond_straight3", "proportion", doc="game won by an opponent-free three-card straight"),
        Metric("bankruptcies", "mean", doc="bankruptcies (破産) per game, both players"),
        Metric("bankruptcies_p0", "mean", doc="bankruptcies of seat 0 per game"),
        Metric("bankruptcies_p1", "mean", doc="bankruptcies of seat 1 per game"),
        Metric("any_bankruptcy", "proportion", doc="at least one bankruptcy in the game"),
        Metric("bankruptcies_per_round", "mean", doc="bankruptcies / rounds of each game, averaged over games"),
        Metric("min_funds_p0", "mean", doc="lowest funds of seat 0 before a reset (funds; <= 0 = bankrupt)"),
        Metric("min_funds_p1", "mean", doc="lowest funds of seat 1 before a reset (funds)"),
        Metric("mean_funds_p0", "mean", doc="seat 0's end-of-round funds averaged over the game (funds)"),
        Metric("mean_funds_p1", "mean", doc="seat 1's end-of-round funds averaged over the game (funds)"),
    ),
    params=GAME_PARAMS,
    exact=_exact_game,
    check=check_game,
    doc="Whole two-player games of Quest for the New World under one edition's rules and two policies: "
        "how long, how many bankruptcies, who wins and by which condition?",
)

#: All tasks, by name.
TASKS: dict[str, Task] = {t.name: t for t in (GAME_TASK,)}
