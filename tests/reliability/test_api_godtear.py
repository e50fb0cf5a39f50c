"""Property tests of the Godtear public API (issue 9, point 4/5).

For every public function: a call whose arguments are all of the right type and in
range returns; a call with any argument of the wrong type (a float such as ``2.9``
or ``3.0`` for an integer, a bool, a string, None) or out of range (negative dodge,
10**6 uses, 10**4 dice) raises ``TypeError``/``ValueError`` naming the parameter,
quickly and before any work: nothing is silently truncated or clamped, and nothing
else (MemoryError, OverflowError, RecursionError, a hang) is reachable.

``test_declared_function_strict`` draws the functions' calls from their ``validate_params``
declarations (issue 25 point 2): every public function must carry one (a new function without
it fails), and only what a declaration cannot say is written here (:data:`SPECIAL`). The
public classes (frozen data classes checked in ``__post_init__``) keep their hand-written
:data:`SPECS`.
"""

from __future__ import annotations

import inspect
import math
import time
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gamesim.games.godtear as gt
from gamesim.games.godtear.rules import HIT_EFFECTS, MAX_DICE, MAX_HEALTH, MAX_MODELS, MAX_PIPS, MAX_ROLL_DICE, MAX_USES
from tests.reliability.api_support import (
    Arg,
    call,
    declared_api_tests,
    public_functions,
    draw_call,
    int_arg,
    refused_names,
    FAST_S,
)


def choice_arg(choices: tuple[Any, ...], keyword: bool = True) -> Arg:
    bad = st.one_of(st.text(max_size=4).filter(lambda s: s not in choices), st.integers(5, 9), st.none(),
                    st.floats(allow_nan=True))
    return Arg(st.sampled_from(choices), bad, keyword)


TOKEN = Arg(st.integers(-1, 1), st.one_of(st.sampled_from([True, False, 1.0, -1.0, 0.5, 2, -2, "1", None])))
STATUS = Arg(st.builds(gt.Status, st.integers(-1, 1), st.integers(-1, 1), st.integers(-1, 1), st.integers(-1, 1)),
             st.one_of(st.just({}), st.integers(0, 1)))
ACC = int_arg(0, MAX_DICE, 6, keyword=False)
DMG = int_arg(0, MAX_DICE, 6, keyword=False)

#: The public classes (frozen data classes: they check in ``__post_init__``, no declaration),
#: with their arguments (positional ones first, in order). The functions' calls are drawn from
#: their declarations below (test_declared_function_strict).
SPECS: dict[str, tuple[Callable[..., Any], dict[str, Arg]]] = {
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
    "DuelState": (gt.DuelState, {"wounds": int_arg(0, MAX_HEALTH), "attacker": STATUS, "target": STATUS}),
    "FollowerSkill": (gt.FollowerSkill, {
        "rows": Arg(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=3),
                    st.sampled_from([[(2.5, 1)], [], [(1, 1)] * 4, "ab", [(True, 1)], [(1, -1)], [(1, 2, 3)],
                                     [(MAX_DICE + 1, 1)]]), keyword=False),
        "hit_effect": choice_arg(HIT_EFFECTS)}),
}


@pytest.mark.parametrize("name", list(SPECS))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_public_class_accepts_valid_and_refuses_everything_else(name, data):
    fn, spec = SPECS[name]
    # each argument: valid (most of the time), invalid, or left at its default (keywords)
    values, bad = draw_call(fn, spec, data, good_weight=4)
    t0 = time.process_time()
    if bad:
        with pytest.raises((TypeError, ValueError)) as info:
            call(fn, spec, values)
        elapsed = time.process_time() - t0
        assert elapsed < 5.0, f"{name} took {elapsed:.1f} s to refuse {bad}"
        msg = str(info.value)
        assert any(b in msg or "must be" in msg for b in bad) or "counts" in msg, msg
    else:
        assert call(fn, spec, values) is not None


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
        t0 = time.process_time()
        with pytest.raises((TypeError, ValueError), match=text.replace("(", r"\(").replace(".", r"\.")):
            refused()
        assert time.process_time() - t0 < FAST_S
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


# ---------------------------------------------------------------------------
# Generated from the declarations (issue 25 point 2)
# ---------------------------------------------------------------------------

#: Valid values of the ``Instance`` arguments: small dice and health, so accepted calls are fast.
EXAMPLES: dict[type, list[Any]] = {
    gt.DieSpec: [gt.GODTEAR_DIE, gt.DieSpec((1, 1)), gt.DieSpec((0, 2, 1, 1))],
    gt.Skill: [gt.Skill(4, 4), gt.Skill(2, None, "dodge_blight"), gt.Skill(3, 2, "damage_boon_self"),
               gt.Skill(1, 3, "protection_blight")],
    gt.Target: [gt.Target(2, 1, 5), gt.Target(0, 0, 1), gt.Target(3, 2, 3)],
    gt.Status: [gt.Status(), gt.Status(accuracy=1, dodge=-1), gt.Status(damage=-1, protection=1)],
    gt.DuelState: [gt.DuelState(), gt.DuelState(1, gt.Status(accuracy=1), gt.Status(protection=-1))],
    gt.GodtearParams: [gt.GodtearParams(), gt.GodtearParams(gt.Skill(2, 3), gt.Target(1, 0, 3), uses=3, max_uses=10)],
}
_NOTHING = st.nothing()


def _small(lo: int, hi: int, bad_hi: int) -> Arg:
    """Valid values narrower than declared (the work grows fast with them); the bad ones as declared."""
    return Arg(st.integers(lo, hi), int_arg(lo, bad_hi).bad)


#: The knock-out functions' stat line, narrower than declared (chains stay small).
_KO = {"accuracy": _small(0, 5, MAX_DICE), "damage": _small(0, 5, MAX_DICE), "dodge": _small(0, 6, MAX_PIPS),
       "protection": _small(0, 4, MAX_PIPS), "health": _small(1, 6, MAX_HEALTH), "uses": _small(0, 5, MAX_USES)}
#: ``max_uses`` is at least ``max(uses, 1)``, a relation checked in the body: valid draws stay above
#: every valid ``uses`` (0..30 as declared, 0..5 in :data:`_KO`).
_MAX_USES = Arg(st.one_of(st.none(), st.integers(31, 40)), st.sampled_from([0, 2.5, True, "x", MAX_USES + 1]))
_ACTIONS = Arg(st.lists(st.tuples(st.sampled_from(EXAMPLES[gt.Skill]), st.integers(1, 3)), min_size=1, max_size=2),
               st.sampled_from([[], [((3, 3), 1)], [(gt.Skill(3, 3),)], "skill", None, [(gt.Skill(1, 1), 1)] * 11]))

#: What the declarations cannot say, by function and parameter: ``Unchecked`` arguments (checked
#: in the body), and valid values narrower than declared where the body relates arguments or
#: the work grows fast (explicit here).
#: Dice of a skill, narrower than declared (exact fractions of 30 dice are slow to build).
_DICE = {"accuracy": _small(0, 6, MAX_DICE), "damage": _small(0, 6, MAX_DICE)}

SPECIAL: dict[str, dict[str, Arg]] = {
    **{name: _DICE for name in ("p_success", "p_success_fraction", "wounds_pmf", "wounds_pmf_fraction",
                                "expected_wounds")},
    "add_token": {"gained": Arg(st.sampled_from([-1, 1]), st.sampled_from([0, True, 1.0, 2, None]))},
    "knockout_steps": {"target_kind": Arg(st.sampled_from(gt.TARGET_KINDS),
                                          st.sampled_from(["hero", "", None, 3, "Champion"]))},
    "roll_totals": {"n_dice": Arg(
        st.lists(st.integers(0, 10), max_size=50).map(lambda v: np.array(v, dtype=np.int64)),
        st.sampled_from([np.array([1.5, 2.0]), np.array([[1, 2]]), np.array([-1, 2]), np.array([MAX_ROLL_DICE + 1]),
                         np.array([True, False]), "12", None]))},
    "knockout_chain": {"skills": Arg(st.lists(st.sampled_from(EXAMPLES[gt.Skill]), max_size=3),
                                     st.sampled_from([[(3, 3)], "ab", [gt.Skill(1, 1)] * (MAX_USES + 1), None]))},
    "knockout_curve": _KO,
    "p_knockout": _KO,
    "p_knockout_fraction": _KO,
    "expected_uses_to_knockout": _KO,
    # q in the open interval (0, 1): the declaration's bounds are inclusive
    "uses_to_knockout_quantile": {**_KO, "q": Arg(st.floats(0.01, 0.99), st.sampled_from([0.0, 1.0, math.nan, 1.5, True])),
                                  "max_uses": _small(0, 8, MAX_USES)},
    # the search's work bound relates the sizes: kept small
    "min_stat_lines": {**_KO, "max_accuracy": _small(1, 3, MAX_DICE), "max_damage": _small(0, 3, MAX_DICE),
                       "health": _small(1, 3, MAX_HEALTH), "uses": _small(0, 2, MAX_USES)},
    "run_knockout": {"max_uses": _MAX_USES},
    "reference_knockout": {"max_uses": _MAX_USES, "n_trials": _small(0, 10, 10**6)},
    "run_activation": {"actions": _ACTIONS},
    "reference_activation": {"actions": _ACTIONS, "n_trials": _small(0, 10, 10**6)},
}


@pytest.mark.parametrize("fn", [gt.run_activation, gt.reference_activation])
def test_activation_target_counts_strict(fn: Callable[..., Any]) -> None:
    # a bad target count inside a valid list of actions: refused naming "targets"
    for n_t in (1.0, True, 0, MAX_MODELS + 1, None):
        refused_names(fn, "targets", [(gt.Skill(3, 3), 1), (gt.Skill(3, 3), n_t)], gt.Target(2, 1, 5), 3)


test_every_public_function_is_declared, test_declared_function_strict = declared_api_tests(
    "gamesim.games.godtear", public_functions(gt), EXAMPLES, SPECIAL, max_examples=15)


def test_every_public_class_has_a_hand_written_spec() -> None:
    classes = [n for n in gt.__all__ if inspect.isclass(getattr(gt, n)) and not issubclass(getattr(gt, n), int)]
    assert set(classes) - {"GodtearParams"} <= set(SPECS), "a public class without a hand-written spec"
