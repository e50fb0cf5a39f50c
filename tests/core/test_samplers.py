"""Samplers shared by the simulators (gamesim.core.samplers)."""

from __future__ import annotations

import itertools
import math

import numpy as np
from scipy import stats as sps

from gamesim.core.samplers import row_permutations


def test_rows_are_permutations_and_independent_of_each_other():
    p = row_permutations(500, 6, rng=np.random.default_rng())
    assert p.shape == (500, 6)
    assert (np.sort(p, axis=1) == np.arange(6)).all()
    # row i depends only on its own block of numbers: the first rows of a longer batch are the same
    a, b = row_permutations(3, 6, rng=11), row_permutations(10, 6, rng=11)
    np.testing.assert_array_equal(a, b[:3])
    assert row_permutations(0, 4, rng=1).shape == (0, 4) and row_permutations(4, 0, rng=1).shape == (4, 0)


def test_every_order_equally_likely():
    """All 24 orders of 4 items, chi-square against the uniform law (any seed: level 1e-6)."""
    n = 24_000
    p = row_permutations(n, 4, rng=np.random.default_rng())
    index = {perm: i for i, perm in enumerate(itertools.permutations(range(4)))}
    counts = np.bincount([index[tuple(r)] for r in p.tolist()], minlength=24)
    assert len(counts) == math.factorial(4)
    assert sps.chisquare(counts).pvalue > 1e-6
