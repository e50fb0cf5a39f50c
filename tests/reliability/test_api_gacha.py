"""Property tests of the ガッチャ (gacha) public API (issue 9, points 4 and 5).

For every public gacha function (rules core, exact solvers, simulators including the
schedule kernel's ``run_schedule``/``simulate_schedule``, the scalar reference, the
purchase planner and the tasks' parameter helpers): a call whose arguments are all of
the right type and in range returns a value of the right kind; a call with any
argument of the wrong type (a float such as ``2.5`` or ``3.0`` for an integer, a bool,
a string, None) or out of range (``bag_n = 10**21``, ``n_characters = 10**9``,
``max_pulls = -10``, a session of 10**6 pulls) raises ``TypeError``/``ValueError`` (a
``ParamError``) naming the parameter, quickly and before any work: nothing is silently
truncated, and no MemoryError, OverflowError, RecursionError or hang is reachable.

``test_declared_function_strict`` draws its calls from the functions' ``validate_params``
declarations (issue 25 point 2): every public function must carry one (a new function without
it fails), and only what a declaration cannot say is written here (:data:`SPECIAL`,
:data:`COMMON`). The data classes (:class:`BagConfig`, :class:`DoubtfulConfig`,
:class:`RateBundle`, :class:`BagState`, :class:`GachaParams`) check in ``__post_init__`` and
keep hand-written specs (:data:`CLASSES`, ``test_gacha_params_and_simulate_strict``); the tasks'
checks keep theirs.
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

import gamesim.games.gacha as g
from gamesim.core.registry import ParamError
from gamesim.core.validate import declared_params
from gamesim.games.gacha import tasks as gtasks
from gamesim.games.gacha.rules import MAX_CHARACTERS, MAX_CHIPS, MAX_MONEY, MAX_SESSION_PULLS
from tests.reliability.api_support import (
    Arg,
    NOT_INT,
    call,
    declared_api_tests,
    declared_arg,
    draw_call,
    int_arg,
    refused_names,
    FAST_S,
    refused_with_key,
)


def int_list(lo: int, hi: int, small: int, min_size: int = 0, max_size: int = 5) -> Arg:
    base = st.lists(st.integers(lo, small), min_size=min_size, max_size=max_size)
    bad = st.one_of(
        base.map(lambda v: v + [2.5]),
        base.map(lambda v: v + [3.0]),
        base.map(lambda v: v + [True]),
        base.map(lambda v: v + [lo - 1]),
        base.map(lambda v: v + [hi + 1]),
        st.just([10**6]),
        st.just("123"),
        st.just(None),
        st.just(list(range(20_001))),
    )
    return Arg(base, bad, keyword=False)


BOOL = Arg(st.booleans(), st.sampled_from([0, 1, "no", "yes", None, 1.0, np.int64(1)]))
SCHEDULE = Arg(st.lists(st.tuples(st.integers(1, 2), st.integers(0, 20)), min_size=1, max_size=6),
               st.sampled_from([[(1, 2.5)], [(1.0, 10)], [(True, 10)], [(1, -1)], [(0, 10)], [(1, 10**6)], "ab",
                                [(1, 2, 3)], None, [(1, 10)] * 20_001]))
BUNDLES = Arg(st.lists(st.tuples(st.integers(1, 20), st.integers(1, 30)), min_size=1, max_size=3),
              st.sampled_from([[(2.5, 1)], [(2, 1.0)], [(0, 1)], [(2, -1)], [(True, 1)], [(1, 2, 3)], "ab", None,
                               [(10**9, 1)], [(2, 1)] * 21]))
COUNTS = Arg(st.tuples(st.integers(0, 1), st.integers(0, 5), st.integers(3, 10)),
             st.sampled_from([(1, 5, 44.0), (1, 5), (-1, 5, 44), (True, 5, 44), (1, 5, MAX_CHIPS + 1), "154", None]))
# in range for every COUNTS good value (sum >= 3); the bad values are out of range for every one
# (4 is not: a bag of 4 or more chips may lose 4)
SMALL_DRAW = Arg(st.integers(0, 3), st.sampled_from([-1, 2.5, 3.0, True, False, "1", None, 10**6]))
PLAN = g.best_purchase_plan(25)

#: The data classes: they check in ``__post_init__``, not by a declaration (hand-written specs).
CLASSES: dict[str, tuple[Callable[..., Any], dict[str, Arg]]] = {
    "BagConfig": (g.BagConfig, {"n_god_chance": int_arg(0, 50, 2), "n_sr": int_arg(0, MAX_CHIPS, 5),
                                # 0 N chips is a valid bag while other chips are in it: never drawn as invalid
                                "n_n": Arg(int_arg(1, MAX_CHIPS, 44).good, int_arg(0, MAX_CHIPS).bad)}),
    "DoubtfulConfig": (g.DoubtfulConfig, {"k_values": int_list(0, 2050, 5, min_size=1, max_size=3)}),
    "RateBundle": (g.RateBundle, {"cost": int_arg(1, 10_000, 30), "pulls": int_arg(1, 10_000, 30)}),
    "BagState": (g.BagState, {"in_bag": Arg(COUNTS.good, COUNTS.bad), "gc_drawn": int_arg(0, 50, 3)}),
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
        assert time.process_time() - t0 < FAST_S, f"{name} too slow to refuse {bad}"
        assert isinstance(info.value, ParamError), repr(info.value)
        assert " = " in str(info.value) and "must be" in str(info.value), str(info.value)
    else:
        assert call(fn, spec, values) is not None


def _bad_task_value(p: Any) -> st.SearchStrategy:
    """Values a scenario could hold for ``p`` that the task must refuse."""
    if p.kind == "int":
        out = [NOT_INT.filter(lambda v: v is not None or not p.optional)]
        if p.max is not None:
            out.append(st.integers(int(p.max) + 1, int(p.max) + 10**21))
        if p.min is not None:
            out.append(st.integers(int(p.min) - 10**6, int(p.min) - 1))
        return st.one_of(*out)
    if p.kind == "bool":
        return st.sampled_from([0, 1, "no", "true", 1.0])
    if p.kind == "str":
        return st.sampled_from(["", "most", 3])
    if p.kind == "int_list":
        return st.sampled_from([[2.5], [True], [-1], [10**21], "12"] + ([[]] if not p.optional else []))
    return st.sampled_from([[[2.5, 1]], [[1, True]], [[1, -1]], [[1, 10**21]], [[1, 2, 3]], "ab", []])


TASKS = [(t, p.name) for t in gtasks.TASKS.values() for p in t.params if p.name != "bag_total"]


@pytest.mark.parametrize("task, key", TASKS, ids=[f"{t.name}.{k}" for t, k in TASKS])
@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_task_check_refuses_bad_values_fast(task: Any, key: str, data: st.DataObject) -> None:
    """The task's checks (and param helpers) refuse what the scenario loader would, naming the key."""
    p = task.param(key)
    value = data.draw(_bad_task_value(p))
    if key == "sessions" and value is None:
        return
    params = task.defaults(**{key: value})
    t0 = time.process_time()
    with pytest.raises((TypeError, ValueError)) as info:
        task.check(params)
    assert time.process_time() - t0 < FAST_S
    assert isinstance(info.value, ParamError)
    assert info.value.key == key or key in str(info.value) or info.value.key.startswith(key), str(info.value)


@pytest.mark.parametrize("helper, key, value", [
    (gtasks.bag_from_params, "bag_n", 10**21),
    (gtasks.bag_from_params, "bag_sr", 2.5),
    (gtasks.doubtful_from_params, "doubtful", "no"),
    (gtasks.overdrive_from_params, "overdrive_pulls", 10.0),
    (gtasks.schedule_sessions, "total_pulls", 10**9),
    (gtasks.money_plan, "money", True),
])
def test_param_helpers_refuse(helper: Callable[..., Any], key: str, value: Any) -> None:
    t = gtasks.TASKS["money"] if helper is gtasks.money_plan else gtasks.TASKS["schedule"]
    if key == "total_pulls":
        params = t.defaults(total_pulls=value, session_size=1)
    else:
        params = t.defaults(**{key: value})
    with pytest.raises(ParamError) as info:
        helper(params)
    assert info.value.key == key


def test_task_params_have_documented_limits() -> None:
    """Every integer size a scenario can set has a max, so the loader refuses huge values."""
    for task in gtasks.TASKS.values():
        for p in task.params:
            if p.kind in ("int", "int_list", "int_pairs"):
                assert p.max is not None, f"{task.name}.{p.name} has no max"


@pytest.mark.parametrize("call, key", [
    (lambda: g.simulate_schedule([2.5], 10), "sessions"),  # the example: was pulled as 2
    (lambda: g.simulate_schedule([10.0], 10), "sessions"),
    (lambda: g.simulate_schedule([True], 10), "sessions"),
    (lambda: g.simulate_schedule([-1], 10), "sessions"),
    (lambda: g.simulate_schedule([10], 2.5), "n_trials"),
    (lambda: g.simulate_schedule([10], 10, n_characters=10**9), "n_characters"),
    (lambda: g.simulate_schedule([10], 10, rng=True), "rng"),
    (lambda: g.run_schedule([10**6], 10), "sessions"),
    (lambda: g.run_schedule([10] * 20_001, 10), "sessions"),
])
def test_schedule_kernel_refuses_what_the_other_simulators_refuse(call: Callable[[], Any], key: str) -> None:
    refused_with_key(call, key)


# ---------------------------------------------------------------------------
# The game's Params and the common entry point (issue 25: one shape per game)
# ---------------------------------------------------------------------------


def test_gacha_params_and_simulate_strict() -> None:
    p = g.GachaParams()
    assert p.kwargs() == {"bag": g.BagConfig(), "n_characters": 5, "doubtful": None, "overdrive_pulls": None}
    refused_names(g.GachaParams, "bag", bag=(1, 5, 44))
    refused_names(g.GachaParams, "n_characters", n_characters=2.5)
    refused_names(g.GachaParams, "n_characters", n_characters=MAX_CHARACTERS + 1)
    refused_names(g.GachaParams, "doubtful", doubtful=(3, 4))
    refused_names(g.GachaParams, "doubtful", bag=g.BagConfig(1, 1, 1), doubtful=g.DoubtfulConfig((3,)))
    refused_names(g.GachaParams, "overdrive_pulls", overdrive_pulls=True)
    refused_names(g.GachaParams, "overdrive_pulls", n_characters=1, overdrive_pulls=10)  # chain never ends
    refused_names(g.simulate, "params", None, 10)
    refused_names(g.simulate, "n_games", p, 2.5)
    refused_names(g.simulate, "n_games", p, -1)
    refused_names(g.simulate, "sessions", p, 10, sessions=[2.5])
    r = g.simulate(g.GachaParams(doubtful=g.DoubtfulConfig(), overdrive_pulls=10), 6, rng=1, sessions=[10, 5])
    assert all(v.shape[0] == 6 for v in r.values())


# ---------------------------------------------------------------------------
# Generated from the declarations (issue 25 point 2)
# ---------------------------------------------------------------------------

#: Valid values for ``Instance`` arguments. The bags keep at least 15 chips and at most one God
#: Chance chip, so that every valid doubtful / Overdrive combination drawn is accepted (k < total;
#: the Overdrive chain ends); the states hold at least 3 chips (a session needs one).
EXAMPLES: dict[type, list[Any]] = {
    g.BagConfig: [g.BagConfig(), g.BagConfig(1, 5, 15), g.BagConfig(0, 3, 20), g.BagConfig(1, 0, 30)],
    g.DoubtfulConfig: [g.DoubtfulConfig((1, 2)), g.DoubtfulConfig((3, 4)), g.DoubtfulConfig((2,), (1.0,))],
    g.BagState: [g.BagState((1, 5, 10)), g.BagState((0, 2, 3)), g.BagState((1, 0, 5), (0, 0, 0), 0)],
    g.PurchasePlan: [PLAN],
    g.GachaParams: [g.GachaParams(), g.GachaParams(doubtful=g.DoubtfulConfig(), overdrive_pulls=10)],
}
_NOTHING = st.nothing()

#: The rules' functions tested here besides the package's ``__all__``.
RULES_FUNCTIONS = ["apply_draw", "draw_outcomes", "removal_outcomes", "owned_transition_matrix", "normalize_bundles"]


def _functions() -> dict[str, Callable[..., Any]]:
    out = {n: getattr(g, n) for n in g.__all__ if inspect.isfunction(getattr(g, n))}
    out.update({n: getattr(g.rules, n) for n in RULES_FUNCTIONS})
    return out


def _narrow(fn: Callable[..., Any], name: str, good: st.SearchStrategy, also_bad: tuple[Any, ...] = ()) -> Arg:
    """The declared bad values of ``fn``'s ``name`` (and ``also_bad``), with valid values narrower than declared."""
    bad = declared_arg(declared_params(fn)[name], {}, EXAMPLES).bad
    return Arg(good, st.one_of(bad, st.sampled_from(also_bad)) if also_bad else bad)


#: By parameter name, for every function that has it: the Unchecked arguments (a shared schedule,
#: the bundles, counted) and valid values narrower than declared where a relation refuses some
#: (characters and Overdrive pulls: the Overdrive chain must end) or a large one is slow.
COMMON: dict[str, Callable[[Callable[..., Any]], Arg]] = {
    "n_characters": lambda fn: _narrow(fn, "n_characters", st.integers(3, 6)),
    "overdrive_pulls": lambda fn: _narrow(fn, "overdrive_pulls", st.one_of(st.none(), st.integers(1, 10))),
    "schedule": lambda fn: SCHEDULE,
    "bundles": lambda fn: BUNDLES,
    # as declared, but a list longer than MAX_SESSIONS is given (Hypothesis draws no list that long)
    "sessions": lambda fn: int_list(0, MAX_SESSION_PULLS, 3, max_size=3),
    # one bool per session: None is always valid, the bad values are refused for any valid sessions
    "counted": lambda fn: Arg(st.none(), st.sampled_from(["ab", 3, [True] * 5])),
}

#: What the declarations cannot say, by function and parameter (beyond :data:`COMMON`).
SPECIAL: dict[str, dict[str, Arg]] = {
    "coupon_collector_probability": {"n_god_chances": Arg(
        st.one_of(st.integers(0, 60), st.lists(st.integers(0, 60), max_size=4)),
        st.sampled_from([2.5, 3.0, True, [1, 2.5], -1, 10**9, "3", None, [[1], [1, 2]]]))},
    # k and m within sum(counts): counts of at least 3 chips, at most 3 drawn
    "removal_outcomes": {"counts": COUNTS, "k": SMALL_DRAW},
    "draw_outcomes": {"counts": COUNTS, "m": SMALL_DRAW},
    # at most the chips in the bag (every example state holds (0, 0, 1))
    "apply_draw": {"drawn": Arg(st.sampled_from([(0, 0, 0), (0, 0, 1)]), COUNTS.bad)},
    "exact_pulls_to_complete": {
        "quantiles": Arg(st.lists(st.floats(0.05, 0.95), min_size=1, max_size=3),
                         st.sampled_from([[0.0], [1.0], [1.5], [math.nan], ["a"], 0.5, None, [True]])),
        "tol": Arg(st.floats(1e-9, 1e-3), st.sampled_from([-1, 0.0, 2.0, math.nan, "x", None, True]))},
    # players 1..2 in SCHEDULE: n_players of at least 2 (and at most 3 for the exact solver's joint state)
    "exact_shared": {"n_players": Arg(st.one_of(st.none(), st.integers(2, 3)),
                                      st.sampled_from([0, 1.0, 2.0, True, "2", 5, 10**9]))},
    "run_shared": {"n_players": Arg(st.integers(2, 3), st.sampled_from([0, 1.0, True, "2", 10**9]))},
    "simulate_shared": {"n_players": Arg(st.one_of(st.none(), st.integers(2, 3)),
                                         st.sampled_from([0, 1.0, True, "2", 10**9]))},
    "reference_shared": {"n_players": Arg(st.one_of(st.none(), st.integers(2, 3)),
                                          st.sampled_from([0, 1.0, True, "2", 10**9])),
                         "n_trials": Arg(st.integers(0, 5), st.sampled_from([-1, 2.5, True, None, 10**6 + 1]))},
    "reference_schedule": {"n_trials": Arg(st.integers(0, 5), st.sampled_from([-1, 2.5, True, None, 10**6 + 1]))},
    # few trials and pulls: the scalar reference plays each pull in Python
    "reference_pulls_to_complete": {"n_trials": Arg(st.integers(0, 3), st.sampled_from([-1, 2.5, True, None,
                                                                                          10**6 + 1])),
                                    "max_pulls": _narrow(g.reference_pulls_to_complete, "max_pulls",
                                                         st.integers(0, 200))},
}


def _special(name: str, fn: Callable[..., Any]) -> dict[str, Arg]:
    out = {k: make(fn) for k, make in COMMON.items() if k in declared_params(fn)}
    out.update(SPECIAL.get(name, {}))
    return out


test_every_public_function_is_declared, test_declared_function_strict = declared_api_tests(
    "gamesim.games.gacha", _functions(), EXAMPLES, SPECIAL,
    special_for=_special, max_examples=10, returns_value=True, one_line=True)


@pytest.mark.parametrize("call, key", [
    # relations between arguments, checked in the bodies
    (lambda: g.check_config(g.BagConfig(1, 1, 1), 5, g.DoubtfulConfig((3,))), "doubtful"),   # k >= the bag total
    (lambda: g.check_config(g.BagConfig(), 1, None, 10), "overdrive_pulls"),                # the chain never ends
    (lambda: g.simulate_schedule([10], 10, n_characters=1, overdrive_pulls=10), "overdrive_pulls"),
    (lambda: g.session_outcomes(g.BagState((0, 0, 0)), 3, g.BagConfig()), "state"),          # an empty bag
    (lambda: g.rules.apply_draw(g.BagState((1, 5, 10)), (2, 0, 0)), "drawn"),                # more than in the bag
    (lambda: g.rules.removal_outcomes((1, 1, 1), 4), "k"),
    (lambda: g.rules.draw_outcomes((1, 1, 1), 4), "m"),
    (lambda: g.run_shared([(1, 10), (3, 10)], 10, n_players=2), "schedule"),                 # player 3 of 2
    (lambda: g.simulate_shared([(17, 10)], 10), "n_players"),                               # 17 players implied
    (lambda: g.exact_shared([(1, 10), (5, 10)]), "n_players"),                              # 5 players implied
    (lambda: g.exact_god_chance_pmf([10, 10], counted=[True]), "counted"),
    (lambda: g.exact_pulls_to_complete(10, quantiles=[0.0]), "quantiles"),                 # open bounds
    (lambda: g.run_pulls_to_complete(1, 10, max_pulls=200_000), "max_pulls"),               # > 100000 sessions
    (lambda: g.best_purchase_plan(10, []), "bundles"),
    (lambda: g.run_purchase_plan(PLAN, 10, overdrive_pulls=1000), "overdrive_pulls"),
    # the documented limits, pinned here (the generated tests take them from the declarations)
    (lambda: g.split_sessions(10**8 + 1, 10), "total_pulls"),
    (lambda: g.exact_shared([(1, 10)], n_players=5), "n_players"),
    (lambda: g.exact_pulls_to_complete(10, max_sessions=10**7 + 1), "max_sessions"),
    (lambda: g.coupon_collector_probability(10, MAX_CHARACTERS + 1), "n_characters"),
    (lambda: g.best_bundle_mix(MAX_MONEY + 1), "money"),
    (lambda: g.reference_schedule([10], 10**6 + 1), "n_trials"),
    (lambda: g.run_purchase_plan(None, 10), "plan"),
    (lambda: g.simulate(None, 10), "params"),
])
def test_examples_are_refused_naming_the_parameter(call: Callable[[], Any], key: str) -> None:
    refused_with_key(call, key)
