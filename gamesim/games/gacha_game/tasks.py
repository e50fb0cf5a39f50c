"""Sweepable tasks of ガッチャ ~God Chance~ as a whole game.

``game``: whole 4-round games (P(コンスリート) by round, winner share by seat and navi, shared
wins and the number of winners, outright wins by seat, UR cards at the end, how often the
ラストダンス decides, pulls per source).
``boss_attack``: one boss attack at a given health, with its exact values (a check of the
simulator against the d6).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from gamesim.core.registry import DataLabel, Metric, Param, ParamError, Task

from .data import DataError, load_data
from .policies import POLICIES
from .rules import N_ROUNDS, Attack, exact_attack
from .sim import BOSS_TARGETS, BOSS_USES, SOURCES, GameConfig, make_config, simulate

__all__ = ["GAME_TASK", "BOSS_ATTACK_TASK", "TASKS", "config_from_params"]

_SOURCE_DOC = {
    "weekday": "pulls from 🎰 icons of action and boss cards in weekday turns",
    "quest": "pulls from quest-track bonuses (incl. 周回数 × 3)",
    "boss": "pulls from boss attacks (health removed)",
    "saturday": "pulls of the 土曜ガチャ (rate-battle leaders)",
    "paid": "pulls bought with money in the 日曜フェイズ (課金ガチャ)",
    "event": "pulls from event cards",
    "navi": "pulls from navi cards' weekday effects",
    "overdrive": "pulls from Overdrive effects",
    "trigger": "pulls from chip triggers (on_sr / on_n effects of navi and event cards)",
}


def config_from_params(params: Mapping[str, Any]) -> GameConfig:
    """The :class:`.sim.GameConfig` of a resolved ``game`` parameter dict.

    Raises
    ------
    ParamError
        If a parameter is out of range, or ``data`` names a missing or invalid file
        (the message carries the data file's own error, naming card and field).
    """
    try:
        return make_config(n_players=params["n_players"], policy=params["policy"],
                           policy_seat1=params.get("policy_seat1"), expert=params["expert"],
                           doubtful=params["doubtful"], doubtful_k=params["doubtful_k"],
                           navi_seat1=params.get("navi_seat1"), boss_refill=params["boss_refill"],
                           data=params["data"], remove_action=params["remove_action"],
                           remove_boss=params["remove_boss"],
                           last_dance_zero_first=params["last_dance_zero_first"],
                           last_dance_consolete=params["last_dance_consolete"], boss_use=params["boss_use"],
                           boss_target=params["boss_target"], chip_triggers=params["chip_triggers"],
                           round_effects=params["round_effects"])
    except DataError as exc:
        raise ParamError("data", params["data"], f"a valid card-list file ({exc})") from exc


def _check_game(params: Mapping[str, Any]) -> None:
    config_from_params(params)


def _game_metrics(params: Mapping[str, Any]) -> tuple[Metric, ...]:
    P = int(params["n_players"])
    out = [Metric("consolete", "proportion", doc="the game ended by コンスリート (a slayer owns every UR character)")]
    out += [Metric(f"consolete_r{r}", "proportion", doc=f"コンスリート in round {r} or earlier") for r in range(1, N_ROUNDS + 1)]
    out.append(Metric("last_dance_decides", "proportion",
                      doc="the ラストダンス changed who has the most UR cards (winners differ from the leaders before it)"))
    out += [Metric(f"win_seat{i}", "mean", doc=f"win share of seat {i} (seat 1 = first start slayer; ties split)")
            for i in range(1, P + 1)]
    out.append(Metric("shared_win", "proportion", doc="the game ended with several winners (a tie for the most UR "
                      "cards: the rulebook has no tie-break)"))
    out += [Metric(f"n_winners_{k}", "proportion", doc=f"exactly {k} slayer{'s' if k > 1 else ''} share the win")
            for k in range(1, P + 1)]
    out += [Metric(f"win_outright_seat{i}", "proportion", doc=f"seat {i} is the only winner")
            for i in range(1, P + 1)]
    if not params["expert"]:
        try:
            names = load_data(params["data"]).navi_names
        except DataError:
            names = ()
        out += [Metric(f"win_navi{j}", "mean", doc=f"win share of the slayer holding navi {j} ({n}); 0 if not dealt")
                for j, n in enumerate(names, 1)]
    out += [Metric(f"ur_seat{i}", "mean", doc=f"UR cards of seat {i} at the end (cards)") for i in range(1, P + 1)]
    out.append(Metric("ur_winner", "mean", doc="UR cards of the winner at the end (cards; most among the slayers)"))
    out += [Metric(f"pulls_{s}", "mean", doc=_SOURCE_DOC[s] + " (pulls per game, all slayers)") for s in SOURCES]
    out.append(Metric("god_chances", "mean", doc="God Chances per game, all slayers: God Chance chips drawn plus "
                      "ラストダンス God Chances performed"))
    out.append(Metric("bosses", "mean", doc="boss cards captured per game"))
    out.append(Metric("ld_god_chances", "mean", doc="God Chances given by the ラストダンス per game, all slayers "
                      "(0 if the game ended before it)"))
    return tuple(out)


def _sim_game(params: Mapping[str, Any], n_trials: int, *, rng: np.random.Generator
              ) -> dict[str, npt.NDArray[Any]]:
    cfg = config_from_params(params)
    r = simulate(cfg, n_trials, rng=rng)
    out: dict[str, npt.NDArray[Any]] = {"consolete": r["consolete_round"] > 0}
    for rr in range(1, N_ROUNDS + 1):
        out[f"consolete_r{rr}"] = (r["consolete_round"] > 0) & (r["consolete_round"] <= rr)
    out["last_dance_decides"] = r["ld_decides"].astype(bool)
    n_win = (r["win"] > 0).sum(axis=1)
    out["shared_win"] = n_win > 1
    for k in range(1, cfg.n_players + 1):
        out[f"n_winners_{k}"] = n_win == k
    for i in range(cfg.n_players):
        out[f"win_seat{i + 1}"] = r["win"][:, i]
        out[f"win_outright_seat{i + 1}"] = r["win"][:, i] == 1.0
        out[f"ur_seat{i + 1}"] = r["ur"][:, i]
    if not cfg.expert:
        for j in range(len(cfg.data.navi_names)):
            out[f"win_navi{j + 1}"] = (r["win"] * (r["navi"] == j)).sum(axis=1)
    out["ur_winner"] = r["ur"].max(axis=1)
    for k, s in enumerate(SOURCES):
        out[f"pulls_{s}"] = r["pulls"][:, k]
    out["god_chances"] = r["god_chances"]
    out["bosses"] = r["bosses"]
    out["ld_god_chances"] = r["ld_god_chances"]
    return out


def data_label(data: str, cell: Mapping[str, Any] | None = None) -> DataLabel:
    """The title and ILLUSTRATIVE flag of a card-list file, for reports (``Param.describe`` of ``data``).

    Parameters
    ----------
    data : str
        ``"illustrative"`` or a path to a card-list TOML file.
    cell : mapping, optional
        The cell's parameters (unused: the file alone says what it holds).

    Returns
    -------
    gamesim.core.registry.DataLabel
        The file's ``title`` (its name where it has none) and its ``illustrative`` flag.

    Raises
    ------
    ParamTypeError
        If ``data`` is not a string or path.
    DataError
        If the file is missing or fails validation (:func:`.data.load_data`).
    """
    d = load_data(data)
    return DataLabel(d.title or d.source, d.illustrative)


GAME_PARAMS: tuple[Param, ...] = (
    Param("data", "str", "illustrative", "card lists and tracks: \"illustrative\" (built-in, invented stand-ins) "
          "or a path to a TOML file in the same format", file=True, describe=data_label),
    Param("n_players", "int", 4, "slayers (players), 2..4", min=2, max=4),
    Param("policy", "str", "greedy_pulls", "strategy of every slayer", choices=POLICIES),
    Param("policy_seat1", "str", None, "strategy of seat 1 (the first start slayer), if different",
          choices=POLICIES, optional=True),
    Param("navi_seat1", "str", None, "navi card given to seat 1 (a character name of the data); others random",
          optional=True),
    Param("expert", "bool", False, "エキスパートモード: no navi cards (no navi effects, no Overdrive)"),
    Param("doubtful", "bool", False, "疑惑の運営モード: chips secretly removed at every bag creation"),
    Param("doubtful_k", "int_list", [3, 4], "doubtful mode: possible numbers of removed chips, uniform (chips)",
          min=0, max=100),
    Param("remove_action", "str", "none", "take every copy of this action card (a name in the data) out of "
          "the game; \"none\" keeps all"),
    Param("remove_boss", "str", "none", "take this boss card (a name in the data) out of the raid boss deck; "
          "\"none\" keeps all"),
    Param("boss_refill", "bool", False, "reveal the next raid boss when a capture empties the raid boss area "
          "(false, the text: only 🐱 reveals a raid boss)"),
    Param("last_dance_zero_first", "bool", True, "ラストダンス: a tie at 0 is a first place for all (true, the "
          "text); false: a first place needs more than 0"),
    Param("last_dance_consolete", "bool", True, "completing the set in the ラストダンス wins at once (true); "
          "false: the ラストダンス is played out and most UR cards win"),
    Param("boss_use", "str", "round", "a used boss card stays usable until the round ends (round) or is "
          "spent when played (once)", choices=BOSS_USES),
    Param("boss_target", "str", "choose", "which raid boss an attack hits: the one the attacker's policy values "
          "most (choose) or the first in the area (first)", choices=BOSS_TARGETS),
    Param("chip_triggers", "bool", True, "play the cards' SR / N chip triggers (on_sr, on_n); false: every SR "
          "and N chip is はずれ"),
    Param("round_effects", "bool", True, "play the cards' round-scoped effects (round, overdrive_round: 課金 "
          "rates, Saturday table, bag until the round ends); false: the default tables (an event's bag kept)"),
)

GAME_TASK = Task(
    name="game",
    simulate=_sim_game,
    metrics=_game_metrics,
    params=GAME_PARAMS,
    check=_check_game,
    doc="Whole 4-round games: event, action cards (5 each, drafted), navi effects, 5 weekday turns, "
        "土曜ガチャ for the rate leaders, 課金ガチャ on Sunday; コンスリート ends the game, else the "
        "ラストダンス and most UR cards win. How often コンスリート, who wins, where the pulls come from?",
)


def _sim_attack(params: Mapping[str, Any], n_trials: int, *, rng: np.random.Generator
                ) -> dict[str, npt.NDArray[Any]]:
    kind, h = params["kind"], int(params["health"])
    roll = rng.integers(1, 7, n_trials)
    dmg = 2 * roll if kind == "double" else roll
    pulls = np.minimum(dmg, h)
    cap = pulls >= h
    if kind == "critical":
        cap |= roll == 6
        pulls = np.where(roll == 6, 6, pulls)
    return {"pulls": pulls, "captured": cap}


def _exact_attack(params: Mapping[str, Any]) -> dict[str, float]:
    e, p = exact_attack(Attack[params["kind"].upper()], int(params["health"]))
    return {"pulls:mean": float(e), "captured:proportion": float(p)}


BOSS_ATTACK_TASK = Task(
    name="boss_attack",
    simulate=_sim_attack,
    metrics=(Metric("pulls", "mean", doc="pulls gained = health removed (critical 6: 6)"),
             Metric("captured", "proportion", doc="the boss card is won")),
    params=(Param("kind", "str", "normal", "attack icon: normal, critical, double",
                  choices=("normal", "critical", "double")),
            Param("health", "int", 3, "raid boss's remaining health", min=1, max=60)),
    exact=_exact_attack,
    doc="One boss attack (💥) on a raid boss with the given health: pulls and capture, with exact values from the d6.",
)

TASKS: dict[str, Task] = {t.name: t for t in (GAME_TASK, BOSS_ATTACK_TASK)}
