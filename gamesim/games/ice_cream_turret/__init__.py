"""Ice Cream Turret (アイスクリームタレット): the one-player card puzzle of falling ice cream.

Public API (outside checks call these names):

- the rules core (:mod:`.rules`): :class:`IceCreamParams`, :func:`resolve`, :func:`place`,
  :func:`board_from_rows`, :func:`cycle_additions`, ...;
- the vectorized simulator (:mod:`.sim`): :func:`simulate` ``(params, n_games, *, rng, policy="greedy")``
  (every game's common entry point) and :func:`run_games` ``(p, policy, n_games, *, rng)``
  over boards of shape ``(n, 15)`` = ``(n, 5, 3)`` flattened, and :func:`resolve_batch`;
- policies (:mod:`.policies`): ``random``, ``greedy``, ``lookahead``, ``rollout``;
- the plain-Python scalar reference (:mod:`.reference`): :func:`reference_simulate`.

Importing this package registers the game ``"ice_cream_turret"`` with its tasks
``solitaire`` and ``score_attack``. Rulebook:
``shared/seeds/gimmick_warehouse_qftnw_icecream_kaminoikari_mecharena_ja.txt`` (#28);
our reading: ``docs/rules/ice_cream_turret.md``.
"""

from gamesim.core.registry import Game, register_game

from .policies import (
    POLICY_NAMES,
    GreedyPolicy,
    LookaheadPolicy,
    RandomPolicy,
    RolloutPolicy,
    greedy_keys_batch,
    lookahead_values_batch,
    make_policy,
)
from .reference import greedy_keys, lookahead_values, reference_game, reference_simulate
from .rules import (
    COLS,
    CRUSH,
    LINES,
    ROWS,
    WINDOWS,
    IceCreamParams,
    Resolution,
    board_from_rows,
    board_to_rows,
    cycle_additions,
    find_clears,
    gravity,
    initial_deck,
    is_game_over,
    legal_columns,
    place,
    rebuild_deck,
    resolve,
    WindowKind,
    window_kind,
)
from .sim import STATUS, GameBatch, advance, new_games, resolve_batch, run_games, simulate
from .tasks import TASKS

__all__ = [
    "GAME", "TASKS", "COLS", "ROWS", "CRUSH", "LINES", "WINDOWS", "IceCreamParams", "Resolution",
    "board_from_rows", "board_to_rows", "cycle_additions", "find_clears", "gravity", "initial_deck",
    "is_game_over", "legal_columns", "place", "rebuild_deck", "resolve", "window_kind", "WindowKind",
    "STATUS", "GameBatch", "advance", "new_games", "resolve_batch", "run_games", "simulate",
    "POLICY_NAMES", "GreedyPolicy", "LookaheadPolicy", "RandomPolicy", "RolloutPolicy", "greedy_keys_batch",
    "lookahead_values_batch", "make_policy", "greedy_keys", "lookahead_values", "reference_game",
    "reference_simulate",
]

GAME: Game = register_game(
    Game(
        name="ice_cream_turret",
        title="Ice Cream Turret (アイスクリームタレット)",
        tasks=TASKS,
        seed_file="gimmick_warehouse_qftnw_icecream_kaminoikari_mecharena_ja.txt",
        rules_doc="docs/rules/ice_cream_turret.md",
    )
)
