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

__all__ = ["RngLike", "as_generator", "root_seed_sequence", "child_seed", "KeyedStreams"]

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


class KeyedStreams:
    """Independent generators addressed by a position key, all derived from one generator.

    A simulator with several sources of randomness (deck shuffles, dice of each seat, policy
    choices) gives each source, and each round or turn of it, its own stream:
    ``streams(source, round, ...)`` is the generator of the descendant ``SeedSequence`` at that
    spawn key. Two runs from the same generator get the same numbers for the same key, however
    many numbers *other* keys consumed, so a variant that draws more or fewer numbers of one
    source (or plays more or fewer rounds) leaves every other source on the same numbers:
    common random numbers stay aligned source by source.

    Parameters
    ----------
    gen : numpy.random.Generator
        The chunk's generator, normalised by :func:`as_generator`. The constructor takes one
        child of it (``gen.spawn(1)``, which advances the spawn counter, never the stream), so
        numbers drawn from ``gen`` afterwards do not overlap the keyed streams.

    Raises
    ------
    TypeError
        If ``gen``'s bit generator has no ``SeedSequence`` (numpy cannot spawn from it).

    Notes
    -----
    Building one generator costs about 15 us; simulators create them per source and round,
    not per trial, and draw one number per trial of the chunk (``width``) whether or not the
    trial uses it, so trial ``i``'s number is column ``i`` whatever the other trials do.
    """

    __slots__ = ("_entropy", "_key", "_bitgen")

    def __init__(self, gen: np.random.Generator) -> None:
        child = gen.spawn(1)[0]
        ss = child.bit_generator.seed_seq
        self._entropy = ss.entropy
        self._key = tuple(ss.spawn_key)
        self._bitgen = type(child.bit_generator)

    def __call__(self, *key: int) -> np.random.Generator:
        """The generator at position ``key`` (non-negative ints), a fresh one on each call."""
        ss = np.random.SeedSequence(self._entropy, spawn_key=self._key + tuple(int(k) for k in key))
        return np.random.Generator(self._bitgen(ss))
