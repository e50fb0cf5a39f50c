"""Tests of QftNW's policies and equilibrium (linear programming).

Golden values come from mathematics (hand derivations from the rulebook, closed-form
matrix games, exact enumeration), never from a seeded run. Stochastic tests compare
estimates with exact values, or two independent simulators, at 4.5 standard errors,
so they pass for any seed (fresh seed per run).
"""

from __future__ import annotations


import numpy as np
import pytest

from gamesim.games.qftnw import (
    Obs,
    edition_params,
    equilibrium_table,
    make_policy,
    round_payoff_matrix,
    safe_bids,
    simulate,
    solve_matrix_game,
    start_equilibrium,
)
from tests.games.qftnw.helpers import A, B, C, D, F, ORIG, SPA, hold



# ---------------------------------------------------------------------------
# Policies
# ---------------------------------------------------------------------------


def test_uniform_and_mixed_probabilities() -> None:
    p = edition_params("original", advanced=True)
    u = make_policy("uniform")
    obs = Obs(5, 5, hold(A), hold(B), C, D, 3, 0)
    assert u.probs_one(obs, p) == [0.25, 0.25, 0.0, 0.25, 0.25]
    m = make_policy("mixed:1,0,1,0,2")
    assert m.probs_one(obs._replace(lock_self=0), p) == [0.25, 0.0, 0.25, 0.0, 0.5]
    assert m.probs_one(obs._replace(lock_self=5), p) == [0.5, 0.0, 0.5, 0.0, 0.0]
    assert make_policy("mixed:0,0,0,0,1").probs_one(obs._replace(lock_self=5), p) == [0.25] * 4 + [0.0]


def test_cautious_only_bids_safe_cards() -> None:
    assert safe_bids(1, 5, 0, 0, ORIG) == (1, 2)  # 3 against 1 costs 2
    assert safe_bids(3, 5, 0, 0, ORIG) == (1, 2, 3)  # 4 against 1 costs 3
    assert safe_bids(5, 5, 0, 0, ORIG) == (1, 2, 3, 4, 5)
    pa = edition_params("original", advanced=True)
    assert safe_bids(2, 5, 0, 1, pa) == (1, 2, 3)  # the opponent cannot bid its locked 1: 3 is safe
    c = make_policy("cautious")
    assert c.probs_one(Obs(1, 5, hold(A), hold(B), C, -1, 0, 0), ORIG) == [0.5, 0.5, 0, 0, 0]


def test_cautious_never_goes_bankrupt(seed: int) -> None:
    # with tie_floor = "each" some bid is always safe; under the Spa default ("both") a player at 1
    # facing one with more funds can always be tied into bankruptcy, so no bid is safe there
    df = simulate(3000, edition="spa", advanced=True, policies=("cautious", "greedy"), rng=seed, tie_floor="each")
    assert (df.bankruptcies_p0 == 0).all() and (df.min_funds_p0 >= 1).all()
    assert safe_bids(1, 3, 0, 0, edition_params("spa")) == ()


def test_greedy_looks_at_the_visible_deck_top() -> None:
    p = edition_params("original", advanced=True)
    g = make_policy("greedy")
    # current card F worthless, next card D completes three Ds: bid the lowest legal card
    obs = Obs(5, 5, hold(D, D), hold(A), F, D, 0, 0)
    assert g.probs_one(obs, p) == [1.0, 0, 0, 0, 0]
    assert g.probs_one(obs._replace(lock_self=1), p) == [0, 1.0, 0, 0, 0]
    # current card D wins: bid one of the two highest safe cards
    assert g.probs_one(obs._replace(flip=D, nxt=F), p) == [0, 0, 0, 0.5, 0.5]
    assert g.probs_one(obs._replace(flip=D, nxt=F, f_self=2), p) == [0.5, 0.5, 0, 0, 0]


def test_vectorized_policy_probabilities_match_scalar(seed: int) -> None:
    from gamesim.games.qftnw.policies import ObsBatch

    rng = np.random.default_rng(seed)
    for p in (edition_params("original", advanced=True), edition_params("v2", tie_floor="both")):
        n = 400
        hs = rng.integers(0, 3, size=(n, 7)) * (rng.random((n, 7)) < 0.4)
        ho = rng.integers(0, 3, size=(n, 7)) * (rng.random((n, 7)) < 0.4)
        fs, fo = rng.integers(1, 7, n), rng.integers(1, 7, n)
        ls = rng.integers(0, 6, n) if p.advanced else np.zeros(n, int)
        lo = rng.integers(0, 6, n) if p.advanced else np.zeros(n, int)
        flip, nxt = rng.integers(0, 7, n), rng.integers(-1, 7, n)
        ob = ObsBatch(fs, fo, hs, ho, flip, nxt if p.advanced else None, ls, lo)
        for spec in ("uniform", "cautious", "greedy", "equilibrium", "mixed:1,2,3,4,0"):
            pol = make_policy(spec)
            got = pol.probs_batch(ob, p)
            for i in range(0, n, 7):
                o = Obs(int(fs[i]), int(fo[i]), tuple(hs[i].tolist()), tuple(ho[i].tolist()), int(flip[i]),
                        int(nxt[i]) if p.advanced else -1, int(ls[i]), int(lo[i]))
                np.testing.assert_allclose(got[i], pol.probs_one(o, p), atol=1e-12, err_msg=spec)


def test_make_policy_errors() -> None:
    for bad in ("random", "mixed", "mixed:1,2", "mixed:a,b,c,d,e", "equilibrium:1", "uniform:3"):
        with pytest.raises(ValueError):
            make_policy(bad)


# ---------------------------------------------------------------------------
# Equilibrium (linear programming)
# ---------------------------------------------------------------------------


def test_lp_rock_paper_scissors() -> None:
    x, y, v = solve_matrix_game([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    np.testing.assert_allclose(x, [1 / 3] * 3, atol=1e-9)
    np.testing.assert_allclose(y, [1 / 3] * 3, atol=1e-9)
    assert abs(v) < 1e-9


def test_lp_two_by_two_closed_form() -> None:
    # [[a, b], [c, d]] without a saddle point: x1 = (d - c) / k, y1 = (d - b) / k, v = (ad - bc) / k,
    # k = a - b - c + d
    a, b, c, d = 3.0, -1.0, -2.0, 1.0
    k = a - b - c + d
    x, y, v = solve_matrix_game([[a, b], [c, d]])
    np.testing.assert_allclose(x, [(d - c) / k, 1 - (d - c) / k], atol=1e-9)
    np.testing.assert_allclose(y, [(d - b) / k, 1 - (d - b) / k], atol=1e-9)
    assert v == pytest.approx((a * d - b * c) / k, abs=1e-9)


def test_lp_saddle_point() -> None:
    x, y, v = solve_matrix_game([[4, 2], [3, 1]])
    np.testing.assert_allclose(x, [1, 0], atol=1e-9)
    np.testing.assert_allclose(y, [0, 1], atol=1e-9)
    assert v == pytest.approx(2)


def test_lp_rejects_bad_matrix() -> None:
    with pytest.raises(ValueError):
        solve_matrix_game([[1, np.nan]])
    with pytest.raises(ValueError):
        solve_matrix_game([1, 2])


def test_territory_only_bid_game_equilibrium() -> None:
    # Territory only (+1 / -1): 1 beats 5, else higher wins. 2 is dominated by... nothing obvious;
    # check the LP's answer is an equilibrium: no pure deviation does better than the value.
    a, _, _ = round_payoff_matrix(5, 5, 0, 0, ORIG, fund_weight=0.0, bankrupt_penalty=0.0)
    x, y, v = solve_matrix_game(a)
    assert v == pytest.approx(0.0, abs=1e-9)  # symmetric zero-sum game
    assert (x @ a >= v - 1e-9).all() and (a @ y <= v + 1e-9).all()
    # by hand: {1, 4, 5} each 1/3 is an equilibrium (1 beats 5, 4 beats 1, 5 beats 4; 2 and 3 lose
    # to 4 and 5 and only beat 1), and it is the unique one
    np.testing.assert_allclose(x, [1 / 3, 0, 0, 1 / 3, 1 / 3], atol=1e-7)


def test_start_equilibrium_is_an_equilibrium_and_table_is_consistent() -> None:
    for p in (ORIG, SPA, edition_params("original", advanced=True)):
        x, y, v = start_equilibrium(p)
        a, _, _ = round_payoff_matrix(5, 5, 0, 0, p)
        assert v == pytest.approx(0.0, abs=1e-9)
        assert (x @ a >= -1e-9).all()
        t = equilibrium_table(p)
        np.testing.assert_allclose(t.sum(axis=-1), 1.0, atol=1e-9)
        assert (t >= 0).all()
        if p.advanced:
            for lock in range(1, 6):
                assert (t[1:, 1:, lock, :, lock - 1] == 0).all()  # never bids a locked card (funds >= 1)
            m = round_payoff_matrix(3, 4, 2, 5, p)[0]  # rows: bids 1, 3, 4, 5; columns: 1, 2, 3, 4
            # the table's strategy guarantees the value of the game against every column
            assert (t[3, 4, 2, 5][[0, 2, 3, 4]] @ m).min() == pytest.approx(solve_matrix_game(m).value, abs=1e-7)


def test_equilibrium_with_a_weight_near_its_bound():
    """A designer's weight near 1e6 gives payoffs HiGHS could not solve as they are (spa, fund_weight
    -522937: 'model_status is Unknown'); the game is solved scaled to [0, 1] instead (the maximin
    strategy is the same for any increasing affine map of the payoffs): every entry is a mixed strategy."""
    t = np.asarray(equilibrium_table(edition_params("spa"), fund_weight=-522937.0))
    assert np.isfinite(t).all() and (t >= 0).all()
    np.testing.assert_allclose(t.sum(axis=-1), 1.0, atol=1e-9)


def test_matrix_game_solution_is_invariant_to_affine_payoffs():
    """Rock-paper-scissors with payoffs 1e6 x - 3: the same strategies (1/3 each) and value -3."""
    x, y, v = solve_matrix_game(1e6 * np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], float) - 3.0)
    np.testing.assert_allclose(x, 1 / 3, atol=1e-7)
    np.testing.assert_allclose(y, 1 / 3, atol=1e-7)
    assert abs(v + 3.0) < 1e-3
