"""Property tests of the 神の怒り public API.

For every public function and class of :mod:`gamesim.games.kami_no_ikari` (rules core, exact
hand enumerations, simulator, players, scalar reference): a call whose arguments are all of the
right type and in range returns; a call with any argument of the wrong type (a float such as
``2.0`` for a count, a bool for an integer, a string where a state is expected) or out of range
(a height 6, a tenth card of a number, ``n_games = 10**12``) raises ``TypeError``/``ValueError``
(a ``ParamError``) naming the parameter, quickly and before any work.

``test_declared_function_strict`` draws its calls from the functions' ``validate_params``
declarations (issue 25 point 2): every public function must carry one (a new function without
it fails), and only what a declaration cannot say is written here (:data:`SPECIAL`). The data
classes (:class:`KamiParams`, :class:`ChickenPolicy`, :class:`RolloutPolicy`) check in
``__post_init__`` and keep hand-written specs (:data:`CLASSES`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gamesim.games.kami_no_ikari as ki
from gamesim.core.registry import ParamError
from gamesim.core.validate import declared_params
from tests.reliability.api_support import (
    Arg,
    NOT_INT,
    call,
    declared_api_tests,
    public_functions,
    declared_arg,
    draw_call,
    int_arg,
    refused_fast,
    refused_with_key,
)

P4 = ki.KamiParams()
P2 = ki.KamiParams(n_players=2, collapse_doubled=False)
S0 = ki.initial_state(((1, 1, 1, 1, 1), (2, 2, 1, 0, 0), (0, 0, 1, 2, 2), (3, 0, 0, 0, 2)))
S_DRAWN = ki.draw(S0, 2)


BOOL = Arg(st.booleans(), st.sampled_from([0, 1, "yes", None, 1.0, np.int64(1)]))
UNIFORM = Arg(st.integers(0, 99).map(lambda s: np.random.default_rng(s).random), st.sampled_from([None, 0.5, "u"]),
              keyword=False)
PLAIN = dict(n_players=int_arg(2, 4), mate_counter=BOOL, road=BOOL, collapse_doubled=BOOL, smoke_by_choice=BOOL,
             deck_out=Arg(st.sampled_from(["end", "play_on"]), st.sampled_from(["x", 1, None, True])),
             ties=Arg(st.sampled_from(["shared", "later_seat"]), st.sampled_from(["x", 1, None])),
             board=Arg(st.just("illustrative"), st.sampled_from([3, None, "no/such.toml", True])),
             board_players=Arg(st.one_of(st.none(), st.integers(2, 4)), st.sampled_from([1, 5, 2.0, True, "2"])),
             remove_line=int_arg(-1, 8))
PARSE_RAW = Arg(st.sampled_from([{"lines": [{"ends": [1, 2]}]}, {"title": "t", "lines": [{"ends": [5, 3], "min_players": 3}]}]),
                st.sampled_from([None, [], {"lines": []}, {"x": 1, "lines": [{"ends": [1, 2]}]},
                                 {"lines": [{"ends": [1, 2.0]}]}, {"lines": [{"ends": [1, 2], "min_players": 5}]},
                                 {"lines": [{"ends": [0, 2]}]}]), key="board")
HANDS = Arg(st.sampled_from([((5, 0, 0, 0, 0), (0, 5, 0, 0, 0)), ((1, 1, 1, 1, 1),) * 3]),
            st.sampled_from([((5.0, 0, 0, 0, 0), (0, 5, 0, 0, 0)), ((5, 0, 0, 0, 0),), ((4, 0, 0, 0, 0),) * 2,
                             ((5, 0, 0, 0, 0),) * 2, None, "hands"]))

#: The data classes: they check in ``__post_init__``, not by a declaration (hand-written specs).
CLASSES: dict[str, tuple[Callable[..., Any], dict[str, Arg]]] = {
    "KamiParams": (ki.KamiParams, PLAIN),
    "ChickenPolicy": (ki.ChickenPolicy, {"dare": int_arg(1, 5)}),
    "RolloutPolicy": (ki.RolloutPolicy, {"k": int_arg(1, 256, 4), "dare": int_arg(1, 5)}),
}


@pytest.mark.parametrize("name", list(CLASSES))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(data=st.data())
def test_data_class_accepts_valid_and_refuses_everything_else(name: str, data: st.DataObject) -> None:
    fn, spec = CLASSES[name]
    values, bad = draw_call(fn, spec, data)
    if bad:
        err = refused_fast(fn, **values)
        assert isinstance(err, ParamError) and err.key in bad, repr(err)
        assert " = " in str(err) and "\n" not in str(err), str(err)
    else:
        assert call(fn, spec, values) is not None


@pytest.mark.parametrize("call, key", [
    (lambda: ki.hand_value((1.0, 1, 1, 1, 1), (0,) * 5), "hand"),       # a float count is never truncated
    (lambda: ki.hand_value((1,) * 5, (0, 0, 0, 0, 6)), "heights"),
    (lambda: ki.draw(S0, 2.0), "value"),
    (lambda: ki.draw(S_DRAWN, 2), "value"),                              # drawn already
    (lambda: ki.draw(None, 2), "s"),
    (lambda: ki.apply_action(S_DRAWN, True, P4), "action"),              # a bool is not action 1
    (lambda: ki.apply_action(S_DRAWN, 99, P4), "action"),
    (lambda: ki.apply_action(S0, 4, P4), "s"),                           # not drawn yet
    (lambda: ki.apply_action(S_DRAWN, ki.legal_actions(S_DRAWN, P4)[0], P4, road=(3, 1)), "road"),
    (lambda: ki.apply_action(S_DRAWN, 4, None), "p"),
    (lambda: ki.simulate(P4, 10, rng=True), "rng"),
    (lambda: ki.simulate(P4, 10, policies=["greedy"] * 3), "policies"),
    (lambda: ki.simulate(P4, 10, policies="rollout:0"), "policy"),
    (lambda: ki.reference_game(P2, ["rollout:2", "greedy"], np.random.default_rng(0).random), "policy"),
    (lambda: ki.reference_choice(S_DRAWN, P4, 3, 0.5), "uniform"),
    (lambda: ki.hand_value_distribution(k=12, pool=(2, 2, 2, 2, 2)), "pool"),  # fewer than k cards
    # the documented limits, pinned here (the generated tests take them from the declarations)
    (lambda: ki.n_actions(65), "n_lines"),
    (lambda: ki.set_bonus(46), "count"),
    (lambda: ki.hands_of_size(13), "k"),
    (lambda: ki.hand_value((10, 0, 0, 0, 0), (0,) * 5), "hand"),
    (lambda: ki.hand_value((1,) * 5, (0,) * 5, 5), "mate"),
    (lambda: ki.card_points(6), "height"),
    (lambda: ki.action_code("line", 4, 1), "index"),
    (lambda: ki.action_code("smoke", 5, 9), "index"),
    (lambda: ki.decode_action(ki.n_actions(9), 9), "code"),
    (lambda: ki.simulate(P4, 10_000_001), "n_games"),
    (lambda: ki.simulate(P4, 10, chunk_size=10**6 + 1), "chunk_size"),
    (lambda: ki.reference_simulate(P4, 100_001), "n_games"),
])
def test_examples_are_refused_naming_the_parameter(call: Callable[[], Any], key: str) -> None:
    refused_with_key(call, key)


def test_moves_accept_valid_input() -> None:
    a = ki.legal_actions(S_DRAWN, P4)
    s1 = ki.apply_action(S_DRAWN, a[0], P4)
    assert s1.to_move == 1 and ki.draw(s1, 0).drawn
    assert ki.GreedyPolicy() == ki.ChickenPolicy(5) and ki.RandomPolicy() is not None
    assert ki.decode_action(ki.action_code("line", 3, 9), 9) == ("line", 1, 1)
    assert len(ki.reference_game(P4, ["greedy"] * 4, np.random.default_rng(0).random)["scores"]) == 4
    b = ki.load_board()
    assert isinstance(b, ki.Board) and isinstance(replace(S0), ki.KamiState)


# ---------------------------------------------------------------------------
# Generated from the declarations (issue 25 point 2)
# ---------------------------------------------------------------------------

#: Valid values for ``Instance`` arguments (the state: drawn, seat 0 to move, 4 hands).
EXAMPLES = {ki.KamiParams: [P4, P2, ki.KamiParams(n_players=3, road=False)], ki.KamiState: [S_DRAWN],
            ki.Board: [ki.load_board()]}
_NOTHING = st.nothing()


def _narrow(fn: Callable[..., Any], name: str, good: st.SearchStrategy) -> Arg:
    """The declared bad values of ``fn``'s ``name``, with valid values narrower than declared."""
    return Arg(good, declared_arg(declared_params(fn)[name], {}, EXAMPLES).bad)


P4_ONLY = Arg(st.just(P4), st.sampled_from([None, "p", {"n_players": 4}, 3]))  # for S_DRAWN's 4 seats
#: A pool of at least 12 cards (hand_value_distribution and expected_hand_value refuse fewer than k).
BIG_POOL = st.lists(st.integers(3, 9), min_size=5, max_size=5)
#: Bad player names: every one is refused by the spec parser, naming "policy".
BAD_NAMES = Arg(st.nothing(), st.sampled_from(["nope", "chicken:0", "chicken:6", "chicken:2.5", "rollout:0",
                                               "rollout:1000", "Greedy"]), key="policy")
_LEGAL = ki.legal_actions(S_DRAWN, P4)
_ILLEGAL = next(a for a in range(ki.n_actions(len(P4.lines))) if a not in _LEGAL)

#: What the declarations cannot say, by function and parameter: ``Unchecked`` arguments (checked
#: in the body), relations between arguments (a legal action of the state, the drawn card in the
#: deck, a pool of at least k cards, a player per seat), and valid values narrower than declared
#: where a large one is slow (games to play).
SPECIAL: dict[str, dict[str, Arg]] = {
    "parse_board": {"raw": PARSE_RAW, "source": Arg(st.text(max_size=5), _NOTHING)},
    "load_board": {"board": Arg(st.sampled_from(["illustrative", ki.rules.DATA_DIR / "board_illustrative.toml"]),
                                st.sampled_from([3, None, True, "nope.toml", b"illustrative"]))},
    "action_code": {"index": Arg(st.integers(0, 3), st.one_of(NOT_INT, st.sampled_from([-1, 10**6])))},
    "decode_action": {"code": Arg(st.integers(0, 8), st.one_of(NOT_INT, st.sampled_from([-1, 10**6])))},
    "initial_state": {"hands": HANDS},
    # a state not drawn yet (drawing twice is refused naming "value": test_examples_are_refused_naming_the_parameter)
    "draw": {"s": Arg(st.just(S0), st.sampled_from([None, (0,) * 5, "s"])),
             "value": Arg(st.integers(0, 4), st.one_of(NOT_INT, st.sampled_from([-1, 5])))},
    "legal_actions": {"p": P4_ONLY},
    "final_scores": {"p": P4_ONLY},
    "apply_action": {"p": P4_ONLY,
                     "action": Arg(st.sampled_from(_LEGAL), st.sampled_from([True, 2.0, None, "0", -1, 99, _ILLEGAL])),
                     "road": Arg(st.sampled_from([None, *ki.ROAD_PAIRS]), st.sampled_from([(3, 1), (0, 0), [0, 1],
                                                                                          "01", 5, (0, 5)]))},
    "hand_value_distribution": {"pool": _narrow(ki.hand_value_distribution, "pool", BIG_POOL)},
    "expected_hand_value": {"pool": _narrow(ki.expected_hand_value, "pool", BIG_POOL)},
    "simulate": {"n_games": _narrow(ki.simulate, "n_games", st.integers(1, 8)),
                 "chunk_size": _narrow(ki.simulate, "chunk_size", st.integers(1, 7)),
                 # one name or object for every seat (a list's length must be params.n_players, drawn before it)
                 "policies": Arg(st.sampled_from(["random", "greedy", "chicken:4", ki.ChickenPolicy(2)]),
                                 BAD_NAMES.bad, key="policy")},
    "make_policy": {"spec": Arg(st.sampled_from(["random", "greedy", "chicken:2", "rollout:3", "rollout"]),
                                st.one_of(BAD_NAMES.bad, st.sampled_from([3, None, b"greedy"])), key="policy")},
    "reference_choice": {"p": P4_ONLY,
                         "dare": Arg(st.sampled_from([-1, 1, 3, 5]), st.one_of(NOT_INT, st.sampled_from([0, 6, -2]))),
                         "uniform": UNIFORM, "lines": Arg(st.sampled_from([None, P4.lines]), _NOTHING)},
    "reference_game": {"p": Arg(st.just(P2), P4_ONLY.bad),
                       # the wrong number of players or not a sequence (an unknown name: BAD_NAMES, "policy")
                       "policies": Arg(st.sampled_from([["random", "greedy"], ("chicken:4",) * 2]),
                                       st.sampled_from([["greedy"], "greedy", None, ["greedy"] * 3, 3])),
                       "uniform": UNIFORM},
    "reference_simulate": {"n_games": _narrow(ki.reference_simulate, "n_games", st.integers(1, 3)),
                           "policies": Arg(st.sampled_from(["random", "greedy", "chicken:2"]), BAD_NAMES.bad,
                                           key="policy")},
}

#: Public functions tested by hand instead (none: every one has a declaration the tests draw from).
BY_HAND: dict[str, str] = {}


test_every_public_function_is_declared, test_declared_function_strict = declared_api_tests(
    "gamesim.games.kami_no_ikari", public_functions(ki), EXAMPLES, SPECIAL,
    by_hand=BY_HAND, max_examples=12, returns_value=True, one_line=True)
