"""The chunks every simulator loops over (gamesim.core.batching)."""

from __future__ import annotations

import pytest

from gamesim.core.batching import chunk_spans


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 100])
@pytest.mark.parametrize("size", [1, 3, 8, 1000])
def test_spans_cover_every_trial_once_in_order(n, size):
    spans = list(chunk_spans(n, size))
    covered = [i for a, b in spans for i in range(a, b)]
    assert covered == list(range(n))
    assert all(0 < b - a <= size for a, b in spans)
    assert all(b - a == size for a, b in spans[:-1])  # only the last chunk may be short


@pytest.mark.parametrize("n, size", [(5, 0), (-1, 3)])
def test_refused(n, size):
    with pytest.raises(ValueError):
        list(chunk_spans(n, size))
