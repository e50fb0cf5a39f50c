"""Godtear: dice, success and damage rolls, boons and blights, knock-outs and the tally.

Public API (issue 3): :func:`roll_pmf`, :func:`p_success`, :func:`wounds_pmf` and
:func:`p_knockout`, plus exact-fraction twins (``*_fraction``), tables, the rules
core (:mod:`.rules`, with :class:`GodtearParams`), the vectorized simulator (:mod:`.sim`, with
the common entry point :func:`simulate` ``(params, n_games, *, rng)``) and the scalar
reference (:mod:`.reference`). Importing this package registers the game
``"godtear"`` with its tasks ``success_roll``, ``damage_roll``, ``knockout``,
``activation`` and ``end_phase``.
"""

from gamesim.core.registry import Game, register_game

from .exact import (
    end_phase_pmf,
    expected_uses_to_knockout,
    expected_wounds,
    expected_wounds_table,
    knockout_chain,
    knockout_curve,
    min_stat_lines,
    p_knockout,
    p_knockout_fraction,
    p_success,
    p_success_fraction,
    roll_counts,
    roll_pmf,
    roll_pmf_fraction,
    success_table,
    uses_to_knockout_quantile,
    wounds_distribution_table,
    wounds_pmf,
    wounds_pmf_fraction,
)
from .reference import reference_activation, reference_knockout, reference_roll, reference_rolls
from .rules import (
    FACTIONS,
    GodtearParams,
    GODTEAR_DIE,
    HIT_EFFECTS,
    TALLY_STEPS,
    TARGET_KINDS,
    DieSpec,
    DuelState,
    Faction,
    FollowerSkill,
    Skill,
    Status,
    TallyEvent,
    Target,
    Token,
    add_token,
    change_moves,
    default_health,
    dice_after_token,
    is_success,
    knockout_steps,
    life_new_objectives,
    resolve_use,
    roll_outcomes,
    tally_steps,
    use_outcomes,
    wounds_dealt,
)
from .sim import CHUNK_SIZE, roll_totals, run_activation, run_end_phase, run_knockout, sample_rolls, simulate
from .tasks import TASKS

__all__ = [
    "GAME",
    "TASKS",
    # public API of issue 3
    "roll_pmf",
    "p_success",
    "wounds_pmf",
    "p_knockout",
    # exact
    "roll_counts",
    "roll_pmf_fraction",
    "p_success_fraction",
    "wounds_pmf_fraction",
    "p_knockout_fraction",
    "expected_wounds",
    "success_table",
    "expected_wounds_table",
    "wounds_distribution_table",
    "knockout_chain",
    "knockout_curve",
    "expected_uses_to_knockout",
    "uses_to_knockout_quantile",
    "min_stat_lines",
    "end_phase_pmf",
    # rules core
    "FACTIONS",
    "GODTEAR_DIE",
    "HIT_EFFECTS",
    "TALLY_STEPS",
    "TARGET_KINDS",
    "DieSpec",
    "DuelState",
    "Faction",
    "FollowerSkill",
    "Skill",
    "GodtearParams",
    "Status",
    "TallyEvent",
    "Target",
    "Token",
    "add_token",
    "change_moves",
    "default_health",
    "dice_after_token",
    "is_success",
    "knockout_steps",
    "life_new_objectives",
    "resolve_use",
    "roll_outcomes",
    "tally_steps",
    "use_outcomes",
    "wounds_dealt",
    # simulation
    "CHUNK_SIZE",
    "roll_totals",
    "sample_rolls",
    "run_knockout",
    "simulate",
    "run_activation",
    "run_end_phase",
    "reference_roll",
    "reference_rolls",
    "reference_knockout",
    "reference_activation",
]

GAME: Game = register_game(
    Game(
        name="godtear",
        title="Godtear (ゴッドティア): dice and combat",
        tasks=TASKS,
        seed_file="godtear_rulebook_ja.txt",
        rules_doc="docs/rules/godtear.md",
    )
)
