"""What a Dragon Quest Zeroes battle simulation is set up with: :class:`BattleConfig` and the monsters.

Shared by the batch simulator (:mod:`.sim`) and the plain-Python reference (:mod:`.reference`),
which stay independent of each other; both name these as :mod:`.sim` always has.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gamesim.core.registry import ParamError
from gamesim.core.validate import ParamTypeError, check_bool, check_choice, check_int, check_int_list

from .policies import POLICIES, DamageRule
from .rules import (
    HAND_SIZE_DEFAULT,
    MAX_PARTY,
    N_PER_VALUE_DEFAULT,
    RESIST_ROUNDINGS,
    STRATEGY_DECK_DEFAULT,
    Monster,
)

__all__ = ["MAX_HAND", "MAX_PER_VALUE", "MAX_STRATEGY", "MAX_INN_EVERY", "MAX_TURNS", "BattleConfig", "as_monster"]

#: Largest hand size, cards per value, strategy cards per kind, inn period and turn cap a
#: :class:`BattleConfig` accepts (bigger values would exhaust memory or time).
MAX_HAND: int = 20
MAX_PER_VALUE: int = 40
MAX_STRATEGY: int = 20
MAX_INN_EVERY: int = 1000
MAX_TURNS: int = 10_000


@dataclass(frozen=True)
class BattleConfig:
    """Everything a simulation needs besides the monsters and the trial count.

    Attributes
    ----------
    party_size : int
        Players, 3-5 in the rulebook (1-5 accepted).
    hand_size : int, default 3
        Cards per player at the start and after the inn.
    n_per_value : int, default 10
        Attack cards of each value 1..5 (deck = 5 x this).
    strategy_deck : tuple of int, default (2, 2, 2, 2, 2)
        Strategy cards of each kind, in :class:`Strategy` order.
    policy : str, default "max_damage"
        One of :data:`gamesim.games.dqz.policies.POLICIES`.
    negative_heals : bool, default False
        Negative damage heals the monster.
    inn_every : int, default 1
        Stay at the inn before battle j when ``j % inn_every == 0`` (j >= 1; 0 = never);
        never right after a battle whose monster called a companion (なかまをよぶ).
    max_turns : int, default 200
        Safety cap: a battle still running after this many turns is a loss (1..10,000).
    hero_passes : bool, default False
        When the hero (player 0) is しぼう (no cards), does the first living player in turn
        order take over the hero's strategy cards (draw, stock, use)? The rulebook's reading
        (default False): a しぼう player cannot take part in the battle (手札が0枚のプレイヤーは
        "しぼう"状態にあり、バトルに参加できない), so no strategy card is taken or used while
        the hero is しぼう. Seat-based skills (ギラ, まひ/ラリホー counting) keep counting from
        player 0 either way.
    resist_rounding : {"at_end", "value_first"}, default "at_end"
        Order of the 呪文耐性：高 halving (see :func:`gamesim.games.dqz.rules.damage_from_value`).
    heal_cap : bool, default True
        ホイミ/ベホイミ restore HP up to the monster's starting HP (回復する), never above it.
        False: no cap (the reading before this change).
    multiple_nonpositive : bool, default False
        Whether attack values <= 0 set off the multiple-of-k skills (はげしいほのお ...).

    Raises
    ------
    ParamError
        (``ValueError``; ``ParamTypeError``, a ``TypeError``, for a wrong type) for any field
        of the wrong type or out of range: ``party_size`` 1..5, ``hand_size`` 0..20,
        ``n_per_value`` 0..40, five ``strategy_deck`` counts 0..20, ``inn_every`` 0..1000,
        ``max_turns`` 1..10,000, hands that do not fit in the deck.
    """

    party_size: int
    hand_size: int = HAND_SIZE_DEFAULT
    n_per_value: int = N_PER_VALUE_DEFAULT
    strategy_deck: tuple[int, ...] = STRATEGY_DECK_DEFAULT
    policy: str = "max_damage"
    negative_heals: bool = False
    inn_every: int = 1
    max_turns: int = 200
    hero_passes: bool = False
    resist_rounding: str = "at_end"
    heal_cap: bool = True
    multiple_nonpositive: bool = False

    def __post_init__(self) -> None:
        check_int("party_size", self.party_size, min=1, max=MAX_PARTY)
        check_int("hand_size", self.hand_size, min=0, max=MAX_HAND)
        check_int("n_per_value", self.n_per_value, min=0, max=MAX_PER_VALUE)
        if self.party_size * self.hand_size > 5 * self.n_per_value:
            raise ParamError("hand_size", self.hand_size, f"at most {5 * self.n_per_value // self.party_size} "
                             f"({self.party_size} players x hand_size cards must fit in the deck of "
                             f"{5 * self.n_per_value})")
        sd = check_int_list("strategy_deck", self.strategy_deck, min=0, max=MAX_STRATEGY, min_len=5, max_len=5)
        object.__setattr__(self, "strategy_deck", tuple(sd))
        check_choice("policy", self.policy, POLICIES)
        check_bool("negative_heals", self.negative_heals)
        check_int("inn_every", self.inn_every, min=0, max=MAX_INN_EVERY)
        check_int("max_turns", self.max_turns, min=1, max=MAX_TURNS)
        check_bool("hero_passes", self.hero_passes)
        check_choice("resist_rounding", self.resist_rounding, RESIST_ROUNDINGS)
        check_bool("heal_cap", self.heal_cap)
        check_bool("multiple_nonpositive", self.multiple_nonpositive)

    def rule(self, monster: Monster) -> DamageRule:
        """The :class:`DamageRule` of ``monster`` under this configuration."""
        return DamageRule.of(monster, self.negative_heals, resist_rounding=self.resist_rounding,
                             multiple_nonpositive=self.multiple_nonpositive)


def as_monster(monster: Monster | str | Mapping[str, Any]) -> Monster:
    """A :class:`Monster` from a Monster, a name of the illustrative bestiary or a mapping.

    Parameters
    ----------
    monster : Monster, str or Mapping
        A mapping has ``hp`` and optionally ``name``, ``level``, ``skills``.

    Returns
    -------
    Monster

    Raises
    ------
    ParamError
        For a name not in the bestiary, a mapping without ``hp`` or with other keys, or
        values a Monster refuses.
    ParamTypeError
        For any other type.
    """
    from .bestiary import BESTIARY, get_monster

    if isinstance(monster, Monster):
        return monster
    if isinstance(monster, str):
        if monster not in BESTIARY:
            raise ParamError("monster", monster, "a name from the illustrative bestiary: " + ", ".join(BESTIARY))
        return get_monster(monster)
    if isinstance(monster, Mapping):
        if "hp" not in monster:
            raise ParamError("monster", monster, "a mapping with at least 'hp' (and 'level', 'skills', 'name')")
        bad = set(monster) - {"name", "level", "hp", "skills"}
        if bad:
            raise ParamError("monster", monster, "a mapping with keys among name, level, hp, skills")
        try:
            return Monster(monster.get("name", "custom"), monster.get("level", 1), monster["hp"],
                           monster.get("skills", ()))
        except ParamError:
            raise
        except ValueError as exc:
            raise ParamError("monster", monster, f"a valid monster ({exc})") from None
    raise ParamTypeError("monster", monster, "a Monster, a bestiary name or a mapping {name, level, hp, skills}")
