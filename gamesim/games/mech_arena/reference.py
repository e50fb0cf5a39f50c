"""Plain-Python scalar reference of Mech Arena 2013 duels: one game at a time, from the rules core.

It replays the rules of :mod:`.rules` (legal actions, the explicit chance outcomes of
:func:`.rules.action_outcomes`, lost turns) and samples one outcome per action from that list;
it never imports the vectorized engine. The tests compare its game results in distribution with
:func:`.sim.simulate` (two-sample tests): two independent formulations of the same rules.

Players: ``random`` (uniform legal action) and ``greedy`` (best :func:`.rules.expected_score`,
ties within 1e-9 uniformly at random).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from gamesim.core.registry import ParamError
from gamesim.core.validate import Choice, Instance, Int, Pair, ParamTypeError, Rng, Unchecked, validate_params

from .data import Mech, WeaponSet, load_weapons
from .rules import (
    MECHS,
    PARAMS,
    DuelState,
    MechParams,
    action_outcomes,
    end_turn,
    expected_score,
    initial_state,
    is_over,
    legal_actions,
    skip_turn,
    start_turn,
)

__all__ = ["REFERENCE_POLICIES", "reference_game", "reference_simulate"]

REFERENCE_POLICIES: tuple[str, ...] = ("random", "greedy")
MAX_REFERENCE_GAMES = 100_000

# The rules' unchecked bodies: the arguments are checked once, at the entry of reference_game and
# reference_simulate, and every state the loop passes on is one the rules made (a duel calls them
# hundreds of times; checking the same state at each call was about a fifth of the reference's time).
_action_outcomes = action_outcomes.__wrapped__
_end_turn = end_turn.__wrapped__
_expected_score = expected_score.__wrapped__
_initial_state = initial_state.__wrapped__
_is_over = is_over.__wrapped__
_legal_actions = legal_actions.__wrapped__
_skip_turn = skip_turn.__wrapped__
_start_turn = start_turn.__wrapped__


def _choose(s: DuelState, mechs: tuple[Mech, Mech], p: MechParams, policy: str, rng: np.random.Generator
            ) -> tuple[int, int] | None:
    acts = _legal_actions(s, mechs, p)
    if not acts:
        return None
    if policy == "greedy":
        scores = [_expected_score(s, a, mechs, p) for a in acts]
        best = max(scores)
        acts = [a for a, v in zip(acts, scores) if v >= best - 1e-9]
    return acts[int(rng.random() * len(acts))]


@validate_params(p=PARAMS, rng=Instance(np.random.Generator, "a numpy Generator"),
                 policies=Pair(f"a pair of {', '.join(REFERENCE_POLICIES)}", tuple), mechs=MECHS)
def reference_game(p: MechParams, mechs: tuple[Mech, Mech], policies: tuple[str, str],
                   rng: np.random.Generator) -> dict[str, int]:
    """Play one duel, turn by turn.

    Parameters
    ----------
    p : MechParams
    mechs : (Mech, Mech)
        Mech A and mech B.
    policies : (str, str)
        ``"random"`` or ``"greedy"`` for A and B.
    rng : numpy Generator
        Coin toss (when ``p.first == "random"``), choices and dice all draw from it.

    Returns
    -------
    dict
        ``winner`` (0, 1; 2 stalemate), ``first``, ``turns``, ``hp_a``, ``hp_b``, ``armour_a``,
        ``armour_b``, ``strips``, ``lost_turns`` (as :func:`.sim.simulate`).

    Raises
    ------
    ParamError
        For an argument of the wrong type or value.
    """
    if not all(isinstance(x, str) and x in REFERENCE_POLICIES for x in policies):  # the declared pair's items
        raise ParamError("policies", policies, f"a pair of {', '.join(REFERENCE_POLICIES)}")
    if p.first == "random":
        first = int(rng.random() < 0.5)
    else:
        first = 0 if p.first == "a" else 1
    s = _initial_state(p, mechs, first)
    strips = lost = 0
    while not _is_over(s, p):
        s = _start_turn(s, p)
        me = s.to_move
        if s.skip[me]:
            s = _skip_turn(s)
            lost += 1
        else:
            act = _choose(s, mechs, p, policies[me], rng)
            if act is not None:
                outs = _action_outcomes(s, act, mechs, p)
                u = rng.random()
                acc = 0.0
                nxt = outs[-1][1]
                for pr, t in outs:
                    acc += pr
                    if u < acc:
                        nxt = t
                        break
                strips += sum(1 for i in (0, 1) if s.armour[i] > 0 and nxt.armour[i] == 0)
                s = nxt
        s = _end_turn(s)
    return {"winner": s.winner if s.winner >= 0 else 2, "first": first, "turns": s.turn,
            "hp_a": s.hp[0], "hp_b": s.hp[1], "armour_a": s.armour[0], "armour_b": s.armour[1],
            "strips": strips, "lost_turns": lost}


#: Unchecked body of :func:`reference_game` (:func:`reference_simulate`, once per game).
_reference_game = reference_game.__wrapped__


@validate_params(p=PARAMS, n_games=Int(1, MAX_REFERENCE_GAMES), rng=Rng(),
                 weapons=Unchecked("a WeaponSet or a weapon file: loaded in the body"),
                 mech_a=Unchecked("a mech of weapons: checked in the body, once weapons is loaded"),
                 mech_b=Unchecked("a mech of weapons: checked in the body, once weapons is loaded"),
                 policy_a=Choice(REFERENCE_POLICIES), policy_b=Choice(REFERENCE_POLICIES))
def reference_simulate(p: MechParams, n_games: int, *, rng: Any = None, mech_a: str = "oscar",
                       mech_b: str = "oscar", policy_a: str = "greedy", policy_b: str = "greedy",
                       weapons: str | WeaponSet = "2013") -> dict[str, npt.NDArray[np.int64]]:
    """``n_games`` duels with :func:`reference_game`: the same outputs as :func:`.sim.simulate`.

    Parameters
    ----------
    p : MechParams
    n_games : int
        1..MAX_REFERENCE_GAMES.
    rng : int, SeedSequence, Generator or None
    mech_a, mech_b : str
        Mech keys or names.
    policy_a, policy_b : {"random", "greedy"}
    weapons : str, Path or WeaponSet, default "2013"

    Returns
    -------
    dict of str to int64 array (n_games,)

    Raises
    ------
    ParamError
        For an argument of the wrong type or out of range.
    DataError
        For a missing or invalid weapon file.
    """
    n, gen = n_games, rng  # gen: a Generator (the declaration's Rng)
    ws = weapons if isinstance(weapons, WeaponSet) else load_weapons(weapons)
    mechs = []
    for key, name in (("mech_a", mech_a), ("mech_b", mech_b)):
        if not isinstance(name, str):
            raise ParamTypeError(key, name, f"a mech name or key: {', '.join(ws.keys)}")
        try:
            mechs.append(ws.mechs[ws.index(name)])
        except ValueError:
            raise ParamError(key, name, f"a mech: {', '.join(ws.keys)}") from None
    # every argument is checked above (the declaration and the mech look-up)
    games = [_reference_game(p, (mechs[0], mechs[1]), (policy_a, policy_b), gen) for _ in range(n)]
    return {k: np.array([g[k] for g in games], np.int64) for k in games[0]}
