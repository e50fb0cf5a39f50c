"""Mech Arena 2013 duels in bulk: :func:`simulate` (one matchup) and :func:`simulate_ids` (per-game mechs).

The engine (:mod:`.engine`) plays a chunk of duels turn by turn, vectorized over axis 0 = game;
this module validates the arguments, splits the games into chunks (memory flat), draws the first
player and collects the per-game results. Dice, coin toss and the players' choices use three
streams spawned from ``rng`` (``rng.spawn(3)``): one stream per source of randomness.

Source: ``shared/seeds/gimmick_warehouse_qftnw_icecream_kaminoikari_mecharena_ja.txt``, メックアリーナ2013;
the base rules are assumed (:class:`.rules.MechParams`, ``docs/rules/mech_arena.md``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from gamesim.core.batching import chunk_spans
from gamesim.core.registry import ParamError
from gamesim.core.validate import Instance, Int, ParamTypeError, Rng, Unchecked, check_int, validate_params

from .data import WeaponSet, load_weapons
from .engine import MAX_GAMES, Tables, compile_tables, new_batch, play
from .policies import Policy, make_policy
from .rules import MechParams

__all__ = ["CHUNK_SIZE", "simulate", "simulate_ids", "tables_for"]

#: Games per chunk (memory stays flat: a chunk holds a few dozen small arrays of this length).
CHUNK_SIZE: int = 4096


def _mech_index(ws: WeaponSet, name: str, key: str) -> int:
    if not isinstance(name, str):
        raise ParamTypeError(key, name, f"a mech name or key: {', '.join(ws.keys)}")
    try:
        return ws.index(name)
    except ValueError:
        raise ParamError(key, name, f"a mech of {ws.source}: {', '.join(ws.keys)} ({', '.join(ws.names)})") from None


@validate_params(params=Instance(MechParams, "a MechParams"), n_games=Int(1, MAX_GAMES), chunk_size=Int(1, 10**6),
                 rng=Rng(), weapons=Unchecked("a WeaponSet or a weapon file: loaded in the body"),
                 mech_a=Unchecked("a mech of weapons: checked in the body, once weapons is loaded"),
                 mech_b=Unchecked("a mech of weapons: checked in the body, once weapons is loaded"),
                 policy_a=Unchecked("a policy object or spec: make_policy's errors name policy_a"),
                 policy_b=Unchecked("a policy object or spec: make_policy's errors name policy_b"))
def simulate(params: MechParams, n_games: int, *, rng: Any = None, mech_a: str = "oscar", mech_b: str = "oscar",
             policy_a: str | Policy = "greedy", policy_b: str | Policy = "greedy", weapons: str | WeaponSet = "2013",
             chunk_size: int = CHUNK_SIZE) -> dict[str, npt.NDArray[Any]]:
    """Play ``n_games`` duels of ``mech_a`` against ``mech_b``.

    Parameters
    ----------
    params : MechParams
        Base rules (the assumed ones, and the 2013 text's).
    n_games : int
        Number of duels, 1..MAX_GAMES.
    rng : int, SeedSequence, Generator or None
        Normalized with ``np.random.default_rng``; dice, coin toss and choices get their own
        streams (``rng.spawn(3)``).
    mech_a, mech_b : str, default "oscar"
        Mech keys or Japanese names of the weapon file (``"oscar"`` or ``"オスカーII"``, ...).
    policy_a, policy_b : str or Policy, default "greedy"
        ``"random"``, ``"greedy"``, ``"rollout"`` or ``"rollout:<k>:<horizon>"`` (see
        :func:`.policies.make_policy`), or a policy object.
    weapons : str, Path or WeaponSet, default "2013"
        The weapon file (``"2013"``: built in) or a loaded set.
    chunk_size : int, default CHUNK_SIZE
        Games per chunk, 1..10**6.

    Returns
    -------
    dict of str to ndarray, each of shape (n_games,)
        ``winner`` int64 (0 A won, 1 B won, 2 stalemate); ``first`` int64 (side that moved
        first); ``turns`` int64 (turns played, lost turns included); ``hp_a``, ``hp_b``,
        ``armour_a``, ``armour_b`` int64 at the end; ``strips`` int64 (armours stripped);
        ``lost_turns`` int64 (turns lost to stun or stripping, both mechs).

    Raises
    ------
    ParamError, ParamTypeError
        For an argument of the wrong type or out of range (an unknown mech names the known ones).
    DataError
        If ``weapons`` names a missing or invalid file.
    """
    n, cs, gen = n_games, chunk_size, rng  # gen: a Generator (the declaration's Rng)
    ws = weapons if isinstance(weapons, WeaponSet) else load_weapons(weapons)
    ia, ib = _mech_index(ws, mech_a, "mech_a"), _mech_index(ws, mech_b, "mech_b")
    pols = (make_policy(policy_a, "policy_a"), make_policy(policy_b, "policy_b"))
    return simulate_ids(params, np.full(n, ia, np.int64), np.full(n, ib, np.int64), rng=gen, tables=tables_for(ws),
                        policies=pols, chunk_size=cs)


_TABLE_CACHE: dict[int, tuple[WeaponSet, Tables]] = {}


def tables_for(ws: WeaponSet) -> Tables:
    """The compiled tables of a weapon set (cached by identity)."""
    hit = _TABLE_CACHE.get(id(ws))
    if hit is None or hit[0] is not ws:
        hit = (ws, compile_tables(ws))
        _TABLE_CACHE[id(ws)] = hit
    return hit[1]


def simulate_ids(params: MechParams, mech_a: npt.NDArray[np.int64], mech_b: npt.NDArray[np.int64], *,
                 rng: np.random.Generator, tables: Tables, policies: tuple[Policy, Policy],
                 chunk_size: int = CHUNK_SIZE) -> dict[str, npt.NDArray[Any]]:
    """Duels with per-game mechs (indices into ``tables.weapons``): the engine behind :func:`simulate`.

    Parameters
    ----------
    params : MechParams
    mech_a, mech_b : int array (n,)
    rng : numpy Generator
    tables : Tables
    policies : (Policy, Policy)
    chunk_size : int

    Returns
    -------
    dict
        As :func:`simulate`.

    Raises
    ------
    ParamError
        For arguments of the wrong type or range.
    """
    if not isinstance(rng, np.random.Generator):
        raise ParamTypeError("rng", rng, "a numpy Generator")
    if not (isinstance(policies, tuple) and len(policies) == 2 and all(isinstance(q, Policy) for q in policies)):
        raise ParamTypeError("policies", policies, "a pair of Policy objects")
    cs = check_int("chunk_size", chunk_size, min=1, max=10**6)
    for name, a in (("mech_a", mech_a), ("mech_b", mech_b)):
        if not isinstance(a, np.ndarray) or a.ndim != 1:
            raise ParamTypeError(name, a, "a 1-d integer array")
    n = mech_a.size
    if mech_b.shape != (n,) or not 1 <= n <= MAX_GAMES:
        raise ParamError("mech_b", mech_b, f"an array of the shape of mech_a, 1..{MAX_GAMES} games")
    dice, coin, choice = rng.spawn(3)
    keys = ("winner", "first", "turns", "hp_a", "hp_b", "armour_a", "armour_b", "strips", "lost_turns")
    out = {k: np.empty(n, np.int64) for k in keys}
    for lo, hi in chunk_spans(n, cs):
        if params.first == "random":
            first = coin.integers(0, 2, hi - lo)
        else:
            first = np.full(hi - lo, 0 if params.first == "a" else 1, np.int64)
        b = new_batch(params, tables, mech_a[lo:hi], mech_b[lo:hi], first)
        play(b, tables, params, policies, dice=dice, choice=choice)
        out["winner"][lo:hi] = np.where(b.winner < 0, 2, b.winner)
        out["first"][lo:hi] = b.first
        out["turns"][lo:hi] = b.turn
        out["hp_a"][lo:hi], out["hp_b"][lo:hi] = b.hp[:, 0], b.hp[:, 1]
        out["armour_a"][lo:hi], out["armour_b"][lo:hi] = b.armour[:, 0], b.armour[:, 1]
        out["strips"][lo:hi] = b.strips
        out["lost_turns"][lo:hi] = b.lost_turns
    return out
