"""The set-up of a whole game of ガッチャ ~God Chance~ under its older names, and the pull sources.

:class:`GameConfig` is :class:`.rules.GachaGameParams` (the same class: the game's parameters
now live in :mod:`.rules`, like every game's); this module keeps the names where users and
:mod:`.reference`, :mod:`.tasks` and :mod:`.sim` import them today, plus :data:`SOURCES`. Build a set-up with :func:`.sim.make_config` (names, card
removals) or ``GachaGameParams(...)`` directly; either checks every field once.

Source: ``shared/seeds/gacha_god_chance_rules_ja.txt``; reading: ``docs/rules/gacha_game.md``.
"""

from __future__ import annotations

from .rules import BOSS_TARGETS, BOSS_USES, GachaGameParams

__all__ = ["SOURCES", "BOSS_USES", "BOSS_TARGETS", "GameConfig", "GachaGameParams"]

#: Where pulls come from (metric ``pulls_<source>``).
SOURCES: tuple[str, ...] = ("weekday", "quest", "boss", "saturday", "paid", "event", "navi", "overdrive", "trigger")

#: The older name of :class:`.rules.GachaGameParams` (the same class).
GameConfig = GachaGameParams

