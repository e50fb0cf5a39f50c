"""Sweepable tasks of Ice Cream Turret (registered as game ``"ice_cream_turret"``).

``solitaire``
    The normal game (通常ルール): win rate, cycle reached, cards placed, chains, under a
    policy and a deck composition (copies of each added rank, crush ice, cycles).
``score_attack``
    スコアアタック: points, game length and chains.

No exact solver: the game tree is far too large; the tests compare the simulator with the
independent scalar reference instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from gamesim.core.registry import Metric, Param, Task

from .policies import MAX_HORIZON, MAX_ROLLOUTS, POLICY_NAMES, Policy, RolloutPolicy, make_policy
from .rules import MAX_CYCLES, MAX_PLACEMENTS, IceCreamParams
from .sim import simulate

__all__ = ["TASKS", "SOLITAIRE_TASK", "SCORE_ATTACK_TASK", "rules_from_params", "policy_from_params"]

_POLICY = (
    Param("policy", "str", "greedy", "player policy: random, greedy (most cleared now, then lowest stack), "
          "lookahead (expectimax over the next card from the known deck), rollout (Monte Carlo)",
          choices=POLICY_NAMES),
    Param("rollout_k", "int", 16, "rollout policy: playouts per column", min=1, max=MAX_ROLLOUTS),
    Param("rollout_horizon", "int", 1, "rollout policy: placements per playout after the candidate",
          min=0, max=MAX_HORIZON),
    Param("rollout_playout", "str", "greedy", "rollout policy: the policy playing the playouts",
          choices=("greedy", "lookahead")),
)
_DECK = (
    Param("base_copies", "int", 4, "copies of each of 1-6 in the first deck (cards)", min=1, max=12),
    Param("copies_7", "int", 4, "7s added to the deck of cycle 2 (cards)", min=0, max=12),
    Param("copies_8", "int", 4, "8s added (cycle 4; cycle 3 in score attack) (cards)", min=0, max=12),
    Param("crush_count", "int", 4, "crush ice added (cycle 3; the first deck in score attack) (cards)",
          min=0, max=12),
    Param("crush_cycle", "int", None, "cycle whose deck gets the crush ice (default: 3 normal, 1 score attack)",
          min=1, max=MAX_CYCLES, optional=True),
)
_READINGS = (
    Param("crush_cascade", "bool", False, "a clearing crush ice also clears neighbouring crush ice"),
    Param("deck_out", "str", "empty_draw", "when the deck has run out: after its last card is placed ('empty_draw') "
          "or the moment its last card is turned ('last_card': win check and rebuild before placing it)",
          choices=("empty_draw", "last_card")),
    Param("max_placements", "int", 3000, "cards placed before a running game is cut off (capped)",
          min=1, max=MAX_PLACEMENTS),
)

SOLITAIRE_PARAMS: tuple[Param, ...] = _POLICY + _DECK + (
    Param("copies_9", "int", 4, "9s added to the deck of cycle 5 (cards)", min=0, max=12),
    Param("n_cycles", "int", 5, "deck cycles before the win check (5巡目)", min=1, max=MAX_CYCLES),
    Param("extra_win", "str", "immediate", "crush ice left after the last cycle: win as soon as none remains "
          "('immediate') or only when a rebuilt deck runs out ('deck_end')", choices=("immediate", "deck_end")),
) + _READINGS

SCORE_PARAMS: tuple[Param, ...] = _POLICY + _DECK + (
    Param("line_bonus", "str", "cap", "4+ lines at once: +4 like 3 lines ('cap') or doubling ('double')",
          choices=("cap", "double")),
    Param("equal_runs_score", "bool", False, "4/5 equal cards in a column also earn the 4枚/5枚続き bonus"),
) + _READINGS

_RULE_KEYS = ("base_copies", "copies_7", "copies_8", "copies_9", "crush_count", "crush_cycle", "n_cycles",
              "crush_cascade", "extra_win", "deck_out", "line_bonus", "equal_runs_score", "max_placements")


def rules_from_params(params: Mapping[str, Any], mode: str) -> IceCreamParams:
    """The :class:`IceCreamParams` of a resolved parameter dict (keys a task lacks keep their defaults).

    Raises
    ------
    ParamError
        For values the rules refuse.
    """
    kw = {k: params[k] for k in _RULE_KEYS if k in params}
    return IceCreamParams(mode=mode, **kw)  # type: ignore[arg-type]


def policy_from_params(params: Mapping[str, Any]) -> Policy:
    """The policy object of a resolved parameter dict."""
    if params["policy"] == "rollout":
        return RolloutPolicy(int(params["rollout_k"]), int(params["rollout_horizon"]), str(params["rollout_playout"]))
    return make_policy(str(params["policy"]))


def _check(mode: str):  # type: ignore[no-untyped-def]
    def check(params: Mapping[str, Any]) -> None:
        rules_from_params(params, mode)
        policy_from_params(params)

    return check


_COMMON_METRICS = (
    Metric("cycle_reached", "mean", quantiles=(0.1, 0.5, 0.9),
           doc="deck cycle (巡) the game ended in (6+ = played on after the last deck for crush ice)"),
    Metric("cards_placed", "mean", quantiles=(0.1, 0.5, 0.9), doc="cards placed in the game (cards)"),
    Metric("max_chain", "mean", quantiles=(0.5, 0.9), doc="longest chain of the game: waves of one placement"),
    Metric("chain2", "proportion", doc="the game had a chain (連鎖) of 2 or more waves"),
    Metric("chain3", "proportion", doc="the game had a chain of 3 or more waves"),
    Metric("chain_waves", "mean", doc="chain waves (after the first of a placement) over the game (waves)"),
    Metric("cleared", "mean", doc="cards cleared over the game (cards)"),
    Metric("capped", "proportion", doc="still running at max_placements (cut off)"),
)


def _common(r: Mapping[str, np.ndarray]) -> dict[str, npt.NDArray[Any]]:
    return {
        "cycle_reached": r["cycle"].astype(float),
        "cards_placed": r["placed"].astype(float),
        "max_chain": r["max_chain"].astype(float),
        "chain2": r["max_chain"] >= 2,
        "chain3": r["max_chain"] >= 3,
        "chain_waves": r["chain_waves"].astype(float),
        "cleared": r["cleared"].astype(float),
        "capped": r["capped"],
    }


def _sim_solitaire(params: Mapping[str, Any], n_trials: int, *, rng: np.random.Generator
                   ) -> dict[str, npt.NDArray[Any]]:
    p = rules_from_params(params, "normal")
    r = simulate(p, n_trials, rng=rng, policy=policy_from_params(params))
    out = _common(r)
    out["won"] = r["won"]
    out["game_over"] = r["game_over"]
    out["reached_last_cycle"] = r["cycle"] >= p.n_cycles
    out["played_on"] = r["cycle"] > p.n_cycles
    out["crush_left"] = r["crush_left"].astype(float)
    return out


def _sim_score(params: Mapping[str, Any], n_trials: int, *, rng: np.random.Generator
               ) -> dict[str, npt.NDArray[Any]]:
    r = simulate(rules_from_params(params, "score_attack"), n_trials, rng=rng, policy=policy_from_params(params))
    out = _common(r)
    out["score"] = r["score"].astype(float)
    out["scored"] = r["score"] > 0
    return out


SOLITAIRE_TASK = Task(
    name="solitaire",
    simulate=_sim_solitaire,
    metrics=(
        Metric("won", "proportion", doc="won: the last cycle's deck ran out with no crush ice on the board, "
               "or the crush ice was cleared while playing on"),
        Metric("game_over", "proportion", doc="a card stayed in row 5 (5段目): lost"),
        Metric("reached_last_cycle", "proportion", doc="reached the deck of the last cycle (5巡目)"),
        Metric("played_on", "proportion", doc="survived the last cycle with crush ice left and played on"),
        Metric("crush_left", "mean", doc="crush ice on the board when the game ended (cards)"),
    ) + _COMMON_METRICS,
    params=SOLITAIRE_PARAMS,
    check=_check("normal"),
    doc="The solitaire (#28 アイスクリームタレット): place each card in a column, clear equal or consecutive "
        "lines, survive five growing decks and clear the crush ice. How often does a policy win, how far does "
        "it get, and which deck change moves the win rate most?",
)

SCORE_ATTACK_TASK = Task(
    name="score_attack",
    simulate=_sim_score,
    metrics=(
        Metric("score", "mean", quantiles=(0.1, 0.5, 0.9, 0.99), doc="points at game over (全消し +1, 4枚続き +1, "
               "5枚続き +2, 2ライン +2, 3ライン +4, 連鎖 +2 per chain wave)"),
        Metric("scored", "proportion", doc="scored at least one point"),
    ) + _COMMON_METRICS,
    params=SCORE_PARAMS,
    check=_check("score_attack"),
    doc="スコアアタック: crush ice from the start, 7s then 8s added, no 9s, play until game over; points for "
        "board wipes, 4/5-card runs, multi-line clears and chains.",
)

#: All tasks, by name.
TASKS: dict[str, Task] = {t.name: t for t in (SOLITAIRE_TASK, SCORE_ATTACK_TASK)}
