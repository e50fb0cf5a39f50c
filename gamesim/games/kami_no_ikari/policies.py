"""Players of 神の怒り, vectorized over a :class:`.engine.Batch`.

``random``
    A uniformly random legal action; a uniformly random road.
``greedy``
    The action with the best immediate change of its own hand value (手札の価値, counting the
    摩天カウンター it may place and −3 for a smoking-room discard), ties at random.
``chicken:d`` (d = 1..5)
    Greedy, but never raises a tower above ``d`` cards while another move is possible: how
    close to 5 (神の怒り) the player dares to build. ``chicken:4`` never collapses a tower itself;
    ``chicken:5`` is greedy.
``rollout:k``
    Determinized Monte Carlo (perfect-information sampling): for the decision at hand it
    samples ``k`` worlds consistent with what the player sees (its hand, the cards on the
    board, the sizes of the other hands, of the smoking-room piles and of the deck; the
    unseen cards are dealt uniformly), and in each world plays every legal action followed by
    greedy play of all seats to the end. It picks the action with the best mean win share
    (1 for a win, 1/m for an m-way tie), then mean score margin. Cost per decision: about
    ``k × (legal actions, up to 25)`` greedy playouts of the rest of the game; the same ``k``
    worlds serve every action (common random numbers). The strongest player here.

Roads: the random player builds a random one; the others join the two numbers they hold most
cards of (ties at random).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gamesim.core.registry import ParamError
from gamesim.core.validate import ParamTypeError, Unchecked, check_int, validate_params

from .engine import (
    BIG,
    Batch,
    Chooser,
    Tables,
    apply_batch,
    legal_mask,
    play,
    road_by_hand,
    scores_batch,
    values_after,
)
from .rules import COPIES, ROAD_PAIRS

__all__ = ["POLICY_NAMES", "MAX_ROLLOUTS", "RandomPolicy", "GreedyPolicy", "ChickenPolicy", "RolloutPolicy",
           "make_policy"]

#: Policy families (a spec is a name, ``chicken:d`` or ``rollout:k``).
POLICY_NAMES: tuple[str, ...] = ("random", "greedy", "chicken", "rollout")
#: Largest ``k`` of the rollout player.
MAX_ROLLOUTS: int = 256


def _argmax(key: np.ndarray, legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Best legal entry per row; integer ties broken uniformly by a jitter below 1e-3."""
    k = np.where(legal, key + rng.random(key.shape) * 1e-3, -np.inf)
    return k.argmax(axis=1)


@dataclass(frozen=True)
class RandomPolicy:
    """Uniformly random legal action and road."""

    def choose(self, b: Batch, t: Tables, legal: np.ndarray, rng: np.random.Generator
               ) -> tuple[np.ndarray, np.ndarray]:
        """Action (n,) and road-pair index (n,) for every game of ``b``."""
        a = _argmax(np.zeros(legal.shape), legal, rng)
        return a, rng.integers(0, len(ROAD_PAIRS), b.size).astype(np.int8)


@dataclass(frozen=True)
class ChickenPolicy:
    """Greedy play that avoids raising a tower above ``dare`` cards.

    Parameters
    ----------
    dare : int, default 5
        1..5; 5 is the plain greedy player.

    Raises
    ------
    ParamTypeError, ParamError
        If ``dare`` is not an integer 1..5.
    """

    dare: int = 5

    def __post_init__(self) -> None:
        check_int("dare", self.dare, min=1, max=5)

    def choose(self, b: Batch, t: Tables, legal: np.ndarray, rng: np.random.Generator
               ) -> tuple[np.ndarray, np.ndarray]:
        """Action (n,) and road-pair index (n,) for every game of ``b``."""
        after, _, height = values_after(b, t)
        key = after.astype(np.float64) - BIG * (height > self.dare)
        return _argmax(key, legal, rng), road_by_hand(b, np.arange(b.size), rng)


@validate_params()
def GreedyPolicy() -> ChickenPolicy:  # noqa: N802 - a named constructor reads as the player it makes
    """The greedy player: best immediate change of its own hand value (``ChickenPolicy(5)``).

    Returns
    -------
    ChickenPolicy
    """
    return ChickenPolicy(5)


@dataclass(frozen=True)
class RolloutPolicy:
    """Determinized Monte Carlo player: ``k`` sampled worlds, every legal action played out greedily.

    Parameters
    ----------
    k : int, default 16
        Worlds sampled per decision, 1..MAX_ROLLOUTS.
    dare : int, default 5
        The ``chicken`` level of the playouts (5 = greedy).

    Raises
    ------
    ParamTypeError, ParamError
        For ``k`` or ``dare`` out of range or not integers.
    """

    k: int = 16
    dare: int = 5

    def __post_init__(self) -> None:
        check_int("k", self.k, min=1, max=MAX_ROLLOUTS)
        check_int("dare", self.dare, min=1, max=5)

    def choose(self, b: Batch, t: Tables, legal: np.ndarray, rng: np.random.Generator
               ) -> tuple[np.ndarray, np.ndarray]:
        """Action (n,) and road-pair index (n,) for every game of ``b``."""
        n, K, P = b.size, self.k, t.n_players
        road = road_by_hand(b, np.arange(n), rng)
        worlds = b.take(np.repeat(np.arange(n), K))
        _determinize(worlds, rng)
        gi, ai = np.nonzero(legal)                              # the legal (game, action) pairs
        src = (gi[:, None] * K + np.arange(K)[None, :]).ravel()   # each pair in each of the K worlds
        sims = worlds.take(src)
        act = np.repeat(ai, K)
        sub_legal, any_line = legal_mask(sims, t)
        apply_batch(sims, act, np.repeat(road[gi], K), any_line, t)
        playout = ChickenPolicy(self.dare)
        play(sims, t, [playout], np.zeros((sims.size, P), np.intp), rng, rng)
        sc = scores_batch(sims, t).astype(np.float64)
        me = np.repeat(b.to_move[gi], K).astype(np.intp)
        mine = sc[np.arange(sims.size), me]
        top = sc.max(axis=1)
        share = np.where(mine == top, 1.0 / (sc == top[:, None]).sum(axis=1), 0.0)
        others = np.where(np.arange(P)[None, :] == me[:, None], -np.inf, sc).max(axis=1)
        val = (share + 1e-3 * (mine - others)).reshape(-1, K).mean(axis=1)
        key = np.full(legal.shape, -np.inf)
        key[gi, ai] = val
        return _argmax(key, legal, rng), road


def _determinize(w: Batch, rng: np.random.Generator) -> None:
    """Redeal, in place, what each game's mover cannot see: the other hands, the smoking-room cards and the deck.

    The unseen cards (9 of each number less the mover's hand and the cards on the board) are
    dealt uniformly: the other hands keep their sizes, the smoking-room piles theirs, the rest
    is the deck.
    """
    n = w.size
    rows = np.arange(n)
    me = w.to_move.astype(np.intp)
    P = w.hands.shape[1]
    pool = (COPIES - w.hands[rows, me].astype(np.int16) - w.placed).astype(np.int16)
    sizes = w.hands.sum(axis=2)
    hidden_smoke = w.smoke.sum(axis=1)
    for q in range(P):
        other = q != me
        need = np.where(other, sizes[:, q], 0).astype(np.int16)
        w.hands[other, q] = 0
        for _ in range(int(need.max(initial=0))):
            r = np.flatnonzero(need > 0)
            v = _draw(pool[r], rng)
            pool[r, v] -= 1
            w.hands[r, q, v] += 1
            need[r] -= 1
    need = hidden_smoke.astype(np.int16)
    for _ in range(int(need.max(initial=0))):
        r = np.flatnonzero(need > 0)
        v = _draw(pool[r], rng)
        pool[r, v] -= 1
        need[r] -= 1
    w.deck[:] = pool


def _draw(counts: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    total = counts.sum(axis=1, dtype=np.int64)
    u = np.floor(rng.random(counts.shape[0]) * total)
    return (np.cumsum(counts, axis=1, dtype=np.int64) <= u[:, None]).sum(axis=1)


@validate_params(spec=Unchecked("a spec string, parsed in the body: its errors name 'policy'"))
def make_policy(spec: str) -> Chooser:
    """The player a spec names: ``random``, ``greedy``, ``chicken:d`` (d 1..5) or ``rollout[:k]``.

    Parameters
    ----------
    spec : str
        ``"random"``, ``"greedy"``, ``"chicken:d"`` (d = 1..5), ``"rollout"`` or ``"rollout:k"``
        (k = 1..256).

    Returns
    -------
    Chooser
        A player object with a ``choose`` method.

    Raises
    ------
    ParamTypeError, ParamError
        For a spec that is not a string, an unknown name or a bad number.
    """
    if not isinstance(spec, str):
        raise ParamTypeError("policy", spec, "a policy name: random, greedy, chicken:d (1..5), rollout[:k]")
    name, _, arg = spec.partition(":")
    if name in ("random", "greedy") and not arg:
        return RandomPolicy() if name == "random" else GreedyPolicy()
    if name in ("chicken", "rollout") and (arg.isdigit() or (name == "rollout" and not arg)):
        try:
            return ChickenPolicy(int(arg)) if name == "chicken" else RolloutPolicy(int(arg) if arg else 16)
        except ParamError as exc:
            raise ParamError("policy", spec, f"a policy with {exc.allowed}") from None
    raise ParamError("policy", spec, "a policy name: random, greedy, chicken:d (d = 1..5), rollout[:k] (k = 1..256)")
