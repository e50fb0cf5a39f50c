"""Sweepable tasks of dqz for :mod:`gamesim.core.sweep`.

``battle``
    A fresh party (hands dealt from a shuffled deck) fights one monster: P(win),
    turns, cards left, first-turn damage (with exact values from
    :func:`gamesim.games.dqz.exact_first_turn` where the enumeration is small).
``run``
    A party fights a sequence of monsters with experience and the inn: battles won,
    experience, deck exhaustion (カンスト).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from gamesim.core.registry import DataLabel, Metric, Param, ParamError, Task

from .bestiary import BESTIARY
from .exact_battle import exact_first_turn
from .policies import POLICIES
from .rules import MAX_CARDS, MAX_HP, RESIST_ROUNDINGS, Monster, Timing, parse_skills
from .sim import MAX_BATTLES, MAX_HAND, MAX_INN_EVERY, MAX_PER_VALUE, MAX_STRATEGY, MAX_TURNS, BattleConfig, simulate

__all__ = ["COMMON_PARAMS", "BATTLE_TASK", "RUN_TASK", "TASKS", "monster_from_params", "config_from_params"]

COMMON_PARAMS: tuple[Param, ...] = (
    Param("party_size", "int", 3, "players in the party (rulebook: 3-5)", min=1, max=5),
    Param("hand_size", "int", 3, "attack cards per player at the start and after the inn (cards)", min=1,
          max=MAX_HAND),
    Param("n_per_value", "int", 10, "attack cards of each value 1-5 in the deck (cards)", min=1, max=MAX_PER_VALUE),
    Param("strategy_deck", "int_list", [2, 2, 2, 2, 2],
          "strategy cards per kind: みんながんばれ, ガンガンいこうぜ, いのちだいじに, じゅもんせつやく, "
          "おれにまかせろ (cards; all 0 = none)", min=0, max=MAX_STRATEGY),
    Param("policy", "str", "max_damage", "party policy", choices=POLICIES),
    Param("negative_heals", "bool", False, "a negative damage heals the monster (HP を増減させる)"),
    Param("max_turns", "int", 200, "turn cap per battle; a battle still running is lost (turns)", min=1,
          max=MAX_TURNS),
    Param("hero_passes", "bool", False, "a しぼう hero's strategy cards pass to the first living player "
          "(default false: a しぼう hero takes and uses none, 手札が0枚のプレイヤーは\"しぼう\"…バトルに参加できない)"),
    Param("resist_rounding", "str", "at_end", "呪文耐性：高: 'at_end' halves the exact value and rounds once, up "
          "(端数は最後に); 'value_first' rounds the value, then halves and rounds up", choices=RESIST_ROUNDINGS),
    Param("heal_cap", "bool", True, "ホイミ/ベホイミ heal up to the monster's starting HP (回復する); false = no cap"),
    Param("multiple_nonpositive", "bool", False, "values <= 0 set off はげしいほのお/かえんのいき/ひのいき "
          "(the rulebook does not say they do)"),
)

_MONSTER_NAMES = ("custom",) + tuple(BESTIARY)


#: What a report says of the bestiary (its entries are invented: the rulebook gives no monster list).
_BESTIARY_TITLE = "entries of the ILLUSTRATIVE bestiary (gamesim/games/dqz/bestiary.py: invented HP, levels and skills)"
_OVERRIDES = ("hp", "level", "skills")


def monster_label(monster: str, cell: Mapping[str, Any] | None = None) -> DataLabel | None:
    """What a report says of a battle's monster (``Param.describe`` of ``monster``).

    Parameters
    ----------
    monster : str
        ``"custom"`` or a name from :data:`.bestiary.BESTIARY`.
    cell : mapping, optional
        The cell's parameters: ``hp``, ``level`` and ``skills`` replace the entry's invented values.

    Returns
    -------
    gamesim.core.registry.DataLabel or None
        ``None`` for ``"custom"`` or an entry whose three values the cell all replaces (no
        invented number left); else ILLUSTRATIVE, ``note`` naming the values the cell replaces.
    """
    cell = cell or {}
    given = [k for k in _OVERRIDES if cell.get(k) is not None]
    if monster == "custom" or len(given) == len(_OVERRIDES):
        return None
    note = (f"the scenario replaces its {', '.join(given)}; {', '.join(k for k in _OVERRIDES if k not in given)} "
            "stay invented" if given else "")
    return DataLabel(_BESTIARY_TITLE, True, note, remedy="set hp, level and skills to the real monster's values "
                     "(monster = \"custom\")")


def monsters_label(monsters: str, cell: Mapping[str, Any] | None = None) -> DataLabel:
    """What a report says of a run's monster list (``Param.describe`` of ``monsters``): every name is a
    bestiary entry, so the list is ILLUSTRATIVE.

    Parameters
    ----------
    monsters : str
        Comma-separated bestiary names.
    cell : mapping, optional
        Unused.

    Returns
    -------
    gamesim.core.registry.DataLabel
    """
    return DataLabel(_BESTIARY_TITLE, True, remedy="the run task has no custom monsters yet; use the battle task "
                     "with monster = \"custom\" for real values")


def monster_from_params(params: Mapping[str, Any]) -> Monster:
    """The monster of a ``battle`` cell: a bestiary entry, with ``hp``/``level``/``skills`` overriding.

    Raises
    ------
    ParamError
        For ``monster = "custom"`` without ``hp``, or skills that do not parse.
    """
    name = params["monster"]
    base = BESTIARY.get(name)
    hp = params.get("hp")
    if hp is None:
        if base is None:
            raise ParamError("hp", hp, "an integer >= 1 (required with monster = 'custom')")
        hp = base.hp
    level = params.get("level")
    level = (base.level if base is not None else 1) if level is None else level
    skills = params.get("skills")
    try:
        sk = (base.skills if base is not None else ()) if skills is None else parse_skills(skills)
    except ValueError as exc:
        raise ParamError("skills", skills, f"comma-separated skill keywords with optional @pre/@post ({exc})") from None
    return Monster(name, int(level), int(hp), sk)


def config_from_params(params: Mapping[str, Any], inn_every: int = 1) -> BattleConfig:
    """The :class:`BattleConfig` of a resolved parameter dict."""
    return BattleConfig(params["party_size"], params["hand_size"], params["n_per_value"],
                        tuple(params["strategy_deck"]), params["policy"], params["negative_heals"], inn_every,
                        params["max_turns"], hero_passes=params.get("hero_passes", False),
                        resist_rounding=params.get("resist_rounding", "at_end"),
                        heal_cap=params.get("heal_cap", True),
                        multiple_nonpositive=params.get("multiple_nonpositive", False))


def _check_common(params: Mapping[str, Any]) -> None:
    sd = list(params["strategy_deck"])
    if len(sd) != 5 or min(sd) < 0:
        raise ParamError("strategy_deck", sd, "5 counts >= 0 (one per strategy card kind)")
    if int(params["party_size"]) * int(params["hand_size"]) > 5 * int(params["n_per_value"]):
        raise ParamError("hand_size", params["hand_size"],
                         f"at most {5 * int(params['n_per_value']) // int(params['party_size'])} "
                         f"(party_size x hand_size cards must fit in the deck of 5 x n_per_value)")


# ---------------------------------------------------------------------------
# battle
# ---------------------------------------------------------------------------


def _check_battle(params: Mapping[str, Any]) -> None:
    _check_common(params)
    monster_from_params(params)


def _sim_battle(params: Mapping[str, Any], n_trials: int, *, rng: np.random.Generator
                ) -> dict[str, npt.NDArray[Any]]:
    r = simulate(config_from_params(params), n_trials, rng=rng, monsters=[monster_from_params(params)])
    return {
        "won": r["won"],
        "one_turn_kill": r["won"] & (r["turns"] == 1),
        "turns": r["turns"].astype(float),
        "cards_left": r["cards_left"].astype(float),
        "cards_spent": (int(params["party_size"]) * int(params["hand_size"]) - r["cards_left"]).astype(float),
        "first_turn_damage": r["first_turn_damage"].astype(float),
        "damage_per_turn": r["damage_per_turn"].astype(float),
        "strategy_used": r["strategy_used"].astype(float),
    }


def _exact_battle(params: Mapping[str, Any]) -> dict[str, float]:
    mon = monster_from_params(params)
    if int(params["party_size"]) > 3 or int(params["hand_size"]) > 3 or params["policy"] == "random":
        return {}
    if any(u.timing == Timing.PRE for u in mon.skills):
        return {}
    pmf = exact_first_turn(int(params["party_size"]), hand_size=int(params["hand_size"]),
                           n_per_value=int(params["n_per_value"]), strategy_deck=tuple(params["strategy_deck"]),
                           rule=config_from_params(params).rule(mon))
    dmg = np.array(sorted(pmf))
    p = np.array([pmf[d] for d in dmg])
    out = {"one_turn_kill:proportion": float(p[dmg >= mon.hp].sum())}
    if params["policy"] == "max_damage":
        out["first_turn_damage:mean"] = float(dmg @ p)
        c = np.cumsum(p)
        for q in (0.1, 0.5, 0.9):
            out[f"first_turn_damage:q{round(100 * q)}"] = float(dmg[np.searchsorted(c, q - 1e-12)])
        if np.all(dmg == np.round(dmg)):  # the whole PMF: the report's exact curve and event metrics
            out.update({f"first_turn_damage:pmf={int(d)}": float(q) for d, q in zip(dmg, p)})
    return out


BATTLE_TASK = Task(
    name="battle",
    simulate=_sim_battle,
    metrics=(
        Metric("won", "proportion", doc="the party defeats the monster (HP <= 0) before every hand is empty"),
        Metric("one_turn_kill", "proportion", doc="won on the first turn"),
        Metric("turns", "mean", quantiles=(0.5, 0.9), doc="turns the battle lasted (turns)"),
        Metric("cards_left", "mean", doc="attack cards in all hands when the battle ended, before experience (cards)"),
        Metric("cards_spent", "mean", doc="party_size x hand_size - cards_left (cards)"),
        Metric("first_turn_damage", "mean", quantiles=(0.1, 0.5, 0.9), doc="damage of the first turn (HP)"),
        Metric("damage_per_turn", "mean", doc="damage per turn over the battle (HP/turn)"),
        Metric("strategy_used", "mean", doc="strategy cards used in the battle (cards)"),
    ),
    params=COMMON_PARAMS + (
        Param("monster", "str", "スライム", "monster: 'custom' (give hp, level, skills) or a name from the ILLUSTRATIVE bestiary",
              choices=_MONSTER_NAMES, describe=monster_label),
        Param("hp", "int", None, "monster HP (overrides the bestiary's; required for custom)", min=1, max=MAX_HP,
              optional=True),
        Param("level", "int", None, "monster level (experience cards per player; overrides)", min=0, max=MAX_CARDS,
              optional=True),
        Param("skills", "str", None, "skills, comma-separated, e.g. 'かえんのいき, ザラキ@post' (overrides; '' = none)",
              optional=True),
    ),
    exact=_exact_battle,
    check=_check_battle,
    doc="A fresh party fights one monster: how often does it win, in how many turns, at what cost in cards, "
        "and how much damage does the first turn deal?",
)


# ---------------------------------------------------------------------------
# run (experience, inn, カンスト)
# ---------------------------------------------------------------------------


def _run_monsters(params: Mapping[str, Any]) -> list[Monster]:
    names = [s.strip() for s in str(params["monsters"]).replace("、", ",").split(",") if s.strip()]
    return [BESTIARY[n] for n in names] * int(params["repeat"])


def _check_run(params: Mapping[str, Any]) -> None:
    _check_common(params)
    names = [s.strip() for s in str(params["monsters"]).replace("、", ",").split(",") if s.strip()]
    bad = [n for n in names if n not in BESTIARY]
    if not names or bad:
        raise ParamError("monsters", params["monsters"], "comma-separated names from the illustrative bestiary: "
                         + ", ".join(BESTIARY))
    if len(names) * int(params["repeat"]) > MAX_BATTLES:
        raise ParamError("monsters", params["monsters"], f"at most {MAX_BATTLES} battles in a run "
                         f"(monsters x repeat; here {len(names)} x {params['repeat']})")


def _sim_run(params: Mapping[str, Any], n_trials: int, *, rng: np.random.Generator) -> dict[str, npt.NDArray[Any]]:
    mons = _run_monsters(params)
    r = simulate(config_from_params(params, int(params["inn_every"])), n_trials, rng=rng, monsters=mons)
    return {
        "battles_won": r["battles_won"].astype(float),
        "cleared": r["cleared"],
        "kansto": r["kansto"],
        "experience": r["experience"].astype(float),
        "cards_end": r["cards_end"].astype(float),
        "deck_left": r["deck_left"].astype(float),
    }


RUN_TASK = Task(
    name="run",
    simulate=_sim_run,
    metrics=(
        Metric("battles_won", "mean", doc="battles won in the run (battles)"),
        Metric("cleared", "proportion", doc="every battle of the run won"),
        Metric("kansto", "proportion", doc="カンスト: the attack deck ran out while experience was dealt"),
        Metric("experience", "mean", doc="experience cards gained over the run (cards)"),
        Metric("cards_end", "mean", doc="attack cards in all hands at the end of the run (cards)"),
        Metric("deck_left", "mean", doc="attack cards left in the deck at the end (cards)"),
    ),
    params=COMMON_PARAMS + (
        Param("monsters", "str", "スライム, ドラキー, ホイミスライム",
              "battles of one pass, comma-separated names from the ILLUSTRATIVE bestiary", describe=monsters_label),
        Param("repeat", "int", 3, "passes through the monster list (battles = passes x monsters)", min=1, max=50),
        Param("inn_every", "int", 1, "stay at the inn before every k-th battle (0 = never)", min=0, max=MAX_INN_EVERY),
    ),
    check=_check_run,
    doc="A party fights a run of battles with experience (経験値) and the inn (宿屋): how many does it win, "
        "and how often does the attack deck run out (カンスト)?",
)

#: All tasks, by name.
TASKS: dict[str, Task] = {t.name: t for t in (BATTLE_TASK, RUN_TASK)}
