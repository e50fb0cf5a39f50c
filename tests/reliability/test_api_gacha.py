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
"""

from __future__ import annotations

import math
import time
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gamesim.games.gacha as g
from gamesim.core.registry import ParamError
from gamesim.games.gacha import tasks as gtasks
from gamesim.games.gacha.rules import MAX_CHARACTERS, MAX_CHIPS, MAX_MONEY, MAX_SESSION_PULLS
from tests.reliability.api_support import Arg, call, draw_call, int_arg, NOT_INT, pos, refused_names


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


# Valid bags keep at least 15 chips and at most one God Chance chip so that every valid
# doubtful / Overdrive combination below is accepted (k < total; the Overdrive chain ends).
BAG = Arg(st.builds(g.BagConfig, st.integers(0, 1), st.integers(0, 5), st.integers(15, 44)),
          st.sampled_from([(1, 5, 44), None, 3, "bag", {"n_n": 44}]))
DOUBTFUL = Arg(st.sampled_from([None, g.DoubtfulConfig((1, 2)), g.DoubtfulConfig((3, 4)),
                                g.DoubtfulConfig((2,), (1.0,))]),
               st.sampled_from([True, "yes", (3, 4), 3, g.DoubtfulConfig((60,))]))
N_CHARS = Arg(st.integers(3, 6), int_arg(1, MAX_CHARACTERS).bad)  # valid 1..100; drawn 3..6 so calls stay fast
OVERDRIVE = Arg(st.one_of(st.none(), st.integers(1, 10)),
                st.one_of(st.sampled_from([0, -10, 2.5, 10.0, True, "10", 10**6]),))
BOOL = Arg(st.booleans(), st.sampled_from([0, 1, "no", "yes", None, 1.0, np.int64(1)]))
RNG = Arg(st.integers(0, 2**32 - 1), st.sampled_from([True, False, 2.5, "1", -1]))
SESSIONS = int_list(0, MAX_SESSION_PULLS, 20, max_size=5)
N_TRIALS = int_arg(0, 10**7, 100, keyword=False)
SCHEDULE = Arg(st.lists(st.tuples(st.integers(1, 2), st.integers(0, 20)), min_size=1, max_size=6),
               st.sampled_from([[(1, 2.5)], [(1.0, 10)], [(True, 10)], [(1, -1)], [(0, 10)], [(1, 10**6)], "ab",
                                [(1, 2, 3)], None, [(1, 10)] * 20_001]), keyword=False)
BUNDLES = Arg(st.lists(st.tuples(st.integers(1, 20), st.integers(1, 30)), min_size=1, max_size=3),
              st.sampled_from([[(2.5, 1)], [(2, 1.0)], [(0, 1)], [(2, -1)], [(True, 1)], [(1, 2, 3)], "ab", None,
                               [(10**9, 1)], [(2, 1)] * 21]))
STATE = Arg(st.builds(g.BagState, st.tuples(st.integers(0, 1), st.integers(0, 5), st.integers(3, 10))),
            st.sampled_from([(1, 5, 44), None, "state", 3]))
COUNTS = Arg(st.tuples(st.integers(0, 1), st.integers(0, 5), st.integers(3, 10)),
             st.sampled_from([(1, 5, 44.0), (1, 5), (-1, 5, 44), (True, 5, 44), (1, 5, MAX_CHIPS + 1), "154", None]),
             keyword=False)
# in range for every COUNTS good value (sum >= 3); the bad values are out of range for every one
# (4 is not: a bag of 4 or more chips may lose 4)
SMALL_DRAW = Arg(st.integers(0, 3), st.sampled_from([-1, 2.5, 3.0, True, False, "1", None, 10**6]), keyword=False)
PLAN = g.best_purchase_plan(25)
QUANTILES = Arg(st.lists(st.floats(0.05, 0.95), min_size=1, max_size=3),
                st.sampled_from([[0.0], [1.0], [1.5], [math.nan], ["a"], 0.5, None, [True]]))

SPECS: dict[str, tuple[Callable[..., Any], dict[str, Arg]]] = {
    "BagConfig": (g.BagConfig, {"n_god_chance": int_arg(0, 50, 2), "n_sr": int_arg(0, MAX_CHIPS, 5),
                                # 0 N chips is a valid bag while other chips are in it: never drawn as invalid
                                "n_n": Arg(int_arg(1, MAX_CHIPS, 44).good, int_arg(0, MAX_CHIPS).bad)}),
    "DoubtfulConfig": (g.DoubtfulConfig, {"k_values": int_list(0, 2050, 5, min_size=1, max_size=3)}),
    "RateBundle": (g.RateBundle, {"cost": int_arg(1, 10_000, 30), "pulls": int_arg(1, 10_000, 30)}),
    "BagState": (g.BagState, {"in_bag": Arg(COUNTS.good, COUNTS.bad), "gc_drawn": int_arg(0, 50, 3)}),
    "full_bag": (g.full_bag, {"bag": pos(BAG)}),
    "bag_creation_outcomes": (g.bag_creation_outcomes, {"bag": pos(BAG), "doubtful": DOUBTFUL}),
    "must_rebuild": (g.must_rebuild, {"state": pos(STATE), "bag": pos(BAG)}),
    "apply_draw": (g.rules.apply_draw, {"state": pos(STATE), "drawn": Arg(st.sampled_from([(0, 0, 0), (0, 0, 1)]),
                                                                          COUNTS.bad, keyword=False)}),
    "draw_outcomes": (g.rules.draw_outcomes, {"counts": COUNTS, "m": SMALL_DRAW}),
    "removal_outcomes": (g.rules.removal_outcomes, {"counts": COUNTS, "k": SMALL_DRAW}),
    "session_outcomes": (g.session_outcomes, {"state": pos(STATE), "m": int_arg(0, MAX_SESSION_PULLS, 30,
                                                                                   keyword=False),
                                              "bag": pos(BAG), "doubtful": DOUBTFUL}),
    "split_sessions": (g.split_sessions, {"total_pulls": int_arg(0, 10**8, 500, keyword=False),
                                          "session_size": int_arg(1, MAX_SESSION_PULLS, 50, keyword=False)}),
    "coupon_collector_probability": (g.coupon_collector_probability, {
        "n_god_chances": Arg(st.one_of(st.integers(0, 60), st.lists(st.integers(0, 60), max_size=4)),
                             st.sampled_from([2.5, 3.0, True, [1, 2.5], -1, 10**9, "3", None, [[1], [1, 2]]]),
                             keyword=False),
        "n_characters": Arg(st.integers(1, 6), N_CHARS.bad, keyword=False)}),
    "owned_transition_matrix": (g.rules.owned_transition_matrix, {"n_characters": pos(int_arg(1, MAX_CHARACTERS, 6))}),
    "best_bundle_mix": (g.best_bundle_mix, {"money": int_arg(0, MAX_MONEY, 100, keyword=False),
                                            "bundles": pos(BUNDLES)}),
    "check_config": (g.check_config, {"bag": pos(BAG), "n_characters": pos(N_CHARS), "doubtful": pos(DOUBTFUL),
                                      "overdrive_pulls": pos(OVERDRIVE)}),
    "exact_god_chance_pmf": (g.exact_god_chance_pmf, {"sessions": SESSIONS, "bag": BAG, "doubtful": DOUBTFUL}),
    "exact_completion_curve": (g.exact_completion_curve, {"sessions": SESSIONS, "bag": BAG, "n_characters": N_CHARS,
                                                          "doubtful": DOUBTFUL}),
    "exact_completion_probability": (g.exact_completion_probability, {
        "sessions": SESSIONS, "bag": BAG, "n_characters": N_CHARS, "doubtful": DOUBTFUL}),
    "exact_expected_characters_owned": (g.exact_expected_characters_owned, {
        "sessions": SESSIONS, "bag": BAG, "n_characters": N_CHARS, "doubtful": DOUBTFUL}),
    "exact_expected_god_chances": (g.exact_expected_god_chances, {"sessions": SESSIONS, "bag": BAG,
                                                                  "doubtful": DOUBTFUL}),
    "exact_pulls_to_complete": (g.exact_pulls_to_complete, {
        "session_size": pos(int_arg(1, MAX_SESSION_PULLS, 50)), "bag": BAG, "n_characters": N_CHARS,
        "doubtful": DOUBTFUL, "quantiles": QUANTILES,
        "tol": Arg(st.floats(1e-9, 1e-3), st.sampled_from([-1, 0.0, 2.0, math.nan, "x", None, True])),
        "max_pulls": Arg(st.one_of(st.none(), st.integers(0, 500)), int_arg(0, 10**10).bad.filter(
            lambda v: v is not None)),
        "max_sessions": int_arg(1, 10**7, 2000)}),
    "exact_shared": (g.exact_shared, {"schedule": SCHEDULE, "n_players": Arg(st.integers(2, 3), st.sampled_from(
        [0, 1.0, 2.0, True, "2", 5, 10**9])), "bag": BAG, "n_characters": N_CHARS, "doubtful": DOUBTFUL,
        "stop_at_completion": BOOL}),
    "best_purchase_plan": (g.best_purchase_plan, {
        "money": int_arg(0, MAX_MONEY, 60, keyword=False), "bundles": pos(BUNDLES), "bag": BAG,
        "doubtful": DOUBTFUL, "n_characters": N_CHARS,
        "objective": Arg(st.sampled_from(["god_chances", "complete"]), st.sampled_from(["most", None, 1, True]))}),
    "run_purchase_plan": (g.run_purchase_plan, {
        "plan": Arg(st.just(PLAN), st.sampled_from([None, "plan", 25]), keyword=False), "n_trials": N_TRIALS,
        "rng": RNG, "overdrive_pulls": OVERDRIVE}),
    "simulate_shared": (g.simulate_shared, {
        "schedule": SCHEDULE, "n_trials": N_TRIALS, "n_players": Arg(st.integers(2, 3), st.sampled_from(
            [0, 1.0, True, "2", 10**9])), "rng": RNG, "bag": BAG, "n_characters": N_CHARS, "doubtful": DOUBTFUL,
        "overdrive_pulls": OVERDRIVE, "stop_at_completion": BOOL}),
    "run_shared": (g.run_shared, {
        "schedule": SCHEDULE, "n_trials": N_TRIALS, "n_players": Arg(st.integers(2, 3), st.sampled_from(
            [0, 1.0, True, "2", 10**9])), "rng": RNG, "bag": BAG, "n_characters": N_CHARS, "doubtful": DOUBTFUL,
        "overdrive_pulls": OVERDRIVE, "stop_at_completion": BOOL}),
    "simulate_schedule": (g.simulate_schedule, {
        "sessions": SESSIONS, "n_trials": N_TRIALS, "rng": RNG, "bag": BAG, "n_characters": N_CHARS,
        "doubtful": DOUBTFUL, "overdrive_pulls": OVERDRIVE}),
    "run_schedule": (g.run_schedule, {
        "sessions": SESSIONS, "n_trials": N_TRIALS, "rng": RNG, "bag": BAG, "n_characters": N_CHARS,
        "doubtful": DOUBTFUL, "overdrive_pulls": OVERDRIVE}),
    "simulate_pulls_to_complete": (g.simulate_pulls_to_complete, {
        "session_size": pos(int_arg(1, MAX_SESSION_PULLS, 50)), "n_trials": N_TRIALS,
        "max_pulls": int_arg(0, 10**8, 300), "rng": RNG, "bag": BAG, "n_characters": N_CHARS,
        "doubtful": DOUBTFUL, "overdrive_pulls": OVERDRIVE}),
    "reference_shared": (g.reference_shared, {
        "schedule": SCHEDULE, "n_trials": pos(int_arg(0, 10**6, 5)), "rng": RNG, "bag": BAG,
        "n_characters": N_CHARS, "doubtful": DOUBTFUL, "overdrive_pulls": OVERDRIVE}),
    "reference_schedule": (g.reference_schedule, {
        "sessions": SESSIONS, "n_trials": pos(int_arg(0, 10**6, 5)), "rng": RNG, "bag": BAG,
        "n_characters": N_CHARS, "doubtful": DOUBTFUL, "overdrive_pulls": OVERDRIVE}),
    "reference_pulls_to_complete": (g.reference_pulls_to_complete, {
        "session_size": pos(int_arg(1, MAX_SESSION_PULLS, 50)), "n_trials": pos(int_arg(0, 10**6, 3)),
        "max_pulls": int_arg(0, 10**8, 200), "rng": RNG, "bag": BAG, "n_characters": N_CHARS,
        "doubtful": DOUBTFUL, "overdrive_pulls": OVERDRIVE}),
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
        elapsed = time.perf_counter() - t0
        assert elapsed < 2.0, f"{name} took {elapsed:.1f} s to refuse {bad}"
        assert isinstance(info.value, ParamError), repr(info.value)
        assert " = " in str(info.value) and "must be" in str(info.value), str(info.value)
    else:
        out = call(fn, spec, values)
        assert out is not None
        assert time.perf_counter() - t0 < 10.0, name


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
    t0 = time.perf_counter()
    with pytest.raises((TypeError, ValueError)) as info:
        task.check(params)
    assert time.perf_counter() - t0 < 2.0
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
    (lambda: g.simulate_schedule([2.5], 10), "sessions"),  # the issue's example: was pulled as 2
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
    t0 = time.perf_counter()
    with pytest.raises(ParamError) as info:
        call()
    assert time.perf_counter() - t0 < 1.0
    assert info.value.key == key, str(info.value)


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
