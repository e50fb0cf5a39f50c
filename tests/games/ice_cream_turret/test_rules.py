"""Tests of Ice Cream Turret's rules: board and gravity, clearing shapes, game over and the deck cycles.

Rule tests use hand-drawn boards (top row first; ``.`` empty, ``C`` crush ice) whose outcome
follows from the rulebook text. The vectorized kernels are compared cell for cell with the
scalar rules core on random boards and states, and whole games in distribution with the
plain-Python reference (two-sample tests at 4.5 SD, fresh seeds: they pass for any seed).
"""

from __future__ import annotations


import numpy as np
import pytest

from gamesim.games.ice_cream_turret import (
    CRUSH,
    IceCreamParams,
    board_from_rows,
    board_to_rows,
    cycle_additions,
    gravity,
    is_game_over,
    legal_columns,
    place,
    rebuild_deck,
    resolve,
    window_kind,
)
from gamesim.games.ice_cream_turret.reference import State, advance_state
from gamesim.games.ice_cream_turret.rules import N_VALUES, ROWS, cell, multi_line_bonus
from gamesim.games.ice_cream_turret.sim import GameBatch, advance
from tests.games.ice_cream_turret.helpers import _batch, _random_board

P = IceCreamParams()
SA = IceCreamParams(mode="score_attack")
C = CRUSH


def drop(rows: list[str], col: int, value: int, p: IceCreamParams = P):
    """Draw a board, drop ``value`` into ``col``, resolve; returns (resolution, landing row)."""
    b, row = place(board_from_rows(rows), col, value)
    return resolve(b, p), row


def counts(**kw: int) -> tuple[int, ...]:
    out = [0] * N_VALUES
    for k, v in kw.items():
        out[CRUSH if k == "C" else int(k[1:])] = v
    return tuple(out)


# ---------------------------------------------------------------------------
# Board drawing, placement, gravity
# ---------------------------------------------------------------------------


def test_board_drawing_and_falling_placement() -> None:
    b = board_from_rows(["1..", "...", "2.3"])  # a floating 1 falls onto the 2 (上から落ちて)
    assert board_to_rows(b) == ["...", "...", "...", "1..", "2.3"]
    b2, row = place(b, 1, 7)  # an empty column: the bottom row
    assert row == 0 and b2[cell(0, 1)] == 7
    b3, row = place(b2, 0, 4)  # on top of the cards already there
    assert row == 2 and b3[cell(2, 0)] == 4


def test_full_column_is_not_legal() -> None:
    b = board_from_rows(["1..", "3..", "5..", "7..", "9.."])
    assert legal_columns(b) == [1, 2]
    with pytest.raises(ValueError, match="full"):
        place(b, 0, 2)
    with pytest.raises(ValueError):
        place(b, 3, 2)


def test_gravity_keeps_order() -> None:
    b = list(board_from_rows(["3..", "2..", "1.."]))
    b[cell(1, 0)] = 0  # the 2 is removed: the 3 falls onto the 1
    assert board_to_rows(gravity(tuple(b)))[-2:] == ["3..", "1.."]


# ---------------------------------------------------------------------------
# Clearing shapes (遊び方)
# ---------------------------------------------------------------------------


def test_row_of_equal_numbers_clears() -> None:
    res, _ = drop(["55."], 2, 5)
    assert res.removed == counts(v5=3) and res.waves == 1 and all(v == 0 for v in res.board)


def test_consecutive_row_in_any_order_clears() -> None:
    res, _ = drop(["31."], 2, 2)  # 3・1・2 (並び順は何でも良い)
    assert res.removed == counts(v1=1, v2=1, v3=1)
    assert window_kind([1, 3, 2]) == 2 and window_kind([2, 2, 2]) == 1 and window_kind([1, 2, 2]) == 0


def test_nine_and_one_do_not_connect() -> None:  # 端の数字同士は繋がらない
    for rows, v in ((["89."], 1), (["91."], 2), (["19."], 8)):
        res, _ = drop(rows, 2, v)
        assert res.waves == 0 and res.n_removed == 0
    assert window_kind([9, 1, 2]) == 0 and window_kind([8, 9, 1]) == 0 and window_kind([7, 8, 9]) == 2


def test_crush_ice_never_forms_a_line() -> None:
    res, _ = drop(["CC."], 2, C)
    assert res.waves == 0
    assert window_kind([C, C, C]) == 0


def test_column_of_equal_numbers_clears() -> None:
    res, _ = drop(["4..", "4..", "2.."], 0, 4)
    assert res.removed == counts(v4=3) and board_to_rows(res.board)[-1] == "2.."


def test_rulebook_example_four_consecutive_in_a_column() -> None:
    # 例えば1・2・4が重なっている上に3を置くと4枚とも消える
    res, row = drop(["4..", "2..", "1.."], 0, 3)
    assert row == 3
    assert res.removed == counts(v1=1, v2=1, v3=1, v4=1)
    assert res.score == 1 + 1  # score attack: 4枚続き +1, 全消し +1


def test_column_shapes_in_any_order_and_blocked() -> None:
    res, _ = drop(["7..", "5.."], 0, 6)  # column 5,7,6: consecutive in any order
    assert res.removed == counts(v5=1, v6=1, v7=1)
    for rows, v in ((["9..", "8.."], 1), (["1..", "9.."], 2)):  # 端の数字同士は繋がらない, in a column too
        res, _ = drop(rows, 0, v)
        assert res.waves == 0
    res, _ = drop(["C..", "2..", "1.."], 0, 3)  # crush ice between 1,2 and the 3: no run
    assert res.waves == 0
    res, _ = drop(["2..", "C..", "1.."], 0, 3)  # 1, crush, 2, 3: the 2-3 pair is too short
    assert res.waves == 0


def test_equal_runs_of_four_clear_whole() -> None:
    # four equal cards in a column (only after a fall in play) all clear, scoring no 4枚続き by default
    b = board_from_rows(["5..", "5..", "5..", "5.."])
    res = resolve(b, P)
    assert res.removed == counts(v5=4) and res.waves == 1 and res.score == 1  # 全消し only
    assert resolve(b, IceCreamParams(equal_runs_score=True)).score == 1 + 1  # + 4枚続き


def test_longer_run_clears_only_its_consecutive_part() -> None:
    res, _ = drop(["2..", "1..", "7.."], 0, 3)  # column 7,1,2,3: the 7 stays
    assert res.removed == counts(v1=1, v2=1, v3=1) and board_to_rows(res.board)[-1] == "7.."


def test_five_card_run_in_a_column_clears_in_row_five() -> None:
    res, row = drop(["5..", "1..", "4..", "2.."], 0, 3)  # 2,4,1,5 then 3 in row 5
    assert row == ROWS - 1
    assert res.n_removed == 5 and not is_game_over(res)  # 置いた瞬間に消えればセーフ
    assert res.score == 2 + 1  # 5枚続き +2, 全消し +1


@pytest.mark.parametrize("mirror", [False, True])
def test_diagonals_clear(mirror: bool) -> None:
    rows = ["...", ".75", "713"]  # the 7s at (0,0) and (1,1); placing 7 at (2,2) completes the diagonal
    if mirror:
        rows = [r[::-1] for r in rows]
    res, row = drop(rows, 0 if mirror else 2, 7)
    assert row == 2 and res.removed == counts(v7=3) and res.waves == 1
    assert board_to_rows(res.board)[-2:] == (["5..", "31."] if mirror else ["..5", ".13"])


def test_consecutive_diagonal_in_any_order() -> None:
    res, _ = drop(["...", ".65", "413"], 2, 5)  # diagonal 4 (0,0), 6 (1,1), 5 (2,2)
    assert res.removed == counts(v4=1, v5=1, v6=1)


def test_simultaneous_row_and_column_clear_together() -> None:
    # placing 5 at (2,0) completes the column 5,5,5 and the row 5,5,5 at once (複数のライン…同時に消える)
    res, row = drop([".55", "579", "513"], 0, 5)
    assert row == 2
    assert res.removed == counts(v5=5) and res.waves == 1
    assert res.score == 2  # 2ライン同時消し +2
    assert sorted(v for v in res.board if v) == [1, 3, 7, 9]


def test_three_lines_at_once_score_four() -> None:
    # 5 at (2,1) completes row 2, column 1 and the diagonal (1,0),(2,1),(3,2) at once
    rows = ["..5", "5.5", "553", "851"]
    for p, want in ((P, 4), (IceCreamParams(line_bonus="double"), 4)):
        b, row = place(board_from_rows(rows), 1, 5)
        assert row == 2
        res = resolve(b, p)
        assert res.removed == counts(v5=7) and res.waves == 1
        assert res.score == want  # 3ライン同時消し +4
        assert board_to_rows(res.board)[-2:] == ["..3", "8.1"]
    assert [multi_line_bonus(k) for k in range(1, 6)] == [0, 2, 4, 4, 4]
    assert [multi_line_bonus(k, "double") for k in range(1, 6)] == [0, 2, 4, 8, 16]


def test_crush_ice_clears_next_to_a_clear_including_diagonally() -> None:
    # column 0 becomes 6,6,6; crush at (1,1) (beside) and (3,1) (diagonal to (2,0)) go with it;
    # crush at (0,2) touches only other crush ice and stays (unless crush_cascade)
    rows = [".C.", ".5.", "6C.", "62C"]
    res, _ = drop(rows, 0, 6)
    assert res.removed == counts(v6=3, C=2)
    assert sorted(v for v in res.board if v) == [2, 5, C]
    res2, _ = drop(rows, 0, 6, IceCreamParams(crush_cascade=True))
    assert res2.removed == counts(v6=3, C=3)


def test_falling_cards_chain() -> None:
    # row 1 (7,7,7) clears; the 2s above fall onto the bottom 2: column 0 = 2,2,2 clears next (連鎖)
    rows = ["2..", "2..", "77.", "249"]
    res, row = drop(rows, 2, 7)
    assert row == 1
    assert res.waves == 2 and res.removed == counts(v7=3, v2=3)
    assert res.first_wave == frozenset({cell(1, 0), cell(1, 1), cell(1, 2)})
    assert res.score == 2  # one chain wave +2
    assert sorted(v for v in res.board if v) == [4, 9]


# ---------------------------------------------------------------------------
# Game over and the deck cycles
# ---------------------------------------------------------------------------


def test_game_over_when_a_card_stays_in_row_five() -> None:
    res, row = drop(["7..", "5..", "3..", "1.."], 0, 9)
    assert row == ROWS - 1 and is_game_over(res)
    res, row = drop(["7..", "5..", "3..", "1.."], 1, 9)
    assert not is_game_over(res)


def test_first_wave_always_takes_the_placed_card(seed: int) -> None:
    # why the "instant" and "after chains" readings of the top-out rule coincide
    rng = np.random.default_rng(seed)
    n = 0
    while n < 300:
        board = _random_board(rng, 1)[0]
        r = resolve(tuple(int(x) for x in board), P)
        if r.waves:
            continue  # not a stable board
        for c in legal_columns(r.board):
            for v in range(1, C):
                b, row = place(r.board, c, v)
                res = resolve(b, P)
                assert (res.waves > 0) == (cell(row, c) in res.first_wave)
                n += 1


def test_cycle_additions_normal_and_score_attack() -> None:
    one_to_six = counts(v1=4, v2=4, v3=4, v4=4, v5=4, v6=4)
    assert cycle_additions(P, 1) == one_to_six
    assert cycle_additions(P, 2) == counts(v7=4)
    assert cycle_additions(P, 3) == counts(C=4)
    assert cycle_additions(P, 4) == counts(v8=4)
    assert cycle_additions(P, 5) == counts(v9=4)
    assert cycle_additions(P, 6) == counts()
    sa1 = list(one_to_six)
    sa1[C] = 4
    assert cycle_additions(SA, 1) == tuple(sa1)
    assert cycle_additions(SA, 2) == counts(v7=4) and cycle_additions(SA, 3) == counts(v8=4)
    assert all(cycle_additions(SA, c)[9] == 0 for c in range(1, 10))
    assert cycle_additions(IceCreamParams(n_cycles=4), 5) == counts()  # no 9s when the game ends after 4
    assert cycle_additions(IceCreamParams(copies_7=6, crush_count=2), 3) == counts(C=2)
    # after the last cycle the crush ice is taken out of the discards
    assert rebuild_deck(P, counts(v3=3, C=2), 6) == counts(v3=3)
    assert rebuild_deck(P, counts(v3=3, C=2), 4) == counts(v3=3, v8=4, C=2)


def _state(board_rows: list[str], *, cycle: int, deck: tuple[int, ...], disc: tuple[int, ...], card: int,
           p: IceCreamParams = P) -> State:
    s = State(p)
    s.board = board_from_rows(board_rows)
    s.deck, s.disc, s.card, s.cycle = list(deck), list(disc), card, cycle
    return s


def _both(s: State, col: int, p: IceCreamParams = P) -> tuple[State, GameBatch]:
    g = _batch([s])
    advance(g, np.array([col]), p, np.random.default_rng(0), draw_next=False)
    s = s.clone()
    advance_state(s, col, p, None)
    return s, g


def test_win_when_the_fifth_deck_runs_out_without_crush_ice() -> None:
    s, g = _both(_state(["...", "12."], cycle=5, deck=counts(), disc=counts(v3=6), card=8), 2)
    assert s.status == 1 and g.status[0] == 1  # 5巡目の山が切れた時、場にクラッシュアイスが無ければ勝ち


def test_fourth_deck_running_out_builds_the_fifth() -> None:
    s, g = _both(_state(["...", "12."], cycle=4, deck=counts(), disc=counts(v3=6, C=1), card=8), 2)
    assert s.status == 0 and s.cycle == 5 and s.deck == list(counts(v3=6, v9=4, C=1)) and s.disc == [0] * N_VALUES
    assert g.status[0] == 0 and g.cycle[0] == 5 and g.deck[0].tolist() == s.deck


def test_crush_ice_left_means_playing_on_without_the_discarded_crush() -> None:
    s, g = _both(_state(["...", "1C."], cycle=5, deck=counts(), disc=counts(v3=6, C=2), card=8), 2)
    assert s.status == 0 and s.cycle == 6 and s.deck == list(counts(v3=6))
    assert g.status[0] == 0 and g.cycle[0] == 6 and g.deck[0].tolist() == s.deck


@pytest.mark.parametrize("extra_win", ["immediate", "deck_end"])
def test_playing_on_wins_when_the_crush_ice_is_gone(extra_win: str) -> None:
    p = IceCreamParams(extra_win=extra_win)
    # cycle 6 (playing on): 4,4 on the bottom row with crush ice above; a 4 clears the row and the crush ice
    s0 = _state(["...", "C..", "44."], cycle=6, deck=counts(v5=3), disc=counts(), card=4, p=p)
    s, g = _both(s0, 2, p)
    assert s.board == (0,) * 15
    want = 1 if extra_win == "immediate" else 0
    assert s.status == want and g.status[0] == want


@pytest.mark.parametrize("deck_out", ["empty_draw", "last_card"])
def test_deck_out_when_the_last_card_is_turned(deck_out: str) -> None:
    # cycle 5, one card (a 3) left in the deck: under "last_card" turning it ends the deck, so the
    # win check comes before that card is placed; under "empty_draw" the 3 is placed first
    p = IceCreamParams(deck_out=deck_out)
    s0 = _state(["...", "12."], cycle=5, deck=counts(v3=1), disc=counts(v4=6), card=8, p=p)
    g = _batch([s0])
    advance(g, np.array([2]), p, np.random.default_rng(0))
    s = s0.clone()
    advance_state(s, 2, p, lambda: 0.5)
    want = 1 if deck_out == "last_card" else 0
    assert s.status == want and g.status[0] == want and s.card == 3 and g.card[0] == 3
    assert s.placed == 1 and g.placed[0] == 1
    # crush ice on the board when the last card is turned: the next deck is built at once, without
    # the discarded crush ice, and the 3 in hand is still to be placed
    s0 = _state(["...", "1C."], cycle=5, deck=counts(v3=1), disc=counts(v4=6, C=2), card=8, p=p)
    g = _batch([s0])
    advance(g, np.array([2]), p, np.random.default_rng(0))
    s = s0.clone()
    advance_state(s, 2, p, lambda: 0.5)
    assert s.status == 0 and g.status[0] == 0 and s.card == 3 and g.card[0] == 3
    if deck_out == "last_card":
        assert s.cycle == 6 and s.deck == list(counts(v4=6)) and s.disc == [0] * N_VALUES
    else:
        assert s.cycle == 5 and s.deck == [0] * N_VALUES and s.disc == list(counts(v4=6, C=2))
    assert g.cycle[0] == s.cycle and g.deck[0].tolist() == s.deck and g.disc[0].tolist() == s.disc


def test_game_over_in_both_implementations() -> None:
    s, g = _both(_state(["7..", "5..", "3..", "1.."], cycle=1, deck=counts(v2=3), disc=counts(), card=9), 0)
    assert s.status == 2 and g.status[0] == 2


def test_score_attack_rebuilds_the_same_cards_after_cycle_three() -> None:
    s, g = _both(_state(["...", "12."], cycle=3, deck=counts(), disc=counts(v3=6, C=2), card=8, p=SA), 2, SA)
    assert s.status == 0 and s.cycle == 4 and s.deck == list(counts(v3=6, C=2))
    assert g.deck[0].tolist() == s.deck


def test_window_kind_is_an_int_enum() -> None:
    from gamesim.games.ice_cream_turret import WindowKind

    assert window_kind([4, 4, 4]) is WindowKind.EQUAL and window_kind([5, 3, 4]) is WindowKind.CONSECUTIVE
    assert window_kind([1, 2, 4]) is WindowKind.NONE and not WindowKind.NONE  # falsy, as the 0 it was
    assert [int(k) for k in WindowKind] == [0, 1, 2]
