"""Property tests of the Quest for the New World public API (issue 9, points 4 and 5).

Random well-typed and ill-typed arguments: a public function either returns a result of the
documented type (only when every argument is valid: nothing is silently coerced) or raises a
``ValueError``/``TypeError`` (``ParamError``) naming the parameter; a refusal is fast, however
large the size asked for. Validity is decided by an independent oracle written from the documented
limits (docs/rules/qftnw.md, "Argument checks and limits").

``test_declared_function_strict`` draws its calls from the functions' ``validate_params``
declarations (issue 25 point 2): every public function must carry one (a new function without
it fails), and only what a declaration cannot say is written here (:data:`SPECIAL`).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gamesim.games.qftnw as q
from gamesim.core.registry import ParamError
from gamesim.games.qftnw import (
    edition_params,
    equilibrium_table,
    exact_truncated,
    make_policy,
    play_round,
    resolve_bids,
    round_payoff_matrix,
    simulate,
    solve_matrix_game,
    start_equilibrium,
    win_condition,
)
from tests.reliability import api_support
from tests.reliability.api_support import Arg, declared_api_tests, public_functions, refused_fast


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)


def _is_int(x: object) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def junk_or(valid: st.SearchStrategy) -> st.SearchStrategy:
    """The shared junk, plus ("no", 2.5): what a confused qftnw caller passes."""
    return api_support.junk_or(valid, also=("no", 2.5))


POLICIES = st.sampled_from(["uniform", "cautious", "greedy", "mixed:1,2,3,2,1", "uniform@spoil", "greedy@take"])


@SETTINGS
@given(data=st.data(), all_valid=st.booleans())
def test_simulate_strict(data: st.DataObject, all_valid: bool) -> None:
    def draw(valid: st.SearchStrategy) -> object:
        return data.draw(valid if all_valid else junk_or(valid))

    edition = draw(st.sampled_from(["original", "spa", "v2"]))
    kw = dict(advanced=draw(st.booleans()), fund_cap=draw(st.integers(1, 8)), start_funds=draw(st.integers(1, 8)),
              gain=draw(st.integers(0, 3)), tie_floor=draw(st.sampled_from(["each", "both"])),
              straight3=draw(st.booleans()), n_copies=draw(st.integers(1, 6)), max_rounds=draw(st.integers(1, 60)))
    pols = (data.draw(POLICIES), data.draw(POLICIES))
    n = draw(st.integers(0, 20))
    cap = kw["fund_cap"]
    valid = (isinstance(edition, str) and edition in ("original", "spa", "v2") and _is_int(n) and 0 <= n <= 10**7
             and isinstance(kw["advanced"], bool) and isinstance(kw["straight3"], bool)
             and _is_int(cap) and 1 <= cap <= 20
             and _is_int(kw["start_funds"]) and 1 <= kw["start_funds"] <= cap
             and _is_int(kw["gain"]) and 0 <= kw["gain"] <= 20
             and isinstance(kw["tie_floor"], str) and kw["tie_floor"] in ("each", "both")
             and _is_int(kw["n_copies"]) and 1 <= kw["n_copies"] <= 100
             and _is_int(kw["max_rounds"]) and 1 <= kw["max_rounds"] <= 100_000)
    if not valid:
        refused_fast(simulate, n, edition=edition, policies=pols, **kw)
        return
    df = simulate(n, edition=edition, policies=pols, rng=3, **kw)
    assert isinstance(df, pd.DataFrame) and len(df) == n
    assert (df.rounds <= kw["max_rounds"]).all()


def test_issue_examples_are_refused() -> None:
    assert "advanced" in str(refused_fast(simulate, 10, advanced="no"))
    assert "start_funds" in str(refused_fast(simulate, 10, start_funds=2.5))
    assert "start_funds" in str(refused_fast(simulate, 10, start_funds=7))  # above the fund cap (6)
    assert "n_games" in str(refused_fast(simulate, 2.0))
    assert "policy" in str(refused_fast(simulate, 10, policies=("uniform", "unifrom")))


@SETTINGS
@given(w=st.lists(st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-3, 5)), min_size=5,
                  max_size=5),
       fw=st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-5, 5)),
       naming=junk_or(st.sampled_from(["most", "spoil", "take"])))
def test_policy_weights_and_payoffs_strict(w: list, fw: float, naming: object) -> None:
    spec = "mixed:" + ",".join(repr(float(x)) for x in w)
    w_ok = all(math.isfinite(x) and 0 <= x <= 1e12 for x in w) and sum(w) > 0
    n_ok = isinstance(naming, str) and naming in ("most", "spoil", "take")
    if w_ok and n_ok:
        pol = make_policy(spec, naming=naming)
        assert abs(sum(pol.probs) - 1) < 1e-12 and pol.naming == naming
    else:
        refused_fast(make_policy, spec, naming=naming)
    fw_ok = math.isfinite(fw) and abs(fw) <= 1e6
    p = edition_params("original")
    if fw_ok:
        pol = make_policy(f"equilibrium:{fw!r},2")
        assert pol.fund_weight == fw
        a, rows, cols = round_payoff_matrix(5, 5, 0, 0, p, fund_weight=fw)
        assert a.shape == (5, 5)
    else:  # nan / inf weights refused up front, never passed to linprog
        refused_fast(make_policy, f"equilibrium:{fw!r},2")
        refused_fast(make_policy, "equilibrium", fund_weight=fw)
        refused_fast(start_equilibrium, p, fund_weight=fw)
        refused_fast(equilibrium_table, p, bankrupt_penalty=fw)


def test_matrix_game_input_refused_up_front() -> None:
    refused_fast(solve_matrix_game, [[0.0, np.nan], [1.0, 0.0]])
    refused_fast(solve_matrix_game, [[np.inf]])
    refused_fast(solve_matrix_game, [])
    refused_fast(solve_matrix_game, "ab")
    refused_fast(solve_matrix_game, np.zeros((2000, 2)))
    x, y, v = solve_matrix_game([[1.0]])
    assert v == 1.0


def test_sizes_that_would_hang_are_refused_fast() -> None:
    for kw in (dict(n_games=10**12), dict(n_games=10, max_rounds=10**9), dict(n_games=10, chunk_size=10**9),
               dict(n_games=10, n_copies=10**6), dict(n_games=10, fund_cap=10**6, start_funds=5)):
        n = kw.pop("n_games")
        err = refused_fast(simulate, n, **kw)
        assert isinstance(err, ParamError)
    refused_fast(simulate, 10, rng=True)
    refused_fast(simulate, 10, rng=-1)
    refused_fast(exact_truncated, "original")
    refused_fast(round_payoff_matrix, 0, 5, 0, 0, edition_params("original"))
    refused_fast(round_payoff_matrix, 5, 5, 2.0, 0, edition_params("original"))


@SETTINGS
@given(a=junk_or(st.integers(1, 5)), b=junk_or(st.integers(1, 5)), f0=junk_or(st.integers(1, 6)),
       f1=junk_or(st.integers(1, 6)), hold=st.lists(junk_or(st.integers(0, 3)), min_size=6, max_size=8),
       flip=junk_or(st.integers(0, 6)))
def test_rules_core_strict(a: object, b: object, f0: object, f1: object, hold: list, flip: object) -> None:
    p = edition_params("spa")
    bids_ok = all(_is_int(x) and 1 <= x <= 5 for x in (a, b))
    funds_ok = all(_is_int(x) and 1 <= x <= 6 for x in (f0, f1))
    if bids_ok and funds_ok:
        w, g0, g1 = resolve_bids(a, b, f0, f1, p)
        assert w in (-1, 0, 1) and all(type(x) is int for x in (g0, g1))
    else:
        refused_fast(resolve_bids, a, b, f0, f1, p)
    hold_ok = len(hold) == 7 and all(_is_int(x) and 0 <= x <= 35 for x in hold)
    if hold_ok:
        assert win_condition(hold, [0] * 7, p) in (0, 1, 2, 3)
    else:
        refused_fast(win_condition, hold, [0] * 7, p)
    if hold_ok and bids_ok and funds_ok and _is_int(flip) and 0 <= flip <= 6:
        o = play_round(hold, [0] * 7, f0, f1, a, b, flip, p)
        assert sum(o.hold0) + sum(o.hold1) + len(o.to_bottom) == sum(hold) + 1
    elif not (_is_int(flip) and 0 <= flip <= 6) or not hold_ok:
        refused_fast(play_round, hold, [0] * 7, 5, 5, 3, 3, flip, p)


def test_simulate_with_params_strict() -> None:
    # the common entry point: simulate(params, n_games, *, rng) with a QftnwParams
    p = edition_params("spa")
    r = simulate(p, 9, rng=2)
    assert isinstance(r, dict) and all(v.shape == (9,) for v in r.values())
    assert "n_games" in str(refused_fast(simulate, p, 2.5))
    assert "n_games" in str(refused_fast(simulate, p, None))
    assert "edition" in str(refused_fast(simulate, p, 10, edition="v2"))
    assert "advanced" in str(refused_fast(simulate, p, 10, advanced=True))
    assert "start_funds" in str(refused_fast(simulate, p, 10, start_funds=3))
    assert "policies" in str(refused_fast(simulate, p, 10, policies=("uniform",)))
    assert "n_games" in str(refused_fast(simulate, 10, 10))  # the old form takes n_games once
    assert len(simulate(n_games=4, rng=1)) == 4  # the old form by keyword



# ---------------------------------------------------------------------------
# Generated from the declarations (issue 25 point 2)
# ---------------------------------------------------------------------------

#: Valid rules objects for ``Instance(QftnwParams)`` arguments (cheap for the equilibrium LPs:
#: no 上級ルール, so one LP per funds pair).
EXAMPLES = {
    q.QftnwParams: [edition_params("spa"), edition_params("original", fund_cap=3, start_funds=2, n_copies=2)],
    q.Policy: [make_policy("uniform"), make_policy("greedy@take"), make_policy("cautious@spoil")],
}
_PAIR_BAD = st.sampled_from(["uniform", None, ("uniform",), ("uniform",) * 3, 3])
_NOTHING = st.nothing()

#: What the declarations cannot say, by function and parameter: ``Unchecked`` arguments (checked
#: in the body or trusted), the items of a ``Pair``, and valid values narrower than declared
#: where the body relates arguments (kept explicit here).
SPECIAL: dict[str, dict[str, Arg]] = {
    "run_games": {"policies": Arg(st.tuples(POLICIES, POLICIES), _PAIR_BAD)},
    "reference_simulate": {
        "edition": Arg(st.sampled_from(["original", "spa", "v2"]), st.sampled_from(["x", None, 3])),
        "advanced": Arg(st.booleans(), st.sampled_from(["no", 0, None])),
        "policies": Arg(st.tuples(POLICIES, POLICIES), _PAIR_BAD),
        "n_games": Arg(st.integers(0, 10), st.sampled_from([2.5, -1, True, None, 10**9])),
        "check": Arg(st.booleans(), _NOTHING),
    },
    "reference_game": {
        "rng": Arg(st.integers(0, 2**32).map(np.random.default_rng), st.sampled_from([None, 3, "x"])),
        "check": Arg(st.booleans(), _NOTHING),
    },
    # the enumeration is exact only for max_rounds <= n_cards - 2 (a plain ValueError otherwise)
    "exact_truncated": {"p": Arg(st.just(edition_params("original", max_rounds=2, n_types=3, n_copies=3, n_of_a_kind=2,
                                                        long_straight=3, short_straight=2)),
                                 st.sampled_from([None, "original", 3])),
                        "policies": Arg(st.tuples(POLICIES, POLICIES), _PAIR_BAD)},
    "play_round": {"namers": Arg(st.just((q.choose_type_most, q.choose_type_most)), _NOTHING)},
    # a parser: its errors name "policy"; naming is overridden by a spec's @suffix, and the
    # payoff and weights are checked only when the spec is a bare "equilibrium" / "mixed"
    "make_policy": {
        "spec": Arg(POLICIES, st.sampled_from(["unifrom", "mixed:a", "equilibrium:1", "greedy:3", 3, None]),
                    key="policy"),
        "mixed_probs": Arg(st.none(), _NOTHING),
        "fund_weight": Arg(st.floats(-10, 10), _NOTHING),
        "bankrupt_penalty": Arg(st.floats(-10, 10), _NOTHING),
        "naming": Arg(st.sampled_from(["most", "spoil", "take"]), _NOTHING),
    },
    "solve_matrix_game": {"a": Arg(
        st.integers(1, 4).flatmap(lambda n: st.lists(st.lists(st.floats(-5, 5), min_size=n, max_size=n),
                                                     min_size=1, max_size=4)),
        st.sampled_from([[], "ab", [[0.0, math.nan]], [[math.inf]], [1.0, 2.0], [[[1.0]]]]))},
}

#: Functions with two call forms that one draw cannot express: tested by hand above.
BY_HAND = {"simulate": "two forms told apart by the first argument: test_simulate_strict, "
                       "test_simulate_with_params_strict, test_issue_examples_are_refused"}


test_every_public_function_is_declared, test_declared_function_strict = declared_api_tests(
    "gamesim.games.qftnw", public_functions(q), EXAMPLES, SPECIAL, by_hand=BY_HAND, max_examples=25)
