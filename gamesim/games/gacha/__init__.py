"""ガッチャ ~God Chance~: the gacha bag, God Chance, Overdrive, 課金ガチャ, 疑惑の運営モード.

Public API: the rules core (:mod:`.rules`, with :class:`GachaParams`: bag, characters,
疑惑の運営モード and Overdrive in one frozen, checked object), exact solvers (:mod:`.exact`), the
vectorized simulator (:mod:`.sim`, with the common entry point :func:`simulate`
``(params, n_games, *, rng, sessions)``) and the scalar reference (:mod:`.reference`).
Importing this package registers the game ``"gacha"`` with its tasks
``schedule``, ``pulls_to_complete``, ``money`` and ``shared``.
"""

from gamesim.core.registry import Game, register_game

from .exact import (
    exact_completion_curve,
    exact_completion_probability,
    exact_expected_characters_owned,
    exact_expected_god_chances,
    exact_shared,
    exact_god_chance_pmf,
    exact_pulls_to_complete,
)
from .purchase import PurchasePlan, best_purchase_plan, run_purchase_plan
from .reference import reference_pulls_to_complete, reference_schedule, reference_shared
from .rules import (
    DEFAULT_BUNDLES,
    BagConfig,
    BagState,
    BundleMix,
    Chip,
    DoubtfulConfig,
    GachaParams,
    RateBundle,
    SessionOutcome,
    bag_creation_outcomes,
    best_bundle_mix,
    check_config,
    coupon_collector_probability,
    full_bag,
    must_rebuild,
    session_outcomes,
    split_sessions,
)
from .sim import (
    run_pulls_to_complete,
    run_schedule,
    run_shared,
    simulate,
    simulate_pulls_to_complete,
    simulate_schedule,
    simulate_shared,
)
from .tasks import TASKS

__all__ = [
    "GAME",
    "DEFAULT_BUNDLES",
    "BagConfig",
    "BagState",
    "BundleMix",
    "Chip",
    "DoubtfulConfig",
    "GachaParams",
    "RateBundle",
    "SessionOutcome",
    "bag_creation_outcomes",
    "best_bundle_mix",
    "check_config",
    "coupon_collector_probability",
    "full_bag",
    "must_rebuild",
    "session_outcomes",
    "split_sessions",
    "exact_completion_curve",
    "exact_completion_probability",
    "exact_expected_characters_owned",
    "exact_expected_god_chances",
    "exact_shared",
    "PurchasePlan",
    "best_purchase_plan",
    "run_purchase_plan",
    "exact_god_chance_pmf",
    "exact_pulls_to_complete",
    "reference_pulls_to_complete",
    "reference_schedule",
    "reference_shared",
    "run_pulls_to_complete",
    "run_schedule",
    "run_shared",
    "simulate_pulls_to_complete",
    "simulate",
    "simulate_schedule",
    "simulate_shared",
    "TASKS",
]

GAME: Game = register_game(
    Game(
        name="gacha",
        title="ガッチャ ~God Chance~",
        tasks=TASKS,
        seed_file="gacha_god_chance_rules_ja.txt",
        rules_doc="docs/rules/gacha.md",
    )
)
