"""A validated set-up of a whole game of ガッチャ ~God Chance~: :class:`GameConfig` and its names.

Kept apart from the simulator so that :mod:`.reference` (an independent formulation of the
rules) and :mod:`.tasks` can use the set-up without importing :mod:`.sim`. Build one with
:func:`.sim.make_config`, which checks every argument once.

Source: ``shared/seeds/gacha_god_chance_rules_ja.txt``; reading: ``docs/rules/gacha_game.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from gamesim.core.registry import ParamError
from gamesim.core.validate import ParamTypeError, check_bool, check_choice, check_int, check_int_list

from .data import GameData
from .policies import POLICIES

__all__ = ["SOURCES", "BOSS_USES", "BOSS_TARGETS", "GameConfig", "check_game_config"]

#: Where pulls come from (metric ``pulls_<source>``).
SOURCES: tuple[str, ...] = ("weekday", "quest", "boss", "saturday", "paid", "event", "navi", "overdrive", "trigger")
#: Readings of ボスカードの使用 (parameter ``boss_use``): usable until the round ends, or once.
BOSS_USES: tuple[str, ...] = ("round", "once")
#: Which raid boss an attack hits (parameter ``boss_target``): the attacker's choice, or the first.
BOSS_TARGETS: tuple[str, ...] = ("choose", "first")


@dataclass(frozen=True, eq=False)
class GameConfig:
    """A validated game set-up (see :func:`.sim.make_config`)."""

    data: GameData
    n_players: int
    policies: tuple[str, ...]
    expert: bool
    doubtful_k: tuple[int, ...] | None
    navi_seat1: int | None
    boss_refill: bool
    last_dance_zero_first: bool = True
    last_dance_consolete: bool = True
    boss_use: str = "round"
    boss_target: str = "choose"

    def __post_init__(self) -> None:
        # Built by make_config (which checks everything); a hand-built config gets the same
        # type and range checks so simulate_games never runs on a coerced value (issue 9).
        if not isinstance(self.data, GameData):
            raise ParamTypeError("data", self.data, "a GameData (from load_data / make_config)")
        n = check_int("n_players", self.n_players, min=2, max=4)
        if (not isinstance(self.policies, tuple) or len(self.policies) != n
                or not all(isinstance(x, str) and x in POLICIES for x in self.policies)):
            raise ParamError("policies", self.policies, f"a tuple of {n} names from {', '.join(POLICIES)}")
        check_bool("expert", self.expert)
        if self.doubtful_k is not None:
            check_int_list("doubtful_k", self.doubtful_k, min=0,
                           max=max(0, min(sum(b) for b in self.data.round_bags) - 1), max_len=10)
        if self.navi_seat1 is not None:
            check_int("navi_seat1", self.navi_seat1, min=0, max=len(self.data.navi_names) - 1)
        check_bool("boss_refill", self.boss_refill)
        check_bool("last_dance_zero_first", self.last_dance_zero_first)
        check_bool("last_dance_consolete", self.last_dance_consolete)
        check_choice("boss_use", self.boss_use, BOSS_USES)
        check_choice("boss_target", self.boss_target, BOSS_TARGETS)


def check_game_config(cfg: object) -> GameConfig:
    """``cfg`` itself if it is a :class:`GameConfig`, else a ``ParamTypeError`` naming ``cfg``."""
    if not isinstance(cfg, GameConfig):
        raise ParamTypeError("cfg", cfg, "a GameConfig from make_config(...)")
    return cfg
