"""神の怒り (Kami no Ikari, "the wrath of god"): the tower-building chicken race for 2-4 players.

Public API (outside checks call these names):

- the rules core (:mod:`.rules`): :class:`KamiParams`, :class:`KamiState`, :func:`load_board`,
  :func:`hand_value`, :func:`legal_actions`, :func:`apply_action`, ...;
- exact hand scoring (:mod:`.exact`): :func:`hand_value_distribution`, :func:`set_bonus_distribution`, ...;
- the vectorized simulator (:mod:`.sim`): :func:`simulate` ``(params, n_games, *, rng, policies)``
  over games on axis 0, with its kernels in :mod:`.engine`;
- players (:mod:`.policies`): ``random``, ``greedy``, ``chicken:d``, ``rollout:k``;
- the plain-Python scalar reference (:mod:`.reference`): :func:`reference_simulate`.

Importing this package registers the game ``"kami_no_ikari"`` with its task ``game``.
Rulebook: ``shared/seeds/gimmick_warehouse_qftnw_icecream_kaminoikari_mecharena_ja.txt`` (#27);
our reading: ``docs/rules/kami_no_ikari.md``.
"""

from gamesim.core.registry import Game, register_game

from .exact import (
    expected_hand_value,
    hand_probability,
    hand_value_distribution,
    hands_of_size,
    set_bonus_distribution,
)
from .policies import POLICY_NAMES, ChickenPolicy, GreedyPolicy, RandomPolicy, RolloutPolicy, make_policy
from .reference import reference_choice, reference_game, reference_simulate
from .rules import (
    ROAD_PAIRS,
    Board,
    Direction,
    KamiParams,
    KamiState,
    Spot,
    action_code,
    apply_action,
    board_lines,
    card_points,
    decode_action,
    draw,
    draw_outcomes,
    final_scores,
    hand_value,
    initial_state,
    legal_actions,
    load_board,
    n_actions,
    parse_board,
    set_bonus,
    turn_start,
    winners,
)
from .sim import GAME_KEYS, simulate
from .tasks import TASKS

__all__ = [
    "GAME", "TASKS", "ROAD_PAIRS", "Board", "Direction", "KamiParams", "KamiState", "Spot",
    "action_code", "apply_action", "board_lines", "card_points", "decode_action", "draw", "draw_outcomes",
    "final_scores", "hand_value", "initial_state", "legal_actions", "load_board", "n_actions", "parse_board",
    "set_bonus", "turn_start", "winners",
    "expected_hand_value", "hand_probability", "hand_value_distribution", "hands_of_size", "set_bonus_distribution",
    "GAME_KEYS", "simulate",
    "POLICY_NAMES", "ChickenPolicy", "GreedyPolicy", "RandomPolicy", "RolloutPolicy", "make_policy",
    "reference_choice", "reference_game", "reference_simulate",
]

GAME: Game = register_game(
    Game(
        name="kami_no_ikari",
        title="神の怒り (Kami no Ikari)",
        tasks=TASKS,
        seed_file="gimmick_warehouse_qftnw_icecream_kaminoikari_mecharena_ja.txt",
        rules_doc="docs/rules/kami_no_ikari.md",
    )
)
