"""Every public function of every game is covered by a strict-API test (issue 9, acceptance).

Part 1: a completeness check. Each callable a game exports (its ``__all__``: functions,
classes, data classes; enums excepted, they are closed sets of values) must be exercised by
name in ``tests/reliability/test_api_<game>.py`` or in this module, or be listed in
:data:`EXEMPT` with the reason. A new public function without a reliability test fails here.

Part 2: the helpers the per-game property tests do not draw: one call with valid
arguments returns, and wrong types / out-of-range values raise a ``ParamError`` naming the
parameter (a float such as ``2.5`` is never truncated, a bool never taken as 0/1).
"""

from __future__ import annotations

import enum
import importlib
import inspect
import re
import time
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

from gamesim.core.validate import declared_params

import gamesim.games.dqz as dqz
import gamesim.games.gacha as gacha
import gamesim.games.gacha_game as gg
import gamesim.games.godtear as gt
import gamesim.games.ice_cream_turret as ic
import gamesim.games.kami_no_ikari as ki
import gamesim.games.qftnw as q
from gamesim.core.registry import ParamError
from tests.reliability.api_support import FAST_S

GAMES = ["godtear", "qftnw", "dqz", "gacha", "gacha_game", "ice_cream_turret", "mech_arena", "kami_no_ikari", "panzer_hexen"]
HERE = Path(__file__).parent

#: Exported callables that need no argument test of their own, and why.
EXEMPT: dict[str, str] = {
    "qftnw.RoundOutcome": "result record returned by play_round (built by the rules, never by a caller)",
    "qftnw.Obs": "observation record the simulator hands to Policy.bid; not an entry point",
    "qftnw.ObsBatch": "vectorized observation record the simulator hands to Policy.bid_from_uniform (and bid_batch)",
    "qftnw.MatrixGameSolution": "result record returned by solve_matrix_game",
    "qftnw.Policy": "abstract base class (no arguments)",
    "dqz.Monster": "checked in test_api_dqz via simulate_battle(monster=...) and below",
    "gacha.BundleMix": "result record returned by best_bundle_mix",
    "gacha.SessionOutcome": "result record returned by session_outcomes",
    "gacha.PurchasePlan": "result record returned by best_purchase_plan (run_purchase_plan checks its type)",
    "gacha_game.GameData": "compiled card lists, built only by parse_data / load_data (which validate)",
    "ice_cream_turret.Resolution": "result record returned by resolve (is_game_over checks its type)",
    "kami_no_ikari.KamiState": "state record built by initial_state, draw and apply_action (which validate); "
                               "every function taking a state checks its type",
    "kami_no_ikari.Board": "board record built only by parse_board / load_board (which validate)",
    "panzer_hexen.CardSet": "validated card lists, built by parse_cards / load_cards / without (which validate)",
    "panzer_hexen.Witch": "card record, built by parse_cards (which validates the fields)",
    "panzer_hexen.Neuroi": "card record, built by parse_cards (which validates the fields)",
    "panzer_hexen.Equipment": "card record, built by parse_cards (which validates the fields)",
    "panzer_hexen.Policy": "card record, built by parse_cards (which validates the fields)",
    "panzer_hexen.Fight": "result record returned by fight",
    "panzer_hexen.FightCost": "result record returned by fight_cost",
}


def _public_callables(game: str) -> list[str]:
    m = importlib.import_module(f"gamesim.games.{game}")
    out = []
    for name in m.__all__:
        obj = getattr(m, name)
        if callable(obj) and not (inspect.isclass(obj) and issubclass(obj, enum.Enum)):
            out.append(name)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_public_callable_has_a_strict_api_test(game: str) -> None:
    text = (HERE / f"test_api_{game}.py").read_text(encoding="utf-8") + Path(__file__).read_text(encoding="utf-8")
    prefix = {"godtear": "gt", "qftnw": "q", "dqz": "dqz", "gacha": "gacha", "gacha_game": "gg",
              "ice_cream_turret": "ic", "mech_arena": "mech", "kami_no_ikari": "ki",
              "panzer_hexen": "ph"}[game]
    own = (HERE / f"test_api_{game}.py").read_text(encoding="utf-8")
    # a game converted to declared constraints has its strict-API test generated from them
    generated = "declared_api_tests(" in own  # api_support.declared_api_tests makes its tests
    m = importlib.import_module(f"gamesim.games.{game}")
    missing = []
    for name in _public_callables(game):
        if f"{game}.{name}" in EXEMPT:
            continue
        if generated and inspect.isfunction(getattr(m, name)) and declared_params(getattr(m, name)) is not None:
            continue
        # named in the game's own test module, or called here as <prefix>.<name>
        if re.search(rf"\b{re.escape(name)}\b", own) or re.search(rf"\b{prefix}\.{re.escape(name)}\b", text):
            continue
        missing.append(name)
    assert not missing, f"gamesim.games.{game}: no strict-API test for {missing}"


# ---------------------------------------------------------------------------
# Part 2: helpers outside the per-game property tests
# ---------------------------------------------------------------------------

P = q.edition_params("original")
DUEL, SKILL, TARGET = gt.DuelState(), gt.Skill(3, 3), gt.Target(2, 1, 5)
EMPTY_BOARD = (0,) * 15

#: (call with a wrong argument, the parameter the error must name)
REFUSED: list[tuple[str, Callable[[], Any], str]] = [
    # godtear
    ("gt.resolve_use success_total 2.5", lambda: gt.resolve_use(DUEL, SKILL, TARGET, 2.5, 3), "success_total"),
    ("gt.use_outcomes die tuple", lambda: gt.use_outcomes(DUEL, SKILL, TARGET, (2, 3, 1)), "die"),
    ("gt.reference_activation n_trials 2.5",
     lambda: gt.reference_activation([(SKILL, 1)], TARGET, 2.5), "n_trials"),
    ("gt.reference_activation rng True",
     lambda: gt.reference_activation([(SKILL, 1)], TARGET, 3, rng=True), "rng"),
    # qftnw
    ("q.run_games n 2.5", lambda: q.run_games(P, ("uniform", "uniform"), 2.5), "n_games"),
    ("q.run_games p None", lambda: q.run_games(None, ("uniform", "uniform"), 10), "p"),
    ("q.QftnwParams start_funds 2.5", lambda: q.QftnwParams(start_funds=2.5), "start_funds"),
    ("q.bid_winner 2.5", lambda: q.bid_winner(2.5, 3), "a"),
    ("q.legal_bids advanced 'no'", lambda: q.legal_bids(0, "no"), "advanced"),
    ("q.next_lock advanced 'no'", lambda: q.next_lock(3, 0, "no"), "advanced"),
    ("q.choose_type_most 1.5", lambda: q.choose_type_most([1.5] * 7), "hold"),
    ("q.choose_type naming", lambda: q.choose_type([1] * 7, [1] * 7, P, naming="x"), "naming"),
    ("q.bankruptcy_transfer t 2.5", lambda: q.bankruptcy_transfer([1] * 7, [1] * 7, 2.5, P), "t"),
    ("q.round_winner 2.5", lambda: q.round_winner(2.5, 0, 0, 0), "c0"),
    ("q.round_winner taker 2", lambda: q.round_winner(0, 0, -1, 2), "taker"),
    ("q.safe_bids funds 2.5", lambda: q.safe_bids(2.5, 5, 0, 0, P), "f_self"),
    ("q.safe_bids lock True", lambda: q.safe_bids(5, 5, True, 0, P), "lock_self"),
    ("q.UniformPolicy naming", lambda: q.UniformPolicy(naming="x"), "naming"),
    ("q.MixedPolicy nan", lambda: q.MixedPolicy(probs=(float("nan"),) * 5), "mixed_probs"),
    ("q.CautiousPolicy naming", lambda: q.CautiousPolicy(naming=3), "naming"),
    ("q.GreedyPolicy naming", lambda: q.GreedyPolicy(naming=3), "naming"),
    ("q.EquilibriumPolicy nan", lambda: q.EquilibriumPolicy(fund_weight=float("nan")), "fund_weight"),
    ("q.reference_game pol None", lambda: q.reference_game(P, None, None, np.random.default_rng(0)), "pol0"),
    ("q.reference_simulate advanced 'no'", lambda: q.reference_simulate(10, advanced="no"), "advanced"),
    ("q.reference_simulate 1e9", lambda: q.reference_simulate(10**9), "n_games"),
    # dqz
    ("dqz.get_monster 3", lambda: dqz.get_monster(3), "name"),
    ("dqz.BattleConfig 2.5", lambda: dqz.BattleConfig(party_size=2.5), "party_size"),
    ("dqz.achievable_values 2.5", lambda: dqz.achievable_values([[2.5]]), "hands[0]"),
    ("dqz.achievable_values 6", lambda: dqz.achievable_values([[6]]), "hands[0]"),
    ("dqz.enumerate_plays 2.5", lambda: dqz.enumerate_plays([[2.5]]), "hands[0]"),
    ("dqz.exact_value 2.5", lambda: dqz.exact_value([2.5, 1], "+"), "cards"),
    ("dqz.exact_value True", lambda: dqz.exact_value([True, 1], "+"), "cards"),
    ("dqz.exact_first_turn 2.5", lambda: dqz.exact_first_turn(2.5), "party_size"),
    ("dqz.exact_first_turn 1e6", lambda: dqz.exact_first_turn(10**6), "party_size"),
    ("dqz.parse_skills 3", lambda: dqz.parse_skills(3), "skills"),
    ("dqz.round_half_away 2.5", lambda: dqz.round_half_away(2.5), "x"),
    ("dqz.eval_expressions floats", lambda: dqz.eval_expressions(np.array([[2.5, 1]]), np.array([[0]])), "vals"),
    ("dqz.run_battles n 2.5", lambda: dqz.run_battles([dqz.get_monster("スライム")], 2.5,
                                                      dqz.BattleConfig(party_size=3)), "n_runs"),
    ("dqz.reference_battles n 2.5", lambda: dqz.reference_battles(2.5, party_size=3, monsters="スライム"), "n_runs"),
    ("dqz.DamageRule 'no'", lambda: dqz.DamageRule(physical_immune="no"), "physical_immune"),
    ("dqz.Monster level 2.5", lambda: dqz.Monster("x", 2.5, 10), "level"),
    ("dqz.PlaySolver None", lambda: dqz.PlaySolver(None), "rule"),
    ("dqz.PlaySolver ops", lambda: dqz.PlaySolver(dqz.DamageRule(), ops="+%"), "ops"),
    ("dqz.best_damage_by_kind floats", lambda: dqz.best_damage_by_kind(np.ones((2, 3)), dqz.DamageRule()), "masks"),
    ("dqz.best_damage_by_kind rule", lambda: dqz.best_damage_by_kind(np.ones((2, 3), np.int64), None), "rule"),
    ("dqz.SkillUse 3", lambda: dqz.SkillUse(3, "x"), "skill"),
    ("dqz.StrategyPlay 3", lambda: dqz.StrategyPlay(3), "kind"),
    ("dqz.StrategyPlay target 2.5", lambda: dqz.StrategyPlay(list(dqz.Strategy)[0], 2.5), "target"),
    # gacha
    ("gacha.run_pulls_to_complete n 2.5", lambda: gacha.run_pulls_to_complete(10, 2.5), "n_trials"),
    ("gacha.run_pulls_to_complete max_pulls -10", lambda: gacha.run_pulls_to_complete(10, 10, max_pulls=-10),
     "max_pulls"),
    # gacha_game
    ("gg.parse_data 3", lambda: gg.parse_data(3), None),  # DataError (a ValueError) naming the source
    # ice_cream_turret
    ("ic.GreedyPolicy name 3", lambda: ic.GreedyPolicy(name=3), "name"),
    ("ic.RandomPolicy name None", lambda: ic.RandomPolicy(name=None), "name"),
    ("ic.LookaheadPolicy name ''", lambda: ic.LookaheadPolicy(name=""), "name"),
]


@pytest.mark.parametrize("label, call, key", REFUSED, ids=[r[0] for r in REFUSED])
def test_helper_refuses_naming_the_parameter(label: str, call: Callable[[], Any], key: str | None) -> None:
    t0 = time.process_time()
    with pytest.raises((TypeError, ValueError)) as info:
        call()
    assert time.process_time() - t0 < FAST_S
    if key is None:
        assert isinstance(info.value, gg.DataError) and "<data>" in str(info.value)
    else:
        assert isinstance(info.value, ParamError), repr(info.value)
        assert info.value.key == key, str(info.value)


def test_helpers_accept_valid_arguments() -> None:
    assert gt.resolve_use(DUEL, SKILL, TARGET, 3, 3) is not None
    assert sum(pr for _, pr in gt.use_outcomes(DUEL, SKILL, TARGET)) == 1
    assert gt.reference_activation([(SKILL, 1)], TARGET, 3, rng=1)["wounds"].shape == (3,)
    assert len(q.run_games(P, (q.make_policy("uniform"), q.make_policy("uniform")), 5, rng=1)["rounds"]) == 5
    assert q.bid_winner(2, 3) in (0, 1, -1) and q.legal_bids(0, False) and q.next_lock(3, 0, True) >= 0
    assert q.choose_type_most([0, 2, 2, 0, 0, 0, 0]) == 1 and q.choose_type_most([0] * 7) == -1
    assert q.round_winner(1, 0, -1, 0) == (0, 1) and q.round_winner(0, 0, -1, -1) == (-1, 0)
    assert set(q.safe_bids(6, 6, 0, 0, P)) <= {1, 2, 3, 4, 5}
    assert q.reference_game(P, q.make_policy("uniform"), q.make_policy("greedy"), np.random.default_rng(0))
    assert q.QftnwParams(start_funds=3).start_funds == 3
    assert dqz.get_monster("スライム").hp > 0
    assert dqz.exact_value([6, 7], "+") == 13  # operands may be modified beyond 1..5 (skills, strategy cards)
    assert dqz.exact_value([Fraction(1, 2), 1], "+") == Fraction(3, 2)
    assert dqz.round_half_away(Fraction(27, 2)) == 14 and dqz.round_half_away(-3) == -3
    assert dqz.best_damage_by_kind(np.array([[1, 2]]), dqz.DamageRule()).shape == (1, 6)
    assert dqz.StrategyPlay(list(dqz.Strategy)[0], 0).target == 0
    assert dqz.PlaySolver(dqz.DamageRule(), ops="+-") is not None
    assert gacha.run_pulls_to_complete(10, 5, rng=1)["pulls_to_complete"].shape == (5,)
    assert ic.GreedyPolicy().name == "greedy" and ic.RandomPolicy(name="r").name == "r"
    assert isinstance(gg.parse_data(__import__("tomllib").loads(
        (Path(gg.__file__).parent / "data" / "illustrative.toml").read_text(encoding="utf-8"))), gg.GameData)
