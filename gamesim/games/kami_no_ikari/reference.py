"""Plain-Python scalar reference of 神の怒り: one game at a time, with the rules core only.

Independent of the vectorized kernels (:mod:`.engine`, :mod:`.sim`): it replays games with
the pure functions of :mod:`.rules` on immutable :class:`.rules.KamiState` tuples, so the tests
can compare the two formulations in distribution. The deal and every draw take a card
uniformly from the cards left (the same law as :mod:`.sim`); players are ``random``,
``greedy`` and ``chicken:d`` as in :mod:`.policies` (ties at random). ``uniform`` is any
zero-argument function returning floats in [0, 1): ``numpy.random.Generator.random`` in
:func:`reference_simulate`, ``random.Random().random`` in the benchmark baseline.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from gamesim.core.registry import ParamError
from gamesim.core.rng import RngLike
from gamesim.core.validate import Int, ParamTypeError, Rng, Unchecked, validate_params

from .rules import (
    COPIES,
    END_HEIGHT,
    HAND_SIZE,
    MATE_HEIGHT,
    N_NUMBERS,
    PARAMS,
    ROAD_PAIRS,
    STATE,
    KamiParams,
    KamiState,
    _apply_action,
    _draw,
    _hand_value,
    _legal_actions,
    _turn_start,
    initial_state,
)

__all__ = ["reference_game", "reference_simulate", "reference_choice"]

Uniform = Callable[[], float]


def _pick(n: int, uniform: Uniform) -> int:
    return min(int(uniform() * n), n - 1)


def _draw_from(counts: Sequence[int], uniform: Uniform) -> int:
    u = int(uniform() * sum(counts))
    for v, c in enumerate(counts):
        if u < c:
            return v
        u -= c
    raise AssertionError("empty deck")  # pragma: no cover - callers check


def _parse(spec: str) -> int:
    """Dare level of a reference player spec: -1 random, 1..5 chicken (5 = greedy)."""
    if spec == "random":
        return -1
    if spec == "greedy":
        return 5
    name, _, arg = spec.partition(":") if isinstance(spec, str) else ("", "", "")
    if name == "chicken" and arg.isdigit() and 1 <= int(arg) <= 5:
        return int(arg)
    raise ParamError("policy", spec, "random, greedy or chicken:d (d = 1..5) (the reference has no rollout player)")


#: The zero-argument source of floats in [0, 1) (any callable; what it returns is trusted).
UNIFORM = Unchecked("a callable returning floats in [0, 1): callable() checked in the body")


@validate_params(s=STATE, p=PARAMS, dare=Int(-1, 5), uniform=UNIFORM,
                 lines=Unchecked("None or the lines of p (a trusted hook of the reference's game loop)"))
def reference_choice(s: KamiState, p: KamiParams, dare: int, uniform: Uniform,
                     lines: tuple[tuple[int, int], ...] | None = None) -> tuple[int, tuple[int, int]]:
    """The action and road of a ``random`` (``dare = -1``) or ``chicken:dare`` player (5 = greedy).

    Parameters
    ----------
    s : KamiState
        After the draw, game running.
    p : KamiParams
    dare : int
        -1 (random) or 1..5 (``chicken:dare``; 5 = greedy).
    uniform : callable
        Zero-argument source of floats in [0, 1).
    lines : tuple of (int, int), optional
        ``p.lines`` (given by callers that hold them already).

    Returns
    -------
    (int, (int, int))
        The action code and the road it would build.

    Raises
    ------
    ParamTypeError, ParamError
        For a state of the wrong type, ``dare`` not -1 or 1..5, or ``uniform`` not callable.
    """
    if dare == 0:  # a hole in the range: not declarable
        raise ParamError("dare", dare, "-1 (random) or 1..5")
    if not callable(uniform):
        raise ParamTypeError("uniform", uniform, "a callable returning floats in [0, 1)")
    return _choice(s, p, dare, uniform, p.lines if lines is None else lines)


def _choice(s: KamiState, p: KamiParams, dare: int, uniform: Uniform,
            lines: tuple[tuple[int, int], ...]) -> tuple[int, tuple[int, int]]:
    legal = _legal_actions(s, lines, p.smoke_by_choice)
    me = s.to_move
    hand = s.hands[me]
    if dare < 0:
        return legal[_pick(len(legal), uniform)], ROAD_PAIRS[_pick(len(ROAD_PAIRS), uniform)]
    m2 = 2 * (len(lines) + 1)
    slots = list(lines) + [s.road]
    best, ties = -float("inf"), []
    for a in legal:
        h = list(hand)
        heights = list(s.heights)
        smoke = s.smoke[me]
        mate = s.mate
        over = False
        if a >= m2:
            h[a - m2] -= 1
            smoke += 1
        else:
            j, d = divmod(a, 2)
            x, y = slots[j]  # type: ignore[misc]
            card, tower = (x, y) if d == 0 else (y, x)
            h[card] -= 1
            heights[tower] += 1
            if p.mate_counter and mate < 0 and heights[tower] == MATE_HEIGHT:
                mate = tower
            over = heights[tower] > dare
        key = _hand_value(tuple(h), tuple(heights), mate, smoke, collapse_doubled=p.collapse_doubled) - (1e6 if over else 0)
        if key > best:
            best, ties = key, [a]
        elif key == best:
            ties.append(a)
    action = ties[_pick(len(ties), uniform)]
    # the road: the pair of numbers held most (the hand before the move, as the vectorized players)
    rk = [hand[a] + hand[b] for a, b in ROAD_PAIRS]
    top = max(rk)
    roads = [r for r, k in zip(ROAD_PAIRS, rk) if k == top]
    return action, roads[_pick(len(roads), uniform)]


@validate_params(p=PARAMS,
                 policies=Unchecked("one player name per seat of p (random, greedy, chicken:d): checked in the body"),
                 uniform=UNIFORM)
def reference_game(p: KamiParams, policies: Sequence[str], uniform: Uniform) -> dict[str, object]:
    """Play one game; returns the per-game values of :func:`.sim.simulate` (``scores`` ... ``smoke``).

    Parameters
    ----------
    p : KamiParams
    policies : sequence of str
        One player per seat: ``random``, ``greedy`` or ``chicken:d``.
    uniform : callable
        Zero-argument source of floats in [0, 1).

    Returns
    -------
    dict
        The per-game values of :func:`.sim.simulate` (but ``first_seat``).

    Raises
    ------
    ParamTypeError, ParamError
        For ``p`` not a KamiParams, a wrong number of players or an unknown one, or ``uniform``
        not callable.
    """
    if isinstance(policies, str) or not isinstance(policies, Sequence) or len(policies) != p.n_players:
        raise ParamTypeError("policies", policies, f"a sequence of {p.n_players} player names")
    dares = [_parse(x) for x in policies]
    if not callable(uniform):
        raise ParamTypeError("uniform", uniform, "a callable returning floats in [0, 1)")
    lines = p.lines
    P = p.n_players
    deck = [COPIES] * N_NUMBERS
    hands = [[0] * N_NUMBERS for _ in range(P)]
    for _ in range(HAND_SIZE):
        for seat in range(P):
            v = _draw_from(deck, uniform)
            deck[v] -= 1
            hands[seat][v] += 1
    s = initial_state(tuple(tuple(h) for h in hands))
    forced = [0] * P
    chosen = [0] * P
    change = 0
    m2 = 2 * (len(lines) + 1)
    while True:
        s = _turn_start(s, p)
        if s.over:
            break
        if not s.drawn:
            s = _draw(s, _draw_from(s.deck, uniform))
        me = s.to_move
        action, road = _choice(s, p, dares[me], uniform, lines)
        if action >= m2:
            line_free = any(a < m2 for a in _legal_actions(s, lines, True))
            (chosen if line_free else forced)[me] += 1
        before = _hand_value(s.hands[me], s.heights, s.mate, s.smoke[me], collapse_doubled=p.collapse_doubled)
        s = _apply_action(s, action, p, road)
        if s.over:
            change = _hand_value(s.hands[me], s.heights, s.mate, s.smoke[me], collapse_doubled=p.collapse_doubled) - before
            break
    scores = [_hand_value(h, s.heights, s.mate, sm, collapse_doubled=p.collapse_doubled) for h, sm in zip(s.hands, s.smoke)]
    best = max(scores)
    top = [x == best for x in scores]
    if p.ties == "later_seat":
        last = max(i for i, x in enumerate(top) if x)
        top = [i == last for i in range(P)]
    winner = top.index(True) if sum(top) == 1 else -1
    assert max(s.heights) <= END_HEIGHT
    return {"scores": scores, "top": top, "winner": winner, "turns": s.turn, "collapse": s.trigger >= 0,
            "trigger": s.trigger, "trigger_change": change if s.trigger >= 0 else 0, "mate": s.mate,
            "mate_seat": s.mate_seat, "road": ROAD_PAIRS.index(s.road) if s.road else -1, "smoke": list(s.smoke),
            "smoke_forced": forced, "smoke_chosen": chosen}


@validate_params(p=PARAMS, n_games=Int(1, 100_000), rng=Rng(),
                 policies=Unchecked("one name for every seat or one per seat: checked by reference_game"))
def reference_simulate(p: KamiParams, n_games: int, *, rng: RngLike = None, policies: str | Sequence[str] = "greedy"
                       ) -> dict[str, np.ndarray]:
    """``n_games`` games with the scalar reference; the keys of :func:`.sim.simulate` (but ``first_seat``).

    Parameters
    ----------
    p : KamiParams
    n_games : int
        1..100,000 (plain Python: about a millisecond per game).
    rng : int, SeedSequence, Generator or None
    policies : str or sequence of str, default "greedy"
        One name for every seat, or one per seat.

    Returns
    -------
    dict of str to numpy.ndarray

    Raises
    ------
    ParamError, ParamTypeError
        For an unknown player or ``n_games`` out of range.
    """
    pols = [policies] * p.n_players if isinstance(policies, str) else policies
    gen = rng  # a Generator (the declaration's Rng)
    rows = [reference_game(p, pols, gen.random) for _ in range(n_games)]  # type: ignore[arg-type]
    return {k: np.array([r[k] for r in rows]) for k in rows[0]}
