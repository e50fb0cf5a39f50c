"""Sweepable tasks of Mech Arena 2013 (registered as game ``"mech_arena"``).

``duel``
    One matchup, mech A against mech B: A's win rate, the first player's win rate, game length,
    stalemates, armour strips and lost turns. A grid over ``mech_a`` × ``mech_b`` gives the 7 × 7
    matchup matrix.
``league``
    One trial = one round of every ordered pair of different mechs of the weapon file (42 duels
    for the seven mechs, each mech 12 games, 6 opponents × 2 seats): each mech's score (wins + half
    the stalemates, over its 12 games), and the round's first-player win share, stalemate share
    and mean length. Cheap enough to repeat under every base-rule setting (the sensitivity study).

Every base rule the 2013 text does not give is a parameter (base rules assumed, not from the
rulebook; defaults and readings in ``docs/rules/mech_arena.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from gamesim.core.registry import DataLabel, Metric, Param, ParamError, Task

from .data import BUILTIN_WEAPONS, DataError, WeaponSet, load_weapons
from .policies import MAX_HORIZON, MAX_ROLLOUTS, POLICY_NAMES, Policy, RolloutPolicy, make_policy
from .rules import MAX_DISTANCE, MAX_TURNS, MechParams
from .sim import simulate, simulate_ids, tables_for

__all__ = ["TASKS", "DUEL_TASK", "LEAGUE_TASK", "BASE_RULE_PARAMS", "rules_from_params", "weapons_from_params"]

_ASSUMED = "ASSUMED base rule: "


def weapons_label(weapons: str, cell: Mapping[str, Any] | None = None) -> DataLabel:
    """The title of a weapon file and its ILLUSTRATIVE part, for reports (``Param.describe`` of ``weapons``).

    Parameters
    ----------
    weapons : str
        ``"2013"`` or a path to a weapon file.
    cell : mapping, optional
        The cell's parameters (unused: the file alone says what it holds).

    Returns
    -------
    gamesim.core.registry.DataLabel
        The file's ``title``; ILLUSTRATIVE where any weapon is marked ``assumed`` (named in the text
        but never defined, so its numbers are a stand-in), those weapons named in ``note``.

    Raises
    ------
    ParamTypeError
        If ``weapons`` is not a string or path.
    DataError
        If the file is missing or fails validation (:func:`.data.load_weapons`).
    """
    ws = load_weapons(weapons)
    assumed = list(dict.fromkeys(w.name for m in ws.mechs for w in m.weapons if w.assumed))
    note = (f"ILLUSTRATIVE stand-ins (named in the text, never defined): {', '.join(assumed)}" if assumed else "")
    return DataLabel(ws.title or ws.source, bool(assumed), note)


#: The base rules (assumed, not from the rulebook) and the 2013 switches, as task parameters.
BASE_RULE_PARAMS: tuple[Param, ...] = (
    Param("check_reading", "str", "n_dice", _ASSUMED + "判定N = N dice, any 4-6 succeeds (1/2, 3/4) ('n_dice'), or one "
          "die succeeding on 6-N or more (1/3, 1/2) ('one_die')", choices=("n_dice", "one_die")),
    Param("hp_check", "str", "beat_armour", _ASSUMED + "格闘's HP-damage check (3 dice): 1 HP if more dice show 4-6 "
          "than the defender's armour ('beat_armour'), or if any die shows 6 ('any_six')",
          choices=("beat_armour", "any_six")),
    Param("counter_dice", "int", 1, _ASSUMED + "反撃 after a 格闘: dice the defender rolls, each 4-6 = 1 armour to the "
          "attacker", min=0, max=5),
    Param("start_armour", "int", 3, _ASSUMED + "armour (装甲) at the start", min=1, max=9),
    Param("start_hp", "int", 2, _ASSUMED + "HP at the start (0 HP loses)", min=1, max=9),
    Param("start_ki", "int", 0, _ASSUMED + "気力 at the start", min=0, max=9),
    Param("max_ki", "int", 5, _ASSUMED + "気力上限 (cap)", min=4, max=9),
    Param("max_distance", "int", 3, _ASSUMED + "distance track 0..max_distance", min=1, max=MAX_DISTANCE),
    Param("start_distance", "int", 2, _ASSUMED + "distance at the start", min=0, max=MAX_DISTANCE),
    Param("first", "str", "random", _ASSUMED + "who moves first: a coin toss ('random'), mech A or mech B",
          choices=("random", "a", "b")),
    Param("armour_on_strip", "str", "stay", _ASSUMED + "stripped armour stays 0 ('stay') or comes back at the "
          "mech's next turn ('reset')", choices=("stay", "reset")),
    Param("no_repeat", "bool", True, "2013 text: the same weapon cannot be used twice in a row (false: 2013 rule off)"),
    Param("strip_skip", "bool", True, "2013 text: a mech whose armour is stripped loses its next turn (false: off)"),
    Param("combos", "bool", True, "study switch: false ignores the combos (レオ ロケットジャンプ, ネルヴァ デュアルブレード)"),
    Param("max_turns", "int", 60, "turns (both mechs) before a running game is called a stalemate", min=1,
          max=MAX_TURNS),
)
_PLAYERS = (
    Param("rollout_k", "int", 8, "rollout player: random playouts per action", min=1, max=MAX_ROLLOUTS),
    Param("rollout_horizon", "int", 6, "rollout player: turns per playout after the action", min=0, max=MAX_HORIZON),
    Param("weapons", "str", BUILTIN_WEAPONS, "weapon file: \"2013\" (built in, the rulebook's lists) or a path to a "
          "TOML file in its format (relative to the scenario file)", file=True, describe=weapons_label),
)
_RULE_KEYS = tuple(p.name for p in BASE_RULE_PARAMS)


def rules_from_params(params: Mapping[str, Any]) -> MechParams:
    """The :class:`.rules.MechParams` of a resolved parameter dict (missing keys keep their defaults).

    Raises
    ------
    ParamError
        For values the rules refuse (e.g. ``start_distance`` beyond ``max_distance``).
    """
    return MechParams(**{k: params[k] for k in _RULE_KEYS if k in params})


def weapons_from_params(params: Mapping[str, Any]) -> WeaponSet:
    """The weapon set a resolved parameter dict names.

    Raises
    ------
    ParamError
        If ``weapons`` names a missing or invalid file (the message carries the file's own error,
        naming mech, weapon and field).
    """
    try:
        return load_weapons(params.get("weapons", BUILTIN_WEAPONS))
    except DataError as exc:
        raise ParamError("weapons", params.get("weapons"), f"a valid weapon file ({exc})") from exc


def _policy(params: Mapping[str, Any], key: str) -> Policy:
    if params[key] == "rollout":
        return RolloutPolicy(int(params["rollout_k"]), int(params["rollout_horizon"]))
    return make_policy(params[key], key)


def _mech(ws: WeaponSet, params: Mapping[str, Any], key: str) -> int:
    try:
        return ws.index(params[key])
    except DataError:
        raise ParamError(key, params[key], f"a mech of {ws.source}: {', '.join(ws.keys)}") from None


def _check_duel(params: Mapping[str, Any]) -> None:
    rules_from_params(params)
    ws = weapons_from_params(params)
    _mech(ws, params, "mech_a")
    _mech(ws, params, "mech_b")
    _policy(params, "policy_a")
    _policy(params, "policy_b")


def _duel_metrics(r: Mapping[str, npt.NDArray[np.int64]]) -> dict[str, npt.NDArray[Any]]:
    w = r["winner"]
    return {
        "a_won": w == 0, "b_won": w == 1, "stalemate": w == 2, "first_won": w == r["first"],
        "turns": r["turns"].astype(float), "strips": r["strips"].astype(float),
        "lost_turns": r["lost_turns"].astype(float),
        "a_hp_left": r["hp_a"].astype(float), "b_hp_left": r["hp_b"].astype(float),
    }


def _sim_duel(params: Mapping[str, Any], n_trials: int, *, rng: np.random.Generator) -> dict[str, npt.NDArray[Any]]:
    p = rules_from_params(params)
    ws = weapons_from_params(params)
    r = simulate(p, n_trials, rng=rng, mech_a=params["mech_a"], mech_b=params["mech_b"], weapons=ws,
                 policy_a=_policy(params, "policy_a"), policy_b=_policy(params, "policy_b"))
    return _duel_metrics(r)


def _bound(params: Mapping[str, Any], name: str) -> int:
    """``params[name]`` where it is a valid value of that base-rule parameter, else its default (the cell is
    checked elsewhere: the metrics are also listed for cells not yet checked)."""
    p = next(q for q in BASE_RULE_PARAMS if q.name == name)
    v = params.get(name, p.default)
    return v if isinstance(v, int) and not isinstance(v, bool) and p.min <= v <= p.max else p.default


def _duel_metric_list(params: Mapping[str, Any]) -> tuple[Metric, ...]:
    """The duel's metrics for a cell: HP left lies in 0..start_hp (HP only goes down), turns in 1..max_turns.

    The bounds set the range of the distribution tables and the rule-of-three interval of a cell whose
    games all end the same (e.g. mech B never keeps an HP): the cell's own range, not the parameters' caps.
    """
    hp = _bound(params, "start_hp")
    turns = _bound(params, "max_turns")
    return (
        Metric("a_won", "proportion", doc="mech A brought mech B to 0 HP"),
        Metric("b_won", "proportion", doc="mech B brought mech A to 0 HP"),
        Metric("stalemate", "proportion", doc="no winner after max_turns turns"),
        Metric("first_won", "proportion", doc="the mech that moved first won"),
        Metric("turns", "mean", quantiles=(0.1, 0.5, 0.9), doc="turns played, both mechs, lost turns included",
               bounds=(1, turns)),
        Metric("strips", "mean", doc="armours stripped to 0 in the game (both mechs)", bounds=(0, float("inf"))),
        Metric("lost_turns", "mean", doc="turns lost to stun or a stripped armour (both mechs)",
               bounds=(0, float("inf"))),
        Metric("a_hp_left", "mean", doc="mech A's HP at the end", bounds=(0, hp)),
        Metric("b_hp_left", "mean", doc="mech B's HP at the end", bounds=(0, hp)),
    )


DUEL_TASK = Task(
    name="duel",
    simulate=_sim_duel,
    metrics=_duel_metric_list,
    params=(
        Param("mech_a", "str", "oscar", "mech A: a key (oscar, jaeger, leo, volga, uranus, nerva, cocalias) or its "
              "Japanese name"),
        Param("mech_b", "str", "oscar", "mech B: a key or its Japanese name"),
        Param("policy_a", "str", "greedy", "mech A's player: random, greedy (best expected damage per 気力), rollout",
              choices=POLICY_NAMES),
        Param("policy_b", "str", "greedy", "mech B's player", choices=POLICY_NAMES),
    ) + _PLAYERS + BASE_RULE_PARAMS,
    check=_check_duel,
    doc="A duel of two mechs of メックアリーナ2013 (weapons from the 2013 text; base rules assumed, not from the "
        "rulebook): who wins, does the first player have an edge, how long do games last, do stalemates happen?",
)


def _pairs(n_mechs: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    a, b = np.meshgrid(np.arange(n_mechs), np.arange(n_mechs), indexing="ij")
    off = a != b
    return a[off].astype(np.int64), b[off].astype(np.int64)


def _league_metrics(params: Mapping[str, Any]) -> tuple[Metric, ...]:
    try:
        ws = weapons_from_params(params)
    except ParamError:
        ws = load_weapons()
    per = tuple(Metric(f"score_{m.key}", "mean", doc=f"{m.name}: wins + half the stalemates, share of its "
                       f"{2 * (len(ws.mechs) - 1)} games in a round", bounds=(0, 1)) for m in ws.mechs)
    return per + (
        Metric("first_won", "mean", doc="share of the round's games won by the mech that moved first", bounds=(0, 1)),
        Metric("stalemate", "mean", doc="share of the round's games with no winner after max_turns", bounds=(0, 1)),
        Metric("turns", "mean", doc="mean game length of the round (turns, both mechs)",
               bounds=(1, _bound(params, "max_turns"))),
        Metric("spread", "mean", doc="best minus worst mech score of the round (0: balanced)", bounds=(0, 1)),
    )


def _check_league(params: Mapping[str, Any]) -> None:
    rules_from_params(params)
    weapons_from_params(params)
    _policy(params, "policy")


def _sim_league(params: Mapping[str, Any], n_trials: int, *, rng: np.random.Generator
                ) -> dict[str, npt.NDArray[Any]]:
    p = rules_from_params(params)
    ws = weapons_from_params(params)
    nm = len(ws.mechs)
    pa, pb = _pairs(nm)
    n_pairs = pa.size
    pol = _policy(params, "policy")
    r = simulate_ids(p, np.tile(pa, n_trials), np.tile(pb, n_trials), rng=rng, tables=tables_for(ws),
                     policies=(pol, pol))
    w = r["winner"].reshape(n_trials, n_pairs)
    pts_a = np.where(w == 0, 1.0, np.where(w == 2, 0.5, 0.0))
    pts_b = 1.0 - pts_a
    out: dict[str, npt.NDArray[Any]] = {}
    scores = np.zeros((n_trials, nm))
    for i, m in enumerate(ws.mechs):
        scores[:, i] = (pts_a[:, pa == i].sum(axis=1) + pts_b[:, pb == i].sum(axis=1)) / (2 * (nm - 1))
        out[f"score_{m.key}"] = scores[:, i]
    out["first_won"] = (w == r["first"].reshape(n_trials, n_pairs)).mean(axis=1)
    out["stalemate"] = (w == 2).mean(axis=1)
    out["turns"] = r["turns"].reshape(n_trials, n_pairs).mean(axis=1)
    out["spread"] = scores.max(axis=1) - scores.min(axis=1)
    return out


LEAGUE_TASK = Task(
    name="league",
    simulate=_sim_league,
    metrics=_league_metrics,
    params=(Param("policy", "str", "greedy", "both mechs' player: random, greedy, rollout", choices=POLICY_NAMES),)
    + _PLAYERS + BASE_RULE_PARAMS,
    check=_check_league,
    doc="One round of every ordered pair of different mechs (42 duels for the 2013 seven): each mech's score, "
        "the first player's share of wins, stalemates and length. Repeated under each base-rule setting, it shows "
        "which conclusions about the mechs hold whatever the assumed base rules are.",
)

#: All tasks, by name.
TASKS: dict[str, Task] = {t.name: t for t in (DUEL_TASK, LEAGUE_TASK)}
