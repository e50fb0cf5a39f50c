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

from gamesim.core.registry import Metric, Param, ParamError, Task

from .exact import (
    exact_completion_probability,
    exact_expected_characters_owned,
    exact_god_chance_pmf,
    exact_pulls_to_complete,
)
from .rules import BagConfig, DoubtfulConfig, best_bundle_mix, split_sessions
from .sim import run_pulls_to_complete, run_schedule, run_shared

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
]

COMMON_PARAMS: tuple[Param, ...] = (
    Param("bag_god_chance", "int", 1, "God Chance chips in a full bag (chips)", min=0),
    Param("bag_sr", "int", 5, "SR chips in a full bag (chips)", min=0),
    Param("bag_n", "int", 44, "N chips in a full bag (chips)", min=0),
    Param("bag_total", "int", None, "optional check: total chips in a full bag (chips); must equal "
          "bag_god_chance + bag_sr + bag_n", min=1, optional=True),
    Param("n_characters", "int", 5, "God Chance cards / UR characters to collect (characters)", min=1),
    Param("doubtful", "bool", False, "疑惑の運営モード: chips secretly removed at every bag creation"),
    Param("doubtful_k", "int_list", [3, 4], "doubtful mode: possible numbers of removed chips, "
          "uniform (chips)", min=0),
    Param("overdrive", "bool", False, "Overdrive on: the navi character's card gives extra pulls"),
    Param("overdrive_pulls", "int", 10, "Overdrive extra pulls per trigger (pulls)", min=1),
)


def bag_from_params(params: Mapping[str, Any]) -> BagConfig:
    """The :class:`BagConfig` of a resolved parameter dict."""
    return BagConfig(int(params["bag_god_chance"]), int(params["bag_sr"]), int(params["bag_n"]))


def doubtful_from_params(params: Mapping[str, Any]) -> DoubtfulConfig | None:
    """The :class:`DoubtfulConfig` (or None when ``doubtful`` is false)."""
    if not params["doubtful"]:
        return None
    return DoubtfulConfig(tuple(int(k) for k in params["doubtful_k"]))


def overdrive_from_params(params: Mapping[str, Any]) -> int | None:
    """Overdrive pulls per trigger, or None when ``overdrive`` is false."""
    return int(params["overdrive_pulls"]) if params["overdrive"] else None


def check_common(params: Mapping[str, Any]) -> None:
    """Cross-field checks of the common parameters.

    Raises
    ------
    ParamError
        ``bag_*`` negative; ``bag_total`` when the chips add up to 0 or differ from
        a given ``bag_total``; ``doubtful_k`` empty, negative, or (in doubtful mode)
        with a value >= the bag total; ``n_characters < 1``; ``overdrive_pulls < 1``.
    """
    for key in ("bag_god_chance", "bag_sr", "bag_n"):
        v = params[key]
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
            raise ParamError(key, v, "an integer >= 0")
    total = int(params["bag_god_chance"]) + int(params["bag_sr"]) + int(params["bag_n"])
    given = params.get("bag_total")
    if given is not None and int(given) != total:
        raise ParamError("bag_total", given,
                         f"bag_god_chance + bag_sr + bag_n = {total} (chip counts that don't add up)")
    if total < 1:
        raise ParamError("bag_total", total, "at least 1 chip in the bag (bag_god_chance + bag_sr + bag_n >= 1)")
    if int(params["n_characters"]) < 1:
        raise ParamError("n_characters", params["n_characters"], "an integer >= 1")
    ks = list(params["doubtful_k"])
    if not ks or min(int(k) for k in ks) < 0:
        raise ParamError("doubtful_k", ks, "a non-empty list of integers >= 0")
    if params["doubtful"] and max(int(k) for k in ks) >= total:
        raise ParamError("doubtful_k", ks, f"values < the bag total {total} (a bag must keep a chip)")
    if int(params["overdrive_pulls"]) < 1:
        raise ParamError("overdrive_pulls", params["overdrive_pulls"], "an integer >= 1")


def _kw(params: Mapping[str, Any]) -> dict[str, Any]:
    return dict(bag=bag_from_params(params), n_characters=int(params["n_characters"]),
                doubtful=doubtful_from_params(params), overdrive_pulls=overdrive_from_params(params))


# ---------------------------------------------------------------------------
# schedule
# ---------------------------------------------------------------------------


def schedule_sessions(params: Mapping[str, Any]) -> list[int]:
    """Session sizes of the ``schedule`` task: ``sessions`` or ``total_pulls`` split by ``session_size``."""
    if params.get("sessions") is not None:
        return [int(m) for m in params["sessions"]]
    return split_sessions(int(params["total_pulls"]), int(params["session_size"]))


def _check_schedule(params: Mapping[str, Any]) -> None:
    check_common(params)
    if params.get("sessions") is not None:
        ses = list(params["sessions"])
        if not ses or min(int(m) for m in ses) < 1:
            raise ParamError("sessions", ses, "a non-empty list of session sizes >= 1 (pulls)")
    if int(params["session_size"]) < 1:
        raise ParamError("session_size", params["session_size"], "an integer >= 1")
    if int(params["total_pulls"]) < 1:
        raise ParamError("total_pulls", params["total_pulls"], "an integer >= 1")


def _sim_schedule(params: Mapping[str, Any], n_trials: int, *, rng: np.random.Generator
                  ) -> dict[str, npt.NDArray[Any]]:
    r = run_schedule(schedule_sessions(params), n_trials, rng=rng, **_kw(params))
    return {k: r[k] for k in ("god_chances", "complete", "characters_owned", "sr_drawn")}


def _exact_schedule_like(sessions: list[int], params: Mapping[str, Any]) -> dict[str, float]:
    kw = _kw(params)
    if kw["overdrive_pulls"] is not None:
        return {}
    bag, n, d = kw["bag"], kw["n_characters"], kw["doubtful"]
    pmf = exact_god_chance_pmf(sessions, bag=bag, doubtful=d)
    return {
        "god_chances:mean": float(pmf @ np.arange(pmf.size)),
        "complete:proportion": exact_completion_probability(sessions, bag=bag, n_characters=n, doubtful=d),
        "characters_owned:mean": exact_expected_characters_owned(sessions, bag=bag, n_characters=n, doubtful=d),
    }


def _exact_schedule(params: Mapping[str, Any]) -> dict[str, float]:
    return _exact_schedule_like(schedule_sessions(params), params)


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
        Param("session_size", "int", 10, "pulls per session (pulls)", min=1),
        Param("total_pulls", "int", 100, "total scheduled pulls, last session shorter (pulls)", min=1),
        Param("sessions", "int_list", None, "explicit session sizes, overriding session_size and "
              "total_pulls (pulls)", min=1, optional=True),
    ),
    exact=_exact_schedule,
    check=_check_schedule,
    doc="One player pulls a schedule of sessions from a fresh bag: how many God Chances, how "
        "many UR characters, how often コンスリート?",
)


# ---------------------------------------------------------------------------
# pulls_to_complete
# ---------------------------------------------------------------------------


def _check_ptc(params: Mapping[str, Any]) -> None:
    check_common(params)
    if int(params["session_size"]) < 1:
        raise ParamError("session_size", params["session_size"], "an integer >= 1")
    if int(params["max_pulls"]) < 1:
        raise ParamError("max_pulls", params["max_pulls"], "an integer >= 1")


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
    return {
        "pulls_to_complete:q50": r["q50"],
        "pulls_to_complete:q90": r["q90"],
        "pulls_to_complete:mean": r["mean"],
        "completed:proportion": r["completed"],
    }


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
        Param("session_size", "int", 10, "pulls per session (pulls)", min=1),
        Param("max_pulls", "int", 2000, "cap on scheduled pulls (pulls)", min=1),
    ),
    exact=_exact_ptc,
    check=_check_ptc,
    doc="One player pulls sessions of a fixed size until コンスリート: how many pulls does it take?",
)


# ---------------------------------------------------------------------------
# money (課金ガチャ)
# ---------------------------------------------------------------------------


def _check_money(params: Mapping[str, Any]) -> None:
    check_common(params)
    if int(params["money"]) < 0:
        raise ParamError("money", params["money"], "an integer >= 0")
    bs = params["bundles"]
    ok = isinstance(bs, (list, tuple)) and len(bs) > 0 and all(
        isinstance(b, (list, tuple)) and len(b) == 2 and int(b[0]) >= 1 and int(b[1]) >= 1 for b in bs)
    if not ok:
        raise ParamError("bundles", bs, "a non-empty list of [money, pulls] pairs, each >= 1")


def _mix(params: Mapping[str, Any]):  # type: ignore[no-untyped-def]
    return best_bundle_mix(int(params["money"]), [tuple(b) for b in params["bundles"]])


def _sim_money(params: Mapping[str, Any], n_trials: int, *, rng: np.random.Generator
               ) -> dict[str, npt.NDArray[Any]]:
    mix = _mix(params)
    sessions = [mix.pulls] if mix.pulls > 0 else []
    r = run_schedule(sessions, n_trials, rng=rng, **_kw(params))
    return {
        "pulls": np.full(n_trials, mix.pulls, dtype=np.int64),
        "money_spent": np.full(n_trials, mix.money_spent, dtype=np.int64),
        "god_chances": r["god_chances"],
        "complete": r["complete"],
    }


def _exact_money(params: Mapping[str, Any]) -> dict[str, float]:
    mix = _mix(params)
    out = {"pulls:mean": float(mix.pulls), "money_spent:mean": float(mix.money_spent)}
    ex = _exact_schedule_like([mix.pulls] if mix.pulls > 0 else [], params)
    if not ex:
        return out
    out["god_chances:mean"] = ex["god_chances:mean"]
    out["complete:proportion"] = ex["complete:proportion"]
    return out


MONEY_TASK = Task(
    name="money",
    simulate=_sim_money,
    metrics=(
        Metric("pulls", "mean", doc="pulls bought with the best 課金ガチャ mix (pulls; deterministic)"),
        Metric("money_spent", "mean", doc="money paid for them (money; deterministic)"),
        Metric("god_chances", "mean", doc="God Chances from one session of those pulls"),
        Metric("complete", "proportion", doc="コンスリート after that session"),
    ),
    params=COMMON_PARAMS + (
        Param("money", "int", 25, "money spent on 課金ガチャ (money)", min=0),
        Param("bundles", "int_pairs", [[2, 1], [10, 12], [15, 25]],
              "課金ガチャ rates as [money, pulls] pairs, each usable any number of times", min=1),
    ),
    exact=_exact_money,
    check=_check_money,
    doc="課金ガチャ: the money is turned into the most pulls (exact integer optimisation), pulled as "
        "one session from a fresh bag.",
)


# ---------------------------------------------------------------------------
# shared bag
# ---------------------------------------------------------------------------


def _shared_schedule(params: Mapping[str, Any]) -> list[tuple[int, int]]:
    one = [(int(p), int(m)) for p, m in params["schedule"]]
    return one * int(params["n_rounds"])


def _check_shared(params: Mapping[str, Any]) -> None:
    check_common(params)
    n = int(params["n_players"])
    if not 1 <= n <= 4:
        raise ParamError("n_players", params["n_players"], "an integer in 1..4")
    sch = params["schedule"]
    ok = isinstance(sch, (list, tuple)) and len(sch) > 0 and all(
        isinstance(s, (list, tuple)) and len(s) == 2 for s in sch)
    if not ok:
        raise ParamError("schedule", sch, "a non-empty list of [player, pulls] pairs")
    for p, m in sch:
        if not 1 <= int(p) <= n:
            raise ParamError("schedule", sch, f"players numbered 1..n_players = {n}")
        if int(m) < 1:
            raise ParamError("schedule", sch, "session sizes >= 1 (pulls)")
    if int(params["n_rounds"]) < 1:
        raise ParamError("n_rounds", params["n_rounds"], "an integer >= 1")


def _shared_metrics(params: Mapping[str, Any]) -> tuple[Metric, ...]:
    out: list[Metric] = []
    for i in range(1, int(params["n_players"]) + 1):
        out.append(Metric(f"god_chances_p{i}", "mean", doc=f"God Chances of player {i}"))
        out.append(Metric(f"complete_p{i}", "proportion", doc=f"コンスリート of player {i}"))
    return tuple(out)


def _sim_shared(params: Mapping[str, Any], n_trials: int, *, rng: np.random.Generator
                ) -> dict[str, npt.NDArray[Any]]:
    n = int(params["n_players"])
    r = run_shared(_shared_schedule(params), n_trials, n_players=n, rng=rng, **_kw(params))
    out: dict[str, npt.NDArray[Any]] = {}
    for i in range(n):
        out[f"god_chances_p{i + 1}"] = r["god_chances"][:, i]
        out[f"complete_p{i + 1}"] = r["complete"][:, i]
    return out


def _exact_shared(params: Mapping[str, Any]) -> dict[str, float]:
    kw = _kw(params)
    if kw["overdrive_pulls"] is not None:
        return {}
    sch = _shared_schedule(params)
    sessions = [m for _, m in sch]
    out: dict[str, float] = {}
    for i in range(1, int(params["n_players"]) + 1):
        counted = [p == i for p, _ in sch]
        pmf = exact_god_chance_pmf(sessions, bag=kw["bag"], doubtful=kw["doubtful"], counted=counted)
        out[f"god_chances_p{i}:mean"] = float(pmf @ np.arange(pmf.size))
        out[f"complete_p{i}:proportion"] = exact_completion_probability(
            sessions, bag=kw["bag"], n_characters=kw["n_characters"], doubtful=kw["doubtful"], counted=counted)
    return out


SHARED_TASK = Task(
    name="shared",
    simulate=_sim_shared,
    metrics=_shared_metrics,
    params=COMMON_PARAMS + (
        Param("n_players", "int", 2, "players sharing the bag", min=1, max=4),
        Param("schedule", "int_pairs", [[1, 10], [2, 1]],
              "one round of [player, pulls] sessions, players numbered from 1", min=1),
        Param("n_rounds", "int", 10, "times the round is repeated (rounds)", min=1),
    ),
    exact=_exact_shared,
    check=_check_shared,
    doc="Players share one gacha bag (what one leaves, the next pulls from): how do God Chances and "
        "コンスリート split between players?",
)

#: All tasks, by name.
TASKS: dict[str, Task] = {t.name: t for t in (SCHEDULE_TASK, PULLS_TO_COMPLETE_TASK, MONEY_TASK, SHARED_TASK)}
