"""Property tests of the ガッチャ (whole game, ``gacha_game``) public API (issue 9, points 4 and 5).

For every public function and class of :mod:`gamesim.games.gacha_game`: a call whose
arguments are all of the right type and in range returns; a call with any argument of the
wrong type (a float such as ``2.5`` or ``3.0`` for an integer, a bool, a string, None) or
out of range (``n_games = 10**12``, ``max_health = 10**9``, negative laps) raises
``TypeError``/``ValueError`` (a ``ParamError``) naming the parameter, quickly and before any
work: nothing is silently truncated, and no MemoryError, OverflowError or hang is reachable.

``test_declared_function_strict`` draws its calls from the functions' ``validate_params``
declarations (issue 25 point 2): every public function must carry one (a new function without
it fails), and only what a declaration cannot say is written here (:data:`SPECIAL`). The game's
parameters (:class:`GachaGameParams`, alias ``GameConfig``) check in ``__post_init__`` and keep a
hand-written spec (:data:`CLASSES`).
"""

from __future__ import annotations

import inspect
import time
import tomllib
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gamesim.games.gacha_game as gg
from gamesim.core.registry import ParamError
from gamesim.core.validate import declared_params
from gamesim.games.gacha_game.sim import MAX_GAMES
from tests.reliability.api_support import (
    Arg,
    NOT_INT,
    call,
    declared_api_tests,
    declared_arg,
    draw_call,
    int_arg,
    pos,
    refused_names,
    FAST_S,
    refused_with_key,
)


def int_list(lo: int, hi: int, small: int, size: int) -> Arg:
    """Lists of exactly ``size`` integers (the three ラストダンス lists must match)."""
    base = st.lists(st.integers(lo, small), min_size=size, max_size=size)
    bad = st.one_of(
        base.map(lambda v: v[:-1] + [2.5]),
        base.map(lambda v: v[:-1] + [3.0]),
        base.map(lambda v: v[:-1] + [True]),
        base.map(lambda v: v[:-1] + [lo - 1]),
        base.map(lambda v: v[:-1] + [hi + 1]),
        st.just([]),
        st.just("123"),
        st.just(None),
        st.just([0] * 5),
    )
    return Arg(base, bad, keyword=False)


D = gg.load_data()
CFG = gg.make_config(n_players=2)
DATA = Arg(st.just(D), st.sampled_from([None, "illustrative", 3, {"characters": []}]), keyword=False)
BOOL = Arg(st.booleans(), st.sampled_from([0, 1, "no", "yes", None, 1.0, np.int64(1)]))
# the refusals that name "rates" (a bad cost or pull count names "rate cost" / "rate pulls": pinned below)
RATES = Arg(st.lists(st.tuples(st.integers(1, 20), st.integers(1, 30)), min_size=1, max_size=3).map(tuple),
            st.sampled_from([((1, 2, 3),), "ab", None, 3, (), ((2, 1),) * 21, [[2, 1, 1]]]))

#: The game's parameters: they check in ``__post_init__``, not by a declaration (hand-written spec).
CLASSES: dict[str, tuple[Callable[..., Any], dict[str, Arg]]] = {
    "GameConfig": (gg.GameConfig, {
        # data=None and policies=None are the defaults (the built-in cards; greedy_pulls in every seat)
        "data": Arg(DATA.good, st.sampled_from(["illustrative", 3, {"characters": []}]), keyword=False),
        "n_players": pos(int_arg(2, 2)),
        "policies": Arg(st.just(("greedy_pulls", "random")), st.sampled_from([("nope", "random"), ["random"] * 2,
                                                                               ("random",)]), keyword=False),
        # expert = True with a navi card is refused as a pair (tests/games/gacha_game): drawn with no navi only
        "expert": pos(Arg(st.just(False), BOOL.bad)), "doubtful_k": Arg(st.one_of(st.none(), st.just((3, 4))),
                                               st.sampled_from([(2.5,), (True,), (-1,), "34"]), keyword=False),
        "navi_seat1": Arg(st.one_of(st.none(), st.integers(0, len(D.navi_names) - 1)),
                          st.sampled_from([True, 1.0, -1, len(D.navi_names), "a"]), keyword=False),
        "boss_refill": pos(BOOL), "last_dance_zero_first": BOOL, "last_dance_consolete": BOOL,
        "boss_use": Arg(st.sampled_from(["round", "once"]), st.sampled_from(["twice", 1, True])),
        "boss_target": Arg(st.sampled_from(["choose", "first"]), st.sampled_from(["last", 0, True]))}),
}


@pytest.mark.parametrize("name", list(CLASSES))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(data=st.data())
def test_data_class_accepts_valid_and_refuses_everything_else(name: str, data: st.DataObject) -> None:
    fn, spec = CLASSES[name]
    values, bad = draw_call(fn, spec, data)
    t0 = time.process_time()
    if bad:
        with pytest.raises((TypeError, ValueError)) as info:
            call(fn, spec, values)
        assert time.process_time() - t0 < FAST_S, f"{name} was slow to refuse {bad}"
        assert isinstance(info.value, ParamError), repr(info.value)
        assert " = " in str(info.value), str(info.value)
    else:
        assert call(fn, spec, values) is not None


@pytest.mark.parametrize("call, key", [
    (lambda: gg.attack_result(True, 5, 3), "kind"),  # was taken as kind 1
    (lambda: gg.last_dance_chances([1.5, 2], [0, 0], [0, 0]), "laps"),  # was compared as a number
    (lambda: gg.last_dance_chances([-1, 2], [0, 0], [0, 0]), "laps"),
    (lambda: gg.last_dance_chances([1, 2], [0], [0, 0]), "bosses"),
    (lambda: gg.simulate_games(CFG, 10, rng=True), "rng"),  # was seed 1
    (lambda: gg.simulate_games(None, 10), "cfg"),
    (lambda: gg.simulate_games(CFG, 10**12), "n_games"),
    (lambda: gg.paid_tables([[2, 1.5]]), "rate pulls"),
    (lambda: gg.attack_tables([1]), "max_health"),  # was an unhashable-type TypeError from lru_cache
    (lambda: gg.load_data(3), "data"),
    (lambda: gg.GameConfig(D, 2.5, ("random",) * 2, False, None, None, True), "n_players"),
    (lambda: gg.quest_move(None, 0, 0, 1), "data"),
    (lambda: gg.paid_tables([[2.5, 1]]), "rate cost"),
    # relations between arguments, checked in the bodies
    (lambda: gg.last_dance_chances([1, 2], [0, 0], [0]), "rates"),
    (lambda: gg.quest_move(D, len(D.quest_stop), 0, 1), "pos"),                  # beyond the quest track
    (lambda: gg.saturday_pulls(D, [D.rate_length + 1]), "rates"),                 # beyond the rate track
    (lambda: gg.make_config(doubtful=True, doubtful_k=[2.5]), "doubtful_k"),      # read in 疑惑の運営モード only
    (lambda: gg.make_config(doubtful=True, doubtful_k=[10**6]), "doubtful_k"),
    (lambda: gg.make_config(expert=True, navi_seat1=D.navi_names[0]), "navi_seat1"),
    (lambda: gg.make_config(remove_action="nope"), "remove_action"),
    (lambda: gg.make_config(remove_boss="nope"), "remove_boss"),
    (lambda: gg.reference_game(CFG, 0.5), "rand"),
    # the documented limits, pinned here (the generated tests take them from the declarations)
    (lambda: gg.attack_result(0, 10_001, 3), "health"),
    (lambda: gg.attack_result(0, 5, 7), "roll"),
    (lambda: gg.quest_move(D, 0, 10_001, 1), "laps"),
    (lambda: gg.paid_tables([[2, 1]], 2001), "max_money"),
    (lambda: gg.last_dance_chances([0] * 5, [0] * 5, [0] * 5), "laps"),
    (lambda: gg.make_config(n_players=5), "n_players"),
    (lambda: gg.simulate(CFG, MAX_GAMES + 1), "n_games"),
    (lambda: gg.reference_games(CFG, 100_001), "n_games"),
])
def test_examples_are_refused_naming_the_parameter(call: Callable[[], Any], key: str) -> None:
    refused_with_key(call, key)


def test_lists_are_as_good_as_tuples_for_the_cached_tables() -> None:
    assert (gg.paid_tables([[2, 1], [10, 12]], 30)[0] == gg.paid_tables(((2, 1), (10, 12)), 30)[0]).all()


# ---------------------------------------------------------------------------
# The game's Params and the common entry point (issue 25: one shape per game)
# ---------------------------------------------------------------------------


def test_gacha_game_params_and_simulate_strict() -> None:
    p = gg.GachaGameParams()
    assert gg.GachaGameParams is gg.GameConfig
    assert p.policies == ("greedy_pulls",) * 4 and p.data is gg.load_data()
    refused_names(gg.GachaGameParams, "data", data="illustrative")
    refused_names(gg.GachaGameParams, "n_players", n_players=5)
    refused_names(gg.GachaGameParams, "n_players", n_players=2.0)
    refused_names(gg.GachaGameParams, "policies", policies=("random",))
    refused_names(gg.GachaGameParams, "navi_seat1", navi_seat1=0, expert=True)
    refused_names(gg.GachaGameParams, "boss_use", boss_use="never")
    refused_names(gg.simulate, "params", None, 10)
    refused_names(gg.simulate, "n_games", p, 0)
    refused_names(gg.simulate, "n_games", p, MAX_GAMES + 1)
    r = gg.simulate(gg.GachaGameParams(n_players=2), 5, rng=1)
    assert all(v.shape[0] == 5 for v in r.values())


# ---------------------------------------------------------------------------
# Generated from the declarations (issue 25 point 2)
# ---------------------------------------------------------------------------

#: Valid values for ``Instance`` arguments.
EXAMPLES: dict[type, list[Any]] = {gg.GameData: [D], gg.GachaGameParams: [CFG]}
_NOTHING = st.nothing()

#: The rules' functions tested here besides the package's ``__all__``.
RULES_FUNCTIONS = ["attack_outcomes"]


def _functions() -> dict[str, Callable[..., Any]]:
    out = {n: getattr(gg, n) for n in gg.__all__ if inspect.isfunction(getattr(gg, n))}
    out.update({n: getattr(gg.rules, n) for n in RULES_FUNCTIONS})
    return out


def _narrow(fn: Callable[..., Any], name: str, good: st.SearchStrategy) -> Arg:
    """The declared bad values of ``fn``'s ``name``, with valid values narrower than declared."""
    return Arg(good, declared_arg(declared_params(fn)[name], {}, EXAMPLES).bad)


#: The built-in card list as parse_data takes it.
_RAW = tomllib.loads((gg.data.DATA_DIR / "illustrative.toml").read_text(encoding="utf-8"))
#: The three ラストダンス lists must have one entry per slayer: three each here.
PER_SLAYER = int_list(0, 10_000, 5, 3)

#: What the declarations cannot say, by function and parameter: ``Unchecked`` arguments (checked in
#: the body: a parser's input, a callable, names from the card list), relations between arguments
#: (the ラストダンス lists of one length, doubtful_k read only in 疑惑の運営モード, no navi in
#: エキスパートモード) and valid values narrower than declared where a large one is slow (games).
SPECIAL: dict[str, dict[str, Arg]] = {
    # a malformed document is a DataError (a ValueError), not a ParamError: test_api_coverage
    "parse_data": {"raw": Arg(st.just(_RAW), _NOTHING), "source": Arg(st.text(max_size=5), _NOTHING)},
    # a missing file is a DataError: test_api_coverage and tests/games/gacha_game
    "load_data": {"data": Arg(st.sampled_from(["illustrative", gg.data.resolve_data_path("illustrative")]),
                              st.sampled_from([3, None, 2.5, b"illustrative", ["illustrative"]]))},
    "quest_move": {"pos": Arg(st.integers(0, len(D.quest_stop) - 1),
                              st.one_of(NOT_INT, st.sampled_from([-1, len(D.quest_stop)])))},
    "paid_tables": {"rates": RATES},
    "last_dance_chances": {"laps": PER_SLAYER, "bosses": PER_SLAYER, "rates": PER_SLAYER},
    "make_config": {
        "data": Arg(st.sampled_from(["illustrative", D]), st.sampled_from([3, None, 2.5, ["illustrative"]])),
        "remove_action": Arg(st.sampled_from(["none", D.action_names[0]]), st.sampled_from(["nope", 3, None])),
        "remove_boss": Arg(st.sampled_from(["none", D.boss_names[-1]]), st.sampled_from(["nope", 3, None])),
        # read only with doubtful = True: its refusals are pinned in test_examples_are_refused_naming_the_parameter
        "doubtful_k": Arg(st.lists(st.integers(0, 5), min_size=1, max_size=3), _NOTHING),
        # refused whatever expert is; a valid name only without expert (pinned above)
        "navi_seat1": Arg(st.none(), st.sampled_from(["nope", 3])),
    },
    "simulate_games": {"n_games": _narrow(gg.simulate_games, "n_games", st.integers(1, 3))},
    "simulate": {"n_games": _narrow(gg.simulate, "n_games", st.integers(1, 3))},
    "reference_games": {"n_games": _narrow(gg.reference_games, "n_games", st.integers(1, 2))},
    "reference_game": {"rand": Arg(st.integers(0, 100).map(lambda s: np.random.default_rng(s).random),
                                   st.sampled_from([None, 0.5, "rand"]))},
}


test_every_public_function_is_declared, test_declared_function_strict = declared_api_tests(
    "gamesim.games.gacha_game", _functions(), EXAMPLES, SPECIAL, max_examples=10, returns_value=True, one_line=True)
