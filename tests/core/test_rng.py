"""Keyed random streams: the same key gives the same numbers whatever else was drawn."""

from __future__ import annotations

import numpy as np
import pytest

from gamesim.core.rng import KeyedStreams


def test_same_key_same_numbers_whatever_other_keys_drew() -> None:
    a = KeyedStreams(np.random.default_rng(123))
    b = KeyedStreams(np.random.default_rng(123))
    a(0, 5).random(1000)  # another source drawing more numbers in one variant
    a(1, 0).random(7)
    assert np.array_equal(a(1, 1).random(50), b(1, 1).random(50))
    # a prefix of a stream does not depend on how many numbers are drawn after it
    assert np.array_equal(a(2).random(100)[:30], b(2).random(30))


def test_keys_and_chunks_give_different_streams() -> None:
    s = KeyedStreams(np.random.default_rng(5))
    x = [s(0).random(8), s(1).random(8), s(0, 0).random(8), s(1, 0).random(8)]
    assert len({v.tobytes() for v in x}) == 4
    gen = np.random.default_rng(5)
    c1, c2 = KeyedStreams(gen), KeyedStreams(gen)  # successive chunks of one generator
    assert not np.array_equal(c1(0).random(8), c2(0).random(8))


def test_keyed_streams_leave_the_parent_stream_alone() -> None:
    g1, g2 = np.random.default_rng(9), np.random.default_rng(9)
    s = KeyedStreams(g1)
    s(3).random(100)
    assert np.array_equal(g1.random(5), g2.random(5))


def test_numbers_are_uniform() -> None:
    u = KeyedStreams(np.random.default_rng())(4, 2).random(200_000)
    # mean of 200,000 uniforms: sd 1/sqrt(12 * 200,000) = 0.00065; 4.5 sd
    assert abs(u.mean() - 0.5) < 4.5 * 0.000646


def test_other_bit_generators_keep_their_kind() -> None:
    s = KeyedStreams(np.random.Generator(np.random.MT19937(1)))
    assert isinstance(s(0).bit_generator, np.random.MT19937)
    assert np.array_equal(s(0).random(4), KeyedStreams(np.random.Generator(np.random.MT19937(1)))(0).random(4))
