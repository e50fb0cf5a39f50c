"""Quest for the New World (QftNW, クエストフォーザニューワールド): three editions, bankruptcy, strategies.

Public API (outside checks call these names):

- :func:`simulate` ``(n_games, *, edition="original"|"spa"|"v2", advanced=False,
  policies=("uniform", "uniform"), rng=None, **rules) -> pandas.DataFrame``, one row per game;
  called as ``simulate(params, n_games, *, rng=None)`` with a :class:`QftnwParams` (every game's
  common entry point) it returns :func:`run_games`'s dict of arrays;
- the rules core (:mod:`.rules`: :class:`QftnwParams`, :func:`edition_params`, ...);
- policies (:mod:`.policies`: :func:`make_policy`, ``uniform``/``mixed``/``cautious``/``greedy``/
  ``equilibrium``);
- the zero-sum one-round equilibrium by linear programming (:mod:`.equilibrium`);
- the exact truncated enumeration (:mod:`.exact`) and the scalar reference (:mod:`.reference`).

Importing this package registers the game ``"qftnw"`` with its task ``game``.
Rulebook: ``shared/seeds/gimmick_warehouse_qftnw_icecream_kaminoikari_mecharena_ja.txt``;
our reading: ``docs/rules/qftnw.md``.
"""

from gamesim.core.registry import Game, register_game

from .equilibrium import (
    MatrixGameSolution,
    equilibrium_table,
    round_payoff_matrix,
    solve_matrix_game,
    start_equilibrium,
)
from .exact import exact_truncated
from .policies import (
    POLICY_NAMES,
    CautiousPolicy,
    EquilibriumPolicy,
    GreedyPolicy,
    MixedPolicy,
    Obs,
    ObsBatch,
    Policy,
    UniformPolicy,
    make_policy,
    safe_bids,
)
from .reference import reference_game, reference_simulate
from .rules import (
    EDITIONS,
    WIN_CONDITIONS,
    Cond,
    QftnwParams,
    bankruptcy_transfer,
    bid_winner,
    NAMINGS,
    choose_type,
    choose_type_most,
    edition_params,
    legal_bids,
    next_lock,
    play_round,
    RoundOutcome,
    resolve_bids,
    round_winner,
    win_condition,
)
from .sim import GAME_COLUMNS, run_games, simulate
from .tasks import TASKS

__all__ = [
    "GAME",
    "simulate",
    "run_games",
    "GAME_COLUMNS",
    "EDITIONS",
    "WIN_CONDITIONS",
    "Cond",
    "QftnwParams",
    "edition_params",
    "bid_winner",
    "resolve_bids",
    "legal_bids",
    "next_lock",
    "play_round",
    "RoundOutcome",
    "choose_type_most",
    "choose_type",
    "NAMINGS",
    "bankruptcy_transfer",
    "win_condition",
    "round_winner",
    "POLICY_NAMES",
    "Policy",
    "Obs",
    "ObsBatch",
    "UniformPolicy",
    "MixedPolicy",
    "CautiousPolicy",
    "GreedyPolicy",
    "EquilibriumPolicy",
    "make_policy",
    "safe_bids",
    "MatrixGameSolution",
    "solve_matrix_game",
    "round_payoff_matrix",
    "equilibrium_table",
    "start_equilibrium",
    "exact_truncated",
    "reference_game",
    "reference_simulate",
    "TASKS",
]

GAME: Game = register_game(
    Game(
        name="qftnw",
        title="Quest for the New World (クエストフォーザニューワールド)",
        tasks=TASKS,
        seed_file="gimmick_warehouse_qftnw_icecream_kaminoikari_mecharena_ja.txt",
        rules_doc="docs/rules/qftnw.md",
    )
)
