"""Sweepable tasks of ガッチャ ~God Chance~ for :mod:`gamesim.core.sweep`.

Every task takes the common bag/character/mode parameters (:data:`COMMON_PARAMS`)
plus its own, returns one value per trial per metric, and gives exact values
(keys ``"<metric>:<statistic>"``) whenever Overdrive is off.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from functools import lru_cache

from gamesim.core.registry import Metric, Param, ParamError, Task
from gamesim.core.validate import check_bool, check_choice, check_int, check_int_list

from .exact import (
    exact_completion_curve,
    exact_completion_probability,
    exact_expected_characters_owned,
    exact_expected_god_chances,
    exact_god_chance_pmf,
    exact_pulls_to_complete,
    exact_shared,
)
from .purchase import PurchasePlan, best_purchase_plan, run_purchase_plan
from .rules import (
    MAX_BUNDLE_VALUE,
    MAX_BUNDLES,
    MAX_CHARACTERS,
    MAX_CHIPS,
    MAX_GOD_CHANCE_CHIPS,
    MAX_MONEY,
    MAX_OVERDRIVE_PULLS,
    MAX_SESSION_PULLS,
    MAX_SESSIONS,
    BagConfig,
    DoubtfulConfig,
    GachaParams,
    best_bundle_mix,
    check_config,
    normalize_bundles,
    split_sessions,
)
from .sim import MAX_PTC_SESSIONS, run_pulls_to_complete, run_shared, simulate

__all__ = [
    "COMMON_PARAMS",
    "SCHEDULE_TASK",
    "PULLS_TO_COMPLETE_TASK",
    "MONEY_TASK",
    "SHARED_TASK",
    "TASKS",
    "bag_from_params",
    "doubtful_from_params",
    "overdrive_from_params",
    "check_common",
    "schedule_sessions",
    "money_plan",
]

COMMON_PARAMS: tuple[Param, ...] = (
    Param("bag_god_chance", "int", 1, "God Chance chips in a full bag (chips)", min=0, max=MAX_GOD_CHANCE_CHIPS),
    Param("bag_sr", "int", 5, "SR chips in a full bag (chips)", min=0, max=MAX_CHIPS),
    Param("bag_n", "int", 44, "N chips in a full bag (chips)", min=0, max=MAX_CHIPS),
    Param("bag_total", "int", None, "optional check: total chips in a full bag (chips); must equal "
          "bag_god_chance + bag_sr + bag_n", min=1, max=MAX_GOD_CHANCE_CHIPS + 2 * MAX_CHIPS, optional=True),
    Param("n_characters", "int", 5, "God Chance cards / UR characters to collect (characters)", min=1,
          max=MAX_CHARACTERS),
    Param("doubtful", "bool", False, "疑惑の運営モード: chips secretly removed at every bag creation"),
    Param("doubtful_k", "int_list", [3, 4], "doubtful mode: possible numbers of removed chips, "
          "uniform (chips)", min=0, max=MAX_GOD_CHANCE_CHIPS + 2 * MAX_CHIPS),
    Param("overdrive", "bool", False, "Overdrive: every player has a navi card (the rulebook's normal mode; "
          "the built-in study sets true); false = エキスパートモード (no navi). Default false so that a bare "
          "cell has exact values (the exact solvers do not model Overdrive)"),
    Param("overdrive_pulls", "int", 10, "Overdrive extra pulls per trigger (pulls). Every navi character is "
          "modelled with みやび's effect (●：10), the only navi effect in the seed", min=1,
          max=MAX_OVERDRIVE_PULLS),
)


def bag_from_params(params: Mapping[str, Any]) -> BagConfig:
    """The :class:`BagConfig` of a resolved parameter dict.

    Raises
    ------
    ParamTypeError, ParamError
        If a chip count is not an integer in range (names the ``bag_*`` key).
    """
    counts = {k: check_int(k, params[k], min=0) for k in ("bag_god_chance", "bag_sr", "bag_n")}
    try:
        return BagConfig(counts["bag_god_chance"], counts["bag_sr"], counts["bag_n"])
    except ParamError as e:
        key = {"n_god_chance": "bag_god_chance", "n_sr": "bag_sr", "n_n": "bag_n"}.get(e.key, e.key)
        raise type(e)(key, e.value, e.allowed) from None


def doubtful_from_params(params: Mapping[str, Any]) -> DoubtfulConfig | None:
    """The :class:`DoubtfulConfig` (or None when ``doubtful`` is false).

    Raises
    ------
    ParamTypeError, ParamError
        If ``doubtful`` is not a bool or ``doubtful_k`` not a non-empty list of integers >= 0.
    """
    ks = check_int_list("doubtful_k", params["doubtful_k"], min=0, max=MAX_GOD_CHANCE_CHIPS + 2 * MAX_CHIPS,
                        max_len=20)
    if not check_bool("doubtful", params["doubtful"]):
        return None
    return DoubtfulConfig(tuple(ks))


def overdrive_from_params(params: Mapping[str, Any]) -> int | None:
    """Overdrive pulls per trigger, or None when ``overdrive`` is false.

    Raises
    ------
    ParamTypeError, ParamError
        If ``overdrive`` is not a bool or ``overdrive_pulls`` not an integer in range.
    """
    op = check_int("overdrive_pulls", params["overdrive_pulls"], min=1, max=MAX_OVERDRIVE_PULLS)
    return op if check_bool("overdrive", params["overdrive"]) else None


def check_common(params: Mapping[str, Any]) -> None:
    """Checks of the common parameters, single and cross-field.

    Raises
    ------
    ParamTypeError
        A value of the wrong type (a float or bool for an integer, ...).
    ParamError
        ``bag_*`` out of range; ``bag_total`` when the chips add up to 0 or differ from
        a given ``bag_total``; ``doubtful_k`` empty, negative, or (in doubtful mode)
        with a value >= the bag total; ``n_characters`` or ``overdrive_pulls`` out of
        range, or an Overdrive chain that could grow without end
        (:func:`~gamesim.games.gacha.rules.check_config`).
    """
    for key in ("bag_god_chance", "bag_sr", "bag_n"):
        check_int(key, params[key], min=0)
    total = int(params["bag_god_chance"]) + int(params["bag_sr"]) + int(params["bag_n"])
    given = params.get("bag_total")
    if given is not None and check_int("bag_total", given, min=1) != total:
        raise ParamError("bag_total", given,
                         f"bag_god_chance + bag_sr + bag_n = {total} (chip counts that don't add up)")
    if total < 1:
        raise ParamError("bag_total", total, "at least 1 chip in the bag (bag_god_chance + bag_sr + bag_n >= 1)")
    bag = bag_from_params(params)
    n = check_int("n_characters", params["n_characters"], min=1, max=MAX_CHARACTERS)
    d = doubtful_from_params(params)
    if d is not None and d.k_max >= total:
        raise ParamError("doubtful_k", list(params["doubtful_k"]),
                         f"values < the bag total {total} (a bag must keep a chip)")
    check_config(bag, n, d, overdrive_from_params(params))


def _kw(params: Mapping[str, Any]) -> dict[str, Any]:
    return dict(bag=bag_from_params(params), n_characters=int(params["n_characters"]),
                doubtful=doubtful_from_params(params), overdrive_pulls=overdrive_from_params(params))


def _setup(params: Mapping[str, Any]) -> GachaParams:
    """The :class:`GachaParams` (bag, characters, 疑惑の運営モード, Overdrive) of a resolved parameter dict."""
    return GachaParams(**_kw(params))


# ---------------------------------------------------------------------------
# schedule
# ---------------------------------------------------------------------------


#: Most total pulls of a ``schedule`` cell.
MAX_TOTAL_PULLS: int = 1_000_000


def schedule_sessions(params: Mapping[str, Any]) -> list[int]:
    """Session sizes of the ``schedule`` task: ``sessions`` or ``total_pulls`` split by ``session_size``.

    Raises
    ------
    ParamTypeError, ParamError
        If ``sessions`` is not a list of 1..10000 session sizes in 1..10000 pulls, or
        ``total_pulls``/``session_size`` are not integers in range (at most 10000 sessions).
    """
    if params.get("sessions") is not None:
        return check_int_list("sessions", params["sessions"], min=1, max=MAX_SESSION_PULLS, max_len=MAX_SESSIONS)
    return split_sessions(params["total_pulls"], params["session_size"])


def _check_schedule(params: Mapping[str, Any]) -> None:
    check_common(params)
    if params.get("sessions") is not None:
        check_int_list("sessions", params["sessions"], min=1, max=MAX_SESSION_PULLS, max_len=MAX_SESSIONS)
    check_int("session_size", params["session_size"], min=1, max=MAX_SESSION_PULLS)
    check_int("total_pulls", params["total_pulls"], min=1, max=MAX_TOTAL_PULLS)
    schedule_sessions(params)


def _sim_schedule(params: Mapping[str, Any], n_trials: int, *, rng: np.random.Generator
                  ) -> dict[str, npt.NDArray[Any]]:
    r = simulate(_setup(params), n_trials, rng=rng, sessions=schedule_sessions(params))
    return {k: r[k] for k in ("god_chances", "complete", "characters_owned", "sr_drawn")}


def _exact_schedule_like(sessions: list[int], params: Mapping[str, Any]) -> dict[str, float]:
    kw = _kw(params)
    if kw["overdrive_pulls"] is not None:
        return {}
    bag, n, d = kw["bag"], kw["n_characters"], kw["doubtful"]
    return {
        "god_chances:mean": exact_expected_god_chances(sessions, bag=bag, doubtful=d),
        "complete:proportion": exact_completion_probability(sessions, bag=bag, n_characters=n, doubtful=d),
        "characters_owned:mean": exact_expected_characters_owned(sessions, bag=bag, n_characters=n, doubtful=d),
    }


#: Most sessions for which a cell's exact God Chance PMF is computed (the report's exact curve and
#: event metrics such as ``at_least(god_chances, 3)``); its cost grows with sessions x width: 200 one-pull
#: sessions take 0.02 s, 500 take 1.2 s (CPU). Longer schedules keep their exact mean.
MAX_PMF_SESSIONS: int = 200


def _exact_schedule(params: Mapping[str, Any]) -> dict[str, float]:
    sessions = schedule_sessions(params)
    out = _exact_schedule_like(sessions, params)
    if out and len(sessions) <= MAX_PMF_SESSIONS:
        kw = _kw(params)
        try:
            pmf = exact_god_chance_pmf(sessions, bag=kw["bag"], doubtful=kw["doubtful"])
        except ParamError:  # beyond the exact solver's work budget: the mean stays exact
            return out
        out.update({f"god_chances:pmf={g}": float(q) for g, q in enumerate(pmf)})
    return out


SCHEDULE_TASK = Task(
    name="schedule",
    simulate=_sim_schedule,
    metrics=(
        Metric("god_chances", "mean", doc="God Chances obtained (God Chance chips drawn)"),
        Metric("complete", "proportion", doc="コンスリート: all UR characters owned"),
        Metric("characters_owned", "mean", doc="UR characters owned (characters)"),
        Metric("sr_drawn", "mean", doc="SR chips drawn (chips)"),
    ),
    params=COMMON_PARAMS + (
        Param("session_size", "int", 10, "pulls per session (pulls)", min=1, max=MAX_SESSION_PULLS),
        Param("total_pulls", "int", 100, "total scheduled pulls, last session shorter (pulls; at most "
              f"{MAX_SESSIONS} sessions)", min=1, max=MAX_TOTAL_PULLS),
        Param("sessions", "int_list", None, "explicit session sizes, overriding session_size and "
              f"total_pulls (pulls; at most {MAX_SESSIONS} sessions)", min=1, max=MAX_SESSION_PULLS,
              optional=True),
    ),
    exact=_exact_schedule,
    check=_check_schedule,
    doc="One player pulls a schedule of sessions from a fresh bag: how many God Chances, how "
        "many UR characters, how often コンスリート?",
)


# ---------------------------------------------------------------------------
# pulls_to_complete
# ---------------------------------------------------------------------------


#: Most ``max_pulls`` of a ``pulls_to_complete`` cell.
MAX_PTC_PULLS: int = 1_000_000


def _check_ptc(params: Mapping[str, Any]) -> None:
    check_common(params)
    size = check_int("session_size", params["session_size"], min=1, max=MAX_SESSION_PULLS)
    mp = check_int("max_pulls", params["max_pulls"], min=1, max=MAX_PTC_PULLS)
    if mp // size > MAX_PTC_SESSIONS:
        raise ParamError("max_pulls", mp, f"at most {MAX_PTC_SESSIONS} sessions of session_size = {size} "
                         f"(max_pulls <= {MAX_PTC_SESSIONS * size})")


def _sim_ptc(params: Mapping[str, Any], n_trials: int, *, rng: np.random.Generator
             ) -> dict[str, npt.NDArray[Any]]:
    r = run_pulls_to_complete(int(params["session_size"]), n_trials, max_pulls=int(params["max_pulls"]),
                              rng=rng, **_kw(params))
    return {"pulls_to_complete": r["pulls_to_complete"], "completed": r["completed"]}


def _exact_ptc(params: Mapping[str, Any]) -> dict[str, float]:
    kw = _kw(params)
    if kw["overdrive_pulls"] is not None:
        return {}
    r = exact_pulls_to_complete(int(params["session_size"]), bag=kw["bag"], n_characters=kw["n_characters"],
                                doubtful=kw["doubtful"], quantiles=(0.5, 0.9),
                                max_pulls=int(params["max_pulls"]))
    out = {
        "pulls_to_complete:q50": r["q50"],
        "pulls_to_complete:q90": r["q90"],
        "pulls_to_complete:mean": r["mean"],
        "completed:proportion": r["completed"],
    }
    size = int(params["session_size"])
    n_sessions = int(params["max_pulls"]) // size
    if 1 <= n_sessions <= MAX_PTC_PMF_SESSIONS and kw["bag"].n_god_chance > 0:
        # P(X = j * size) = P(complete after session j) - P(after j - 1); the rest (not within max_pulls) is
        # censored, as the simulator's NaN
        curve = exact_completion_curve([size] * n_sessions, bag=kw["bag"], n_characters=kw["n_characters"],
                                       doubtful=kw["doubtful"])
        pmf = np.diff(np.concatenate([[0.0], curve]))
        out.update({f"pulls_to_complete:pmf={(j + 1) * size}": float(max(q, 0.0)) for j, q in enumerate(pmf)})
    return out


#: Most sessions for which a cell's exact pulls-to-complete PMF is computed: one DP pass over the schedule,
#: 0.03 s (CPU) for 1,000 sessions of 5 pulls, 0.2 s for 5,000 of 1.
MAX_PTC_PMF_SESSIONS: int = 5000


PULLS_TO_COMPLETE_TASK = Task(
    name="pulls_to_complete",
    simulate=_sim_ptc,
    metrics=(
        Metric("pulls_to_complete", "mean", quantiles=(0.5, 0.9),
               doc="scheduled pulls paid until コンスリート, at session granularity, free Overdrive "
                   "pulls not counted (pulls; NaN = not within max_pulls)"),
        Metric("completed", "proportion", doc="コンスリート within max_pulls"),
    ),
    params=COMMON_PARAMS + (
        Param("session_size", "int", 10, "pulls per session (pulls)", min=1, max=MAX_SESSION_PULLS),
        Param("max_pulls", "int", 2000, f"cap on scheduled pulls (pulls; at most {MAX_PTC_SESSIONS} sessions)",
              min=1, max=MAX_PTC_PULLS),
    ),
    exact=_exact_ptc,
    check=_check_ptc,
    doc="One player pulls sessions of a fixed size until コンスリート: how many pulls does it take?",
)


# ---------------------------------------------------------------------------
# money (課金ガチャ)
# ---------------------------------------------------------------------------


def _bundles(params: Mapping[str, Any]) -> tuple[tuple[int, int], ...]:
    return tuple((b.cost, b.pulls) for b in normalize_bundles(params["bundles"]))


def _check_money(params: Mapping[str, Any]) -> None:
    check_common(params)
    check_int("money", params["money"], min=0, max=MAX_MONEY)
    if not _bundles(params):
        raise ParamError("bundles", params["bundles"], "a non-empty list of [money, pulls] pairs, each >= 1")
    check_bool("one_session", params["one_session"])
    check_choice("objective", params["objective"], OBJECTIVES)


OBJECTIVES = ("god_chances", "complete")


@lru_cache(maxsize=64)
def _plan(money: int, bundles: tuple[tuple[int, int], ...], bag: BagConfig, doubtful: DoubtfulConfig | None,
          n_characters: int, objective: str) -> PurchasePlan:
    return best_purchase_plan(money, bundles, bag=bag, doubtful=doubtful, n_characters=n_characters,
                              objective=objective)  # type: ignore[arg-type]


def money_plan(params: Mapping[str, Any]) -> PurchasePlan:
    """The optimal purchase plan of a ``money`` cell (each purchase its own session).

    Raises
    ------
    ParamTypeError, ParamError
        If a parameter is invalid (see :func:`~gamesim.games.gacha.purchase.best_purchase_plan`).
    """
    kw = _kw(params)
    return _plan(check_int("money", params["money"], min=0, max=MAX_MONEY), _bundles(params), kw["bag"],
                 kw["doubtful"], kw["n_characters"], check_choice("objective", params["objective"], OBJECTIVES))


def _sim_money(params: Mapping[str, Any], n_trials: int, *, rng: np.random.Generator
               ) -> dict[str, npt.NDArray[Any]]:
    if params["one_session"]:
        mix = best_bundle_mix(params["money"], _bundles(params))
        sessions = [mix.pulls] if mix.pulls > 0 else []
        r = simulate(_setup(params), n_trials, rng=rng, sessions=sessions)
        return {
            "pulls": np.full(n_trials, mix.pulls, dtype=np.int64),
            "money_spent": np.full(n_trials, mix.money_spent, dtype=np.int64),
            "purchases": np.full(n_trials, len(sessions), dtype=np.int64),
            "god_chances": r["god_chances"],
            "complete": r["complete"],
        }
    r = run_purchase_plan(money_plan(params), n_trials, rng=rng, overdrive_pulls=overdrive_from_params(params))
    return {k: r[k] for k in ("pulls", "money_spent", "purchases", "god_chances", "complete")}


def _exact_money(params: Mapping[str, Any]) -> dict[str, float]:
    od = overdrive_from_params(params) is not None
    if params["one_session"]:
        mix = best_bundle_mix(params["money"], _bundles(params))
        out = {"pulls:mean": float(mix.pulls), "money_spent:mean": float(mix.money_spent),
               "purchases:mean": float(mix.pulls > 0)}
        ex = {} if od else _exact_schedule_like([mix.pulls] if mix.pulls > 0 else [], params)
        if ex:
            out["god_chances:mean"] = ex["god_chances:mean"]
            out["complete:proportion"] = ex["complete:proportion"]
        return out
    plan = money_plan(params)
    if od:  # the plan reacts to the bag, which Overdrive changes: nothing is exact
        return {}
    return {"pulls:mean": plan.pulls, "money_spent:mean": plan.money_spent, "purchases:mean": plan.purchases,
            "god_chances:mean": plan.god_chances, "complete:proportion": plan.complete}


MONEY_TASK = Task(
    name="money",
    simulate=_sim_money,
    metrics=(
        Metric("pulls", "mean", doc="pulls bought (pulls; Overdrive pulls not counted)"),
        Metric("money_spent", "mean", doc="money paid (money)"),
        Metric("purchases", "mean", doc="purchases made, each its own pull session"),
        Metric("god_chances", "mean", doc="God Chances from the purchases"),
        Metric("complete", "proportion", doc="コンスリート after the purchases"),
    ),
    params=COMMON_PARAMS + (
        Param("money", "int", 25, "money spent on 課金ガチャ (money)", min=0, max=MAX_MONEY),
        Param("bundles", "int_pairs", [[2, 1], [10, 12], [15, 25]],
              f"課金ガチャ rates as [money, pulls] pairs, each usable any number of times (at most {MAX_BUNDLES})",
              min=1, max=MAX_BUNDLE_VALUE),
        Param("one_session", "bool", False,
              "alternative reading: buy the mix with the most pulls and pull it as ONE session; default false = "
              "the rulebook's 日曜フェイズ, each purchase its own session, following the optimal plan"),
        Param("objective", "str", "god_chances",
              "what the purchase plan maximises: expected God Chances or P(コンスリート)", choices=OBJECTIVES),
    ),
    exact=_exact_money,
    check=_check_money,
    doc="課金ガチャ (日曜フェイズ): each purchase is its own pull session, chosen after seeing the last; the "
        "optimal plan (which bundle next, given the money left and what was seen of the bag) is found by exact "
        "dynamic programming. one_session = true: the money is turned into the most pulls (exact integer "
        "optimisation), pulled as one session. Starts from a fresh bag.",
)


# ---------------------------------------------------------------------------
# shared bag
# ---------------------------------------------------------------------------


#: Most rounds of a ``shared`` cell.
MAX_ROUNDS: int = 1000


def _shared_schedule(params: Mapping[str, Any]) -> list[tuple[int, int]]:
    one = [(int(p), int(m)) for p, m in params["schedule"]]
    return one * int(params["n_rounds"])


def _check_shared(params: Mapping[str, Any]) -> None:
    check_common(params)
    n = check_int("n_players", params["n_players"], min=1, max=4)
    sch = params["schedule"]
    ok = isinstance(sch, (list, tuple)) and len(sch) > 0 and all(
        isinstance(s, (list, tuple)) and len(s) == 2 and all(
            isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)) for x in s) for s in sch)
    if not ok:
        raise ParamError("schedule", sch, "a non-empty list of [player, pulls] integer pairs")
    for p, m in sch:
        if not 1 <= int(p) <= n:
            raise ParamError("schedule", sch, f"players numbered 1..n_players = {n}")
        if not 1 <= int(m) <= MAX_SESSION_PULLS:
            raise ParamError("schedule", sch, f"session sizes in 1..{MAX_SESSION_PULLS} (pulls)")
    idle = sorted(set(range(1, n + 1)) - {int(p) for p, _ in sch})
    if idle:  # a player who never pulls is a seat of the table that takes no part (n_players swept, schedule not)
        raise ParamError("schedule", sch, f"a session for every player 1..n_players = {n} (player "
                         f"{', '.join(map(str, idle))} has none)")
    rounds = check_int("n_rounds", params["n_rounds"], min=1, max=MAX_ROUNDS)
    if rounds * len(sch) > MAX_SESSIONS:
        raise ParamError("n_rounds", rounds, f"at most {MAX_SESSIONS} sessions in all (n_rounds x sessions per "
                         f"round = {rounds * len(sch)})")
    check_bool("stop_at_completion", params["stop_at_completion"])


def _shared_metrics(params: Mapping[str, Any]) -> tuple[Metric, ...]:
    out: list[Metric] = []
    stop = bool(params.get("stop_at_completion", True))
    for i in range(1, int(params["n_players"]) + 1):
        out.append(Metric(f"god_chances_p{i}", "mean", doc=f"God Chances of player {i} until the game ends"))
        out.append(Metric(f"complete_p{i}", "proportion",
                          doc=(f"player {i} completes first (wins by コンスリート)" if stop
                               else f"コンスリート of player {i} by the end of the schedule")))
    out.append(Metric("nobody_completes", "proportion", doc="no player completes during the schedule"))
    return tuple(out)


def _sim_shared(params: Mapping[str, Any], n_trials: int, *, rng: np.random.Generator
                ) -> dict[str, npt.NDArray[Any]]:
    n = int(params["n_players"])
    r = run_shared(_shared_schedule(params), n_trials, n_players=n, rng=rng,
                   stop_at_completion=bool(params["stop_at_completion"]), **_kw(params))
    out: dict[str, npt.NDArray[Any]] = {}
    for i in range(n):
        out[f"god_chances_p{i + 1}"] = r["god_chances"][:, i]
        out[f"complete_p{i + 1}"] = r["complete"][:, i]
    out["nobody_completes"] = ~r["complete"].any(axis=1)
    return out


def _exact_shared(params: Mapping[str, Any]) -> dict[str, float]:
    kw = _kw(params)
    if kw["overdrive_pulls"] is not None:
        return {}
    ex = exact_shared(_shared_schedule(params), n_players=int(params["n_players"]), bag=kw["bag"],
                      n_characters=kw["n_characters"], doubtful=kw["doubtful"],
                      stop_at_completion=bool(params["stop_at_completion"]))
    out = {"nobody_completes:proportion": ex["nobody_completes"]}
    for i in range(1, int(params["n_players"]) + 1):
        out[f"god_chances_p{i}:mean"] = ex[f"god_chances_p{i}"]
        out[f"complete_p{i}:proportion"] = ex[f"complete_p{i}"]
    return out


SHARED_TASK = Task(
    name="shared",
    simulate=_sim_shared,
    metrics=_shared_metrics,
    params=COMMON_PARAMS + (
        Param("n_players", "int", 2, "players sharing the bag", min=1, max=4),
        Param("schedule", "int_pairs", [[1, 10], [2, 1]],
              "one round of [player, pulls] sessions, players numbered from 1", min=1, max=MAX_SESSION_PULLS),
        Param("n_rounds", "int", 10, f"times the round is repeated (rounds; at most {MAX_SESSIONS} sessions "
              "in all)", min=1, max=MAX_ROUNDS),
        Param("stop_at_completion", "bool", True,
              "the game ends at the first コンスリート (rulebook: 直ちにゲームに勝利); false = everyone pulls the "
              "whole schedule"),
    ),
    exact=_exact_shared,
    check=_check_shared,
    doc="Players share one gacha bag (what one leaves, the next pulls from) until one of them completes "
        "(コンスリート wins at once): how often does each player win, and how often does nobody complete?",
)

#: All tasks, by name.
TASKS: dict[str, Task] = {t.name: t for t in (SCHEDULE_TASK, PULLS_TO_COMPLETE_TASK, MONEY_TASK, SHARED_TASK)}
