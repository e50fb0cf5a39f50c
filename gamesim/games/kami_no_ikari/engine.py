"""Vectorized state and move kernels of 神の怒り (axis 0 = game).

A :class:`Batch` holds many games in lockstep, in the encodings of :mod:`.rules` (counts per
number; line slots with the road last; integer action codes). The kernels here are the
rules of :mod:`.rules` written over arrays: :func:`legal_mask` (step B's choices),
:func:`apply_batch` (steps B and C), :func:`turn_start_batch` and :func:`draw_batch` (step A),
:func:`values_after` (each action's resulting hand value for the mover: what the greedy,
chicken and rollout players look at) and :func:`scores_batch`.

Kernels trust their inputs: the public entry points of :mod:`.sim` check them. Drawing a card
is drawing uniformly from the cards left in the deck (a count per number): the same law as
dealing from the top of a well-shuffled deck (山を積む), without shuffles.

This module imports only :mod:`.rules`; :mod:`.policies` builds the players on it and
:mod:`.sim` runs whole games with both.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Protocol

import numpy as np

from .rules import (
    COPIES,
    END_HEIGHT,
    HAND_SIZE,
    HEIGHT_POINTS,
    MATE_HEIGHT,
    N_NUMBERS,
    ROAD_PAIRS,
    SET_BONUS,
    SMOKE_PENALTY,
    KamiParams,
    Spot,
)

__all__ = ["Batch", "Tables", "tables", "deal", "turn_start_batch", "draw_batch", "legal_mask",
           "apply_batch", "values_after", "scores_batch", "slot_ends", "road_by_hand", "play", "Chooser", "BIG"]

#: A key far below any hand value (the chicken players' penalty, illegal actions).
BIG: float = 1e6
_ROAD = np.array(ROAD_PAIRS, np.int8)           # (10, 2)
_SET = np.array(SET_BONUS, np.int16)            # (6,)


@dataclass(frozen=True, eq=False)
class Tables:
    """Constant arrays of one parameter set."""

    n_players: int
    n_lines: int             # board lines L (the road is slot L)
    ends: np.ndarray         # (L, 2) int8 tower indices of the board lines
    points: np.ndarray       # (6, 2) int16 card points by height and 摩天 flag
    mate_counter: bool
    road: bool
    smoke_by_choice: bool
    play_on: bool
    later_seat: bool

    @property
    def n_slots(self) -> int:
        """Line slots, road included."""
        return self.n_lines + 1

    @property
    def n_actions(self) -> int:
        """Action codes: two per slot, five discards."""
        return 2 * self.n_slots + N_NUMBERS


def tables(p: KamiParams) -> Tables:
    """The kernel constants of ``p``."""
    pts = np.zeros((END_HEIGHT + 1, 2), np.int16)
    for h, v in enumerate(HEIGHT_POINTS):
        pts[h, 0] = v
        pts[h, 1] = 2 * v if (v > 0 or p.collapse_doubled) else v
    lines = p.lines
    return Tables(p.n_players, len(lines), np.array(lines, np.int8).reshape(-1, 2), pts, p.mate_counter,
                  p.road, p.smoke_by_choice, p.deck_out == "play_on", p.ties == "later_seat")


@dataclass(eq=False)
class Batch:
    """The state of ``n`` games (arrays with axis 0 = game).

    ``hands`` (n, P, 5) int8; ``deck``, ``placed``, ``heights`` (n, 5) int8; ``workers``
    (n, P) int8 (slot, -1 start, -2 smoking room); ``smoke``, ``smoke_forced``,
    ``smoke_chosen`` (n, P) int8; ``mate``, ``mate_seat``, ``road`` (n,) int8 (-1 none; road =
    index into :data:`.rules.ROAD_PAIRS`); ``to_move`` (n,) int8; ``turn`` (n,) int16;
    ``over`` (n,) bool; ``trigger`` (n,) int8 (-1: not ended by a collapse); ``trigger_change``
    (n,) int16 (the trigger's own hand value change on the collapsing move); ``gid`` (n,) int64.
    """

    hands: np.ndarray
    deck: np.ndarray
    placed: np.ndarray
    heights: np.ndarray
    workers: np.ndarray
    smoke: np.ndarray
    smoke_forced: np.ndarray
    smoke_chosen: np.ndarray
    mate: np.ndarray
    mate_seat: np.ndarray
    road: np.ndarray
    to_move: np.ndarray
    turn: np.ndarray
    over: np.ndarray
    trigger: np.ndarray
    trigger_change: np.ndarray
    gid: np.ndarray

    @property
    def size(self) -> int:
        """Games in the batch."""
        return int(self.deck.shape[0])

    def take(self, idx: np.ndarray) -> Batch:
        """The games ``idx`` (copies)."""
        return Batch(**{f.name: getattr(self, f.name)[idx] for f in fields(self)})

    def put(self, idx: np.ndarray, other: Batch) -> None:
        """Write ``other``'s games into rows ``idx``."""
        for f in fields(self):
            getattr(self, f.name)[idx] = getattr(other, f.name)


def _draw_values(deck: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One card per row, uniformly from the counts ``deck`` (n, 5); rows must be non-empty."""
    total = deck.sum(axis=1, dtype=np.int64)
    u = np.floor(rng.random(deck.shape[0]) * total)
    return (np.cumsum(deck, axis=1, dtype=np.int64) <= u[:, None]).sum(axis=1)


def deal(n: int, t: Tables, rng: np.random.Generator) -> Batch:
    """``n`` new games: 5 cards dealt to each seat from the 45, seat 0 to move."""
    P = t.n_players
    deck = np.full((n, N_NUMBERS), COPIES, np.int8)
    hands = np.zeros((n, P, N_NUMBERS), np.int8)
    rows = np.arange(n)
    for _ in range(HAND_SIZE):
        for s in range(P):
            v = _draw_values(deck, rng)
            deck[rows, v] -= 1
            hands[rows, s, v] += 1
    z = np.zeros((n, N_NUMBERS), np.int8)
    zp = np.zeros((n, P), np.int8)
    m1 = np.full(n, -1, np.int8)
    return Batch(hands=hands, deck=deck, placed=z, heights=z.copy(), workers=np.full((n, P), int(Spot.START), np.int8),
                 smoke=zp, smoke_forced=zp.copy(), smoke_chosen=zp.copy(), mate=m1, mate_seat=m1.copy(),
                 road=m1.copy(), to_move=np.zeros(n, np.int8), turn=np.zeros(n, np.int16),
                 over=np.zeros(n, bool), trigger=m1.copy(), trigger_change=np.zeros(n, np.int16),
                 gid=np.arange(n, dtype=np.int64))


def turn_start_batch(b: Batch, t: Tables) -> np.ndarray:
    """Step A's deck check on running games; ends those that cannot start. Returns the games that draw."""
    empty = b.deck.sum(axis=1) == 0
    if t.play_on:
        no_hand = b.hands[np.arange(b.size), b.to_move].sum(axis=1) == 0
        b.over |= empty & no_hand
    else:
        b.over |= empty
    return ~b.over & ~empty


def draw_batch(b: Batch, rows: np.ndarray, rng: np.random.Generator) -> None:
    """Step A: the mover of each game ``rows`` draws a card."""
    if rows.size == 0:
        return
    v = _draw_values(b.deck[rows], rng)
    b.deck[rows, v] -= 1
    b.hands[rows, b.to_move[rows], v] += 1


def slot_ends(b: Batch, t: Tables) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ends ``a``, ``b`` (n, M) of every line slot and whether it exists (the road once built)."""
    n = b.size
    ea = np.empty((n, t.n_slots), np.int8)
    eb = np.empty((n, t.n_slots), np.int8)
    ea[:, :-1] = t.ends[:, 0]
    eb[:, :-1] = t.ends[:, 1]
    built = b.road >= 0
    rp = _ROAD[np.where(built, b.road, 0)]
    ea[:, -1] = rp[:, 0]
    eb[:, -1] = rp[:, 1]
    exists = np.ones((n, t.n_slots), bool)
    exists[:, -1] = built
    return ea, eb, exists


def legal_mask(b: Batch, t: Tables) -> tuple[np.ndarray, np.ndarray]:
    """Legal actions of each game's mover (n, A) bool, and whether a line move exists (n,)."""
    n, P, M = b.size, t.n_players, t.n_slots
    rows = np.arange(n)
    me = b.to_move.astype(np.intp)
    onehot = b.workers[:, :, None] == np.arange(M, dtype=np.int8)[None, None, :]   # (n, P, M)
    others = np.arange(P)[None, :] != me[:, None]
    occupied = (onehot & others[:, :, None]).any(axis=1)
    prev = onehot[rows, me]
    ea, eb, exists = slot_ends(b, t)
    hand = b.hands[rows, me]                                                         # (n, 5)
    open_ = exists & ~occupied & ~prev
    legal = np.zeros((n, t.n_actions), bool)
    legal[:, 0:2 * M:2] = open_ & (np.take_along_axis(hand, ea.astype(np.intp), axis=1) > 0)
    legal[:, 1:2 * M:2] = open_ & (np.take_along_axis(hand, eb.astype(np.intp), axis=1) > 0)
    any_line = legal[:, :2 * M].any(axis=1)
    smoke_ok = any_line == 0 if not t.smoke_by_choice else np.ones(n, bool)
    legal[:, 2 * M:] = (hand > 0) & smoke_ok[:, None]
    return legal, any_line


def _value(hand: np.ndarray, heights: np.ndarray, mate: np.ndarray, smoke: np.ndarray, t: Tables) -> np.ndarray:
    """Hand values; ``hand``/``heights`` (..., 5), ``mate``/``smoke`` (...)."""
    is_mate = (np.arange(N_NUMBERS) == mate[..., None]).astype(np.intp)
    pts = t.points[heights.astype(np.intp), is_mate]
    return (_SET[np.minimum(hand, 5)].sum(axis=-1, dtype=np.int32) + (hand * pts).sum(axis=-1, dtype=np.int32)
            - SMOKE_PENALTY * smoke.astype(np.int32))


def scores_batch(b: Batch, t: Tables) -> np.ndarray:
    """Every seat's hand value (n, P) int32 on the current board."""
    P = t.n_players
    return _value(b.hands, b.heights[:, None, :].repeat(P, axis=1), b.mate[:, None].repeat(P, axis=1), b.smoke, t)


def _effects(b: Batch, t: Tables) -> tuple[np.ndarray, np.ndarray]:
    """For every action: the card number it removes from the hand and the tower it raises (-1: none), (n, A)."""
    M = t.n_slots
    ea, eb, _ = slot_ends(b, t)
    n = b.size
    card = np.empty((n, t.n_actions), np.intp)
    tower = np.full((n, t.n_actions), -1, np.intp)
    card[:, 0:2 * M:2], tower[:, 0:2 * M:2] = ea, eb
    card[:, 1:2 * M:2], tower[:, 1:2 * M:2] = eb, ea
    card[:, 2 * M:] = np.arange(N_NUMBERS)
    return card, tower


def _gather(x: np.ndarray, idx: np.ndarray, t: Tables) -> np.ndarray:
    """``x[i, idx[i, a]]`` for (n, 5) ``x`` and (n, A) ``idx``: a column gather where ``idx`` is the same for
    every game (every action but the road's two), a per-game gather for the road's columns."""
    out = x[:, idx[0]] if idx.shape[0] else np.empty((0, idx.shape[1]), x.dtype)
    r = 2 * t.n_lines
    out[:, r:r + 2] = np.take_along_axis(x, idx[:, r:r + 2], axis=1)
    return out


def values_after(b: Batch, t: Tables) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each action's result for the mover: hand value after it (n, A) int32, its value now (n,), the raised tower's height after (n, A; 0 for discards).

    A move changes at most two numbers' terms of the hand value: the card's number (one card
    fewer; its tower is the other end of the line, so its height stays) and the raised tower's
    number (one card higher, and the 摩天 counter if it reaches 3 first). So the value after is
    the value now plus those two terms' changes (values of illegal actions are meaningless).
    """
    rows = np.arange(b.size)
    me = b.to_move.astype(np.intp)
    hand = b.hands[rows, me].astype(np.int32)                                       # (n, 5)
    heights = b.heights.astype(np.intp)
    is_mate = (np.arange(N_NUMBERS)[None, :] == b.mate[:, None]).astype(np.intp)
    per = _SET[np.minimum(hand, 5)] + hand * t.points[heights, is_mate]              # each number's term
    now = per.sum(axis=1) - SMOKE_PENALTY * b.smoke[rows, me].astype(np.int32)
    card, tower = _effects(b, t)                                                    # (n, A)
    c1 = np.maximum(_gather(hand, card, t) - 1, 0)
    delta = (_SET[np.minimum(c1, 5)] + c1 * t.points[_gather(heights, card, t), _gather(is_mate, card, t)]
             - _gather(per, card, t))
    line = tower >= 0
    tw = np.where(line, tower, 0)
    ct = _gather(hand, tw, t)
    new_h = np.minimum(_gather(heights, tw, t) + line, END_HEIGHT)
    mt = _gather(is_mate, tw, t)
    if t.mate_counter:
        mt = np.where(line & (b.mate[:, None] < 0) & (new_h == MATE_HEIGHT), 1, mt)
    raised = _SET[np.minimum(ct, 5)] + ct * t.points[new_h, mt] - _gather(per, tw, t)
    delta += np.where(line, raised, 0)
    delta[:, 2 * t.n_slots:] -= SMOKE_PENALTY
    return now[:, None] + delta, now, np.where(line, new_h, 0)


def road_by_hand(b: Batch, rows: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The road a scoring-minded player builds: the pair of numbers it holds most cards of (ties at random)."""
    hand = b.hands[rows, b.to_move[rows]].astype(np.float64)
    key = hand[:, _ROAD[:, 0]] + hand[:, _ROAD[:, 1]] + rng.random((rows.size, len(ROAD_PAIRS))) * 1e-3
    return key.argmax(axis=1).astype(np.int8)


def apply_batch(b: Batch, action: np.ndarray, road: np.ndarray, any_line: np.ndarray, t: Tables) -> None:
    """Steps B and C for every game (all running, all drawn): move, play or discard, pass the turn.

    ``road`` (n,) is the road-pair index used where the move places the 摩天カウンター;
    ``any_line`` (n,) whether a line move was legal (a discard is then *chosen*, else *forced*).
    """
    n, M = b.size, t.n_slots
    rows = np.arange(n)
    me = b.to_move.astype(np.intp)
    smoke = action >= 2 * M
    if smoke.any():
        r = rows[smoke]
        m = me[smoke]
        b.hands[r, m, action[smoke] - 2 * M] -= 1
        b.workers[r, m] = int(Spot.SMOKING_ROOM)
        b.smoke[r, m] += 1
        b.smoke_chosen[r, m] += any_line[smoke]
        b.smoke_forced[r, m] += ~any_line[smoke]
    line = ~smoke
    if line.any():
        r = rows[line]
        m = me[line]
        a = action[line]
        j, d = a // 2, a % 2
        ea, eb, _ = slot_ends(b.take(r), t)
        aa = ea[np.arange(r.size), j].astype(np.intp)
        bb = eb[np.arange(r.size), j].astype(np.intp)
        card = np.where(d == 0, aa, bb)
        tower = np.where(d == 0, bb, aa)
        before = _value(b.hands[r, m], b.heights[r], b.mate[r], b.smoke[r, m], t)
        b.hands[r, m, card] -= 1
        b.workers[r, m] = j
        b.heights[r, tower] += 1
        b.placed[r, card] += 1
        h = b.heights[r, tower]
        if t.mate_counter:
            gets = (b.mate[r] < 0) & (h == MATE_HEIGHT)
            if gets.any():
                g = r[gets]
                b.mate[g] = tower[gets]
                b.mate_seat[g] = m[gets]
                if t.road:
                    b.road[g] = road[line][gets]
        ends = h >= END_HEIGHT
        if ends.any():
            g = r[ends]
            b.over[g] = True
            b.trigger[g] = m[ends]
            after = _value(b.hands[g, m[ends]], b.heights[g], b.mate[g], b.smoke[g, m[ends]], t)
            b.trigger_change[g] = after - before[ends]
    b.turn += 1
    go = ~b.over
    b.to_move[go] = (b.to_move[go] + 1) % t.n_players


class Chooser(Protocol):
    """A player: picks an action (and the road it would build) for each game of a batch."""

    def choose(self, b: Batch, t: Tables, legal: np.ndarray, rng: np.random.Generator
               ) -> tuple[np.ndarray, np.ndarray]: ...


def play(b: Batch, t: Tables, choosers: list[Chooser], seat_chooser: np.ndarray, deck_rng: np.random.Generator,
         pol_rng: np.random.Generator) -> None:
    """Play every running game of ``b`` to its end, in place.

    ``seat_chooser`` (n, P) indexes ``choosers`` for each game's seats. Cards come from
    ``deck_rng``, the players' random choices from ``pol_rng`` (one stream per source).
    """
    rows_all = np.arange(b.size)
    while True:
        run = rows_all[~b.over]
        if run.size == 0:
            return
        g = b.take(run)
        drawing = turn_start_batch(g, t)
        draw_batch(g, np.flatnonzero(drawing), deck_rng)
        live = np.flatnonzero(~g.over)
        if live.size:
            h = g.take(live)
            legal, any_line = legal_mask(h, t)
            action = np.empty(h.size, np.intp)
            road = np.zeros(h.size, np.int8)
            who = seat_chooser[run[live], h.to_move.astype(np.intp)]
            for k in np.unique(who):
                sel = np.flatnonzero(who == k)
                sub = h.take(sel) if sel.size < h.size else h
                a, r = choosers[k].choose(sub, t, legal[sel], pol_rng)
                action[sel] = a
                road[sel] = r
            apply_batch(h, action, road, any_line, t)
            g.put(live, h)
        b.put(run, g)
