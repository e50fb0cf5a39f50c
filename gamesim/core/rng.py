"""Seeding: one root ``SeedSequence`` per run, children addressed by position.

numpy's guidance (``SeedSequence.spawn``) is followed with one refinement: a
child's seed is built from the root entropy and an explicit *spawn key*
``(part, cell, chunk)`` instead of a stateful ``spawn()`` counter, so chunk
``(p, c, k)`` gets the same stream whichever worker runs it, in whatever order,
and whether or not earlier chunks were already on disk from an interrupted run.
``SeedSequence(entropy, spawn_key=key)`` is exactly what ``root.spawn`` builds
for the child at that position.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["RngLike", "as_generator", "root_seed_sequence", "child_seed"]

RngLike = int | np.random.SeedSequence | np.random.Generator | None


def as_generator(rng: RngLike) -> np.random.Generator:
    """Normalise an ``rng`` argument to a ``numpy.random.Generator``.

    Parameters
    ----------
    rng : int, numpy.random.SeedSequence, numpy.random.Generator or None
        Seed material or a generator. ``None`` draws fresh OS entropy.

    Returns
    -------
    numpy.random.Generator
        ``np.random.default_rng(rng)`` (a Generator is returned unchanged).

    Raises
    ------
    ParamTypeError, ParamError
        For a bool, float or string (numpy would take ``True`` as seed 1), a negative
        seed or another type numpy refuses (:func:`gamesim.core.validate.check_rng`).
    """
    from gamesim.core.validate import check_rng  # validate imports nothing from here; lazy keeps rng light

    return check_rng(rng)


def root_seed_sequence(seed: int | None) -> np.random.SeedSequence:
    """The run's root ``SeedSequence``.

    Parameters
    ----------
    seed : int or None
        The scenario's (or ``--seed``) non-negative integer seed; ``None`` draws
        fresh entropy, which the caller must record (``.entropy``) so the run can
        be reproduced.

    Returns
    -------
    numpy.random.SeedSequence
        With ``spawn_key == ()``.

    Raises
    ------
    ValueError
        If ``seed`` is negative (``SeedSequence`` rejects it).
    """
    return np.random.SeedSequence(seed)


def child_seed(entropy: int, key: Sequence[int]) -> np.random.SeedSequence:
    """The child ``SeedSequence`` of root ``entropy`` at position ``key``.

    Parameters
    ----------
    entropy : int
        Root entropy (``root.entropy``).
    key : sequence of int
        Spawn key, e.g. ``(part_index, cell_index, chunk_index)``.

    Returns
    -------
    numpy.random.SeedSequence
        Identical to the child ``root.spawn`` would produce at that position.
    """
    return np.random.SeedSequence(entropy, spawn_key=tuple(int(k) for k in key))
