"""Random boards and states, and batches of scalar states, shared by the Ice Cream Turret tests."""

from __future__ import annotations

import numpy as np

from gamesim.games.ice_cream_turret import IceCreamParams, gravity, resolve
from gamesim.games.ice_cream_turret.reference import State
from gamesim.games.ice_cream_turret.rules import CRUSH, N_VALUES
from gamesim.games.ice_cream_turret.sim import GameBatch

C = CRUSH


def _batch(states: list[State]) -> GameBatch:
    n = len(states)
    z = np.zeros(n, np.int32)
    return GameBatch(board=np.array([s.board for s in states], np.int8),
                     deck=np.array([s.deck for s in states], np.int16),
                     disc=np.array([s.disc for s in states], np.int16),
                     card=np.array([s.card for s in states], np.int8),
                     cycle=np.array([s.cycle for s in states], np.int16), placed=z.copy(), score=z.copy(),
                     chain_waves=z.copy(), clears=z.copy(), cleared=z.copy(), max_chain=np.zeros(n, np.int16),
                     status=np.zeros(n, np.int8), gid=np.arange(n))


def _random_board(rng: np.random.Generator, n: int, high: int = 6) -> np.ndarray:
    """Boards with random column heights (0..5) and values 1..high or crush ice (gravity holds)."""
    vals = rng.integers(1, high + 1, size=(n, 15))
    vals[rng.random((n, 15)) < 0.12] = C
    h = rng.integers(0, 6, size=(n, 3))
    rows = np.arange(15) // 3
    cols = np.arange(15) % 3
    keep = rows[None, :] < h[:, cols]
    return np.where(keep, vals, 0).astype(np.int8)


def _random_states(rng: np.random.Generator, n: int, p: IceCreamParams) -> list[State]:
    out = []
    while len(out) < n:
        b = _random_board(rng, 1)[0]
        b[12:] = 0  # at most 4 cards per column (a running game)
        board = resolve(gravity(tuple(int(x) for x in b)), p).board
        s = State(p)
        s.board = board
        s.cycle = int(rng.integers(1, 7))
        s.deck = [0] + [int(x) for x in rng.integers(0, 3, size=N_VALUES - 1)]
        if rng.random() < 0.2:
            s.deck = [0] * N_VALUES  # the deck runs out with this card
        s.disc = [0] + [int(x) for x in rng.integers(0, 4, size=N_VALUES - 1)]
        s.card = int(rng.integers(1, 11))
        out.append(s)
    return out
