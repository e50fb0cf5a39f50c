"""Property tests of the Mech Arena 2013 public API.

For every public function and class of :mod:`gamesim.games.mech_arena`: a call whose arguments
are all of the right type and in range returns; a call with any argument of the wrong type (a
float such as ``2.0`` for a dice count, a bool for a level, a string for a state) or out of range
(``k = 9`` dice, ``n_games = 10**12``) raises a ``ParamError`` naming the parameter, quickly and
before any work: nothing is silently truncated.

``test_declared_function_strict`` draws its calls from the functions' ``validate_params``
declarations (issue 25 point 2): every public function must carry one (a new function without
it fails), and only what a declaration cannot say is written here (:data:`SPECIAL`). The data
classes (:class:`MechParams`, :class:`RolloutPolicy`) check in ``__post_init__``/``__init__`` and
keep hand-written specs (``PLAIN``, ``ROLLOUT``).
"""

from __future__ import annotations

import time
import tomllib
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gamesim.games.mech_arena as mech
from gamesim.core.registry import ParamError
from gamesim.core.validate import declared_params
from tests.reliability.api_support import (
    Arg,
    call,
    declared_api_tests,
    public_functions,
    declared_arg,
    draw_call,
    int_arg,
    refused_fast,
    FAST_S,
)

WS = mech.load_weapons()
P0 = mech.MechParams()
PAIR = (WS.mechs[0], WS.mechs[6])
S0 = mech.initial_state(P0, PAIR, 0)
STATE = Arg(st.just(S0), st.sampled_from([None, "s", (0,) * 5, mech.initial_state(P0, (WS.mechs[4],) * 2, 0)]))
MECHS = Arg(st.just(PAIR), st.sampled_from([None, WS.mechs[0], [WS.mechs[0], WS.mechs[1]], ("oscar", "leo"),
                                            (WS.mechs[0],), (WS.mechs[0],) * 3]))
ACTION = Arg(st.sampled_from(mech.legal_actions(S0, PAIR, P0)),
             st.sampled_from([(0.0, 0), (True, 0), (99, 0), (0, 9), "0", None, (0,)]))
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
ROLLOUT = {"k": int_arg(1, 256, 4), "horizon": int_arg(0, 200, 4)}

@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(data=st.data())
def test_params_accept_valid_and_refuse_everything_else(data: st.DataObject) -> None:
    # the data classes check in __post_init__ / __init__, not by a declaration
    for cls, spec in ((mech.MechParams, PLAIN), (mech.RolloutPolicy, ROLLOUT)):
        values, bad = draw_call(cls, spec, data)
        if bad:
            err = refused_fast(cls, **values)
            assert isinstance(err, ParamError) and (err.key in bad or cls is mech.MechParams), repr(err)
            continue
        try:
            assert call(cls, spec, values) is not None
        except ParamError as exc:  # a cross-field rule (start_ki > max_ki, start_distance > max_distance)
            assert cls is mech.MechParams and exc.key in ("start_ki", "start_distance"), str(exc)


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
    (lambda: mech.legal_actions(mech.initial_state(P0, (WS.mechs[4],) * 2, 0), PAIR, P0), "s"),  # other mechs' state
    (lambda: mech.initial_state(P0, ("oscar", "leo"), 0), "mechs"),
    (lambda: mech.reference_game(P0, PAIR, ("greedy", "rollout"), np.random.default_rng(0)), "policies"),
    (lambda: mech.reference_simulate(P0, 1, mech_b="gundam"), "mech_b"),
    # the documented limits, pinned here (the generated tests take them from the declarations)
    (lambda: mech.finger_flare(9), "k"),
    (lambda: mech.finger_flare_best_k(100.5), "self_cost"),
    (lambda: mech.hp_check_probability(9, 0, P0), "n_dice"),
    (lambda: mech.hp_check_exact(1, 10), "armour"),
    (lambda: mech.counter_hit_probability(3, 2), "k"),
    (lambda: mech.initial_state(P0, PAIR, 2), "first"),
    (lambda: mech.weapon_values(WS.mechs[0], P0, distance=P0.max_distance + 1), "distance"),
    (lambda: mech.weapon_values(WS.mechs[0], P0, distance=0, hp=P0.start_hp + 1), "hp"),
    (lambda: mech.simulate(P0, 10, chunk_size=10**6 + 1), "chunk_size"),
    (lambda: mech.reference_simulate(P0, 100_001), "n_games"),
])
def test_examples_are_refused_naming_the_parameter(call: Callable[[], Any], key: str | None) -> None:
    t0 = time.process_time()
    with pytest.raises((ParamError, AttributeError, TypeError)) as info:
        call()
    assert time.process_time() - t0 < FAST_S
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


def test_file_errors_are_data_errors() -> None:
    # what the parsers refuse is a DataError (a ValueError naming the file and mech), not a ParamError
    for bad in ("/no/such/file.toml", "2012"):
        with pytest.raises(mech.DataError):
            mech.load_weapons(bad)
    for raw in (None, 3, {}, {"mechs": {}}, {"mechs": {"x": 1}}):
        with pytest.raises(mech.DataError):
            mech.parse_weapons(raw)
    with pytest.raises(mech.DataError):
        mech.simulate(P0, 1, weapons="/no/such.toml")


# ---------------------------------------------------------------------------
# Generated from the declarations (issue 25 point 2)
# ---------------------------------------------------------------------------

#: Valid values for ``Instance`` arguments.
EXAMPLES = {mech.MechParams: [P0, mech.MechParams(check_reading="one_die", hp_check="any_six")],
            mech.DuelState: [S0], mech.data.Mech: list(WS.mechs)}
_NOTHING = st.nothing()


def _narrow(fn: Callable[..., Any], name: str, good: st.SearchStrategy) -> Arg:
    """The declared bad values of ``fn``'s ``name``, with valid values narrower than declared (fast calls)."""
    return Arg(good, declared_arg(declared_params(fn)[name], {}, EXAMPLES).bad)


RAW = tomllib.loads((mech.data.DATA_DIR / "weapons_2013.toml").read_text(encoding="utf-8"))
WEAPONS = Arg(st.sampled_from(["2013", WS]), st.sampled_from([3, None, 2.5]))
POLICY = Arg(st.sampled_from(["random", "greedy", mech.RandomPolicy()]),  # a rollout player is slow (make_policy's own)
             st.sampled_from(["nope", 3, None, "rollout:0", "rollout:2.5", "rollout:1000", "rollout:2:1000"]))
_MASKS = [np.array([[True, False, True], [False, True, False]]), np.ones((2, 4), bool)]
STATE_OF_PAIR = {"s": STATE, "mechs": MECHS}

#: What the declarations cannot say, by function and parameter: ``Unchecked`` arguments (checked
#: in the body, or a parser's input whose errors are DataErrors, tested above), a ``Pair``'s items
#: (two Mechs, two reference players), the state's relation to the mechs (heat counters per
#: weapon), and valid values narrower than declared where a large one is slow (6^k dice rolls,
#: games to play).
SPECIAL: dict[str, dict[str, Arg]] = {
    "initial_state": {"mechs": MECHS},
    "legal_actions": STATE_OF_PAIR,
    "action_outcomes": dict(STATE_OF_PAIR, action=ACTION),
    "expected_score": dict(STATE_OF_PAIR, action=ACTION),
    "finger_flare_enumerated": {"k": _narrow(mech.finger_flare_enumerated, "k", st.integers(1, 4))},
    "hp_check_exact": {"n_dice": _narrow(mech.hp_check_exact, "n_dice", st.integers(1, 4))},
    "load_weapons": {"weapons": Arg(st.sampled_from(["2013", mech.data.DATA_DIR / "weapons_2013.toml"]),
                                    st.sampled_from([3, None, True, b"2013"]))},
    "parse_weapons": {"raw": Arg(st.just(RAW), _NOTHING), "source": Arg(st.text(max_size=5), _NOTHING)},
    "make_policy": {"spec": Arg(st.one_of(POLICY.good, st.just("rollout:2:1")), POLICY.bad),
                    "name": Arg(st.just("spec"), _NOTHING)},
    "pick_uniform": {"mask": Arg(st.sampled_from(_MASKS), st.sampled_from([np.ones((2, 3)), np.zeros((2, 3), bool),
                                                                         None, [[True]], np.ones(3, bool)])),
                     "u": Arg(st.lists(st.floats(0, 0.999), min_size=2, max_size=2).map(np.array),
                              st.sampled_from([np.array([0.5, 1.0]), np.array([0.5]), None, [0.5, 0.5],
                                               np.array([0, 1])]))},
    "simulate": {"n_games": _narrow(mech.simulate, "n_games", st.integers(1, 5)),
                 "chunk_size": _narrow(mech.simulate, "chunk_size", st.integers(1, 8)),
                 "weapons": WEAPONS, "mech_a": MECH_NAME, "mech_b": MECH_NAME, "policy_a": POLICY, "policy_b": POLICY},
    "reference_simulate": {"n_games": _narrow(mech.reference_simulate, "n_games", st.integers(1, 2)),
                           "weapons": WEAPONS, "mech_a": MECH_NAME, "mech_b": MECH_NAME},
    "reference_game": {
        "mechs": MECHS,
        "policies": Arg(st.sampled_from([("random", "greedy"), ("greedy", "greedy")]),
                        st.sampled_from([("random",), "random", ("rollout", "random"), None, ["random", "greedy"]])),
        "rng": Arg(st.integers(0, 99).map(np.random.default_rng), st.sampled_from([None, 3, "r"]))},
}

#: Public functions tested by hand instead (none: every one has a declaration the tests draw from).
BY_HAND: dict[str, str] = {}


test_every_public_function_is_declared, test_declared_function_strict = declared_api_tests(
    "gamesim.games.mech_arena", public_functions(mech), EXAMPLES, SPECIAL,
    by_hand=BY_HAND, max_examples=10, returns_value=True)
