"""Property tests of the Godtear public API (issue 9, point 4/5).

For every public function: a call whose arguments are all of the right type and in
range returns; a call with any argument of the wrong type (a float such as ``2.9``
or ``3.0`` for an integer, a bool, a string, None) or out of range (negative dodge,
10**6 uses, 10**4 dice) raises ``TypeError``/``ValueError`` naming the parameter,
quickly and before any work: nothing is silently truncated or clamped, and nothing
else (MemoryError, OverflowError, RecursionError, a hang) is reachable.
"""

from __future__ import annotations

import math
import time
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gamesim.games.godtear as gt
from gamesim.games.godtear.rules import (
    HIT_EFFECTS,
    MAX_DICE,
    MAX_HEALTH,
    MAX_PIPS,
    MAX_ROLL_DICE,
    MAX_USES,
)
from tests.reliability.api_support import Arg, call, draw_call, int_arg, refused_names


def choice_arg(choices: tuple[Any, ...], keyword: bool = True) -> Arg:
    bad = st.one_of(st.text(max_size=4).filter(lambda s: s not in choices), st.integers(5, 9), st.none(),
                    st.floats(allow_nan=True))
    return Arg(st.sampled_from(choices), bad, keyword)


TOKEN = Arg(st.integers(-1, 1), st.one_of(st.sampled_from([True, False, 1.0, -1.0, 0.5, 2, -2, "1", None])))
EXACT = Arg(st.booleans(), st.one_of(st.integers(0, 1), st.just("yes"), st.none()))
DIE = Arg(st.sampled_from([gt.GODTEAR_DIE, gt.DieSpec((1, 1)), gt.DieSpec((0, 2, 1, 1))]),
          st.one_of(st.just((2, 3, 1)), st.none(), st.integers(0, 5)))
PROB = Arg(st.floats(0.01, 0.99), st.one_of(st.sampled_from([math.nan, math.inf, -0.5, 1.5, True]), st.text(max_size=2),
                                             st.none()))
RNG = Arg(st.integers(0, 2**32 - 1), st.nothing())


def int_list_arg(hi: int, small: int) -> Arg:
    good = st.lists(st.integers(0, small), min_size=1, max_size=4)
    bad = st.one_of(
        st.lists(st.integers(0, small), max_size=3).map(lambda v: v + [2.5]),
        st.lists(st.integers(0, small), max_size=3).map(lambda v: v + [True]),
        st.lists(st.integers(0, small), max_size=3).map(lambda v: v + [-1]),
        st.lists(st.integers(0, small), max_size=3).map(lambda v: v + [hi + 1]),
        st.just([]),
        st.just("123"),
        st.just(list(range(5000))),
    )
    return Arg(good, bad)


SKILL = Arg(st.builds(gt.Skill, st.integers(0, 5), st.integers(0, 5), st.sampled_from(HIT_EFFECTS)),
            st.one_of(st.just((3, 3)), st.none(), st.integers(0, 3)))
TARGET = Arg(st.builds(gt.Target, st.integers(0, 5), st.integers(0, 3), st.integers(1, 6)),
             st.one_of(st.just((2, 1, 5)), st.none()))
STATUS = Arg(st.builds(gt.Status, st.integers(-1, 1), st.integers(-1, 1), st.integers(-1, 1), st.integers(-1, 1)),
             st.one_of(st.just({}), st.integers(0, 1)))

KO = dict(dodge=int_arg(0, MAX_PIPS, 6), protection=int_arg(0, MAX_PIPS, 4), health=int_arg(1, MAX_HEALTH, 6),
          hit_effect=choice_arg(HIT_EFFECTS), accuracy_token=TOKEN, damage_token=TOKEN, dodge_token=TOKEN,
          protection_token=TOKEN, die=DIE)
ACC = int_arg(0, MAX_DICE, 6, keyword=False)
DMG = int_arg(0, MAX_DICE, 6, keyword=False)

#: Every public function with its arguments (positional ones first, in order).
SPECS: dict[str, tuple[Callable[..., Any], dict[str, Arg]]] = {
    "roll_pmf": (gt.roll_pmf, {"n_dice": int_arg(0, MAX_ROLL_DICE, 30, keyword=False), "die": DIE}),
    "roll_counts": (gt.roll_counts, {"n_dice": int_arg(0, MAX_ROLL_DICE, 30, keyword=False), "die": DIE}),
    "roll_pmf_fraction": (gt.roll_pmf_fraction, {"n_dice": int_arg(0, MAX_ROLL_DICE, 30, keyword=False), "die": DIE}),
    "p_success": (gt.p_success, {"accuracy": ACC, "dodge": int_arg(0, MAX_PIPS, 20, keyword=False), "boon": TOKEN,
                                 "die": DIE}),
    "p_success_fraction": (gt.p_success_fraction, {"accuracy": ACC, "dodge": int_arg(0, MAX_PIPS, 20, keyword=False),
                                                   "boon": TOKEN, "die": DIE}),
    "wounds_pmf": (gt.wounds_pmf, {"damage": DMG, "protection": int_arg(0, MAX_PIPS, 10, keyword=False),
                                   "health": Arg(st.one_of(st.none(), st.integers(1, 10)),
                                                 int_arg(1, MAX_HEALTH).bad.filter(lambda v: v is not None)),
                                   "boon": TOKEN, "die": DIE}),
    "wounds_pmf_fraction": (gt.wounds_pmf_fraction, {"damage": DMG, "protection": int_arg(0, MAX_PIPS, 10,
                                                                                          keyword=False),
                                                     "boon": TOKEN, "die": DIE}),
    "expected_wounds": (gt.expected_wounds, {"damage": DMG, "protection": int_arg(0, MAX_PIPS, 10, keyword=False),
                                             "boon": TOKEN, "die": DIE, "exact": EXACT}),
    "p_knockout": (gt.p_knockout, {"accuracy": ACC, "damage": DMG, "uses": int_arg(0, MAX_USES, 5), **KO}),
    "p_knockout_fraction": (gt.p_knockout_fraction, {"accuracy": ACC, "damage": DMG, "uses": int_arg(0, MAX_USES, 3),
                                                     **KO}),
    "knockout_curve": (gt.knockout_curve, {"accuracy": ACC, "damage": DMG, "uses": int_arg(0, MAX_USES, 5), **KO,
                                           "exact": EXACT}),
    "expected_uses_to_knockout": (gt.expected_uses_to_knockout, {"accuracy": ACC, "damage": DMG, **KO}),
    "uses_to_knockout_quantile": (gt.uses_to_knockout_quantile, {
        "q": Arg(PROB.good, PROB.bad, keyword=False), "accuracy": ACC, "damage": DMG,
        "dodge": KO["dodge"], "protection": KO["protection"], "health": KO["health"],
        "max_uses": int_arg(0, MAX_USES, 8)}),
    "min_stat_lines": (gt.min_stat_lines, {
        "dodge": KO["dodge"], "protection": KO["protection"], "health": int_arg(1, MAX_HEALTH, 3),
        "uses": int_arg(0, MAX_USES, 2), "p_min": Arg(st.floats(0, 1), PROB.bad),
        "max_accuracy": int_arg(1, MAX_DICE, 3), "max_damage": int_arg(0, MAX_DICE, 3), "die": DIE}),
    "end_phase_pmf": (gt.end_phase_pmf, {"rule": choice_arg(("life", "change"), keyword=False), "die": DIE,
                                         "exact": EXACT}),
    "success_table": (gt.success_table, {"accuracies": int_list_arg(MAX_DICE, 4),
                                         "dodges": int_list_arg(MAX_PIPS, 6), "boon": TOKEN, "exact": EXACT}),
    "expected_wounds_table": (gt.expected_wounds_table, {"damages": int_list_arg(MAX_DICE, 4),
                                                         "protections": int_list_arg(MAX_PIPS, 4), "exact": EXACT}),
    "wounds_distribution_table": (gt.wounds_distribution_table, {"damages": int_list_arg(MAX_DICE, 4),
                                                                 "protections": int_list_arg(MAX_PIPS, 4)}),
    "sample_rolls": (gt.sample_rolls, {"n_dice": int_arg(0, MAX_ROLL_DICE, 10, keyword=False),
                                       "n_trials": int_arg(0, 10**7, 200, keyword=False), "die": DIE, "rng": RNG}),
    "run_end_phase": (gt.run_end_phase, {"rule": choice_arg(("life", "change"), keyword=False),
                                         "n_trials": int_arg(0, 10**7, 200, keyword=False), "rng": RNG}),
    "run_knockout": (gt.run_knockout, {"skill": Arg(SKILL.good, SKILL.bad, False),
                                       "target": Arg(TARGET.good, TARGET.bad, False),
                                       "n_trials": int_arg(0, 10**7, 100, keyword=False),
                                       "uses": int_arg(0, MAX_USES, 4), "attacker": STATUS,
                                       "target_status": STATUS, "die": DIE, "rng": RNG}),
    "reference_rolls": (gt.reference_rolls, {"n_dice": int_arg(0, MAX_ROLL_DICE, 5, keyword=False),
                                             "n_trials": int_arg(0, 10**6, 20, keyword=False), "rng": RNG}),
    "Skill": (gt.Skill, {"accuracy": ACC, "damage": Arg(st.one_of(st.none(), DMG.good),
                                                        DMG.bad.filter(lambda v: v is not None), keyword=False),
                         "hit_effect": choice_arg(HIT_EFFECTS)}),
    "Target": (gt.Target, {"dodge": int_arg(0, MAX_PIPS, keyword=False), "protection": int_arg(0, MAX_PIPS,
                                                                                               keyword=False),
                           "health": int_arg(1, MAX_HEALTH, keyword=False)}),
    "Status": (gt.Status, {"accuracy": TOKEN, "damage": TOKEN, "dodge": TOKEN, "protection": TOKEN, "speed": TOKEN}),
    "DieSpec": (gt.DieSpec, {"counts": Arg(st.lists(st.integers(0, 100), min_size=1, max_size=7).filter(sum),
                                           st.one_of(st.just([2.0, 3, 1]), st.just([True, 1]), st.just([-1, 2]),
                                                     st.just([0] * 8 + [1]), st.just([1, 10**9]),
                                                     st.just("231")), keyword=False)}),
    "roll_outcomes": (gt.rules.roll_outcomes, {"n_dice": int_arg(0, MAX_ROLL_DICE, 20, keyword=False),
                                               "die": Arg(DIE.good, DIE.bad, keyword=False)}),
    "dice_after_token": (gt.dice_after_token, {"n_dice": int_arg(0, MAX_ROLL_DICE, keyword=False),
                                               "token": Arg(TOKEN.good, TOKEN.bad, keyword=False)}),
    "add_token": (gt.add_token, {"current": Arg(TOKEN.good, TOKEN.bad, keyword=False),
                                 "gained": Arg(st.sampled_from([-1, 1]), st.sampled_from([0, True, 1.0, 2, None]),
                                               keyword=False)}),
    "wounds_dealt": (gt.wounds_dealt, {"total": int_arg(0, MAX_ROLL_DICE * 6, keyword=False),
                                       "protection": int_arg(-1, MAX_PIPS, keyword=False)}),
    "life_new_objectives": (gt.life_new_objectives, {"roll": int_arg(0, 6, keyword=False)}),
    "change_moves": (gt.change_moves, {"roll": int_arg(0, 6, keyword=False)}),
    "is_success": (gt.is_success, {"total": int_arg(0, MAX_ROLL_DICE * 6, keyword=False),
                                   "dodge": int_arg(-1, MAX_PIPS + 1, keyword=False)}),
    "tally_steps": (gt.tally_steps, {"event": Arg(st.integers(0, 4), st.sampled_from([5, -1, 1.0, True, "x", None]),
                                                  keyword=False),
                                     "faction": Arg(st.integers(0, 4), st.sampled_from([7, 2.0, False, "slayer"]))}),
    "DuelState": (gt.DuelState, {"wounds": int_arg(0, MAX_HEALTH), "attacker": STATUS, "target": STATUS}),
    "FollowerSkill": (gt.FollowerSkill, {
        "rows": Arg(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=3),
                    st.sampled_from([[(2.5, 1)], [], [(1, 1)] * 4, "ab", [(True, 1)], [(1, -1)], [(1, 2, 3)],
                                     [(MAX_DICE + 1, 1)]]), keyword=False),
        "hit_effect": choice_arg(HIT_EFFECTS)}),
    "roll_totals": (gt.roll_totals, {
        "n_dice": Arg(st.lists(st.integers(0, 10), max_size=50).map(lambda v: np.array(v, dtype=np.int64)),
                      st.sampled_from([np.array([1.5, 2.0]), np.array([[1, 2]]), np.array([-1, 2]),
                                       np.array([MAX_ROLL_DICE + 1]), np.array([True, False]), "12", None]),
                      keyword=False),
        "die": DIE, "rng": RNG}),
    "run_activation": (gt.run_activation, {
        "actions": Arg(st.lists(st.tuples(SKILL.good, st.integers(1, 3)), min_size=1, max_size=2),
                       st.sampled_from([[], [(gt.Skill(3, 3), 1.0)], [(gt.Skill(3, 3), 0)], [((3, 3), 1)],
                                        [(gt.Skill(3, 3), True)], "skill", [(gt.Skill(1, 1), 1)] * 11]),
                       keyword=False),
        "target": Arg(TARGET.good, TARGET.bad, keyword=False),
        "n_trials": int_arg(0, 10**7, 50, keyword=False), "n_models": int_arg(1, 100, 3),
        "attacker": STATUS, "target_status": STATUS, "die": DIE, "rng": RNG}),
    "knockout_chain": (gt.knockout_chain, {
        "skills": Arg(st.lists(SKILL.good, max_size=3), st.sampled_from([[(3, 3)], "ab", [gt.Skill(1, 1)] * 1001]),
                      keyword=False),
        "target": Arg(TARGET.good, TARGET.bad, keyword=False),
        "initial": Arg(st.builds(gt.DuelState, st.integers(0, 2)), st.sampled_from([0, None, (0,)])),
        "die": DIE, "exact": EXACT}),
    "reference_roll": (gt.reference_roll, {"n_dice": int_arg(0, MAX_ROLL_DICE, 10, keyword=False), "die": DIE,
                                           "rng": RNG}),
    "reference_knockout": (gt.reference_knockout, {
        "skill": Arg(SKILL.good, SKILL.bad, False), "target": Arg(TARGET.good, TARGET.bad, False),
        "n_trials": int_arg(0, 10**6, 10, keyword=False), "uses": int_arg(0, MAX_USES, 3),
        "attacker": STATUS, "target_status": STATUS, "die": DIE, "rng": RNG}),
    "knockout_steps": (gt.knockout_steps, {"target_kind": choice_arg(gt.TARGET_KINDS, keyword=False)}),
    "default_health": (gt.default_health, {"target_kind": choice_arg(gt.TARGET_KINDS, keyword=False)}),
}


@pytest.mark.parametrize("name", list(SPECS))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_public_function_accepts_valid_and_refuses_everything_else(name, data):
    fn, spec = SPECS[name]
    # each argument: valid (most of the time), invalid, or left at its default (keywords)
    values, bad = draw_call(fn, spec, data, good_weight=4)
    t0 = time.perf_counter()
    if bad:
        with pytest.raises((TypeError, ValueError)) as info:
            call(fn, spec, values)
        elapsed = time.perf_counter() - t0
        assert elapsed < 2.0, f"{name} took {elapsed:.1f} s to refuse {bad}"
        msg = str(info.value)
        assert any(b in msg or "must be" in msg for b in bad) or "counts" in msg or "skills" in msg, msg
    else:
        out = call(fn, spec, values)
        assert out is not None or name == "default_health"


def test_issue_examples_are_refused_up_front():
    cases = [
        (lambda: gt.p_success(3, 3.5), "dodge = 3.5"),
        (lambda: gt.p_knockout(4, 4, dodge=2, protection=1, health=5, uses=2.9), "uses = 2.9"),
        (lambda: gt.roll_pmf(10**4), "n_dice = 10000"),
        (lambda: gt.p_knockout(4, 4, dodge=2, protection=1, health=5, uses=10**6), "uses = 1000000"),
        (lambda: gt.p_success(3, -1), "dodge = -1"),
        (lambda: gt.wounds_pmf(3, -2), "protection = -2"),
        (lambda: gt.Target(-1, 0, 5), "dodge = -1"),
        (lambda: gt.Target(2, -1, 5), "protection = -1"),
        (lambda: gt.roll_pmf(3.0), "n_dice = 3.0"),
        (lambda: gt.p_success(True, 2), "accuracy = True"),
        (lambda: gt.sample_rolls(2, 10**9), "n_trials = 1000000000"),
        (lambda: gt.run_knockout(gt.Skill(4, 4), gt.Target(2, 1, 5), 10**7, uses=2, max_uses=1000), "n_trials"),
        (lambda: gt.p_knockout(40, 40, dodge=0, protection=0, health=60, uses=2, die=gt.DieSpec((1, 1, 1, 1, 1, 1, 1))),
         "work units"),
    ]
    for refused, text in cases:
        t0 = time.perf_counter()
        with pytest.raises((TypeError, ValueError), match=text.replace("(", r"\(").replace(".", r"\.")):
            refused()
        assert time.perf_counter() - t0 < 1.0
    # the valid neighbours still work, with exact values
    assert gt.p_success_fraction(4, 2) == __import__("fractions").Fraction(74, 81)
    assert gt.p_success(3, 3) == pytest.approx(float(sum(gt.roll_pmf_fraction(3)[3:])))


def test_numpy_integers_are_integers():
    assert gt.p_success(np.int64(4), np.int32(2)) == gt.p_success(4, 2)
    assert gt.roll_pmf(np.uint8(2)).shape == (5,)


# ---------------------------------------------------------------------------
# The game's Params and the common entry point (issue 25: one shape per game)
# ---------------------------------------------------------------------------


def test_godtear_params_and_simulate_strict() -> None:
    p = gt.GodtearParams()
    assert (p.skill, p.target, p.uses, p.max_uses) == (gt.Skill(4, 4), gt.Target(2, 1, 5), 2, None)
    refused_names(gt.GodtearParams, "skill", skill=(4, 4))
    refused_names(gt.GodtearParams, "target", target=None)
    refused_names(gt.GodtearParams, "attacker", attacker=1)
    refused_names(gt.GodtearParams, "die", die=(2, 3, 1))
    refused_names(gt.GodtearParams, "uses", uses=2.5)
    refused_names(gt.GodtearParams, "uses", uses=10**6)
    refused_names(gt.GodtearParams, "max_uses", uses=5, max_uses=3)
    refused_names(gt.simulate, "params", None, 10)
    refused_names(gt.simulate, "n_games", p, 2.5)
    refused_names(gt.simulate, "n_games", p, -1)
    refused_names(gt.simulate, "n_trials", gt.GodtearParams(max_uses=1000), 2_000_000)  # work bound
    r = gt.simulate(gt.GodtearParams(uses=3, max_uses=10), 8, rng=1)
    assert all(v.shape == (8,) for v in r.values())
