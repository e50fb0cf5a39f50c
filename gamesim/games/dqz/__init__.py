"""dqz: the party card game of attack expressions (1-5 joined by + − × ÷), strategy cards and monster skills.

Public API (outside checks call these names):

* :func:`attack_value` (exact rational value of an expression, rounded half away
  from zero at the end; ``ValueError`` on division by zero),
* :func:`best_attack_value` (exact best value for given hands),
* :func:`simulate_battle` (vectorized battles, a DataFrame with ``won``, ``turns``,
  ``cards_left`` ...),
* :func:`simulate` ``(params, n_games, *, rng, monsters)`` (every game's common entry point:
  :func:`run_battles`'s arrays) with :class:`DqzParams` (formerly ``BattleConfig``, still
  importable under that name),

plus the rules core (:mod:`.rules`), exact solvers (:mod:`.exact`,
:mod:`.exact_battle`), policies (:mod:`.policies`), the ILLUSTRATIVE bestiary
(:mod:`.bestiary`), the scalar reference (:mod:`.reference`) and the tasks. Importing
this package registers the game ``"dqz"`` with its tasks ``battle`` and ``run``.
"""

from gamesim.core.registry import Game, register_game

from .bestiary import BESTIARY, ILLUSTRATIVE, get_monster
from .exact import achievable_values, best_attack_value, enumerate_plays, eval_expressions, hand_distribution, value_table
from .exact_battle import best_damage_by_kind, exact_first_turn
from .policies import POLICIES, DamageRule, PlaySolver
from .reference import reference_battles
from .rules import (
    Monster,
    Skill,
    SkillUse,
    Strategy,
    StrategyPlay,
    Timing,
    attack_value,
    damage_from_value,
    exact_value,
    experience_split,
    focus_target,
    inn_refill,
    parse_skills,
    round_half_away,
    triggers_multiple,
)
from .sim import BattleConfig, DqzParams, run_battles, simulate, simulate_battle, simulate_run
from .tasks import TASKS

__all__ = [
    "GAME", "TASKS", "BESTIARY", "ILLUSTRATIVE", "get_monster",
    "attack_value", "best_attack_value", "simulate_battle", "simulate_run", "run_battles", "BattleConfig",
    "DqzParams", "simulate",
    "achievable_values", "enumerate_plays", "eval_expressions", "hand_distribution", "value_table",
    "exact_first_turn", "best_damage_by_kind", "POLICIES", "DamageRule", "PlaySolver", "reference_battles",
    "Monster", "Skill", "SkillUse", "Strategy", "StrategyPlay", "Timing", "damage_from_value", "exact_value",
    "experience_split", "focus_target", "inn_refill", "parse_skills", "round_half_away", "triggers_multiple",
]

GAME: Game = register_game(
    Game(
        name="dqz",
        title="dqz (テストプレイ版): attack expressions, strategy cards and monster skills",
        tasks=TASKS,
        seed_file="dqz_rules_ja.txt",
        rules_doc="docs/rules/dqz.md",
    )
)
