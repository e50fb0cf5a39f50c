"""Sweepable task of 神の怒り (registered as game ``"kami_no_ikari"``).

``game``
    Whole games: who wins by seat (the start player's edge), game length, who collapses a
    tower (神の怒り) and what it costs them, the 摩天カウンター and the road, the smoking room
    (forced or chosen), scores; one player set for every seat, or one ``hero`` player
    rotated round a table of others (how much skill matters).

No exact solver for whole games (hidden hands, up to four players): :mod:`.exact` covers hand
scoring, and the tests compare the simulator with the plain-Python reference.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from gamesim.core.registry import DataLabel, Metric, Param, ParamError, Task

from .policies import make_policy
from .rules import BUILTIN_BOARD, COPIES, MAX_TURNS, KamiParams, load_board
from .sim import simulate

__all__ = ["TASKS", "GAME_TASK", "rules_from_params", "policies_from_params", "game_metrics"]

_RULE_KEYS = ("n_players", "board", "mate_counter", "road", "collapse_doubled", "deck_out", "ties", "smoke_by_choice",
              "board_players", "remove_line")


def board_label(board: str, cell: Mapping[str, Any] | None = None) -> DataLabel:
    """The title and ILLUSTRATIVE flag of a board file, for reports (``Param.describe`` of ``board``).

    Parameters
    ----------
    board : str
        ``"illustrative"`` or a path to a board file.
    cell : mapping, optional
        The cell's parameters (unused: the file alone says what it holds).

    Returns
    -------
    gamesim.core.registry.DataLabel
        The file's ``title``; ILLUSTRATIVE where the file says so or any line is marked
        ``illustrative``, with those lines named in ``note`` (numbers as on the board, e.g. ``1-3``).

    Raises
    ------
    ParamError
        If the file is missing or fails validation (:func:`.rules.load_board`).
    """
    b = load_board(board)
    invented = [f"{x + 1}-{y + 1}" for (x, y), s in zip(b.lines, b.status) if s == "illustrative"]
    note = f"ILLUSTRATIVE lines (not from the rulebook): {', '.join(invented)}" if invented else ""
    return DataLabel(b.title or b.source, b.illustrative or bool(invented), note)


GAME_PARAMS: tuple[Param, ...] = (
    Param("n_players", "int", 4, "players, 2..4 (seat 0 is the start player)", min=2, max=4),
    Param("board", "str", BUILTIN_BOARD, "board file: \"illustrative\" (built in: the text's lines + ILLUSTRATIVE "
          "ones) or a path to a board .toml (relative to the scenario file)", file=True, describe=board_label),
    Param("policy", "str", "greedy", "player at every seat (or every seat but the hero's): random, greedy, "
          "chicken:d (never raises a tower above d cards, d = 1..5), rollout:k (determinized Monte Carlo, k worlds)"),
    Param("hero", "str", None, "one player of this kind rotated round the table of `policy` players "
          "(hero_win_share); unset: every seat plays `policy`", optional=True),
    Param("mate_counter", "bool", True, "the first tower to reach 3 cards gets the 摩天カウンター (points doubled)"),
    Param("road", "bool", True, "the 摩天 player builds a road (道コマ), a new line"),
    Param("collapse_doubled", "bool", True, "the −1 of a 5-card tower doubles (−2) on the 摩天 tower"),
    Param("deck_out", "str", "end", "deck empty at a turn's start: the game ends ('end') or the player skips the "
          "draw ('play_on')", choices=("end", "play_on")),
    Param("ties", "str", "shared", "equal best hands: a shared win ('shared') or the later seat wins ('later_seat')",
          choices=("shared", "later_seat")),
    Param("smoke_by_choice", "bool", True, "the smoking room may be chosen while a line is free (置きたくない場合)"),
    Param("board_players", "int", None, "play on the board of this player count instead (e.g. 2: no 3-4 line)",
          min=2, max=4, optional=True),
    Param("remove_line", "int", -1, "leave out this board-file line (0-based, file order); -1 none", min=-1, max=63),
)


def rules_from_params(params: Mapping[str, Any]) -> KamiParams:
    """The :class:`KamiParams` of a resolved parameter dict (keys it lacks keep their defaults).

    Raises
    ------
    ParamError, ParamTypeError
        For values the rules refuse (including a board file that cannot be used).
    """
    return KamiParams(**{k: params[k] for k in _RULE_KEYS if k in params})


def policies_from_params(params: Mapping[str, Any]) -> tuple[list[str], bool]:
    """The players by seat (first = the hero if any) and whether they rotate round the table.

    Raises
    ------
    ParamError, ParamTypeError
        For an unknown player spec.
    """
    n = int(params.get("n_players", 4))
    pol = params.get("policy", "greedy")
    make_policy(pol)
    hero = params.get("hero")
    if hero is None:
        return [pol] * n, False
    try:
        make_policy(hero)
    except ParamError as exc:
        raise ParamError("hero", hero, exc.allowed) from None
    return [hero] + [pol] * (n - 1), True


def _check(params: Mapping[str, Any]) -> None:
    rules_from_params(params)
    policies_from_params(params)


def game_metrics(params: Mapping[str, Any]) -> tuple[Metric, ...]:
    """The metrics of one cell: the fixed ones, plus a win share per seat of its player count."""
    n = int(params.get("n_players", 4))
    seats = tuple(Metric(f"seat{i}_win_share", "mean", bounds=(0, 1),
                         doc=f"win share of seat {i} (turn order from the start player = seat 0; a shared win "
                             "counts 1/k to each of k winners; fair share 1/n_players)") for i in range(n))
    return (
        Metric("start_edge", "mean", bounds=(-1, 1), doc="start player's win share minus the fair 1/n: the "
               "start-player advantage"),
        Metric("start_won", "proportion", doc="the start player won alone"),
    ) + seats + (
        Metric("hero_win_share", "mean", bounds=(0, 1), doc="win share of the hero player (rotated round the table; "
               "without a hero: the start player)"),
        Metric("shared_tie", "proportion", doc="the best hand value was shared (no single winner)"),
        Metric("turns", "mean", quantiles=(0.1, 0.5, 0.9), bounds=(0, MAX_TURNS), doc="game length: moves made"),
        Metric("collapse", "proportion", doc="the game ended by a tower's 5th card (神の怒り), not by the deck"),
        Metric("trigger_start", "proportion", doc="the start player placed the 5th card"),
        Metric("trigger_won", "proportion", doc="the player who placed the 5th card won (alone or shared)"),
        Metric("trigger_change", "mean", doc="the collapsing move's change of its player's own hand value "
               "(points; 0 when the deck ended the game)"),
        Metric("trigger_margin", "mean", doc="the collapsing player's final score minus the best other score "
               "(points; 0 when the deck ended the game)"),
        Metric("winning_score", "mean", quantiles=(0.05, 0.25, 0.5, 0.75, 0.95), doc="best hand value (points)"),
        Metric("score", "mean", quantiles=(0.05, 0.25, 0.5, 0.75, 0.95),
               doc="the start player's hand value (points): the score distribution"),
        Metric("winning_margin", "mean", bounds=(0, np.inf), doc="best minus second-best hand value (points)"),
        Metric("mate_placed", "proportion", doc="a tower reached 3 cards and got the 摩天カウンター"),
        Metric("mate_won", "proportion", doc="the player who placed the 摩天カウンター won (alone or shared)"),
        Metric("road_built", "proportion", doc="a road (道コマ) was built"),
        Metric("smoke_forced", "mean", bounds=(0, 5 * COPIES), doc="smoking-room discards with no line possible, all "
               "players (cards per game)"),
        Metric("smoke_chosen", "mean", bounds=(0, 5 * COPIES), doc="smoking-room discards while a line was free, all "
               "players (cards per game)"),
        Metric("any_forced", "proportion", doc="someone was forced into the smoking room"),
    )


def _sim_game(params: Mapping[str, Any], n_trials: int, *, rng: np.random.Generator
              ) -> dict[str, npt.NDArray[Any]]:
    p = rules_from_params(params)
    pols, rotate = policies_from_params(params)
    r = simulate(p, n_trials, rng=rng, policies=pols, rotate=rotate)
    n, P = r["scores"].shape
    rows = np.arange(n)
    share = r["top"] / r["top"].sum(axis=1, keepdims=True)
    sc = r["scores"].astype(float)
    srt = np.sort(sc, axis=1)
    coll = r["collapse"]
    trig = np.where(coll, r["trigger"], 0).astype(np.intp)
    others = np.where(np.arange(P)[None, :] == trig[:, None], -np.inf, sc).max(axis=1)
    mate_seat = np.where(r["mate"] >= 0, r["mate_seat"], 0).astype(np.intp)
    out: dict[str, npt.NDArray[Any]] = {
        "start_edge": share[:, 0] - 1.0 / P,
        "start_won": r["winner"] == 0,
        "hero_win_share": share[rows, r["first_seat"].astype(np.intp)],
        "shared_tie": r["winner"] < 0,
        "turns": r["turns"].astype(float),
        "collapse": coll,
        "trigger_start": r["trigger"] == 0,
        "trigger_won": coll & r["top"][rows, trig],
        "trigger_change": np.where(coll, r["trigger_change"], 0).astype(float),
        "trigger_margin": np.where(coll, sc[rows, trig] - others, 0.0),
        "winning_score": srt[:, -1],
        "score": sc[:, 0],
        "winning_margin": srt[:, -1] - srt[:, -2],
        "mate_placed": r["mate"] >= 0,
        "mate_won": (r["mate"] >= 0) & r["top"][rows, mate_seat],
        "road_built": r["road"] >= 0,
        "smoke_forced": r["smoke_forced"].sum(axis=1).astype(float),
        "smoke_chosen": r["smoke_chosen"].sum(axis=1).astype(float),
        "any_forced": r["smoke_forced"].sum(axis=1) > 0,
    }
    for i in range(P):
        out[f"seat{i}_win_share"] = share[:, i]
    return out


GAME_TASK = Task(
    name="game",
    simulate=_sim_game,
    metrics=game_metrics,
    params=GAME_PARAMS,
    check=_check,
    doc="神の怒り (#27): build five towers by moving a worker onto the board's lines and playing a card from "
        "the hand; the first tower to 3 cards gets the 摩天カウンター (double points) and its builder a road; a "
        "tower's 5th card ends the game (神の怒り) and makes its number's cards −1. Highest hand value wins. Who "
        "wins by seat, how long games last, who collapses a tower and at what cost, what the 摩天 counter, the "
        "road and the smoking room do, and how much a stronger player gains.",
)

#: All tasks, by name.
TASKS: dict[str, Task] = {GAME_TASK.name: GAME_TASK}
