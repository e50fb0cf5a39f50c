"""Property tests of the Ice Cream Turret public API (issue 9, points 4 and 5).

For every public function and class of :mod:`gamesim.games.ice_cream_turret` (rules core,
vectorized kernels, policies, scalar reference): a call whose arguments are all of the
right type and in range returns; a call with any argument of the wrong type (a float such
as ``7.0`` for a card, a bool for a column, a list where an array is expected) or out of
range (a card 11, ``n_games = 10**12``, ``chunk_size = 10**9``) raises
``TypeError``/``ValueError`` (a ``ParamError``) naming the parameter, quickly and before any
work: nothing is silently truncated, and no IndexError, MemoryError or hang is reachable.
"""

from __future__ import annotations

import time
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gamesim.games.ice_cream_turret as ic
from gamesim.core.registry import ParamError
from gamesim.games.ice_cream_turret.reference import State
from gamesim.games.ice_cream_turret.rules import CRUSH, MAX_CYCLES, MAX_PLACEMENTS, N_CELLS, N_VALUES, ROWS
from gamesim.games.ice_cream_turret.sim import MAX_GAMES
from tests.reliability.api_support import (
    Arg,
    call,
    declared_api_tests,
    public_functions,
    draw_call,
    int_arg,
    refused_names,
    FAST_S,
    refused_with_key,
)


@st.composite
def boards(draw: st.DrawFn, max_height: int = ROWS - 1) -> tuple[int, ...]:
    """A board obeying gravity, every column at most ``max_height`` cards (so a card fits)."""
    cells = [0] * N_CELLS
    for c in range(3):
        for r in range(draw(st.integers(0, max_height))):
            cells[r * 3 + c] = draw(st.integers(1, CRUSH))
    return tuple(cells)


BAD_BOARD = st.one_of(
    boards().map(lambda b: b[:-1] + (7.0,)),
    boards().map(lambda b: (True,) + b[1:]),
    boards().map(lambda b: b[:-1] + (11,)),
    boards().map(lambda b: b[:-1] + (-1,)),
    boards().map(lambda b: b[:-1]),
    st.sampled_from([None, "...", 3, (0,) * 16]),
)
BOOL = Arg(st.booleans(), st.sampled_from([0, 1, "no", "yes", None, 1.0, np.int64(1)]))
#: Policy specs; the bad ones are refused naming "policy" (a rollout's k and horizon: RolloutPolicy's own).
POLICY = Arg(st.sampled_from(["random", "greedy"]), st.sampled_from(["nope", 3, None, "rollout:2.5", "rollout:1:2:3"]),
             keyword=False)
BATCH = Arg(st.lists(boards(), min_size=1, max_size=4).map(lambda bs: np.array(bs, np.int8)),
            st.sampled_from([np.zeros((2, N_CELLS)), np.zeros((2, 14), np.int8), [[0] * N_CELLS],
                             np.full((2, N_CELLS), 11, np.int8), np.zeros((2, N_CELLS), bool), None]),
            keyword=False)
PLAIN = dict(base_copies=int_arg(1, 12, 6), copies_7=int_arg(0, 12, 6), copies_8=int_arg(0, 12, 6),
             copies_9=int_arg(0, 12, 6), crush_count=int_arg(0, 12, 6),
             crush_cycle=Arg(st.one_of(st.none(), st.integers(1, MAX_CYCLES)), int_arg(1, MAX_CYCLES).bad.filter(
                 lambda v: v is not None)),
             n_cycles=int_arg(1, MAX_CYCLES), crush_cascade=BOOL,
             mode=Arg(st.sampled_from(["normal", "score_attack"]), st.sampled_from(["x", 1, None, True])),
             extra_win=Arg(st.sampled_from(["immediate", "deck_end"]), st.sampled_from(["x", 1, None])),
             line_bonus=Arg(st.sampled_from(["cap", "double"]), st.sampled_from(["x", 1, None])),
             equal_runs_score=BOOL, max_placements=int_arg(1, MAX_PLACEMENTS, 500))
P0 = ic.IceCreamParams()
RES = ic.resolve(ic.board_from_rows(["1..", "2..", "3.."]), P0)

def _state_with_card(card: int) -> State:
    s = State(P0)
    s.card = card
    return s


#: The public classes (frozen data classes: they check in ``__post_init__``, no declaration), with
#: their arguments; the functions' calls are drawn from their declarations (test_declared_function_strict).
SPECS: dict[str, tuple[Callable[..., Any], dict[str, Arg]]] = {
    "IceCreamParams": (ic.IceCreamParams, PLAIN),
    "RolloutPolicy": (ic.RolloutPolicy, {"k": int_arg(1, 256, 4), "horizon": int_arg(0, 200, 2),
                                         "playout": Arg(st.sampled_from(["greedy", "lookahead"]),
                                                        st.sampled_from(["x", None, 1]))}),
}


@pytest.mark.parametrize("name", list(SPECS))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_public_class_accepts_valid_and_refuses_everything_else(name: str, data: st.DataObject) -> None:
    fn, spec = SPECS[name]
    values, bad = draw_call(fn, spec, data)
    t0 = time.process_time()
    if bad:
        with pytest.raises(ParamError) as info:
            call(fn, spec, values)
        assert time.process_time() - t0 < FAST_S, f"{name} was slow to refuse {bad}"
        assert " = " in str(info.value), str(info.value)
    else:
        assert call(fn, spec, values) is not None


# ---------------------------------------------------------------------------
# Generated from the declarations (issue 25 point 2)
# ---------------------------------------------------------------------------

EXAMPLES: dict[type, list[Any]] = {
    ic.IceCreamParams: [ic.IceCreamParams(), ic.IceCreamParams(mode="score_attack"),
                        ic.IceCreamParams(crush_cascade=True, n_cycles=2)],
    ic.Resolution: [RES],
}
_NOTHING = st.nothing()
#: Boards that obey gravity with room in every column (the rules trust gravity; a full column is
#: a relation of board and col that place refuses in its body).
_BOARD = Arg(boards(), BAD_BOARD)
_BATCH = Arg(BATCH.good, BATCH.bad)
_GEN = Arg(st.integers(0, 2**32 - 1).map(np.random.default_rng), st.sampled_from([True, 2.5, "x", -1]))


def _batch_of(seed: int) -> ic.GameBatch:
    return ic.new_games(P0, 3, rng=np.random.default_rng(seed))


_GAMES = Arg(st.integers(0, 99).map(_batch_of), st.sampled_from([None, (0,) * 15, "g"]))
_REF_POLICY = Arg(st.sampled_from(["random", "greedy"]), st.sampled_from(["nope", 3, None, "rollout", "Greedy"]))
#: The rules a state or batch was built with (another rule set is outside the contract).
_P0 = Arg(st.just(P0), st.sampled_from([None, "normal", {"mode": "normal"}, 3]))

#: What the declarations cannot say, by function and parameter: ``Unchecked`` arguments (parsers,
#: trusted hooks, callables), array constraints of the batch functions, boards obeying gravity,
#: and valid values narrower than declared where the work grows (explicit here).
SPECIAL: dict[str, dict[str, Arg]] = {
    **{name: {"board": _BOARD} for name in ("board_to_rows", "find_clears", "gravity", "legal_columns", "place",
                                            "resolve", "greedy_keys")},
    "board_from_rows": {"rows": Arg(
        st.lists(st.text(".123456789C", min_size=3, max_size=3), max_size=ROWS),
        st.sampled_from([[[1.5, 0, 0]], [[True, 0, 0]], "...", 3, None]))},
    "resolve_batch": {"board": _BATCH, "t": Arg(st.none(), _NOTHING), "pos": Arg(st.none(), _NOTHING)},
    "greedy_keys_batch": {
        "board": Arg(st.just(np.zeros((3, N_CELLS), np.int8)), BATCH.bad),
        "card": Arg(st.lists(st.integers(1, CRUSH), min_size=3, max_size=3).map(lambda v: np.array(v, np.int8)),
                    st.sampled_from([np.full(3, 7.0), np.zeros(3, np.int8), np.full(3, 11), [7, 7, 7], np.full(2, 7)]))},
    "lookahead_values_batch": {"g": _GAMES, "p": _P0},
    "advance": {"g": _GAMES, "p": _P0,
                "cols": Arg(st.lists(st.integers(0, 2), min_size=3, max_size=3).map(lambda v: np.array(v, np.int64)),
                            st.sampled_from([np.full(3, 1.5), np.full(3, 3), [0, 1, 2], np.zeros(2, np.int64)])),
                "t": Arg(st.none(), _NOTHING), "resolved": Arg(st.none(), _NOTHING), "u": Arg(st.none(), _NOTHING)},
    "new_games": {"n": Arg(st.integers(1, 20), int_arg(1, MAX_GAMES).bad), "rng": _GEN, "t": Arg(st.none(), _NOTHING)},
    "run_games": {"policy": POLICY, "n_games": Arg(st.integers(1, 10), int_arg(1, MAX_GAMES).bad)},
    "simulate": {"policy": POLICY, "n_games": Arg(st.integers(1, 10), int_arg(1, MAX_GAMES).bad)},
    "make_policy": {"spec": Arg(st.sampled_from(["random", "greedy", "lookahead", "rollout:2:1"]),
                                st.sampled_from(["nope", 3, None, "rollout:2.5", "rollout:a", "greedy:1",
                                                 "rollout:1:2:3"]), key="policy")},
    "lookahead_values": {"s": Arg(st.integers(1, 6).map(_state_with_card), st.sampled_from([None, (0,) * 15, "s"])),
                         "p": _P0},
    # the reference's lookahead games take about 0.1 s each: random and greedy ones here
    "reference_game": {"uniform": Arg(st.integers(0, 99).map(lambda s: np.random.default_rng(s).random),
                                      st.sampled_from([None, 0.5, "u"])), "policy": _REF_POLICY},
    "reference_simulate": {"n_games": Arg(st.integers(1, 3), int_arg(1, 100_000).bad), "policy": _REF_POLICY},
}


test_every_public_function_is_declared, test_declared_function_strict = declared_api_tests(
    "gamesim.games.ice_cream_turret", public_functions(ic), EXAMPLES, SPECIAL, max_examples=12)


EMPTY = (0,) * N_CELLS


def _batch() -> ic.GameBatch:
    return ic.new_games(P0, 3, rng=np.random.default_rng(0))


def test_batch_kernels_accept_valid_input() -> None:
    g = _batch()
    vals = ic.lookahead_values_batch(g, P0, np.random.default_rng(1))
    assert vals.shape == (3, 3)
    res = ic.advance(g, np.array([0, 1, 2]), P0, np.random.default_rng(1))
    assert res["board"].shape == (3, N_CELLS) and (g.placed == 1).all()


@pytest.mark.parametrize("call, key", [
    (lambda: ic.place(EMPTY, 0, 7.0), "value"),  # was placed as a float cell
    (lambda: ic.place(EMPTY, True, 7), "col"),  # was column 1
    (lambda: ic.window_kind([1.5, 2, 3]), "values"),
    (lambda: ic.rebuild_deck(P0, [1.5] * N_VALUES, 2), "discards"),
    (lambda: ic.greedy_keys(EMPTY, 7.0, P0), "card"),
    (lambda: ic.reference_game(P0, "nope", np.random.default_rng(0).random), "policy"),  # was played as lookahead
    (lambda: ic.resolve_batch(np.full((2, N_CELLS), 99, np.int8), P0), "board"),  # was an IndexError
    (lambda: ic.resolve_batch(np.zeros((2, N_CELLS)), P0), "board"),  # floats were resolved
    (lambda: ic.run_games(P0, "greedy", 10, rng=True), "rng"),
    (lambda: ic.advance(_batch(), np.full(3, 1.5), P0, np.random.default_rng(0)), "cols"),
    (lambda: ic.advance(_batch(), np.full(3, 3), P0, np.random.default_rng(0)), "cols"),
    (lambda: ic.advance(_batch(), [0, 1, 2], P0, np.random.default_rng(0)), "cols"),
    (lambda: ic.advance(None, np.zeros(3, np.int64), P0, np.random.default_rng(0)), "g"),
    (lambda: ic.lookahead_values_batch(None, P0, np.random.default_rng(0)), "g"),
    (lambda: ic.lookahead_values_batch(_batch(), None, np.random.default_rng(0)), "p"),
])
def test_examples_are_refused_naming_the_parameter(call: Callable[[], Any], key: str) -> None:
    refused_with_key(call, key)


# ---------------------------------------------------------------------------
# The common entry point (issue 25: one shape per game)
# ---------------------------------------------------------------------------


def test_simulate_strict() -> None:
    p = ic.IceCreamParams()
    refused_names(ic.simulate, "p", None, 10)
    refused_names(ic.simulate, "n_games", p, 2.5)
    refused_names(ic.simulate, "n_games", p, MAX_GAMES + 1)
    refused_names(ic.simulate, "chunk_size", p, 10, chunk_size=0)
    refused_names(ic.simulate, "policy", p, 10, policy="clever")
    r = ic.simulate(p, 6, rng=1, policy="random")
    assert all(v.shape == (6,) for v in r.values())
