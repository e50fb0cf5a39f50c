"""What the qftnw tests share: the card types A-G, a hand builder and the three editions' rules."""

from __future__ import annotations

from gamesim.games.qftnw import edition_params

A, B, C, D, E, F, G = range(7)


def hold(*types: int, n: int = 7) -> tuple[int, ...]:
    """A hand (count per card type) holding one card of each of ``types``."""
    h = [0] * n
    for t in types:
        h[t] += 1
    return tuple(h)


ORIG, SPA, V2 = edition_params("original"), edition_params("spa"), edition_params("v2")
