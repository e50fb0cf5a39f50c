"""Mech Arena 2013 (メックアリーナ2013): duels of the seven mechs of the 2013 issue.

Public API (outside checks call these names):

- the weapon file (:mod:`.data`): :func:`load_weapons`, :func:`parse_weapons`, :class:`WeaponSet`;
- the rules core (:mod:`.rules`): :class:`MechParams` (every base rule, assumed ones labelled),
  :class:`DuelState`, :func:`legal_actions`, :func:`action_outcomes` (explicit chance),
  :func:`check_probability`, :func:`hp_check_probability`, :func:`expected_score`, ...;
- exact per-weapon values (:mod:`.exact`): :func:`finger_flare`, :func:`finger_flare_best_k`,
  :func:`hp_check_exact`, :func:`weapon_values`, ...;
- the vectorized duels (:mod:`.sim`): :func:`simulate` ``(params, n_games, *, rng, mech_a, mech_b, ...)``;
- players (:mod:`.policies`): ``random``, ``greedy``, ``rollout``;
- the plain-Python reference (:mod:`.reference`): :func:`reference_simulate`.

Importing this package registers the game ``"mech_arena"`` with its tasks ``duel`` and
``league``. Rulebook: ``shared/seeds/gimmick_warehouse_qftnw_icecream_kaminoikari_mecharena_ja.txt``
(メックアリーナ2013); our reading, and the base rules assumed (not from the rulebook):
``docs/rules/mech_arena.md``.
"""

from gamesim.core.registry import Game, register_game

from .data import DataError, WeaponSet, load_weapons, parse_weapons
from .exact import (
    FingerFlare,
    check_probability_exact,
    finger_flare,
    finger_flare_best_k,
    finger_flare_enumerated,
    hp_check_exact,
    weapon_values,
)
from .policies import POLICY_NAMES, GreedyPolicy, RandomPolicy, RolloutPolicy, make_policy, pick_uniform
from .reference import reference_game, reference_simulate
from .rules import (
    DuelState,
    MechParams,
    Outcome,
    Side,
    action_outcomes,
    check_probability,
    counter_hit_probability,
    end_turn,
    expected_score,
    hp_check_probability,
    initial_state,
    is_over,
    legal_actions,
    skip_turn,
    start_turn,
)
from .sim import simulate
from .tasks import TASKS

__all__ = [
    "GAME", "TASKS", "DataError", "WeaponSet", "load_weapons", "parse_weapons",
    "FingerFlare", "check_probability_exact", "finger_flare", "finger_flare_best_k", "finger_flare_enumerated",
    "hp_check_exact", "weapon_values",
    "POLICY_NAMES", "GreedyPolicy", "RandomPolicy", "RolloutPolicy", "make_policy", "pick_uniform",
    "reference_game", "reference_simulate",
    "DuelState", "MechParams", "Outcome", "Side", "action_outcomes", "check_probability", "counter_hit_probability",
    "end_turn", "expected_score", "hp_check_probability", "initial_state", "is_over", "legal_actions", "skip_turn",
    "start_turn", "simulate",
]

GAME: Game = register_game(
    Game(
        name="mech_arena",
        title="Mech Arena 2013 (メックアリーナ2013)",
        tasks=TASKS,
        seed_file="gimmick_warehouse_qftnw_icecream_kaminoikari_mecharena_ja.txt",
        rules_doc="docs/rules/mech_arena.md",
    )
)
