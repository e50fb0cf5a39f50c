"""Property tests of the 神の怒り public API.

For every public function and class of :mod:`gamesim.games.kami_no_ikari` (rules core, exact
hand enumerations, simulator, players, scalar reference): a call whose arguments are all of the
right type and in range returns; a call with any argument of the wrong type (a float such as
``2.0`` for a count, a bool for an integer, a string where a state is expected) or out of range
(a height 6, a tenth card of a number, ``n_games = 10**12``) raises ``TypeError``/``ValueError``
(a ``ParamError``) naming the parameter, quickly and before any work.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gamesim.games.kami_no_ikari as ki
from gamesim.core.registry import ParamError
from gamesim.games.kami_no_ikari.sim import MAX_GAMES
from tests.reliability.api_support import NOT_INT, Arg, call, draw_call, int_arg, pos

P4 = ki.KamiParams()
P2 = ki.KamiParams(n_players=2, collapse_doubled=False)
S0 = ki.initial_state(((1, 1, 1, 1, 1), (2, 2, 1, 0, 0), (0, 0, 1, 2, 2), (3, 0, 0, 0, 2)))
S_DRAWN = ki.draw(S0, 2)


def counts(hi: int, total: int | None = None) -> st.SearchStrategy:
    s = st.lists(st.integers(0, hi), min_size=5, max_size=5).map(tuple)
    return s if total is None else s.filter(lambda c: sum(c) == total)


def bad_counts(hi: int) -> st.SearchStrategy:
    return st.sampled_from([(1.0, 0, 0, 0, 0), (True, 0, 0, 0, 0), (hi + 1, 0, 0, 0, 0), (-1, 0, 0, 0, 0),
                            (0, 0, 0, 0), (0,) * 6, None, "00000", 5])


HAND = Arg(counts(5), bad_counts(9), keyword=False)
HEIGHTS = Arg(counts(5), bad_counts(5), keyword=False)
POOL = Arg(st.just((9,) * 5) | counts(9).filter(lambda c: sum(c) >= 5), bad_counts(9))
MATE = Arg(st.integers(-1, 4), st.one_of(NOT_INT, st.sampled_from([5, -2, 10**21])))
BOOL = Arg(st.booleans(), st.sampled_from([0, 1, "yes", None, 1.0, np.int64(1)]))
PARAMS = Arg(st.sampled_from([P4, P2, ki.KamiParams(n_players=3, road=False)]),
             st.sampled_from([None, "p", {"n_players": 4}, 3]), keyword=False)
STATE = Arg(st.just(S_DRAWN), st.sampled_from([None, (0,) * 5, "s", 3]), keyword=False)
RNG = Arg(st.integers(0, 2**32 - 1), st.sampled_from([True, False, 2.5, "1", -1]))
UNIFORM = Arg(st.integers(0, 99).map(lambda s: np.random.default_rng(s).random), st.sampled_from([None, 0.5, "u"]),
              keyword=False)
SPEC = Arg(st.sampled_from(["random", "greedy", "chicken:3"]),
           st.sampled_from(["nope", 3, None, "chicken:0", "chicken:6", "chicken:2.5", "rollout:0", "rollout:1000"]),
           keyword=False)
PLAIN = dict(n_players=int_arg(2, 4), mate_counter=BOOL, road=BOOL, collapse_doubled=BOOL, smoke_by_choice=BOOL,
             deck_out=Arg(st.sampled_from(["end", "play_on"]), st.sampled_from(["x", 1, None, True])),
             ties=Arg(st.sampled_from(["shared", "later_seat"]), st.sampled_from(["x", 1, None])),
             board=Arg(st.just("illustrative"), st.sampled_from([3, None, "no/such.toml", True])),
             board_players=Arg(st.one_of(st.none(), st.integers(2, 4)), st.sampled_from([1, 5, 2.0, True, "2"])),
             remove_line=int_arg(-1, 8))

#: Every public function of kami_no_ikari with its arguments (positional ones first, in order).
SPECS: dict[str, tuple[Callable[..., Any], dict[str, Arg]]] = {
    "KamiParams": (ki.KamiParams, PLAIN),
    "load_board": (ki.load_board, {"board": Arg(st.just("illustrative"), st.sampled_from([3, None, "nope.toml", True]),
                                                keyword=False)}),
    "parse_board": (ki.parse_board, {"raw": Arg(st.sampled_from([{"lines": [{"ends": [1, 2]}]},
                                                                 {"title": "t", "lines": [{"ends": [5, 3], "min_players": 3}]}]),
                                                st.sampled_from([None, [], {"lines": []}, {"x": 1, "lines": [{"ends": [1, 2]}]},
                                                                 {"lines": [{"ends": [1, 2.0]}]},
                                                                 {"lines": [{"ends": [1, 2], "min_players": 5}]},
                                                                 {"lines": [{"ends": [0, 2]}]}]), keyword=False)}),
    "board_lines": (ki.board_lines, {"board": Arg(st.just(ki.load_board()), st.sampled_from([None, "illustrative", 3]),
                                                  keyword=False), "n_players": pos(int_arg(2, 4))}),
    "n_actions": (ki.n_actions, {"n_lines": pos(int_arg(1, 64))}),
    "action_code": (ki.action_code, {"kind": Arg(st.just("smoke"), st.sampled_from(["x", None, 1]), keyword=False),
                                     "index": pos(int_arg(0, 4)), "n_lines": pos(int_arg(1, 64))}),
    "decode_action": (ki.decode_action, {"code": pos(int_arg(0, 8)), "n_lines": pos(int_arg(4, 64))}),
    "set_bonus": (ki.set_bonus, {"count": pos(int_arg(0, 45))}),
    "card_points": (ki.card_points, {"height": pos(int_arg(0, 5)), "mate": Arg(st.booleans(), BOOL.bad, keyword=False),
                                     "collapse_doubled": BOOL}),
    "hand_value": (ki.hand_value, {"hand": HAND, "heights": HEIGHTS, "mate": pos(MATE),
                                   "smoke": pos(int_arg(0, 45)), "collapse_doubled": BOOL}),
    "hands_of_size": (ki.hands_of_size, {"k": pos(int_arg(0, 12, 6))}),
    "hand_probability": (ki.hand_probability, {"hand": HAND, "pool": pos(POOL)}),
    "hand_value_distribution": (ki.hand_value_distribution, {"heights": HEIGHTS, "mate": pos(MATE),
                                                             "k": int_arg(0, 12), "pool": POOL,
                                                             "collapse_doubled": BOOL}),
    "set_bonus_distribution": (ki.set_bonus_distribution, {"k": pos(int_arg(0, 12)), "pool": pos(POOL)}),
    "expected_hand_value": (ki.expected_hand_value, {"heights": HEIGHTS, "mate": pos(MATE), "k": int_arg(0, 12),
                                                     "pool": POOL, "collapse_doubled": BOOL}),
    "initial_state": (ki.initial_state, {"hands": Arg(st.sampled_from([((5, 0, 0, 0, 0), (0, 5, 0, 0, 0)),
                                                                       ((1, 1, 1, 1, 1),) * 3]),
                                                      st.sampled_from([((5.0, 0, 0, 0, 0), (0, 5, 0, 0, 0)),
                                                                       ((5, 0, 0, 0, 0),), ((4, 0, 0, 0, 0),) * 2,
                                                                       ((5, 0, 0, 0, 0),) * 2, None, "hands"]),
                                                      keyword=False)}),
    "draw_outcomes": (ki.draw_outcomes, {"s": STATE}),
    "turn_start": (ki.turn_start, {"s": STATE, "p": PARAMS}),
    "legal_actions": (ki.legal_actions, {"s": STATE, "p": Arg(st.just(P4), PARAMS.bad, keyword=False)}),
    "final_scores": (ki.final_scores, {"s": STATE, "p": Arg(st.just(P4), PARAMS.bad, keyword=False)}),
    "winners": (ki.winners, {"scores": Arg(st.lists(st.integers(-50, 50), min_size=2, max_size=4).map(tuple),
                                           st.sampled_from([(1.5, 2), (1,), (1, 2, 3, 4, 5), None, "12"]),
                                           keyword=False),
                             "ties": Arg(st.sampled_from(["shared", "later_seat"]), st.sampled_from(["x", None, 1]),
                                         keyword=False)}),
    "simulate": (ki.simulate, {"params": PARAMS, "n_games": pos(int_arg(1, MAX_GAMES, 20)), "rng": RNG,
                               "policies": Arg(st.sampled_from(["random", "greedy", "chicken:4"]), SPEC.bad),
                               "rotate": BOOL, "chunk_size": int_arg(1, 10**6, 7)}),
    "make_policy": (ki.make_policy, {"spec": Arg(st.sampled_from(["random", "greedy", "chicken:2", "rollout:3"]),
                                                 SPEC.bad, keyword=False)}),
    "ChickenPolicy": (ki.ChickenPolicy, {"dare": int_arg(1, 5)}),
    "RolloutPolicy": (ki.RolloutPolicy, {"k": int_arg(1, 256, 4), "dare": int_arg(1, 5)}),
    "reference_choice": (ki.reference_choice, {"s": STATE, "p": Arg(st.just(P4), PARAMS.bad, keyword=False),
                                               "dare": Arg(st.sampled_from([-1, 1, 3, 5]),
                                                           st.one_of(NOT_INT, st.sampled_from([0, 6, -2])),
                                                           keyword=False),
                                               "uniform": UNIFORM}),
    "reference_game": (ki.reference_game, {"p": Arg(st.just(P2), PARAMS.bad, keyword=False),
                                           "policies": Arg(st.sampled_from([["random", "greedy"], ["chicken:4"] * 2]),
                                                           st.sampled_from([["greedy"], "greedy", None,
                                                                            ["rollout:2", "greedy"], ["x", "greedy"]]),
                                                           keyword=False),
                                           "uniform": UNIFORM}),
    "reference_simulate": (ki.reference_simulate, {"p": PARAMS, "n_games": pos(int_arg(1, 100_000, 3)), "rng": RNG,
                                                   "policies": Arg(st.sampled_from(["random", "greedy"]), SPEC.bad)}),
}


@pytest.mark.parametrize("name", list(SPECS))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data())
def test_public_function_accepts_valid_and_refuses_everything_else(name: str, data: st.DataObject) -> None:
    fn, spec = SPECS[name]
    values, bad = draw_call(fn, spec, data)
    t0 = time.perf_counter()
    if bad:
        with pytest.raises((TypeError, ValueError)) as info:
            call(fn, spec, values)
        assert time.perf_counter() - t0 < 2.0, f"{name} was slow to refuse {bad}"
        assert isinstance(info.value, ParamError), repr(info.value)
        assert " = " in str(info.value) and "\n" not in str(info.value), str(info.value)
    else:
        out = call(fn, spec, values)
        assert out is not None
        assert time.perf_counter() - t0 < 20.0, name


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
])
def test_examples_are_refused_naming_the_parameter(call: Callable[[], Any], key: str) -> None:
    t0 = time.perf_counter()
    with pytest.raises(ParamError) as info:
        call()
    assert time.perf_counter() - t0 < 1.0
    assert info.value.key == key, str(info.value)


def test_moves_accept_valid_input() -> None:
    a = ki.legal_actions(S_DRAWN, P4)
    s1 = ki.apply_action(S_DRAWN, a[0], P4)
    assert s1.to_move == 1 and ki.draw(s1, 0).drawn
    assert ki.GreedyPolicy() == ki.ChickenPolicy(5) and ki.RandomPolicy() is not None
    assert ki.decode_action(ki.action_code("line", 3, 9), 9) == ("line", 1, 1)
    assert len(ki.reference_game(P4, ["greedy"] * 4, np.random.default_rng(0).random)["scores"]) == 4
    b = ki.load_board()
    assert isinstance(b, ki.Board) and isinstance(replace(S0), ki.KamiState)
