"""Sweepable task of ぱんつぁーへくせん (registered as game ``"panzer_hexen"``).

``game``
    Whole games on a card file (built in: the ILLUSTRATIVE set): game length, VP and its sources,
    how often each action is used and by the winners, seat 0's share of the win (with
    ``seat0_witch`` fixed: that witch's win share, the witch balance), first-actor bonuses, and
    actions lost to collisions. ``remove`` takes one card out (paired cases: the same seed deals
    the same games otherwise, common random numbers).

Every procedure the text leaves open is a parameter (OPEN in its doc; defaults and readings in
``docs/rules/panzer_hexen.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from gamesim.core.registry import DataLabel, Metric, Param, ParamError, Task

from .data import BUILTIN_DATA, CardSet, DataError, load_cards, without
from .policies import POLICY_NAMES
from .rules import ACTION_NAMES, PanzerParams
from .sim import check_setup, simulate

__all__ = ["TASKS", "GAME_TASK", "RULE_PARAMS", "rules_from_params", "cards_from_params"]

_O = "OPEN (not in the text): "
#: The rules as task parameters (PanzerParams' fields).
RULE_PARAMS: tuple[Param, ...] = (
    Param("n_players", "int", 3, "players (2-5, the text)", min=2, max=5),
    Param("start_voice", "int", 2, _O + "発言力 at the start", min=0, max=20),
    Param("start_mana", "int", 1, _O + "魔力 at the start", min=0, max=20),
    Param("start_neuroi", "int", 1, _O + "ネウロイ in play at the start, per player", min=0, max=5),
    Param("start_charge", "int", 2, _O + "担当施策 dealt per player at the start", min=0, max=5),
    Param("start_open", "int", 2, _O + "policies in play at the start that are nobody's 担当", min=0, max=10),
    Param("start_counters", "int", 1, _O + "counters on a 担当 policy when dealt", min=0, max=9),
    Param("counter_gain", "int", 1, _O + "counters each unexecuted 担当 policy gains per round", min=0, max=3),
    Param("max_counters", "int", 3, _O + "counters a policy can hold", min=0, max=9),
    Param("decks", "str", "mixed", _O + "the two 山札: both mixed ('mixed') or ネウロイ / policies ('by_kind')",
          choices=("mixed", "by_kind")),
    Param("collision", "str", "all_act", _O + "same action: all perform it in 優先順値 order ('all_act') or only "
          "the first ('first_only')", choices=("all_act", "first_only")),
    Param("priority_order", "str", "high_first", _O + "the higher 優先順値 acts first ('high_first') or the lower",
          choices=("high_first", "low_first")),
    Param("bonus", "bool", True, "study switch: false removes the 第一実行者ボーナス"),
    Param("comms_option", "str", "take_charge", _O + "通信: a revealed policy becomes the revealer's 担当 "
          "('take_charge'), or enters play and gives 発言力 1 ('open_voice'), or adds a counter to the revealer's "
          "担当 policies ('counter')", choices=("take_charge", "open_voice", "counter")),
    Param("unexecuted_events", "bool", True, "the text's 未実行イベント (false: off, a study switch)"),
    Param("end_cards", "int", 10, "the text: executed policies + destroyed ネウロイ that end the game", min=1,
          max=60),
    Param("max_rounds", "int", 60, "safety cap (not a rule): rounds before a game is stopped", min=1, max=500),
    Param("teams", "bool", False, "the 4-player 2VS2 variant (seats 0+2 vs 1+3)"),
    Param("team_score", "str", "sum", _O + "2VS2 team score: sum of VP or the weaker player's VP",
          choices=("sum", "min")),
)
_RULE_KEYS = tuple(p.name for p in RULE_PARAMS)


def rules_from_params(params: Mapping[str, Any]) -> PanzerParams:
    """The :class:`.rules.PanzerParams` of a resolved parameter dict (missing keys keep their defaults).

    Raises
    ------
    ParamError
        For values the rules refuse (e.g. ``teams`` without 4 players).
    """
    return PanzerParams(**{k: params[k] for k in _RULE_KEYS if k in params})


def cards_from_params(params: Mapping[str, Any]) -> CardSet:
    """The card set a resolved parameter dict names (``data``), less the ``remove`` card if any.

    Raises
    ------
    ParamError
        If ``data`` names a missing or invalid file (the message carries the file's own error,
        naming card and field), or ``remove`` names no card.
    """
    try:
        cards = load_cards(params.get("data", BUILTIN_DATA))
    except DataError as exc:
        raise ParamError("data", params.get("data"), f"a valid card file ({exc})") from None
    rm = params.get("remove", "")
    if rm:
        try:
            cards = without(cards, rm)
        except DataError as exc:
            raise ParamError("remove", rm, f"'' or a ネウロイ/policy card name ({exc})") from None
    return cards


def data_label(data: str, cell: Mapping[str, Any] | None = None) -> DataLabel:
    """The title and ILLUSTRATIVE flag of a card file, for reports (``Param.describe`` of ``data``).

    Parameters
    ----------
    data : str
        ``"illustrative"`` or a path to a card file.
    cell : mapping, optional
        The cell's parameters (unused: the file alone says what it holds).

    Returns
    -------
    gamesim.core.registry.DataLabel
        The file's ``title`` (its name where it has none) and its ``illustrative`` flag.

    Raises
    ------
    ParamTypeError
        If ``data`` is not a string or path.
    DataError
        If the file is missing or fails validation (:func:`.data.load_cards`).
    """
    cards = load_cards(data)
    return DataLabel(cards.title or cards.source, cards.illustrative)


def _players(params: Mapping[str, Any]) -> list[str]:
    n = int(params.get("n_players", 3))
    pol = params.get("policy", "greedy")
    s0 = params.get("policy_seat0", "same")
    return [pol if s0 == "same" else s0] + [pol] * (n - 1)


def _seat0(params: Mapping[str, Any], cards: CardSet) -> str | None:
    w = params.get("seat0_witch", "random")
    if w == "random":
        return None
    if w not in [x.name for x in cards.witches]:
        raise ParamError("seat0_witch", w, f"'random' or a witch of {cards.source}: "
                         f"{', '.join(x.name for x in cards.witches)}")
    return w


def _check(params: Mapping[str, Any]) -> None:
    p = rules_from_params(params)
    cards = cards_from_params(params)
    _seat0(params, cards)
    check_setup(p, cards)


def _metrics() -> tuple[Metric, ...]:
    acts = tuple(Metric(f"share_{a}", "mean", doc=f"share of all actions performed that were {a}", bounds=(0, 1))
                 for a in ACTION_NAMES)
    win = tuple(Metric(f"winner_share_{a}", "mean", doc=f"share of the winner's actions that were {a} (ties "
                       "weighted by win share; 2VS2: the winning team's two players)", bounds=(0, 1))
                for a in ACTION_NAMES)
    return (
        Metric("rounds", "mean", quantiles=(0.1, 0.5, 0.9), doc="rounds played", bounds=(1, 500)),
        Metric("truncated", "proportion", doc="games stopped by max_rounds before the end condition"),
        Metric("seat0_score", "mean", doc="seat 0's share of the win (ties split; fair share 1/n_players; "
               "2VS2: its team's share, fair share 1/2)", bounds=(0, 1)),
        Metric("winner_vp", "mean", doc="the best VP at the end", bounds=(0, float("inf"))),
        Metric("vp", "mean", doc="VP per player", bounds=(0, float("inf"))),
        Metric("vp_neuroi", "mean", doc="VP per player from destroyed ネウロイ", bounds=(0, float("inf"))),
        Metric("vp_equipment", "mean", doc="VP per player from equipment (機材) policies", bounds=(0, float("inf"))),
        Metric("vp_policy", "mean", doc="VP per player from the other policies", bounds=(0, float("inf"))),
        Metric("winner_bonus_share", "mean", doc="share of the game's first-actor bonuses taken by the winner "
               "(2VS2: by the winning team)",
               bounds=(0, 1)),
        Metric("bonuses", "mean", doc="first-actor bonuses taken per player", bounds=(0, float("inf"))),
        Metric("lost", "mean", doc="actions lost to collisions per player (collision = first_only)",
               bounds=(0, float("inf"))),
    ) + acts + win


def _sim(params: Mapping[str, Any], n_trials: int, *, rng: np.random.Generator) -> dict[str, npt.NDArray[Any]]:
    p = rules_from_params(params)
    cards = cards_from_params(params)
    r = simulate(p, n_trials, rng=rng, cards=cards, policies=_players(params), seat0_witch=_seat0(params, cards),
                 rollout_k=int(params.get("rollout_k", 4)), rollout_horizon=int(params.get("rollout_horizon", 3)))
    score = r["score"]
    acts = r["actions"].astype(float)
    tot = acts.sum(axis=(1, 2))
    per_seat = acts / np.maximum(acts.sum(axis=2, keepdims=True), 1)
    out: dict[str, npt.NDArray[Any]] = {
        "rounds": r["rounds"].astype(float), "truncated": r["truncated"], "seat0_score": score[:, 0],
        "winner_vp": r["vp"].max(axis=1).astype(float), "vp": r["vp"].mean(axis=1),
        "vp_neuroi": r["vp_neuroi"].mean(axis=1), "vp_equipment": r["vp_equipment"].mean(axis=1),
        "vp_policy": r["vp_policy"].mean(axis=1),
        "winner_bonus_share": (score * r["bonuses"]).sum(axis=1) / np.maximum(r["bonuses"].sum(axis=1), 1),
        "bonuses": r["bonuses"].mean(axis=1), "lost": r["lost"].mean(axis=1),
    }
    for i, a in enumerate(ACTION_NAMES):
        out[f"share_{a}"] = acts[:, :, i].sum(axis=1) / np.maximum(tot, 1)
        w = (score * per_seat[:, :, i]).sum(axis=1)
        out[f"winner_share_{a}"] = w / 2 if p.teams else w  # 2VS2: both seats of the winning team hold its share
    return out


GAME_TASK = Task(
    name="game",
    simulate=_sim,
    metrics=_metrics(),
    params=(
        Param("policy", "str", "greedy", "every seat's player: random, greedy (VP per resource), rollout",
              choices=POLICY_NAMES),
        Param("policy_seat0", "str", "same", "seat 0's player if different: same, random, greedy, rollout",
              choices=("same",) + POLICY_NAMES),
        Param("seat0_witch", "str", "random", "seat 0's witch: 'random' or a witch name of the card file"),
        Param("remove", "str", "", "a ネウロイ or policy card taken out of the game ('' none)"),
        Param("data", "str", BUILTIN_DATA, "card file: 'illustrative' (built in, ILLUSTRATIVE numbers) or a path "
              "to a TOML file in its format (relative to the scenario file)", file=True, describe=data_label),
        Param("rollout_k", "int", 4, "rollout player: random playouts per action", min=1, max=64),
        Param("rollout_horizon", "int", 3, "rollout player: rounds per playout", min=1, max=20),
    ) + RULE_PARAMS,
    check=_check,
    doc="Whole games of ぱんつぁーへくせん on a card file (built in: ILLUSTRATIVE numbers, not the printed cards): "
        "game length, VP sources, action usage and which actions winners use, witch balance (seat 0's win share "
        "with its witch fixed), the first-actor bonus, collisions; every open procedure a parameter.",
)

#: All tasks, by name.
TASKS: dict[str, Task] = {t.name: t for t in (GAME_TASK,)}
