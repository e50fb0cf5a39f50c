"""ガッチャ ~God Chance~ as a whole game: 4 rounds, action cards, raid bosses, quests, rate battle.

Card lists and tracks are data (:mod:`.data`, ``data/illustrative.toml``); the pure rules
are in :mod:`.rules` (with the game's parameters, :class:`GachaGameParams`, formerly
``GameConfig``), the vectorized simulator in :mod:`.sim` (common entry point :func:`simulate`
``(params, n_games, *, rng)``), the plain-Python reference in
:mod:`.reference`, strategies in :mod:`.policies`. The bag is :mod:`gamesim.games.gacha`'s.
Importing this package registers the game ``"gacha_game"``.
"""

from gamesim.core.registry import Game, register_game

from .data import DataError, GameData, Icon, load_data, parse_data
from .reference import reference_game, reference_games
from .rules import (Attack, GachaGameParams, attack_result, attack_tables, exact_attack, last_dance_chances, paid_tables,
                    quest_move, saturday_pulls)
from .sim import GameConfig, make_config, simulate, simulate_games
from .tasks import TASKS

__all__ = [
    "GAME", "TASKS", "DataError", "GameData", "Icon", "load_data", "parse_data", "reference_game",
    "reference_games", "Attack", "attack_result", "attack_tables", "exact_attack", "last_dance_chances",
    "paid_tables", "quest_move", "saturday_pulls", "GameConfig", "make_config", "simulate_games",
    "GachaGameParams", "simulate",
]

GAME: Game = register_game(
    Game(
        name="gacha_game",
        title="ガッチャ ~God Chance~ (whole game)",
        tasks=TASKS,
        seed_file="gacha_god_chance_rules_ja.txt",
        rules_doc="docs/rules/gacha_game.md",
    )
)
