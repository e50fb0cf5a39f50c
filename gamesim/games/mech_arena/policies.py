"""Players of Mech Arena 2013 duels: random, greedy (best expected damage per 気力) and rollout.

A policy chooses, for a set of games of a :class:`.engine.Batch` whose mover is its side, one
legal action each (an index into the mover's row of the compiled tables).

``random``
    Uniform over the legal actions (each option of a choice weapon counts as an action).
``greedy``
    The action with the best :func:`.rules.expected_score`: expected armour dealt + 3 × HP dealt,
    less armour and HP taken (counter-attacks, フィンガーフレア), divided by 1 + the 気力 spent. The
    score is computed by the rules core itself (exact, over :func:`.rules.action_outcomes`) and
    memoized on the few state features it depends on, so the vectorized player and the scalar
    reference score every action identically. Ties (within 1e-9) are broken uniformly at random.
``rollout``
    For each legal action, ``k`` random playouts of ``horizon`` further turns after it; the value
    of a playout is +10 for a win, −10 for a loss, plus armour + 3 × HP dealt less taken; the
    best mean wins, ties at random. The playouts run on the vectorized engine.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from gamesim.core.registry import ParamError
from gamesim.core.validate import ParamTypeError, Unchecked, check_int, validate_params

from .engine import Batch, Tables, play, resolve
from .rules import HP_VALUE, DuelState, MechParams, expected_score

__all__ = ["POLICY_NAMES", "MAX_ROLLOUTS", "MAX_HORIZON", "Policy", "RandomPolicy", "GreedyPolicy", "RolloutPolicy",
           "make_policy", "pick_uniform", "greedy_scores"]

POLICY_NAMES: tuple[str, ...] = ("random", "greedy", "rollout")
#: Most playouts per action, and most turns per playout, a rollout player accepts.
MAX_ROLLOUTS: int = 256
MAX_HORIZON: int = 200
_TIE = 1e-9
#: Value of a win (and, negated, of a loss) in a rollout playout, in armour points.
WIN_VALUE: float = 10.0


@validate_params(mask=Unchecked("a 2-d bool array, every row with a True: checked in the body"),
                 u=Unchecked("a float array of mask's rows, in [0, 1): checked in the body"))
def pick_uniform(mask: npt.NDArray[np.bool_], u: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
    """Per row, the column of the ``floor(u * count)``-th True of ``mask`` (a uniform pick).

    Parameters
    ----------
    mask : bool (n, K)
        Every row has at least one True.
    u : float (n,)
        Uniform draws in [0, 1).

    Returns
    -------
    int64 (n,)

    Raises
    ------
    ParamError
        For arrays of the wrong type or shape, a row without True, or draws outside [0, 1).
    """
    if not isinstance(mask, np.ndarray) or mask.dtype != bool or mask.ndim != 2:
        raise ParamTypeError("mask", mask, "a 2-d bool array")
    if not isinstance(u, np.ndarray) or u.shape != (mask.shape[0],) or u.dtype.kind != "f":
        raise ParamTypeError("u", u, f"a float array of shape ({mask.shape[0]},)")
    if not mask.any(axis=1).all():
        raise ParamError("mask", mask, "rows with at least one True")
    if u.size and not (np.all(u >= 0) and np.all(u < 1)):
        raise ParamError("u", u, "draws in [0, 1)")
    return _pick(mask, u)


def _pick(mask: npt.NDArray[np.bool_], u: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
    cnt = mask.sum(axis=1)
    target = np.floor(u * cnt).astype(np.int64) + 1
    return np.argmax(mask.cumsum(axis=1) >= target[:, None], axis=1).astype(np.int64)


class Policy:
    """Base class: ``choose(b, g, mask, tables, p, *, choice, dice) -> int64 (len(g),)``."""

    name: str = "policy"

    def choose(self, b: Batch, g: npt.NDArray[np.int64], mask: npt.NDArray[np.bool_], tables: Tables,
               p: MechParams, *, choice: np.random.Generator, dice: np.random.Generator) -> npt.NDArray[np.int64]:
        """Action index per game of ``g`` (each legal under ``mask``)."""
        raise NotImplementedError


class RandomPolicy(Policy):
    """Uniform over the legal actions."""

    name = "random"

    def choose(self, b: Batch, g: npt.NDArray[np.int64], mask: npt.NDArray[np.bool_], tables: Tables,
               p: MechParams, *, choice: np.random.Generator, dice: np.random.Generator) -> npt.NDArray[np.int64]:
        """A uniform legal action per game."""
        return _pick(mask, choice.random(g.size))


_SCORE_CACHE: dict[tuple[int, MechParams], tuple[Tables, dict[int, float]]] = {}


def greedy_scores(b: Batch, g: npt.NDArray[np.int64], mask: npt.NDArray[np.bool_], tables: Tables,
                  p: MechParams) -> npt.NDArray[np.float64]:
    """:func:`.rules.expected_score` of every legal action of the movers of games ``g``; -inf elsewhere.

    The score depends only on the mover's mech and action, the distance, both armours and HPs,
    whether the action's combo is on, whether the opponent lost its last turn to a stun, whether
    it is protected and (ファイアバースト) how many heat counters the mover carries: each distinct
    combination is scored once by the rules core and memoized (per weapon tables and parameters).

    Returns
    -------
    float64 (len(g), K)
    """
    key = (id(tables), p)
    hit = _SCORE_CACHE.get(key)
    if hit is None or hit[0] is not tables:
        hit = (tables, {})
        _SCORE_CACHE[key] = hit
    memo = hit[1]
    me = b.to_move[g]
    op = 1 - me
    m = b.mech[g, me]
    kk = tables.width
    hmax = p.start_hp + 1
    amax = p.start_armour + 1
    feats = [
        np.broadcast_to(m[:, None], mask.shape), np.broadcast_to(np.arange(kk)[None, :], mask.shape),
        np.broadcast_to(b.distance[g][:, None], mask.shape),
        np.broadcast_to(b.armour[g, me][:, None], mask.shape), np.broadcast_to(b.armour[g, op][:, None], mask.shape),
        np.broadcast_to(b.hp[g, me][:, None], mask.shape), np.broadcast_to(b.hp[g, op][:, None], mask.shape),
        (tables.combo_after[m] >= 0) & (b.prev[g, me][:, None] == tables.combo_after[m]) & p.combos,
        np.broadcast_to(b.stunned_last[g, op][:, None], mask.shape),
        np.broadcast_to(b.protect[g, op][:, None], mask.shape),
        np.where(tables.special[m] == 2, b.heat[g, me].sum(axis=1)[:, None], 0),
    ]
    radix = (len(tables.weapons.mechs), kk, p.max_distance + 1, amax, amax, hmax, hmax, 2, 2, 2,
             b.heat.shape[2] + 1)
    code = np.zeros(mask.shape, np.int64)
    for f, r in zip(feats, radix):
        code = code * r + f.astype(np.int64)
    out = np.full(mask.shape, -np.inf)
    codes = code[mask]
    uniq, inv = np.unique(codes, return_inverse=True)
    vals = np.empty(uniq.size)
    for i, c in enumerate(uniq.tolist()):
        v = memo.get(c)
        if v is None:
            v = _score_of_code(c, radix, tables, p)
            memo[c] = v
        vals[i] = v
    out[mask] = vals[inv]
    return out


def _score_of_code(code: int, radix: tuple[int, ...], tables: Tables, p: MechParams) -> float:
    f = []
    for r in reversed(radix):
        f.append(code % r)
        code //= r
    m, k, d, a_me, a_op, h_me, h_op, combo, stunned, prot, n_hot = reversed(f)
    mech = tables.weapons.mechs[m]
    slot, opt = int(tables.slot[m, k]), int(tables.opt[m, k])
    prev = int(tables.combo_after[m, k]) if combo else -1
    # ファイアバースト's value depends on how many heat counters it removes: put them on other slots
    others = [i for i in range(len(mech.weapons)) if i != slot][:n_hot]
    heat = tuple(i in others for i in range(len(mech.weapons)))
    s = DuelState(distance=d, turn=0, to_move=0, armour=(a_me, a_op), hp=(h_me, h_op), ki=(p.max_ki, 0),
                  prev=(prev, -1), stunned_last=(False, bool(stunned)), protect=(False, bool(prot)),
                  heat=(heat, tuple(False for _ in mech.weapons)))
    return expected_score(s, (slot, opt), (mech, mech), p)


class GreedyPolicy(Policy):
    """Best expected damage per 気力 (:func:`.rules.expected_score`), ties at random."""

    name = "greedy"

    def choose(self, b: Batch, g: npt.NDArray[np.int64], mask: npt.NDArray[np.bool_], tables: Tables,
               p: MechParams, *, choice: np.random.Generator, dice: np.random.Generator) -> npt.NDArray[np.int64]:
        """The best-scoring legal action per game."""
        sc = greedy_scores(b, g, mask, tables, p)
        best = sc.max(axis=1)
        return _pick(sc >= best[:, None] - _TIE, choice.random(g.size))


class RolloutPolicy(Policy):
    """Monte Carlo rollouts: ``k`` random playouts of ``horizon`` turns after each legal action.

    Parameters
    ----------
    k : int, default 8
        Playouts per action, 1..MAX_ROLLOUTS.
    horizon : int, default 6
        Turns played after the action (both mechs), 0..MAX_HORIZON.

    Raises
    ------
    ParamError
        For a value of the wrong type or out of range.
    """

    name = "rollout"

    def __init__(self, k: int = 8, horizon: int = 6):
        self.k = check_int("k", k, min=1, max=MAX_ROLLOUTS)
        self.horizon = check_int("horizon", horizon, min=0, max=MAX_HORIZON)
        self._playout = (RandomPolicy(), RandomPolicy())

    def choose(self, b: Batch, g: npt.NDArray[np.int64], mask: npt.NDArray[np.bool_], tables: Tables,
               p: MechParams, *, choice: np.random.Generator, dice: np.random.Generator) -> npt.NDArray[np.int64]:
        """The legal action with the best mean playout value per game."""
        n, kk = mask.shape
        reps = self.k
        # rows: game-major, then action, then playout
        gi = np.repeat(np.arange(n), kk * reps)
        act = np.tile(np.repeat(np.arange(kk), reps), n)
        legal = mask[gi, act]
        rows = g[gi[legal]]
        sub = b.take(rows)
        me = sub.to_move.copy()
        idx = np.arange(len(sub))
        a0, h0 = sub.armour[idx, 1 - me].copy(), sub.hp[idx, 1 - me].copy()
        a1, h1 = sub.armour[idx, me].copy(), sub.hp[idx, me].copy()
        resolve(sub, idx, act[legal], tables, p, dice)
        sub.turn[idx] += 1
        sub.to_move[idx] = 1 - sub.to_move[idx]
        play(sub, tables, p, self._playout, dice=dice, choice=choice, max_steps=self.horizon)
        gain = ((a0 - sub.armour[idx, 1 - me]) + HP_VALUE * (h0 - sub.hp[idx, 1 - me])
                - (a1 - sub.armour[idx, me]) - HP_VALUE * (h1 - sub.hp[idx, me]))
        gain = gain + WIN_VALUE * (sub.winner == me) - WIN_VALUE * ((sub.winner >= 0) & (sub.winner != me))
        val = np.zeros(n * kk * reps)
        val[legal] = gain
        mean = val.reshape(n, kk, reps).mean(axis=2)
        mean[~mask] = -np.inf
        best = mean.max(axis=1)
        return _pick(mean >= best[:, None] - _TIE, choice.random(n))


@validate_params(spec=Unchecked("a policy object or a spec string, parsed in the body: its errors name name"),
                 name=Unchecked("the parameter name the errors carry (a trusted label)"))
def make_policy(spec: Any, name: str = "spec") -> Policy:
    """A policy from its name: ``"random"``, ``"greedy"``, ``"rollout"`` or ``"rollout:<k>:<horizon>"``.

    Parameters
    ----------
    spec : str or Policy
        A policy object is returned as it is.
    name : str, default "spec"
        The parameter name for error messages.

    Returns
    -------
    Policy

    Raises
    ------
    ParamError
        For an unknown name or bad rollout numbers.
    """
    if isinstance(spec, Policy):
        return spec
    if not isinstance(spec, str):
        raise ParamTypeError(name, spec, "a policy: random, greedy, rollout or rollout:<k>:<horizon>")
    if spec == "random":
        return RandomPolicy()
    if spec == "greedy":
        return GreedyPolicy()
    parts = spec.split(":")
    if parts[0] == "rollout" and len(parts) <= 3 and all(x.isdigit() and x.isascii() for x in parts[1:]):
        nums = [int(x) for x in parts[1:]]
        try:
            return RolloutPolicy(*nums)
        except ParamError as exc:
            raise ParamError(name, spec, f"rollout:<k>:<horizon> with {exc.allowed}") from None
    raise ParamError(name, spec, "random, greedy, rollout or rollout:<k>:<horizon>")
