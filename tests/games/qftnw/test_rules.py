"""Tests of QftNW's rules: bids and funds, bankruptcy and win conditions.

Golden values come from mathematics (hand derivations from the rulebook, closed-form
matrix games, exact enumeration), never from a seeded run. Stochastic tests compare
estimates with exact values, or two independent simulators, at 4.5 standard errors,
so they pass for any seed (fresh seed per run).
"""

from __future__ import annotations


import numpy as np
import pytest

from gamesim.games.qftnw import (
    Cond,
    bankruptcy_transfer,
    bid_winner,
    choose_type_most,
    edition_params,
    legal_bids,
    play_round,
    resolve_bids,
    round_winner,
    win_condition,
)
from gamesim.games.qftnw.vecrules import resolve_bids_vec, win_condition_vec
from tests.games.qftnw.helpers import A, B, C, D, E, F, G, ORIG, SPA, V2, hold



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
