"""What a Dragon Quest Zeroes battle simulation is set up with: :class:`BattleConfig` and the monsters.

:class:`BattleConfig` is :class:`.rules.DqzParams` (the same class: the game's parameters now
live in :mod:`.rules`, like every game's), kept here with its size limits under the names users
import today; :func:`as_monster` turns a name or a mapping into a :class:`~.rules.Monster`.
Shared by the batch simulator (:mod:`.sim`) and the plain-Python reference (:mod:`.reference`),
which stay independent of each other; both name these as :mod:`.sim` always has.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamesim.core.registry import ParamError
from gamesim.core.validate import ParamTypeError, Unchecked, validate_params

from .rules import MAX_HAND, MAX_INN_EVERY, MAX_PER_VALUE, MAX_STRATEGY, MAX_TURNS, DqzParams, Monster

__all__ = ["MAX_HAND", "MAX_PER_VALUE", "MAX_STRATEGY", "MAX_INN_EVERY", "MAX_TURNS", "BattleConfig", "DqzParams",
           "as_monster"]

#: The older name of :class:`.rules.DqzParams` (the same class).
BattleConfig = DqzParams


@validate_params(monster=Unchecked("a Monster, a bestiary name or a mapping: converted in the body"))
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
