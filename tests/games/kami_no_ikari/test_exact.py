"""Exact hand distributions of 神の怒り at the edges of their arguments."""

from __future__ import annotations


def test_hands_larger_than_one_numbers_copies_have_a_distribution_summing_to_one():
    # k = 10 or 12 cards from the full pool: some hands of k would need more copies of a number than exist
    from fractions import Fraction

    from gamesim.games.kami_no_ikari.exact import hand_value_distribution, set_bonus_distribution

    for k in (10, 12):
        assert sum(hand_value_distribution(k=k).values()) == Fraction(1)
        assert sum(set_bonus_distribution(k).values()) == Fraction(1)
