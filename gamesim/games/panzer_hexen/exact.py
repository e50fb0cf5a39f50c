"""Exact calculators: combat is deterministic given the choices, so no sampling is needed.

- :func:`fight_cost`: for a witch, her equipment and a 魔力 budget against one ネウロイ, the least
  魔力 to win without being hit and to win at all, checked against the budget.
- :func:`combat_table`: that over the whole card set (every witch × ネウロイ, bare and with her best
  striker unit + gun pair): 魔力 needed, VP per 魔力, and which ネウロイ are unbeatable within a
  budget without equipment and which single striker/gun makes them beatable.
- :func:`policy_efficiency`: VP per 発言力 of every policy card.

Source: ``shared/seeds/panzer_hexen_rules_ja.txt`` {2:出撃} and {施策カード}; the combat rule is
:func:`.rules.fight` / :func:`.rules.min_mana`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from gamesim.core.validate import Instance, Int, Optional, ParamTypeError, validate_params

from .data import CardSet, Equipment, Neuroi, Witch
from .rules import _min_mana, min_mana

__all__ = ["FightCost", "fight_cost", "combat_table", "policy_efficiency"]


@dataclass(frozen=True)
class FightCost:
    """Least 魔力 for one witch (with her equipment) against one ネウロイ.

    Attributes
    ----------
    clean : int
        魔力 to destroy it without being hit.
    clean_split : (int, int)
        That 魔力 as (to attack, to defence).
    any : int
        魔力 to destroy it, hit or not (a 相討ち at equal レンジ counts).
    clean_within_budget, any_within_budget : bool
        Whether the budget covers them.
    vp_per_mana : float
        The ネウロイ's VP per 魔力 of a clean win (``inf`` when it needs none).
    """

    clean: int
    clean_split: tuple[int, int]
    any: int
    clean_within_budget: bool
    any_within_budget: bool
    vp_per_mana: float


#: Declared constraints (:func:`validate_params`): a card of a class, with the message of the
#: hand-written checks these replace.
CARD_SET = Instance(CardSet, "a CardSet card")
EQUIPMENT = Optional(Instance(Equipment, "a Equipment card"))


@validate_params(witch=Instance(Witch, "a Witch card"), neuroi=Instance(Neuroi, "a Neuroi card"),
                 striker=EQUIPMENT, gun=EQUIPMENT, attack_plus=Int(0, 20), defence_plus=Int(0, 20),
                 budget=Int(0, 200))
def fight_cost(witch: Witch, neuroi: Neuroi, *, striker: Equipment | None = None, gun: Equipment | None = None,
               attack_plus: int = 0, defence_plus: int = 0, budget: int = 0) -> FightCost:
    """Least 魔力 for ``witch`` (with ``striker``, ``gun`` and policy effects) to beat ``neuroi``.

    Parameters
    ----------
    witch : Witch
    neuroi : Neuroi
    striker, gun : Equipment or None, default None
        The striker unit and gun used (not 失調); ``None`` for none. Their kinds are checked.
    attack_plus, defence_plus : int, default 0
        The player's executed ``attack_plus`` / ``defence_plus`` policies. 0..20.
    budget : int, default 0
        魔力 held. 0..200.

    Returns
    -------
    FightCost

    Raises
    ------
    ParamError, ParamTypeError
        For a card of the wrong type or kind (a gun as ``striker``), or a count out of range.

    Examples
    --------
    A witch 3/2/1 against a ネウロイ 4/5/2 (it strikes first): 3 魔力 to defence (2+3 > 4),
    2 to attack (3+2 >= 5): 5 in all, hit or not.

    >>> from gamesim.games.panzer_hexen.data import Witch, Neuroi
    >>> fight_cost(Witch("w", 1, 3, 2, 1), Neuroi("n", 4, 5, 2, 2), budget=4).clean
    5
    """
    for name, e, k in (("striker", striker, "striker"), ("gun", gun, "gun")):  # the kind: not declarable
        if e is not None and e.kind != k:
            raise ParamTypeError(name, e.name, f"a {k} card (got a {e.kind})")
    eq = [e for e in (striker, gun) if e is not None]
    a = witch.attack + attack_plus + sum(e.attack for e in eq)
    d = witch.defence + defence_plus + sum(e.defence for e in eq)
    ev = witch.ability == "evade"
    cs = min_mana(a, d, witch.range, neuroi.attack, neuroi.defence, neuroi.range, evade=ev, clean=True)
    an = sum(min_mana(a, d, witch.range, neuroi.attack, neuroi.defence, neuroi.range, evade=ev, clean=False))
    c = sum(cs)
    return FightCost(c, cs, an, c <= budget, an <= budget, math.inf if c == 0 else neuroi.vp / c)


def _best_pair(cards: CardSet, witch: Witch, n: Neuroi) -> tuple[Equipment | None, Equipment | None, int]:
    strikers = [None] + [e for e in cards.equipment if e.kind == "striker"]
    guns = [None] + [e for e in cards.equipment if e.kind == "gun"]
    ev = witch.ability == "evade"
    best: tuple[Equipment | None, Equipment | None, int] = (None, None, -1)
    seen: set[tuple[int, int]] = set()
    for s in strikers:
        for g in guns:
            mods = (sum(e.attack for e in (s, g) if e), sum(e.defence for e in (s, g) if e))
            if mods in seen:  # the same modifiers as an earlier pair: the same cost
                continue
            seen.add(mods)
            c = sum(_min_mana(witch.attack + mods[0], witch.defence + mods[1], witch.range, n.attack, n.defence,
                              n.range, evade=ev, clean=True))
            if best[2] < 0 or c < best[2]:
                best = (s, g, c)
    return best


@validate_params(cards=CARD_SET, budget=Int(0, 200))
def combat_table(cards: CardSet, *, budget: int = 3) -> pd.DataFrame:
    """Every witch × ネウロイ of a card set: 魔力 to win, VP per 魔力, and what equipment it takes.

    Parameters
    ----------
    cards : CardSet
    budget : int, default 3
        The 魔力 a witch is taken to hold for the ``beatable`` columns. 0..200.

    Returns
    -------
    pandas.DataFrame
        One row per (witch, ネウロイ): ``witch``, ``neuroi``, ``vp``, ``clean_bare`` and ``any_bare``
        (魔力 without equipment), ``clean_best`` (with the striker + gun pair that needs least),
        ``best_striker``, ``best_gun`` (names, "" for none), ``vp_per_mana_bare``,
        ``vp_per_mana_best`` (VP / 魔力 of a clean win, ``inf`` for a free one),
        ``beatable_bare`` (clean win within ``budget`` without equipment), ``beatable_best``,
        ``enough_strikers`` / ``enough_guns`` (names of the single cards that alone make an
        unbeatable-bare ネウロイ beatable within ``budget``, comma-separated).

    Raises
    ------
    ParamError, ParamTypeError
        For ``cards`` not a CardSet or ``budget`` out of range.
    """
    rows = []
    for w in cards.witches:
        for n in cards.neuroi:
            bare = fight_cost(w, n, budget=budget)
            s, g, best = _best_pair(cards, w, n)
            enough_s = [e.name for e in cards.equipment if e.kind == "striker"
                        and not bare.clean_within_budget and fight_cost(w, n, striker=e).clean <= budget]
            enough_g = [e.name for e in cards.equipment if e.kind == "gun"
                        and not bare.clean_within_budget and fight_cost(w, n, gun=e).clean <= budget]
            rows.append({
                "witch": w.name, "neuroi": n.name, "vp": n.vp, "clean_bare": bare.clean, "any_bare": bare.any,
                "clean_best": best, "best_striker": s.name if s else "", "best_gun": g.name if g else "",
                "vp_per_mana_bare": bare.vp_per_mana, "vp_per_mana_best": math.inf if best == 0 else n.vp / best,
                "beatable_bare": bare.clean_within_budget, "beatable_best": best <= budget,
                "enough_strikers": ",".join(enough_s), "enough_guns": ",".join(enough_g),
            })
    return pd.DataFrame(rows)


@validate_params(cards=CARD_SET)
def policy_efficiency(cards: CardSet) -> pd.DataFrame:
    """VP per 発言力 of every policy card (機材 and the others), at its printed cost.

    Parameters
    ----------
    cards : CardSet

    Returns
    -------
    pandas.DataFrame
        One row per policy, best first: ``name``, ``kind`` ("striker", "gun" or "policy"),
        ``cost``, ``vp``, ``effect`` (equipment: "attack+A/defence+D"), ``vp_per_voice``
        (``inf`` for a free card with VP, 0 for a free card without).

    Raises
    ------
    ParamTypeError
        For ``cards`` not a CardSet.
    """
    rows = []
    for c in cards.all_policies:
        kind = c.kind if isinstance(c, Equipment) else "policy"
        eff = f"attack+{c.attack}/defence+{c.defence}" if isinstance(c, Equipment) else c.effect
        ratio = c.vp / c.cost if c.cost else (math.inf if c.vp else 0.0)
        rows.append({"name": c.name, "kind": kind, "cost": c.cost, "vp": c.vp, "effect": eff, "vp_per_voice": ratio})
    return pd.DataFrame(rows).sort_values(["vp_per_voice", "vp"], ascending=False, kind="stable").reset_index(drop=True)
