"""The vectorized duel engine of Mech Arena 2013: many duels at once, axis 0 = game.

Every game of a chunk advances one turn per step of the loop (lost turns included), so one
loop step is a handful of array operations over the games still running. A weapon is not
code but a row of compiled tables (:func:`compile_tables`, from the weapon file): 気力 gain and
cost, distance change, up to three steps with a distance range, a 判定 level, repetitions and
hit / miss effects per option. One gather per field resolves every game's chosen weapon at once,
whatever mech it belongs to, so a chunk may mix matchups (the league task plays all 42 at once).

Sampling laws (the same as :func:`.rules.action_outcomes` lists them): a 判定 succeeds with
:func:`.rules.check_probability`; the HP-damage check of 格闘 counts Binomial(n, 1/2) dice showing
4–6 (``beat_armour``) or asks for any 6; the counter-attack deals Binomial(counter_dice, 1/2) armour;
フィンガーフレア with k dice shows no 1 with probability (5/6)^k and then deals Binomial(k, 3/5);
ファイアバースト deals Binomial(counters, 1/2). Dice, the coin toss for the first player and the
players' choices use three separate streams spawned from ``rng``.

Source: ``shared/seeds/gimmick_warehouse_qftnw_icecream_kaminoikari_mecharena_ja.txt``, メックアリーナ2013;
the base rules are assumed (:class:`.rules.MechParams`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from gamesim.core.registry import ParamError
from gamesim.core.validate import ParamTypeError, check_int

from .data import MAX_STEPS, MAX_TIMES, Effect, WeaponSet
from .rules import DuelState, MechParams

if TYPE_CHECKING:
    from .policies import Policy

__all__ = ["MAX_GAMES", "Tables", "Batch", "compile_tables", "new_batch", "batch_from_state", "legal_mask", "resolve",
           "play"]

#: Largest number of games one call accepts.
MAX_GAMES: int = 10_000_000

_EFF_FIELDS = ("melee", "armour", "hp", "stun", "set_distance", "move", "ki", "protect")
F_MELEE, F_ARMOUR, F_HP, F_STUN, F_SET, F_MOVE, F_KI, F_PROTECT = range(len(_EFF_FIELDS))
#: The effect that does nothing, per field (``set_distance`` -1: none).
_NO_EFFECT = np.array([-1 if f == "set_distance" else 0 for f in _EFF_FIELDS], np.int64)[:, None]


@dataclass(frozen=True, eq=False)
class Tables:
    """Compiled weapon tables, indexed ``[mech, action]`` (and ``[..., step]``).

    ``n_actions[m]`` actions per mech; action ``k`` of mech ``m`` is weapon ``slot[m, k]`` with
    option ``opt[m, k]``. Effects: ``eff[which][field]`` with ``which`` 0 hit, 1 miss, 2 any_hit,
    each of shape ``(n_mechs, K, MAX_STEPS)``; ``set_distance`` is -1 where the effect sets none.
    """

    weapons: WeaponSet
    n_actions: npt.NDArray[np.int64]
    n_slots: npt.NDArray[np.int64]
    slot: npt.NDArray[np.int64]
    opt: npt.NDArray[np.int64]
    ki_gain: npt.NDArray[np.int64]
    ki_cost: npt.NDArray[np.int64]
    min_d: npt.NDArray[np.int64]
    max_d: npt.NDArray[np.int64]
    move: npt.NDArray[np.int64]
    heat: npt.NDArray[np.bool_]
    melee_dice: npt.NDArray[np.int64]
    special: npt.NDArray[np.int64]
    combo_after: npt.NDArray[np.int64]
    combo_check: npt.NDArray[np.int64]
    combo_melee: npt.NDArray[np.int64]
    no_counter: npt.NDArray[np.bool_]
    step_on: npt.NDArray[np.bool_]
    step_lo: npt.NDArray[np.int64]
    step_hi: npt.NDArray[np.int64]
    step_check: npt.NDArray[np.int64]
    step_times: npt.NDArray[np.int64]
    eff: tuple[dict[str, npt.NDArray[Any]], ...]
    eff_arr: npt.NDArray[np.int64]

    @property
    def width(self) -> int:
        """K: the most actions any mech has."""
        return int(self.slot.shape[1])


def compile_tables(weapons: WeaponSet) -> Tables:
    """Compile a :class:`~.data.WeaponSet` into the engine's gather tables.

    Raises
    ------
    ParamError
        If ``weapons`` is not a WeaponSet.
    """
    if not isinstance(weapons, WeaponSet):
        raise ParamTypeError("weapons", weapons, "a WeaponSet (load_weapons)")
    mechs = weapons.mechs
    acts = [[(i, o) for i, w in enumerate(m.weapons) for o in range(w.n_options)] for m in mechs]
    nm, kk = len(mechs), max(len(a) for a in acts)
    z = lambda dt=np.int64: np.zeros((nm, kk), dt)  # noqa: E731
    t: dict[str, Any] = {k: z() for k in ("slot", "opt", "ki_gain", "ki_cost", "min_d", "max_d", "move",
                                          "melee_dice", "special", "combo_check", "combo_melee")}
    t["heat"], t["no_counter"] = z(bool), z(bool)
    t["combo_after"] = np.full((nm, kk), -1, np.int64)
    s3 = (nm, kk, MAX_STEPS)
    t["step_on"] = np.zeros(s3, bool)
    t["step_lo"], t["step_hi"] = np.zeros(s3, np.int64), np.zeros(s3, np.int64)
    t["step_check"], t["step_times"] = np.zeros(s3, np.int64), np.ones(s3, np.int64)
    eff = tuple({f: (np.full(s3, -1, np.int64) if f == "set_distance" else
                     np.zeros(s3, bool if f in ("melee", "stun", "protect") else np.int64)) for f in _EFF_FIELDS}
                for _ in range(3))
    for m, (mech, al) in enumerate(zip(mechs, acts)):
        for k, (i, o) in enumerate(al):
            w = mech.weapons[i]
            t["slot"][m, k], t["opt"][m, k] = i, o
            t["ki_gain"][m, k], t["ki_cost"][m, k] = w.ki, w.ki_cost
            t["min_d"][m, k], t["max_d"][m, k], t["move"][m, k] = w.min_distance, w.max_distance, w.move
            t["heat"][m, k], t["melee_dice"][m, k] = w.heat, w.melee_dice
            t["special"][m, k] = {None: 0, "finger_flare": 1, "fire_burst": 2}[w.special]
            t["combo_after"][m, k] = -1 if w.combo_after is None else w.combo_after
            t["combo_check"][m, k] = w.combo_check or 0
            t["combo_melee"][m, k] = w.combo_melee_dice or 0
            t["no_counter"][m, k] = w.no_counter_if_stunned
            for j, st in enumerate(w.steps):
                t["step_on"][m, k, j] = True
                t["step_lo"][m, k, j], t["step_hi"][m, k, j] = st.lo, st.hi
                t["step_check"][m, k, j], t["step_times"][m, k, j] = st.check, st.times
                for which, e in enumerate((st.hit[o], st.miss[o], st.any_hit)):
                    _put(eff[which], (m, k, j), e)
    # one array (which, field, mech, action, step): a step's three effects are one gather
    eff_arr = np.stack([np.stack([e[f].astype(np.int64) for f in _EFF_FIELDS]) for e in eff])
    return Tables(weapons=weapons, n_actions=np.array([len(a) for a in acts], np.int64),
                  n_slots=np.array([len(m.weapons) for m in mechs], np.int64), eff=eff, eff_arr=eff_arr, **t)


def _put(eff: dict[str, npt.NDArray[Any]], at: tuple[int, int, int], e: Effect) -> None:
    for f in _EFF_FIELDS:
        v = getattr(e, f)
        eff[f][at] = -1 if v is None else v


class Batch:
    """The state of ``n`` duels as arrays (axis 0 = game; pairs ``[:, side]``).

    Attributes
    ----------
    mech : int64 (n, 2)
        Mech index (into the weapon set) of each side.
    distance, turn, to_move, winner : int64 (n,)
        ``winner`` -1 while running.
    armour, hp, ki, last, prev : int64 (n, 2)
    skip, skip_stun, stunned_last, protect, strip : bool (n, 2)
    heat : bool (n, 2, n_slots_max)
    first : int64 (n,)
    strips, lost_turns : int64 (n,)
        Counters for the metrics: armour strips and turns lost (both mechs).
    """

    __slots__ = ("mech", "distance", "turn", "to_move", "winner", "armour", "hp", "ki", "last", "prev", "skip",
                 "skip_stun", "stunned_last", "protect", "strip", "heat", "first", "strips", "lost_turns")

    def take(self, rows: npt.NDArray[np.int64]) -> Batch:
        """A new batch of the games ``rows`` (copies)."""
        b = Batch.__new__(Batch)
        for k in self.__slots__:
            setattr(b, k, getattr(self, k)[rows].copy())
        return b

    def __len__(self) -> int:
        return int(self.distance.shape[0])


def new_batch(p: MechParams, tables: Tables, mech_a: npt.NDArray[np.int64], mech_b: npt.NDArray[np.int64],
              first: npt.NDArray[np.int64]) -> Batch:
    """Duels at their start: mechs ``mech_a[i]`` vs ``mech_b[i]``, side ``first[i]`` moving first.

    Parameters
    ----------
    p : MechParams
    tables : Tables
    mech_a, mech_b : int array (n,)
        Mech indices into ``tables.weapons``.
    first : int array (n,)
        0 (A) or 1 (B).

    Raises
    ------
    ParamError
        For arguments of the wrong type, shape or range.
    """
    if not isinstance(p, MechParams):
        raise ParamTypeError("p", p, "a MechParams")
    if not isinstance(tables, Tables):
        raise ParamTypeError("tables", tables, "a Tables (compile_tables)")
    nm = len(tables.weapons.mechs)
    arrs = []
    for name, a, hi in (("mech_a", mech_a, nm - 1), ("mech_b", mech_b, nm - 1), ("first", first, 1)):
        if not isinstance(a, np.ndarray) or a.ndim != 1 or a.dtype.kind not in "iu":
            raise ParamTypeError(name, a, "a 1-d integer array")
        if a.size and (a.min() < 0 or a.max() > hi):
            raise ParamError(name, a, f"values in 0..{hi}")
        arrs.append(a.astype(np.int64))
    if not len({a.shape for a in arrs}) == 1 or not 1 <= arrs[0].size <= MAX_GAMES:
        raise ParamError("mech_a", mech_a, f"arrays of one length in 1..{MAX_GAMES}")
    return _new(p, tables, arrs[0], arrs[1], arrs[2])


def _new(p: MechParams, tables: Tables, ma: npt.NDArray[np.int64], mb: npt.NDArray[np.int64],
         first: npt.NDArray[np.int64]) -> Batch:
    n = ma.size
    b = Batch.__new__(Batch)
    b.mech = np.stack([ma, mb], axis=1)
    b.distance = np.full(n, p.start_distance, np.int64)
    b.turn = np.zeros(n, np.int64)
    b.to_move = first.copy()
    b.first = first.copy()
    b.winner = np.full(n, -1, np.int64)
    b.armour = np.full((n, 2), p.start_armour, np.int64)
    b.hp = np.full((n, 2), p.start_hp, np.int64)
    b.ki = np.full((n, 2), p.start_ki, np.int64)
    b.last = np.full((n, 2), -1, np.int64)
    b.prev = np.full((n, 2), -1, np.int64)
    for k in ("skip", "skip_stun", "stunned_last", "protect", "strip"):
        setattr(b, k, np.zeros((n, 2), bool))
    b.heat = np.zeros((n, 2, int(tables.n_slots.max())), bool)
    b.strips = np.zeros(n, np.int64)
    b.lost_turns = np.zeros(n, np.int64)
    return b


def batch_from_state(s: DuelState, mech_a: int, mech_b: int, n: int, tables: Tables) -> Batch:
    """``n`` copies of one scalar :class:`.rules.DuelState` (mech indices ``mech_a``, ``mech_b``).

    Raises
    ------
    ParamError
        For an argument of the wrong type or out of range.
    """
    if not isinstance(s, DuelState):
        raise ParamTypeError("s", s, "a DuelState")
    if not isinstance(tables, Tables):
        raise ParamTypeError("tables", tables, "a Tables (compile_tables)")
    nm = len(tables.weapons.mechs)
    ia = check_int("mech_a", mech_a, min=0, max=nm - 1)
    ib = check_int("mech_b", mech_b, min=0, max=nm - 1)
    n = check_int("n", n, min=1, max=MAX_GAMES)
    if tuple(len(h) for h in s.heat) != (int(tables.n_slots[ia]), int(tables.n_slots[ib])):
        raise ParamError("s", s, "a DuelState of these mechs (heat counters per weapon)")
    b = Batch.__new__(Batch)
    b.mech = np.tile(np.array([ia, ib], np.int64), (n, 1))
    for k in ("distance", "turn", "to_move", "winner"):
        setattr(b, k, np.full(n, getattr(s, k), np.int64))
    b.first = np.full(n, s.to_move if s.turn % 2 == 0 else 1 - s.to_move, np.int64)
    for k in ("armour", "hp", "ki", "last", "prev"):
        setattr(b, k, np.tile(np.array(getattr(s, k), np.int64), (n, 1)))
    for k, src in (("skip", "skip"), ("skip_stun", "skip_stun"), ("stunned_last", "stunned_last"),
                   ("protect", "protect"), ("strip", "strip_pending")):
        setattr(b, k, np.tile(np.array(getattr(s, src), bool), (n, 1)))
    b.heat = np.zeros((n, 2, int(tables.n_slots.max())), bool)
    for side in (0, 1):
        for i, h in enumerate(s.heat[side]):
            b.heat[:, side, i] = h
    b.strips = np.zeros(n, np.int64)
    b.lost_turns = np.zeros(n, np.int64)
    return b


def legal_mask(b: Batch, g: npt.NDArray[np.int64], tables: Tables, p: MechParams) -> npt.NDArray[np.bool_]:
    """Legal actions of the side to move in games ``g``: bool (len(g), K)."""
    me = b.to_move[g]
    m = b.mech[g, me]
    k = np.arange(tables.width)
    slot = tables.slot[m]
    ok = k[None, :] < tables.n_actions[m][:, None]
    if p.no_repeat:
        ok &= slot != b.last[g, me][:, None]
    ok &= b.ki[g, me][:, None] >= tables.ki_cost[m]
    d = b.distance[g][:, None]
    ok &= (tables.min_d[m] <= d) & (d <= tables.max_d[m])
    ok &= ~np.take_along_axis(b.heat[g, me], slot, axis=1)
    return ok


def _damage_armour(b: Batch, g: npt.NDArray[np.int64], side: npt.NDArray[np.int64], dmg: npt.NDArray[np.int64],
                   p: MechParams) -> None:
    """Armour damage ``dmg`` to ``side`` in games ``g`` (rows unique); strips cost the next turn."""
    a = b.armour[g, side]
    new = np.maximum(a - dmg, 0)
    stripped = (a > 0) & (new == 0)
    b.armour[g, side] = new
    if stripped.any():
        gs, ss = g[stripped], side[stripped]
        b.strips[gs] += 1
        if p.strip_skip:
            b.skip[gs, ss] = True
        if p.armour_on_strip == "reset":
            b.strip[gs, ss] = True


def _apply(b: Batch, g: npt.NDArray[np.int64], me: npt.NDArray[np.int64], e: npt.NDArray[np.int64],
           n_dice: npt.NDArray[np.int64], counter: npt.NDArray[np.bool_], tables: Tables, p: MechParams,
           dice: np.random.Generator) -> None:
    """Apply per-game effects ``e`` (int64, (n_fields, len(g))) in the order of :class:`~.data.Effect`."""
    op = 1 - me
    mel = e[F_MELEE] != 0
    if mel.any():
        gm, mm, om = g[mel], me[mel], op[mel]
        nd = n_dice[mel]
        if p.hp_check == "beat_armour":
            hit = dice.binomial(nd, 0.5) > b.armour[gm, om]
        else:
            hit = dice.random(gm.size) >= (5.0 / 6.0) ** nd
        hit &= ~b.protect[gm, om]
        b.hp[gm[hit], om[hit]] -= 1
        if p.counter_dice > 0:
            c = counter[mel] & (b.hp[gm, om] > 0)
            if c.any():
                _damage_armour(b, gm[c], mm[c], dice.binomial(p.counter_dice, 0.5, int(c.sum())), p)
    prot = b.protect[g, op]
    arm = np.where(prot, 0, e[F_ARMOUR])
    if arm.any():
        sel = arm > 0
        _damage_armour(b, g[sel], op[sel], arm[sel], p)
    hp = np.where(prot, 0, e[F_HP])
    if hp.any():
        b.hp[g, op] -= hp
    st = e[F_STUN] != 0
    if st.any():
        b.skip[g[st], op[st]] = True
        b.skip_stun[g[st], op[st]] = True
    sd = e[F_SET]
    if (sd >= 0).any() or e[F_MOVE].any():
        d = np.where(sd >= 0, np.minimum(sd, p.max_distance), b.distance[g])
        b.distance[g] = np.clip(d + e[F_MOVE], 0, p.max_distance)
    if e[F_KI].any():
        b.ki[g, me] = np.minimum(b.ki[g, me] + e[F_KI], p.max_ki)
    pr = e[F_PROTECT] != 0
    if pr.any():
        b.protect[g[pr], me[pr]] = True


def resolve(b: Batch, g: npt.NDArray[np.int64], act: npt.NDArray[np.int64], tables: Tables, p: MechParams,
            dice: np.random.Generator) -> None:
    """The movers of games ``g`` (rows unique, not skipping) use action ``act``; in place."""
    me = b.to_move[g]
    op = 1 - me
    m = b.mech[g, me]
    at = (m, act)
    slot = tables.slot[at]
    b.ki[g, me] = np.minimum(b.ki[g, me] - tables.ki_cost[at] + tables.ki_gain[at], p.max_ki)
    b.distance[g] = np.clip(b.distance[g] + tables.move[at], 0, p.max_distance)
    combo = (tables.combo_after[at] >= 0) & (b.prev[g, me] == tables.combo_after[at]) & p.combos
    n_dice = np.where(combo & (tables.combo_melee[at] > 0), tables.combo_melee[at], tables.melee_dice[at])
    counter = ~(tables.no_counter[at] & b.stunned_last[g, op])
    special = tables.special[at]
    ff = special == 1
    if ff.any():
        gf, mf, of = g[ff], me[ff], op[ff]
        k = tables.opt[at][ff] + 1
        clean = dice.random(gf.size) < (5.0 / 6.0) ** k
        cnt = np.where(clean & ~b.protect[gf, of], dice.binomial(k, 0.6), 0)
        _damage_armour(b, gf, of, cnt, p)
        hurt = ~clean
        gh, mh = gf[hurt], mf[hurt]
        at1 = b.hp[gh, mh] == 1
        b.armour[gh[at1], mh[at1]] = 1
        b.hp[gh[~at1], mh[~at1]] -= 1
    fb = special == 2
    if fb.any():
        gb, mb_, ob = g[fb], me[fb], op[fb]
        n = b.heat[gb, mb_].sum(axis=1)
        b.heat[gb, mb_] = False
        roll = (b.distance[gb] <= 1) & ~b.protect[gb, ob]
        _damage_armour(b, gb, ob, np.where(roll, dice.binomial(n, 0.5), 0), p)
    for j in range(MAX_STEPS):
        on = tables.step_on[m, act, j]
        if not on.any():
            continue
        d = b.distance[g]
        on &= (tables.step_lo[m, act, j] <= d) & (d <= tables.step_hi[m, act, j])
        if not on.any():
            continue
        gj, mj, aj, mej = g[on], m[on], act[on], me[on]
        lvl = tables.step_check[mj, aj, j]
        lvl = np.where(combo[on] & (tables.combo_check[mj, aj] > 0) & (lvl > 0), tables.combo_check[mj, aj], lvl)
        q = np.where(lvl == 0, 1.0, _q(lvl, p))
        times = tables.step_times[mj, aj, j]
        any_hit = np.zeros(gj.size, bool)
        eff = tables.eff_arr[:, :, mj, aj, j]  # (which, field, game)
        nd_on, counter_on = n_dice[on], counter[on]
        for r in range(MAX_TIMES):
            live = r < times
            if not live.any():
                break
            hit = dice.random(gj.size) < q
            any_hit |= hit & live
            e = np.where(live, np.where(hit, eff[0], eff[1]), _NO_EFFECT)
            _apply(b, gj, mej, e, nd_on, counter_on, tables, p, dice)
        if any_hit.any() and eff[2].any():
            _apply(b, gj, mej, np.where(any_hit, eff[2], _NO_EFFECT), nd_on, counter_on, tables, p, dice)
    hot = tables.heat[at]
    if hot.any():
        b.heat[g[hot], me[hot], slot[hot]] = True
    b.last[g, me] = slot
    b.prev[g, me] = slot
    b.stunned_last[g, me] = False
    dead = b.hp[g, op] <= 0
    b.hp[g, op] = np.maximum(b.hp[g, op], 0)
    b.winner[g[dead]] = me[dead]


def _q(lvl: npt.NDArray[np.int64], p: MechParams) -> npt.NDArray[np.float64]:
    if p.check_reading == "n_dice":
        return 1.0 - 0.5 ** lvl.astype(float)
    return (lvl + 1) / 6.0


def play(b: Batch, tables: Tables, p: MechParams, policies: tuple[Policy, Policy], *,
         dice: np.random.Generator, choice: np.random.Generator, max_steps: int | None = None) -> Batch:
    """Play the duels of ``b`` on, in place, until each ends (or ``max_steps`` more turns).

    A turn: the mover's protection ends and stripped armour comes back (``reset``); a mover due
    to lose its turn loses it (combos broken, a stun remembered for クロー); otherwise its policy
    chooses a legal action and :func:`resolve` applies it. Games at ``p.max_turns`` turns stop
    (stalemate, ``winner == -1``).
    """
    steps = 0
    while max_steps is None or steps < max_steps:
        g = np.flatnonzero((b.winner < 0) & (b.turn < p.max_turns))
        if g.size == 0:
            break
        steps += 1
        me = b.to_move[g]
        b.protect[g, me] = False
        rs = b.strip[g, me]
        if rs.any():
            b.armour[g[rs], me[rs]] = p.start_armour
            b.strip[g[rs], me[rs]] = False
        sk = b.skip[g, me]
        if sk.any():
            gs, ms = g[sk], me[sk]
            b.stunned_last[gs, ms] = b.skip_stun[gs, ms]
            b.skip[gs, ms] = False
            b.skip_stun[gs, ms] = False
            b.prev[gs, ms] = -1
            b.lost_turns[gs] += 1
        ga = g[~sk]
        if ga.size:
            mask = legal_mask(b, ga, tables, p)
            has = mask.any(axis=1)
            ga, mask = ga[has], mask[has]
            act = np.empty(ga.size, np.int64)
            side = b.to_move[ga]
            for s in (0, 1):
                sel = side == s
                if sel.any():
                    act[sel] = policies[s].choose(b, ga[sel], mask[sel], tables, p, choice=choice, dice=dice)
            resolve(b, ga, act, tables, p, dice)
        b.turn[g] += 1
        b.to_move[g] = 1 - b.to_move[g]
    return b
