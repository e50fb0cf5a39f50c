"""Property tests of the Mech Arena 2013 public API.

For every public function and class of :mod:`gamesim.games.mech_arena`: a call whose arguments
are all of the right type and in range returns; a call with any argument of the wrong type (a
float such as ``2.0`` for a dice count, a bool for a level, a string for a state) or out of range
(``k = 9`` dice, ``n_games = 10**12``) raises a ``ParamError`` naming the parameter, quickly and
before any work: nothing is silently truncated.
"""

from __future__ import annotations

import time
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gamesim.games.mech_arena as mech
from gamesim.core.registry import ParamError
from gamesim.games.mech_arena.exact import MAX_ENUM_DICE
from gamesim.games.mech_arena.sim import MAX_GAMES
from tests.reliability.api_support import NOT_INT, Arg, call, draw_call, int_arg, pos

WS = mech.load_weapons()
P0 = mech.MechParams()
PAIR = (WS.mechs[0], WS.mechs[6])
S0 = mech.initial_state(P0, PAIR, 0)
STATE = Arg(st.just(S0), st.sampled_from([None, "s", (0,) * 5, mech.initial_state(P0, (WS.mechs[4],) * 2, 0)]),
            keyword=False)
PARAMS = Arg(st.sampled_from([P0, mech.MechParams(check_reading="one_die", hp_check="any_six")]),
             st.sampled_from([None, "n_dice", {"counter_dice": 1}, 3]), keyword=False)
MECHS = Arg(st.just(PAIR), st.sampled_from([None, WS.mechs[0], [WS.mechs[0], WS.mechs[1]], ("oscar", "leo")]),
            keyword=False)
ACTION = Arg(st.sampled_from(mech.legal_actions(S0, PAIR, P0)),
             st.sampled_from([(0.0, 0), (True, 0), (99, 0), (0, 9), "0", None, (0,)]), keyword=False)
LEVEL = Arg(st.integers(1, 2), st.one_of(NOT_INT, st.sampled_from([0, 3, -1])), keyword=False)
RNG = Arg(st.integers(0, 2**32 - 1), st.sampled_from([True, 2.5, "1", -1]))
MECH_NAME = Arg(st.sampled_from(list(WS.keys) + list(WS.names)), st.sampled_from(["gundam", 3, None, ""]))
BOOL = Arg(st.booleans(), st.sampled_from([0, 1, "no", None, 1.0]))


def _choice(options: list[Any], bad: list[Any]) -> Arg:
    return Arg(st.sampled_from(options), st.sampled_from(bad))


PLAIN = dict(
    check_reading=_choice(["n_dice", "one_die"], ["x", 1, None]),
    hp_check=_choice(["beat_armour", "any_six"], ["x", 1, None]),
    counter_dice=int_arg(0, 5), start_armour=int_arg(1, 9), start_hp=int_arg(1, 9), start_ki=int_arg(0, 4),
    max_ki=int_arg(4, 9), max_distance=int_arg(3, 9), start_distance=int_arg(0, 3),
    first=_choice(["random", "a", "b"], ["A", 0, None]), no_repeat=BOOL, strip_skip=BOOL,
    armour_on_strip=_choice(["stay", "reset"], ["x", None]), max_turns=int_arg(1, 1000), combos=BOOL,
)

#: Every public function of mech_arena with its arguments (positional ones first, in order).
SPECS: dict[str, tuple[Callable[..., Any], dict[str, Arg]]] = {
    "MechParams": (mech.MechParams, PLAIN),
    "check_probability": (mech.check_probability, {"level": LEVEL, "p": PARAMS}),
    "hp_check_probability": (mech.hp_check_probability, {"n_dice": pos(int_arg(1, 8)), "armour": pos(int_arg(0, 9)),
                                                         "p": PARAMS}),
    "counter_hit_probability": (mech.counter_hit_probability, {"k": pos(int_arg(0, 0)), "n": pos(int_arg(0, 9))}),
    "initial_state": (mech.initial_state, {"p": PARAMS, "mechs": MECHS, "first": pos(int_arg(0, 1))}),
    "legal_actions": (mech.legal_actions, {"s": STATE, "mechs": MECHS, "p": PARAMS}),
    "action_outcomes": (mech.action_outcomes, {"s": STATE, "action": ACTION, "mechs": MECHS, "p": PARAMS}),
    "expected_score": (mech.expected_score, {"s": STATE, "action": ACTION, "mechs": MECHS, "p": PARAMS}),
    "start_turn": (mech.start_turn, {"s": Arg(st.just(S0), st.sampled_from([None, "s"]), keyword=False),
                                     "p": PARAMS}),
    "skip_turn": (mech.skip_turn, {"s": Arg(st.just(S0), st.sampled_from([None, "s", 3]), keyword=False)}),
    "end_turn": (mech.end_turn, {"s": Arg(st.just(S0), st.sampled_from([None, "s", 3]), keyword=False)}),
    "is_over": (mech.is_over, {"s": Arg(st.just(S0), st.sampled_from([None, "s"]), keyword=False), "p": PARAMS}),
    "finger_flare": (mech.finger_flare, {"k": pos(int_arg(1, MAX_ENUM_DICE, 5))}),
    "finger_flare_enumerated": (mech.finger_flare_enumerated, {"k": pos(int_arg(1, MAX_ENUM_DICE, 4))}),
    "finger_flare_best_k": (mech.finger_flare_best_k, {
        "self_cost": Arg(st.floats(0, 100), st.sampled_from([-1.0, float("nan"), "3", None, True, 101.0]),
                         keyword=False),
        "max_dice": int_arg(1, MAX_ENUM_DICE)}),
    "check_probability_exact": (mech.check_probability_exact, {"level": LEVEL, "reading": Arg(
        st.sampled_from(["n_dice", "one_die"]), st.sampled_from(["x", None, 1]), keyword=False)}),
    "hp_check_exact": (mech.hp_check_exact, {"n_dice": pos(int_arg(1, MAX_ENUM_DICE, 4)), "armour": pos(int_arg(0, 9)),
                                             "reading": Arg(st.sampled_from(["beat_armour", "any_six"]),
                                                            st.sampled_from(["x", None]), keyword=False)}),
    "weapon_values": (mech.weapon_values, {
        "mech": Arg(st.sampled_from(list(WS.mechs)), st.sampled_from([None, "oscar", 0]), keyword=False),
        "p": Arg(st.just(P0), PARAMS.bad, keyword=False),
        "distance": int_arg(0, 3), "armour": int_arg(0, 3), "hp": int_arg(1, 2), "combo": BOOL}),
    "load_weapons": (mech.load_weapons, {"weapons": Arg(st.just("2013"), st.sampled_from(
        [3, None, "/no/such/file.toml", "2012"]), keyword=False)}),
    "parse_weapons": (mech.parse_weapons, {"raw": Arg(st.just(__import__("tomllib").loads(
        (mech.data.DATA_DIR / "weapons_2013.toml").read_text(encoding="utf-8"))), st.sampled_from(
        [None, 3, {}, {"mechs": {}}, {"mechs": {"x": 1}}]), keyword=False)}),
    "make_policy": (mech.make_policy, {"spec": Arg(st.sampled_from(["random", "greedy", "rollout", "rollout:2:1"]),
                                                   st.sampled_from(["nope", 3, None, "rollout:0", "rollout:2.5",
                                                                    "rollout:1000", "rollout:2:1000"]),
                                                   keyword=False)}),
    "RolloutPolicy": (mech.RolloutPolicy, {"k": int_arg(1, 256, 4), "horizon": int_arg(0, 200, 4)}),
    "simulate": (mech.simulate, {"params": PARAMS, "n_games": pos(int_arg(1, MAX_GAMES, 20)), "rng": RNG,
                                 "mech_a": MECH_NAME, "mech_b": MECH_NAME,
                                 "policy_a": _choice(["random", "greedy"], ["nope", 3, None]),
                                 "chunk_size": int_arg(1, 10**6, 8)}),
    "reference_simulate": (mech.reference_simulate, {"p": PARAMS, "n_games": pos(int_arg(1, 100_000, 2)), "rng": RNG,
                                                     "mech_a": MECH_NAME, "mech_b": MECH_NAME,
                                                     "policy_a": _choice(["random", "greedy"], ["rollout", 3, None])}),
    "reference_game": (mech.reference_game, {"p": PARAMS, "mechs": MECHS, "policies": Arg(
        st.sampled_from([("random", "greedy"), ("greedy", "greedy")]),
        st.sampled_from([("random",), "random", ("rollout", "random"), None]), keyword=False),
        "rng": Arg(st.integers(0, 99).map(np.random.default_rng), st.sampled_from([None, 3, "r"]), keyword=False)}),
}


@pytest.mark.parametrize("name", list(SPECS))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_public_function_accepts_valid_and_refuses_everything_else(name: str, data: st.DataObject) -> None:
    fn, spec = SPECS[name]
    values, bad = draw_call(fn, spec, data)
    t0 = time.perf_counter()
    if bad:
        with pytest.raises((TypeError, ValueError)) as info:
            call(fn, spec, values)
        assert time.perf_counter() - t0 < 2.0, f"{name} was slow to refuse {bad}"
        assert isinstance(info.value, (ParamError, mech.DataError)), repr(info.value)
        if isinstance(info.value, ParamError):
            assert info.value.key in spec or info.value.key in bad or name == "MechParams", str(info.value)
    else:
        try:
            out = call(fn, spec, values)
        except ParamError as exc:  # a cross-field rule (start_ki > max_ki, start_distance > max_distance)
            assert name == "MechParams" and exc.key in ("start_ki", "start_distance"), str(exc)
            return
        assert out is not None
        assert time.perf_counter() - t0 < 20.0, name


@pytest.mark.parametrize("call, key", [
    (lambda: mech.finger_flare(2.0), "k"),  # would have rolled 2 dice
    (lambda: mech.finger_flare(True), "k"),
    (lambda: mech.check_probability(True, P0), "level"),
    (lambda: mech.MechParams(counter_dice=1.0), "counter_dice"),
    (lambda: mech.MechParams(no_repeat=1), "no_repeat"),
    (lambda: mech.MechParams(max_distance=2, start_distance=3), "start_distance"),
    (lambda: mech.simulate(P0, 10**12), "n_games"),
    (lambda: mech.simulate(P0, 10, mech_a="gundam"), "mech_a"),
    (lambda: mech.simulate(P0, 10, rng=True), "rng"),
    (lambda: mech.simulate(P0, 10, policy_b="rollout:0"), "policy_b"),
    (lambda: mech.action_outcomes(S0, (99, 0), PAIR, P0), "action"),
    (lambda: mech.pick_uniform(np.ones((2, 3), bool), np.array([0.5, 1.0])), "u"),
    (lambda: mech.pick_uniform(np.zeros((2, 3), bool), np.array([0.5, 0.5])), "mask"),
    (lambda: mech.pick_uniform(np.ones((2, 3)), np.array([0.5, 0.5])), "mask"),
    (lambda: mech.GreedyPolicy().choose(None, None, None, None, None, choice=None, dice=None), None),
])
def test_examples_are_refused_naming_the_parameter(call: Callable[[], Any], key: str | None) -> None:
    t0 = time.perf_counter()
    with pytest.raises((ParamError, AttributeError, TypeError)) as info:
        call()
    assert time.perf_counter() - t0 < 1.0
    if key is not None:
        assert isinstance(info.value, ParamError) and info.value.key == key, str(info.value)


def test_records_and_helpers() -> None:
    assert isinstance(mech.finger_flare(2), mech.FingerFlare)
    assert isinstance(mech.load_weapons(), mech.WeaponSet)
    assert mech.RandomPolicy().name == "random" and mech.GreedyPolicy().name == "greedy"
    assert list(mech.pick_uniform(np.array([[True, False, True]]), np.array([0.75]))) == [2]
    assert isinstance(mech.DuelState(distance=1, turn=0, to_move=0, armour=(3, 3), hp=(2, 2), ki=(0, 0)),
                      mech.DuelState)
    assert issubclass(mech.DataError, ValueError)
