"""Rules core of 神の怒り (#27): scoring on enumerated and hand-computed hands, the legal-move
generator on hand-built positions, moves, the board file, and the exact hand enumerations.

Board of these tests: the built-in illustrative one. Its lines for 3-4 players, in slot order
(tower indices = numbers - 1): 0 (1-2), 1 (2-3), 2 (2-3), 3 (3-4), 4 (1-3), 5 (1-5), 6 (2-4),
7 (3-5), 8 (4-5), then slot 9 = the road; action codes 2j / 2j+1 on slot j, 20 + v a discard.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from gamesim.core.registry import ParamError
from gamesim.games.kami_no_ikari import engine
from gamesim.games.kami_no_ikari.exact import (
    expected_hand_value,
    hand_probability,
    hand_value_distribution,
    hands_of_size,
    set_bonus_distribution,
)
from gamesim.games.kami_no_ikari.rules import (
    KamiParams,
    KamiState,
    Spot,
    apply_action,
    board_lines,
    card_points,
    decode_action,
    draw,
    draw_outcomes,
    final_scores,
    hand_value,
    initial_state,
    legal_actions,
    load_board,
    n_actions,
    set_bonus,
    turn_start,
    winners,
)

P4 = KamiParams(n_players=4)
P2 = KamiParams(n_players=2)
START = int(Spot.START)


def test_board_has_the_texts_lines() -> None:
    b = load_board()
    assert b.illustrative
    four = board_lines(b, 4)
    assert four.count((1, 2)) == 2                 # 2と3の間には2本の線がある
    assert (0, 1) in four                          # 1と2の間の線 (the example)
    assert (2, 3) in four and (2, 3) not in board_lines(b, 2)  # 3〜4人ゲームでは3と4の間にも線を引く
    assert len(board_lines(b, 3)) == len(board_lines(b, 2)) + 1
    assert n_actions(len(four)) == 25


@pytest.mark.parametrize("hand, heights, mate, smoke, doubled, value", [
    ((3, 2, 0, 0, 0), (2, 3, 0, 0, 0), 1, 0, True, 3 + 3 * 1 + 2 * 4),        # set of 3; 摩天 doubles 2 → 4
    ((0, 0, 0, 0, 5), (0, 0, 0, 0, 5), 4, 0, True, 12 - 10),                  # −1 doubled on the 摩天 tower
    ((0, 0, 0, 0, 5), (0, 0, 0, 0, 5), 4, 0, False, 12 - 5),                  # ... or not
    ((1, 1, 1, 1, 1), (0, 1, 2, 3, 4), -1, 2, True, 0 + 0 + 1 + 2 + 3 - 6),   # heights 0..4, two smoking cards
    ((4, 1, 0, 0, 0), (4, 4, 0, 0, 0), 0, 0, True, 7 + 4 * 6 + 3),           # set of 4 (not doubled) + doubled points
    ((0, 0, 0, 0, 0), (5, 5, 5, 5, 5), -1, 1, True, -3),
])
def test_hand_value_hand_computed(hand, heights, mate, smoke, doubled, value) -> None:
    assert hand_value(hand, heights, mate, smoke, collapse_doubled=doubled) == value


def test_card_points_and_set_bonus_tables() -> None:
    assert [card_points(h) for h in range(6)] == [0, 0, 1, 2, 3, -1]
    assert [card_points(h, True) for h in range(6)] == [0, 0, 2, 4, 6, -2]
    assert card_points(5, True, collapse_doubled=False) == -1
    assert [set_bonus(c) for c in range(6)] == [0, 0, 0, 3, 7, 12]


def test_vectorized_value_equals_rules_on_every_hand() -> None:
    """All 126 five-card hands on 40 random boards (every height 0..5, 摩天 on or off)."""
    rng = np.random.default_rng(0)
    hands = np.array(hands_of_size(5), np.int16)
    t = engine.tables(P4)
    for _ in range(40):
        heights = tuple(int(x) for x in rng.integers(0, 6, 5))
        mate = int(rng.integers(-1, 5))
        got = engine._value(hands, np.tile(np.array(heights, np.int8), (len(hands), 1)),
                            np.full(len(hands), mate, np.int8), np.zeros(len(hands), np.int8), t)
        want = [hand_value(tuple(int(x) for x in h), heights, mate) for h in hands]
        assert got.tolist() == want


def test_exact_enumeration_is_a_distribution_with_the_linear_mean() -> None:
    assert len(hands_of_size(5)) == 126
    assert sum(hand_probability(h) for h in hands_of_size(5)) == 1
    for heights, mate in [((0,) * 5, -1), ((2, 3, 4, 5, 1), 1), ((4, 4, 4, 4, 4), 0), ((5, 0, 3, 2, 1), 0)]:
        d = hand_value_distribution(heights, mate)
        assert sum(d.values()) == 1
        assert sum(v * p for v, p in d.items()) == expected_hand_value(heights, mate)
    pool = (2, 9, 0, 4, 1)
    d = hand_value_distribution((1, 2, 3, 4, 0), -1, k=4, pool=pool)
    assert sum(d.values()) == 1 and sum(v * p for v, p in d.items()) == expected_hand_value(
        (1, 2, 3, 4, 0), -1, k=4, pool=pool)


def test_opening_set_bonus_closed_form() -> None:
    d = set_bonus_distribution()
    # five of a kind: 5 numbers × C(9,5) hands of C(45,5)
    assert d[12] == Fraction(5 * 126, 1221759)
    assert d[7] == Fraction(5 * 126 * 36, 1221759)          # C(9,4) × 36 other cards
    assert sum(d.values()) == 1


def _state(hands, workers, heights=(0,) * 5, road=None, mate=-1) -> KamiState:
    s = initial_state(tuple(hands))
    return replace(s, workers=tuple(workers), heights=tuple(heights), road=road, mate=mate, drawn=True)


def test_legal_moves_hand_built_position() -> None:
    # seat 0 holds 1, 2, 5, 5, 5; was on slot 0 (1-2); others stand on slots 1 (2-3) and 5 (1-5)
    s = _state([(1, 1, 0, 0, 3), (1, 1, 1, 1, 1), (2, 2, 1, 0, 0), (0, 0, 1, 2, 2)], [0, 1, 5, START])
    # slot 2 (2-3): a 2 on tower 3 (4); slot 4 (1-3): a 1 on tower 3 (8); slot 6 (2-4): a 2 on 4 (12);
    # slot 7 (3-5): a 5 on tower 3 (15); slot 8 (4-5): a 5 on tower 4 (17); discards 1, 2, 5 (20, 21, 24)
    assert legal_actions(s, P4) == [4, 8, 12, 15, 17, 20, 21, 24]
    assert legal_actions(s, replace(P4, smoke_by_choice=False)) == [4, 8, 12, 15, 17]
    assert decode_action(15, 9) == ("line", 7, 1) and decode_action(24, 9) == ("smoke", 4, 0)


def test_smoking_room_forced_when_no_line_is_possible() -> None:
    # seat 0 holds only 4s; every line touching 4 (slots 3, 6, 8) is taken
    s = _state([(0, 0, 0, 5, 0), (1, 1, 1, 1, 1), (1, 1, 1, 1, 1), (1, 1, 1, 1, 1)], [START, 3, 6, 8])
    assert legal_actions(s, replace(P4, smoke_by_choice=False)) == [23]
    after = apply_action(s, 23, P4)
    assert after.smoke[0] == 1 and after.hands[0] == (0, 0, 0, 4, 0) and after.workers[0] == int(Spot.SMOKING_ROOM)
    assert final_scores(after, P4)[0] == 7 - 3
    # the road is a new place: a road 1-4 opens 1-card and 4-card moves on slot 9
    s2 = replace(s, road=(0, 3))
    assert legal_actions(s2, replace(P4, smoke_by_choice=False)) == [19]


def test_third_card_places_the_mate_counter_and_road_fifth_ends() -> None:
    s = _state([(2, 2, 1, 0, 0), (1, 1, 1, 1, 1), (1, 1, 1, 1, 1), (1, 1, 1, 1, 1)], [START] * 4, heights=(0, 2, 4, 0, 0))
    with pytest.raises(ParamError, match="road"):
        apply_action(s, 0, P4)          # a 1 on tower 2 (height 3): the counter, and a road is due
    s1 = apply_action(s, 0, P4, road=(0, 4))
    assert s1.mate == 1 and s1.mate_seat == 0 and s1.road == (0, 4) and s1.heights == (0, 3, 4, 0, 0)
    assert s1.to_move == 1 and not s1.over and s1.placed == (1, 0, 0, 0, 0)
    s_no = apply_action(s, 0, replace(P4, road=False))
    assert s_no.mate == 1 and s_no.road is None
    assert apply_action(s, 0, replace(P4, mate_counter=False)).mate == -1
    s2 = apply_action(s, 8, P4)         # slot 4 (1-3): a 1 on tower 3, its 5th card: 神の怒り
    assert s2.over and s2.trigger == 0 and s2.heights[2] == 5


def test_draw_deck_out_and_winners() -> None:
    s = initial_state(((5, 0, 0, 0, 0), (0, 5, 0, 0, 0)))
    assert dict(draw_outcomes(s)) == {0: Fraction(4, 35), 1: Fraction(4, 35), 2: Fraction(9, 35),
                                      3: Fraction(9, 35), 4: Fraction(9, 35)}
    s1 = draw(s, 2)
    assert s1.hands[0] == (5, 0, 1, 0, 0) and s1.deck[2] == 8
    empty = replace(s, deck=(0,) * 5)
    assert turn_start(empty, P2).over
    on = turn_start(empty, replace(P2, deck_out="play_on"))
    assert not on.over and on.drawn
    assert winners((3, 5, 5, 1)) == (1, 2) and winners((3, 5, 5, 1), "later_seat") == (2,)


def test_illegal_moves_and_bad_boards_refused(tmp_path: Path) -> None:
    s = _state([(1, 1, 0, 0, 3), (1, 1, 1, 1, 1), (2, 2, 1, 0, 0), (0, 0, 1, 2, 2)], [0, 1, 5, START])
    with pytest.raises(ParamError, match="action"):
        apply_action(s, 0, P4)          # back to the line it stood on
    with pytest.raises(ParamError, match="action"):
        apply_action(s, 2, P4)          # slot 1 is taken
    bad = tmp_path / "b.toml"
    bad.write_text('[[lines]]\nends = [1, 2]\ncolour = "red"\n', encoding="utf-8")
    with pytest.raises(ParamError) as info:
        KamiParams(board=str(bad))
    assert "b.toml" in str(info.value) and "lines[0].colour" in str(info.value) and "\n" not in str(info.value)
    bad.write_text('[[lines]]\nends = [1, 1]\n', encoding="utf-8")
    with pytest.raises(ParamError, match="ends"):
        KamiParams(board=str(bad))
    bad.write_text('[[lines]]\nends = [3, 4]\nmin_players = 3\n', encoding="utf-8")
    KamiParams(board=str(bad), n_players=3)
    with pytest.raises(ParamError, match="at least one line"):
        KamiParams(board=str(bad), n_players=2)
    with pytest.raises(ParamError, match="board"):
        KamiParams(board="no/such/board.toml")
