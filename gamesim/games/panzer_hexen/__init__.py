"""ぱんつぁーへくせん (Panzer Hexen): witches against ネウロイ, an engine-building game for 2-5 players.

Public API:

- the card file (:mod:`.data`): :func:`load_cards`, :func:`parse_cards`, :func:`without`,
  :class:`CardSet` (built-in set ILLUSTRATIVE: the rulebook shows the cards only as pictures);
- the rules (:mod:`.rules`): :class:`PanzerParams` (every open procedure a declared default),
  :func:`fight`, :func:`min_mana`, :func:`ambush_hit`, :func:`ambush_mana`, :func:`policy_cost`;
- exact calculators (:mod:`.exact`): :func:`fight_cost`, :func:`combat_table`, :func:`policy_efficiency`;
- whole games vectorized over games (:mod:`.sim`): :func:`simulate` ``(params, n_games, *, rng, ...)``
  with ``random``, ``greedy`` and ``rollout`` players (:mod:`.policies`);
- the plain-Python reference (:mod:`.reference`): :func:`reference_simulate`, :func:`reference_game`.

Importing this package registers the game ``"panzer_hexen"`` with its task ``game``. Rulebook:
``shared/seeds/panzer_hexen_rules_ja.txt``; our reading and the open procedures:
``docs/rules/panzer_hexen.md``.
"""

from gamesim.core.registry import Game, register_game

from .data import CardSet, DataError, Equipment, Neuroi, Policy, Witch, load_cards, parse_cards, without
from .exact import FightCost, combat_table, fight_cost, policy_efficiency
from .policies import POLICY_NAMES
from .reference import reference_game, reference_simulate
from .rules import ACTION_NAMES, Action, Fight, PanzerParams, ambush_hit, ambush_mana, fight, min_mana, policy_cost
from .sim import simulate
from .tasks import TASKS

__all__ = [
    "GAME", "TASKS", "CardSet", "DataError", "Equipment", "Neuroi", "Policy", "Witch", "load_cards", "parse_cards",
    "without", "FightCost", "combat_table", "fight_cost", "policy_efficiency", "POLICY_NAMES",
    "reference_game", "reference_simulate", "ACTION_NAMES", "Action", "Fight", "PanzerParams", "ambush_hit",
    "ambush_mana", "fight", "min_mana", "policy_cost", "simulate",
]

GAME: Game = register_game(
    Game(
        name="panzer_hexen",
        title="ぱんつぁーへくせん (Panzer Hexen)",
        tasks=TASKS,
        seed_file="panzer_hexen_rules_ja.txt",
        rules_doc="docs/rules/panzer_hexen.md",
    )
)
