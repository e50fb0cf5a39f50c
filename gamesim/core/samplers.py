"""Samplers shared by the games' simulators (vectorized over axis 0 = trial).

A game's rules decide what is shuffled or drawn; how a batch of independent shuffles is drawn is
written once here. Kernels: the games' public functions check their arguments first.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["row_permutations"]


def row_permutations(n_rows: int, k: int, *, rng: Any) -> npt.NDArray[np.intp]:
    """``n_rows`` independent uniform permutations of ``0 .. k-1``, one per row (a shuffled deck per game).

    Each row is the argsort of ``k`` uniforms, so every order is equally likely (ties have
    probability 0) and row ``i`` depends only on the ``i``-th block of ``k`` numbers of ``rng``.

    Parameters
    ----------
    n_rows : int
        Rows (games), ``>= 0``.
    k : int
        Items per row (cards), ``>= 0``.
    rng : numpy.random.Generator or seed
        Normalized by ``numpy.random.default_rng`` (a Generator is used as it is); draws
        ``n_rows * k`` doubles from it.

    Returns
    -------
    numpy.ndarray of intp, shape (n_rows, k)
        Row ``i`` is a permutation of ``0 .. k-1``.

    Raises
    ------
    ValueError
        If ``n_rows`` or ``k`` is negative (numpy's own error).

    Examples
    --------
    >>> p = row_permutations(3, 5, rng=7)
    >>> p.shape, sorted(p[0].tolist())
    ((3, 5), [0, 1, 2, 3, 4])
    """
    gen = np.random.default_rng(rng)
    return np.argsort(gen.random((n_rows, k)), axis=1)
