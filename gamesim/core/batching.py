"""Chunking of a simulator's trials: one helper for every game.

A vectorized simulator runs its ``n`` trials in chunks of at most ``size`` (axis 0 = trial), so
its temporaries stay bounded whatever ``n``: memory flat. Every game loops over the same spans:

>>> list(chunk_spans(10, 4))
[(0, 4), (4, 8), (8, 10)]
>>> list(chunk_spans(0, 4))
[]
"""

from __future__ import annotations

from collections.abc import Iterator

__all__ = ["chunk_spans"]


def chunk_spans(n: int, size: int) -> Iterator[tuple[int, int]]:
    """The ``(start, stop)`` spans of ``n`` trials in chunks of ``size`` (the last one may be shorter).

    Parameters
    ----------
    n : int
        Trials, ``>= 0``.
    size : int
        Trials per chunk, ``>= 1``.

    Yields
    ------
    (int, int)
        ``start`` and ``stop`` of each chunk: ``0 = start_0 < stop_0 = start_1 < ... = n``; none when
        ``n == 0``.

    Raises
    ------
    ValueError
        If ``size < 1`` or ``n < 0`` (a kernel helper: the public functions check their sizes first).
    """
    if size < 1 or n < 0:
        raise ValueError(f"chunk_spans(n={n}, size={size}): n must be >= 0 and size >= 1")
    for start in range(0, n, size):
        yield start, min(start + size, n)
