"""An ILLUSTRATIVE bestiary for dqz: the rulebook gives no monster list.

These monsters are **made up for illustration** (names, levels, HP and skills are
ours, chosen to exercise every skill keyword of the rulebook's とくぎ section at
plausible strengths); they are not the game's monster cards. Scenarios can use them
by name (``monster = "スライム"``) or describe their own monster with ``hp``,
``level`` and ``skills`` (``monster = "custom"``).
"""

from __future__ import annotations

from gamesim.core.registry import ParamError
from gamesim.core.validate import Unchecked, validate_params

from .rules import Monster

__all__ = ["BESTIARY", "ILLUSTRATIVE", "get_monster"]

#: True: every entry below is illustrative, not from the rulebook.
ILLUSTRATIVE: bool = True

#: Illustrative monsters by name.
BESTIARY: dict[str, Monster] = {m.name: m for m in (
    Monster("スライム", 1, 12, ()),
    Monster("ドラキー", 1, 15, ("ギラ@post",)),
    Monster("ホイミスライム", 2, 20, ("ホイミ",)),
    Monster("ひとくいばこ", 2, 25, ("つうこんのいちげき@pre",)),
    Monster("メタルスライム", 3, 10, ("物理攻撃無効",)),
    Monster("まほうつかい", 3, 30, ("マホトーン@pre", "呪文耐性：高")),
    Monster("くさったしたい", 3, 35, ("どくこうげき@pre", "集中攻撃@post")),
    Monster("あやしいかげ", 3, 30, ("ラリホー・あまいいき@pre", "ふしぎなおどり@pre")),
    Monster("がいこつけんし", 4, 40, ("まひこうげき@post", "ザラキ@pre")),
    Monster("ドラゴン", 4, 50, ("はげしいほのお", "かえんのいき")),
    Monster("ばくだんいわ", 4, 40, ("イオナズン@pre", "ひのいき")),
    Monster("キラーマシン", 5, 60, ("ベギラマ@post", "ベホイミ", "なかまをよぶ@pre")),
)}


@validate_params(name=Unchecked("checked in the body: its error is also a KeyError, for old callers"))
def get_monster(name: str) -> Monster:
    """The illustrative monster called ``name``.

    Raises
    ------
    UnknownMonster
        (a ``ParamError``, so a ``ValueError``, and a ``KeyError``) if ``name`` is not a
        string in :data:`BESTIARY`; the message names ``name`` and lists the names.
    """
    if not isinstance(name, str) or name not in BESTIARY:
        raise UnknownMonster("name", name, "a name from the illustrative bestiary: " + ", ".join(BESTIARY))
    return BESTIARY[name]


class UnknownMonster(ParamError, KeyError):
    """A monster name not in the bestiary: a ``ParamError`` (``ValueError``) that is also a ``KeyError``."""

    def __str__(self) -> str:  # KeyError would quote the message
        return ValueError.__str__(self)
