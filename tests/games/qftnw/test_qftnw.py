"""Tests of Quest for the New World: rules core, policies, equilibrium LP, simulator, reference, tasks.

Golden values come from mathematics (hand derivations from the rulebook, closed-form
matrix games, exact enumeration), never from a seeded run. Stochastic tests compare
estimates with exact values, or two independent simulators, at 4.5 standard errors,
so they pass for any seed (fresh seed per run).
"""

from __future__ import annotations

import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from gamesim.core.registry import ParamError, get_game
from gamesim.games.qftnw import (
    choose_type,
    GAME_COLUMNS,
    Cond,
    Obs,
    bankruptcy_transfer,
    bid_winner,
    choose_type_most,
    edition_params,
    equilibrium_table,
    exact_truncated,
    legal_bids,
    make_policy,
    play_round,
    reference_simulate,
    resolve_bids,
    round_payoff_matrix,
    round_winner,
    run_games,
    safe_bids,
    simulate,
    solve_matrix_game,
    start_equilibrium,
    win_condition,
)
from gamesim.games.qftnw.tasks import TASKS, default_params
from gamesim.games.qftnw.vecrules import resolve_bids_vec, win_condition_vec
from tests.conftest import assert_same_mean

Z = 4.5
ROOT = Path(__file__).resolve().parents[3]
A, B, C, D, E, F, G = range(7)


@pytest.fixture
def seed() -> int:
    """A fresh seed each run: stochastic tests must pass for any seed."""
    return int(np.random.SeedSequence().entropy % (2**32))


def hold(*types: int, n: int = 7) -> tuple[int, ...]:
    h = [0] * n
    for t in types:
        h[t] += 1
    return tuple(h)


ORIG, SPA, V2 = edition_params("original"), edition_params("spa"), edition_params("v2")


# ---------------------------------------------------------------------------
# Rules core: bids and funds (遊び方)
# ---------------------------------------------------------------------------


def test_one_beats_five_and_higher_wins() -> None:
    assert bid_winner(1, 5) == 0 and bid_winner(5, 1) == 1  # 1は5に勝つ
    assert bid_winner(2, 1) == 0 and bid_winner(4, 5) == 1 and bid_winner(1, 4) == 1
    assert bid_winner(3, 3) == -1
    for a in range(1, 6):
        for b in range(1, 6):
            assert bid_winner(a, b) == (-1 if bid_winner(b, a) == -1 else 1 - bid_winner(b, a))


@pytest.mark.parametrize("p", [ORIG, SPA, V2])
def test_five_against_one_loses_round_and_four_funds(p) -> None:
    # 5は1に負ける上に資金も減る
    assert resolve_bids(5, 1, 5, 5, p) == (1, 1, 5)
    assert resolve_bids(1, 5, 6, 5, p) == (0, 6, 1)
    assert resolve_bids(5, 1, 4, 3, p) == (1, 0, 3)  # bankrupt (funds 0)


@pytest.mark.parametrize("p, gain", [(ORIG, 1), (SPA, 2), (V2, 2)])
def test_win_by_exactly_one_gains_with_cap(p, gain: int) -> None:
    assert resolve_bids(3, 2, 2, 5, p) == (0, 2 + gain, 5)
    assert resolve_bids(4, 5, 3, 1, p) == (1, 3, 1 + gain)
    assert resolve_bids(2, 1, 5, 5, p) == (0, 6, 5)  # 上限6
    assert resolve_bids(2, 1, 6, 5, p) == (0, 6, 5)


def test_higher_by_two_or_more_pays_the_difference_win_or_lose() -> None:
    assert resolve_bids(4, 2, 5, 5, ORIG) == (0, 3, 5)
    assert resolve_bids(2, 5, 5, 5, ORIG) == (1, 5, 2)
    assert resolve_bids(5, 2, 3, 5, ORIG) == (0, 0, 5)  # wins the card and goes bankrupt
    assert resolve_bids(3, 1, 5, 5, SPA) == (0, 3, 5)


def test_tie_never_takes_a_player_below_one() -> None:
    # original: 引き分けで資金は0にならない (tie_floor = "each", its default); the Spa editions with
    # tie_floor = "each" (our earlier reading, now the alternative)
    assert ORIG.tie_floor == "each"
    for p in (ORIG, edition_params("spa", tie_floor="each"), edition_params("v2", tie_floor="each")):
        assert resolve_bids(3, 3, 5, 4, p) == (-1, 4, 3)
        assert resolve_bids(2, 2, 1, 4, p) == (-1, 1, 3)
        assert resolve_bids(1, 1, 1, 1, p) == (-1, 1, 1)


def test_spa_editions_default_to_their_literal_tie_text() -> None:
    # Spa / ver.2: 「双方資金1で引き分けても資金は減らない」 read literally is their default
    for p in (SPA, V2):
        assert p.tie_floor == "both"
        assert resolve_bids(1, 1, 1, 1, p) == (-1, 1, 1)  # both at 1: no loss
        assert resolve_bids(2, 2, 1, 4, p) == (-1, 0, 3)  # only one at 1: both lose 1, bankrupt
        assert resolve_bids(3, 3, 5, 4, p) == (-1, 4, 3)


def test_tie_floor_both_is_the_spa_literal_reading() -> None:
    p = edition_params("spa", tie_floor="both")  # 双方資金1で引き分けても資金は減らない
    assert resolve_bids(4, 4, 1, 1, p) == (-1, 1, 1)
    assert resolve_bids(4, 4, 1, 3, p) == (-1, 0, 2)  # only one at 1: bankrupt
    assert resolve_bids(4, 4, 2, 2, p) == (-1, 1, 1)


def test_vectorized_bids_match_scalar_on_every_case() -> None:
    for p in (ORIG, SPA, edition_params("v2", tie_floor="both", fund_cap=8, gain=3)):
        grid = np.array([(a, b, f0, f1) for a in range(1, 6) for b in range(1, 6)
                         for f0 in range(1, p.fund_cap + 1) for f1 in range(1, p.fund_cap + 1)])
        w, g0, g1 = resolve_bids_vec(*grid.T, p)
        want = np.array([resolve_bids(*map(int, row), p) for row in grid])
        np.testing.assert_array_equal(np.c_[w, g0, g1], want)


def test_legal_bids_and_locks() -> None:
    assert legal_bids(3, False) == (1, 2, 3, 4, 5)
    assert legal_bids(3, True) == (1, 2, 4, 5)  # 同じ手札は続けて使えない
    assert legal_bids(0, True) == (1, 2, 3, 4, 5)


# ---------------------------------------------------------------------------
# Bankruptcy (破産) and win conditions (勝利条件)
# ---------------------------------------------------------------------------


def test_choose_type_most_ties_to_earliest_letter() -> None:
    assert choose_type_most(hold(B, B, D, D, A)) == B
    assert choose_type_most(hold(G, C)) == C
    assert choose_type_most(hold()) == -1


def test_bankruptcy_transfer_per_edition() -> None:
    hb, ho = hold(C, C, A), hold(B)
    assert bankruptcy_transfer(hb, ho, C, ORIG) == (hold(A), hold(B), 2)  # all to the deck bottom
    assert bankruptcy_transfer(hb, ho, C, SPA) == (hold(A), hold(B, C), 1)  # one down, the rest to opp
    assert bankruptcy_transfer(hold(A), ho, A, V2) == (hold(), hold(B), 1)  # a single card: discarded
    assert bankruptcy_transfer(hold(), ho, -1, SPA) == (hold(), hold(B), 0)


def test_bankruptcy_is_handled_before_the_territory_is_taken() -> None:
    # p0 holds two Cs and wins a third C with 5 against 2, paying 3 of its 2 funds: bankrupt. The
    # opponent names C (p0's most held type) before p0 takes the new C: p0 keeps one C and does not
    # win with three Cs (it would if the territory were taken first).
    o = play_round(hold(C, C, A), hold(E), 2, 5, 5, 2, C, ORIG)
    assert o.bid_winner == 0 and o.bankrupt == 0
    assert o.hold0 == hold(A, C)  # old Cs gone to the deck bottom, new C taken
    assert o.to_bottom == (C, C)
    assert o.winner == -1
    assert (o.f0, o.f1, o.min_f0) == (5, 5, -1)  # 双方資金を5に戻し
    # the loser can go bankrupt too: 5 against 1 with funds 4 -> 0; the 1 takes the card
    o = play_round(hold(B, B), hold(A), 4, 5, 5, 1, B, SPA)
    assert o.bankrupt == 0 and o.bid_winner == 1
    assert o.hold0 == hold() and o.hold1 == hold(A, B, B)  # one B down, one B to p1, then p1 takes B
    assert o.to_bottom == (B,)


def test_tie_card_goes_to_the_bottom_after_bankruptcy_cards() -> None:
    p = edition_params("original", tie_floor="both")
    o = play_round(hold(D, D), hold(A), 1, 3, 2, 2, F, p)
    assert o.bankrupt == 0 and o.bid_winner == -1
    assert o.to_bottom == (D, D, F)


@pytest.mark.parametrize("p", [ORIG, SPA, V2])
def test_three_and_five_straight_win_in_every_edition(p) -> None:
    assert win_condition(hold(D, D, D), hold(), p) == Cond.THREE
    assert win_condition(hold(A, B, C, D, E), hold(A, B, C, D, E), p) == Cond.STRAIGHT5
    assert win_condition(hold(C, D, E, F, G), hold(), p) == Cond.STRAIGHT5
    # A and G are not connected (AとGは繋がっていない)
    assert win_condition(hold(F, G, A, B), hold(C, D, E), p) == Cond.NONE
    assert win_condition(hold(A, A, B, D, D), hold(C, E, F), p) == Cond.NONE


def test_three_straight_wins_only_in_original_and_spa() -> None:
    # 相手がA・B・Cのどれも持っていない時にABCを揃えれば勝ち
    me, opp = hold(A, B, C), hold(D, E)
    assert win_condition(me, opp, ORIG) == Cond.STRAIGHT3
    assert win_condition(me, opp, SPA) == Cond.STRAIGHT3
    assert win_condition(me, opp, V2) == Cond.NONE  # ver.2 dropped it
    assert win_condition(me, hold(B), ORIG) == Cond.NONE  # the opponent holds one of the types
    assert win_condition(hold(C, D, E, G), hold(A, B, C), ORIG) == Cond.NONE
    assert win_condition(hold(C, D, E, G), hold(A, B, F), ORIG) == Cond.STRAIGHT3


def test_vectorized_win_condition_matches_scalar(seed: int) -> None:
    rng = np.random.default_rng(seed)
    hs = rng.integers(0, 4, size=(3000, 7)) * (rng.random((3000, 7)) < 0.5)
    ho = rng.integers(0, 3, size=(3000, 7)) * (rng.random((3000, 7)) < 0.4)
    for p in (ORIG, V2, edition_params("spa", n_of_a_kind=4, long_straight=4, short_straight=2)):
        got = win_condition_vec(hs, ho, p)
        want = [win_condition(tuple(a), tuple(b), p) for a, b in zip(hs.tolist(), ho.tolist())]
        np.testing.assert_array_equal(got, want)


def test_both_satisfy_non_bankrupt_wins_rulebook_example_original() -> None:
    # 領地を獲得しつつ破産し、それによって相手も勝利条件を満たすと負け: p0 takes C (A, B, C: an
    # opponent-free three-card straight) but goes bankrupt; its Gs (most held) leave, which frees
    # p1's E, F, G straight. Both satisfy a condition: p1, who did not go bankrupt, wins.
    o = play_round(hold(A, B, G, G), hold(E, F, G), 2, 5, 5, 2, C, ORIG)
    assert o.bankrupt == 0 and o.hold0 == hold(A, B, C)
    assert win_condition(o.hold0, o.hold1, ORIG) == Cond.STRAIGHT3
    assert (o.winner, o.cond) == (1, Cond.STRAIGHT3)


def test_both_satisfy_rulebook_example_spa() -> None:
    # それによって奪われた領地で対戦相手も勝利条件を満たした場合、相手に勝利の優先権がある
    o = play_round(hold(A, B, D, D), hold(D, D), 2, 5, 5, 2, C, SPA)
    assert o.bankrupt == 0
    assert o.hold1 == hold(D, D, D)  # one D down, one D given to p1
    assert win_condition(o.hold0, o.hold1, SPA) == Cond.STRAIGHT3
    assert (o.winner, o.cond) == (1, Cond.THREE)


def test_round_winner() -> None:
    assert round_winner(0, 0, -1, 0) == (-1, 0)
    assert round_winner(Cond.THREE, 0, -1, 0) == (0, Cond.THREE)
    assert round_winner(Cond.THREE, Cond.STRAIGHT5, 1, 1) == (0, Cond.THREE)
    assert round_winner(Cond.THREE, Cond.STRAIGHT5, 0, 0) == (1, Cond.STRAIGHT5)


def test_edition_params() -> None:
    assert (ORIG.gain, ORIG.transfer, ORIG.straight3) == (1, "discard_all", True)
    assert (SPA.gain, SPA.transfer, SPA.straight3) == (2, "one_discard_rest_to_opponent", True)
    assert (V2.gain, V2.transfer, V2.straight3) == (2, "one_discard_rest_to_opponent", False)
    assert edition_params("original", start_funds=4).reset_funds == 4
    assert edition_params("spa", gain=None).gain == 2
    with pytest.raises(ValueError, match="edition"):
        edition_params("deluxe")
    with pytest.raises(ValueError, match="start_funds"):
        edition_params("original", start_funds=7)
    with pytest.raises(ValueError, match="unknown rule"):
        edition_params("original", funds=3)


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


# ---------------------------------------------------------------------------
# Invariants: cards conserved, games end or are reported unfinished
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("edition", ["original", "spa", "v2"])
@pytest.mark.parametrize("advanced", [False, True])
def test_cards_conserved_and_games_end(edition: str, advanced: bool, seed: int) -> None:
    p = edition_params(edition, advanced=advanced)
    for pols in (("uniform", "uniform"), ("greedy", "equilibrium")):
        r = run_games(p, pols, 600, rng=seed, check=True, chunk_size=250)  # asserts conservation per round
        assert r["winner"].shape == (600,)
        assert ((r["winner"] >= 0) == (r["cond"] > 0)).all()
        assert (r["rounds"] >= 2).all()  # nobody can win in round 1 from one card each
    reference_simulate(100, edition=edition, advanced=advanced, policies=("cautious", "greedy"), rng=seed)


def test_tie_floor_both_conserves_cards(seed: int) -> None:
    run_games(edition_params("spa", tie_floor="both", start_funds=2, reset_funds=2), ("uniform", "uniform"),
              500, rng=seed, check=True)


def test_capped_games_are_reported_unfinished(seed: int) -> None:
    df = simulate(2000, edition="v2", max_rounds=6, rng=seed)
    assert len(df) == 2000
    un = df[df.unfinished]
    assert len(un) > 0
    assert (un.winner == -1).all() and (un.win_condition == "").all() and (un.ended == "cap").all()
    assert (un.rounds == 6).all()
    fin = df[~df.unfinished]
    assert fin.winner.isin([0, 1]).all() and fin.win_condition.isin(["three", "straight5", "straight3"]).all()
    assert (fin.ended == "win").all() and (fin.rounds <= 6).all()


def test_unwinnable_deck_runs_out_or_caps(seed: int) -> None:
    # 2 types x 2 copies, three of a kind and straights impossible: nobody can ever win
    kw = dict(n_types=2, n_copies=2, straight3=False, max_rounds=50)
    for df in (simulate(500, rng=seed, **kw), reference_simulate(200, rng=seed, **kw)):
        assert (df.winner == -1).all() and df.ended.isin(["cap", "deck_empty"]).all()
        assert (df.ended == "deck_empty").any()


def test_simulate_public_api(seed: int) -> None:
    df = simulate(1500, edition="spa", advanced=True, policies=("uniform", "cautious"), rng=seed)
    assert list(df.columns) == list(GAME_COLUMNS)
    assert len(df) == 1500
    assert df.winner.isin([0, 1, -1]).all()
    assert (df.bankruptcies == df.bankruptcies_p0 + df.bankruptcies_p1).all()
    assert ((df.min_funds_p0 <= 0) == (df.bankruptcies_p0 > 0)).all()
    assert df.mean_funds_p0.between(1, 6).all()
    again = simulate(1500, edition="spa", advanced=True, policies=("uniform", "cautious"), rng=seed)
    pd.testing.assert_frame_equal(df, again)  # same seed, same games
    assert len(simulate(0)) == 0
    with pytest.raises(ValueError):
        simulate(10, edition="deluxe")
    with pytest.raises(ValueError):
        simulate(10, policies=("uniform",))
    with pytest.raises(ValueError):
        simulate(10, policies=("uniform", "bluffer"))


# ---------------------------------------------------------------------------
# Exact oracle (truncated enumeration) and hand derivations
# ---------------------------------------------------------------------------


def test_two_round_bankruptcy_by_hand() -> None:
    # Uniform bids from funds 5: bankrupt within two rounds needs a round-1 drop to f then a round-2
    # loss >= f. Round 1 (p0's view, 25 equally likely pairs): lose 4 (5v1) 1/25, lose 3 (5v2,4v1)
    # 2/25, lose 2 (5v3,4v2,3v1) 3/25, tie (-1) 5/25. Round 2 losses >= 1, 2, 3, 4 have 6, 6, 3, 1
    # pairs of 25. P = (1*6 + 2*6 + 3*3 + 5*1) / 625 = 32/625, whatever the deck.
    p = edition_params("original", n_types=2, n_copies=5, max_rounds=2)
    ex = exact_truncated(p)
    assert ex["bankruptcies_p0"] == pytest.approx(float(Fraction(32, 625)), abs=1e-12)
    assert ex["bankruptcies_p1"] == pytest.approx(float(Fraction(32, 625)), abs=1e-12)
    assert ex["p0_wins"] == pytest.approx(ex["p1_wins"])


def _within(est: float, se: float, exact: float, what: str, n: int) -> None:
    # An integer-valued outcome with mean m has variance >= f (1 - f), f = m - floor(m) (equality
    # for 0/1 outcomes): never let a sample that happens to show no spread (a rare outcome not
    # seen at all) shrink the standard error below what the exact mean implies.
    f = exact - math.floor(exact)
    se = max(se, math.sqrt(f * (1.0 - f) / n))
    assert abs(est - exact) <= Z * max(se, 1e-12) + 1e-12, f"{what}: {est} vs exact {exact} (se {se})"


SMALL = dict(n_types=3, n_copies=3, n_of_a_kind=2, long_straight=3, short_straight=2)


@pytest.mark.parametrize("kw, pols", [
    (dict(edition="original", max_rounds=6, **SMALL), ("greedy", "cautious")),
    (dict(edition="spa", max_rounds=5, advanced=True, **SMALL), ("greedy", "cautious")),
    (dict(edition="v2", max_rounds=2), ("cautious", "greedy")),
    (dict(edition="spa", max_rounds=4, tie_floor="both", start_funds=2, **SMALL), ("uniform", "mixed:1,1,2,3,3")),
    (dict(edition="original", max_rounds=3, start_funds=2, n_types=4, n_copies=2, n_of_a_kind=2, long_straight=4,
          short_straight=2), ("uniform@spoil", "uniform@take")),
])
def test_simulator_matches_exact_enumeration(kw: dict, pols: tuple, seed: int) -> None:
    ed = kw.pop("edition")
    p = edition_params(ed, **kw)
    ex = exact_truncated(p, pols)
    n = 60_000
    df = simulate(n, edition=ed, policies=pols, rng=seed, **kw)
    w = df.winner.to_numpy()
    for name, x in [("p0_wins", w == 0), ("p1_wins", w == 1), ("unfinished", w < 0),
                    ("cond_three", df.win_condition == "three"), ("cond_straight5", df.win_condition == "straight5"),
                    ("cond_straight3", df.win_condition == "straight3"), ("any_bankruptcy", df.bankruptcies > 0),
                    ("bankruptcies_p0", df.bankruptcies_p0), ("bankruptcies_p1", df.bankruptcies_p1)]:
        x = np.asarray(x, dtype=float)
        _within(x.mean(), x.std(ddof=1) / math.sqrt(n), ex[name], f"{ed} {pols} {name}", n)


def test_v2_three_card_straight_both_readings() -> None:
    """ver.2 contradicts itself: its introduction says 「また相手が持っていない3枚ストレートでも勝ち」, its
    勝利条件 list gives only 「同じ領地カードを3枚揃える」 and 「5枚続きのストレートを揃える」. Default: the list.

    Hand-built: A, B, C against an opponent holding D only is the introduction's example shape
    (相手がA・B・Cのどれも持っていない時にABCを揃えれば勝ち).
    """
    abc, d_only = (1, 1, 1, 0, 0, 0, 0), (0, 0, 0, 1, 0, 0, 0)
    assert V2.straight3 is False and win_condition(abc, d_only, V2) == 0
    intro = edition_params("v2", straight3=True)
    assert win_condition(abc, d_only, intro) == int(Cond.STRAIGHT3)
    assert win_condition(abc, d_only, SPA) == int(Cond.STRAIGHT3)
    assert win_condition(abc, (0, 1, 0, 0, 0, 0, 0), intro) == 0  # the opponent holds B


def test_naming_rules_by_hand() -> None:
    """破産: 対戦相手は破産者の領地カードを1種類選んで… (the rulebook leaves the choice to the namer).

    Hand-computed, original edition (all cards of the named type to the deck bottom):
    bankrupt A×2, D, E against a namer with nothing. ``most`` names A. ``spoil`` counts the
    bankrupt's winning draws after the penalty: without A it wins by drawing C (CDE) or F (DEF,
    opponent-free three-card straights): 2; without D only A (three A) wins: 1; without E: 1; so D.
    Second case, bankrupt A, F×2 against a namer holding B, C: ``most``/``spoil`` name F
    (without F the bankrupt has no winning draw; without A it draws F for three); ``take`` names A:
    the namer then wins by drawing A (ABC) or D (BCD): 2 chances, against 1 (D) if F is named.
    """
    hb, hn = (2, 0, 0, 1, 1, 0, 0), (0,) * 7
    assert choose_type(hb, hn, ORIG, "most") == 0
    assert choose_type(hb, hn, ORIG, "spoil") == 3
    hb, hn = (1, 0, 0, 0, 0, 2, 0), (0, 1, 1, 0, 0, 0, 0)
    assert choose_type(hb, hn, ORIG, "most") == 5
    assert choose_type(hb, hn, ORIG, "spoil") == 5
    assert choose_type(hb, hn, ORIG, "take") == 0
    # Spa: naming D gives the namer the second D (1枚を捨て、残りを相手に渡す): B, C, D is an
    # opponent-free straight at once, so ``take`` names D
    hb, hn = (1, 0, 0, 2, 0, 0, 0), (0, 1, 1, 0, 0, 0, 0)
    assert choose_type(hb, hn, SPA, "take") == 3
    assert choose_type((0,) * 7, hn, SPA, "spoil") == -1
    assert make_policy("greedy@spoil").naming == "spoil" and make_policy("uniform", naming="take").naming == "take"
    assert make_policy("mixed:1,1,1,1,1@take").spec() == "mixed:0.2,0.2,0.2,0.2,0.2@take"
    with pytest.raises(ValueError, match="naming"):
        make_policy("uniform@kind")


def test_naming_batch_matches_scalar(seed: int) -> None:
    from gamesim.games.qftnw.policies import choose_type_batch

    rng = np.random.default_rng(seed)
    for p in (ORIG, SPA, V2):
        hb = rng.integers(0, 3, size=(400, 7))
        hn = rng.integers(0, 3, size=(400, 7))
        for naming in ("most", "spoil", "take"):
            got = choose_type_batch(hb, hn, p, naming)
            want = [choose_type(tuple(a), tuple(b), p, naming) for a, b in zip(hb.tolist(), hn.tolist())]
            assert got.tolist() == want, (p.edition, naming)


def test_exact_refuses_too_many_rounds() -> None:
    with pytest.raises(ValueError):
        exact_truncated(edition_params("original", n_types=2, n_copies=2, max_rounds=3))


# ---------------------------------------------------------------------------
# Vectorized simulator vs plain-Python reference (two-sample, 4.5 SE)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("kw, pols", [
    (dict(edition="original"), ("uniform", "uniform")),
    (dict(edition="spa", advanced=True), ("greedy", "cautious")),
    (dict(edition="v2"), ("equilibrium", "mixed:0.3,0.1,0.1,0.2,0.3")),
    (dict(edition="spa", tie_floor="both", start_funds=3, gain=1, n_copies=4), ("uniform", "greedy")),
    (dict(edition="spa", start_funds=2), ("uniform@spoil", "greedy@take")),
])
def test_vectorized_matches_reference(kw: dict, pols: tuple, seed: int) -> None:
    n_vec, n_ref = 30_000, 1_500
    v = simulate(n_vec, policies=pols, rng=seed, **kw)
    r = reference_simulate(n_ref, policies=pols, rng=seed + 1, check=False, **kw)
    cols = {
        "rounds": lambda d: d.rounds, "bankruptcies": lambda d: d.bankruptcies,
        "bk_p0": lambda d: d.bankruptcies_p0, "p0_wins": lambda d: d.winner == 0,
        "three": lambda d: d.win_condition == "three", "straight5": lambda d: d.win_condition == "straight5",
        "straight3": lambda d: d.win_condition == "straight3", "min_funds_p1": lambda d: d.min_funds_p1,
        "mean_funds_p0": lambda d: d.mean_funds_p0, "unfinished": lambda d: d.unfinished,
    }
    for name, f in cols.items():
        assert_same_mean(f(v), f(r), z=Z, label=f"{kw} {pols} {name}")


def test_chunking_does_not_change_the_law(seed: int) -> None:
    a = simulate(20_000, rng=seed, chunk_size=777)
    b = simulate(20_000, rng=seed + 1)
    for col in ("rounds", "bankruptcies"):
        assert_same_mean(a[col], b[col], z=Z, label=col)


def test_seats_are_symmetric_under_uniform_play(seed: int) -> None:
    df = simulate(40_000, edition="original", rng=seed)
    m = np.where(df.winner == 0, 1.0, np.where(df.winner == 1, -1.0, 0.0))
    assert abs(m.mean()) <= Z * m.std(ddof=1) / math.sqrt(m.size)


# ---------------------------------------------------------------------------
# Task, registry, benchmark
# ---------------------------------------------------------------------------


def test_game_registered() -> None:
    g = get_game("qftnw")
    assert set(g.tasks) == {"game"}
    assert g.rules_doc == "docs/rules/qftnw.md"


def test_task_simulate_shapes_and_exact(seed: int) -> None:
    t = TASKS["game"]
    prm = default_params(edition="spa", advanced=True, policy0="greedy", policy1="equilibrium")
    t.check(prm)
    out = t.simulate(prm, 500, rng=np.random.default_rng(seed))
    assert {m.name for m in t.metrics} == set(out)
    for k, v in out.items():
        assert v.shape == (500,), k
    assert t.exact(prm) == {}
    ex = t.exact(default_params(edition="v2", max_rounds=2, policy0="cautious", policy1="greedy"))
    assert ex["p0_wins:proportion"] + ex["p1_wins:proportion"] + ex["unfinished:proportion"] == pytest.approx(1)


@pytest.mark.parametrize("overrides, key", [
    (dict(start_funds=7), "start_funds"),
    (dict(fund_cap=4), "start_funds"),
    (dict(reset_funds=9), "reset_funds"),
    (dict(policy0="bluffer"), "policy0"),
    (dict(policy1="mixed:1,2"), "policy1"),
    (dict(mixed_probs=[0, 0, 0, 0, 0]), "mixed_probs"),
    (dict(mixed_probs=[1, 1]), "mixed_probs"),
])
def test_task_check_errors(overrides: dict, key: str) -> None:
    t = TASKS["game"]
    with pytest.raises(ParamError) as err:
        t.check(default_params(**overrides))
    assert err.value.key == key


def test_benchmark_quick() -> None:
    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_qftnw.py"), "--quick"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "games/s" in r.stdout and "speedup" in r.stdout
    assert "plain Python (random module)" in r.stdout and "numpy reference" in r.stdout


def test_greedy_mask_table_matches_direct_check(seed: int) -> None:
    from gamesim.games.qftnw.policies import _card_value_batch
    from gamesim.games.qftnw.vecrules import presence_mask

    rng = np.random.default_rng(seed)
    for p in (ORIG, V2, edition_params("spa", n_of_a_kind=2, short_straight=2)):
        hs = rng.integers(0, 3, size=(2000, 7)) * (rng.random((2000, 7)) < 0.4)
        ho = rng.integers(0, 3, size=(2000, 7)) * (rng.random((2000, 7)) < 0.4)
        t = rng.integers(-1, 7, 2000)
        ok = (win_condition_vec(hs, ho, p) == 0) & (win_condition_vec(ho, hs, p) == 0)  # reachable: no winner yet
        hs, ho, t = hs[ok], ho[ok], t[ok]
        fast = _card_value_batch(t, hs, ho, p, (presence_mask(hs), presence_mask(ho)))
        np.testing.assert_array_equal(fast, _card_value_batch(t, hs, ho, p, None))


def test_many_types_use_the_direct_win_check(seed: int) -> None:
    # 12 types: no presence-mask table; the simulator and greedy fall back to the direct check
    kw = dict(edition="original", advanced=True, n_types=12, n_copies=3, policies=("greedy", "uniform"))
    v = simulate(4000, rng=seed, **kw)
    r = reference_simulate(600, rng=seed + 1, **kw)
    for col in ("rounds", "bankruptcies"):
        assert_same_mean(v[col], r[col], z=Z, label=col)
