"""Sweepable tasks of the Godtear study: rolls, repeated uses, activations, end-phase dice.

Each task validates its parameters (:class:`~gamesim.core.registry.Param` plus a
``check`` raising :class:`~gamesim.core.registry.ParamError`), simulates with the
vectorized kernels of :mod:`.sim` and gives exact values from :mod:`.exact`
where the exact solver covers the cell.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from gamesim.core.registry import Metric, Param, ParamError, Task

from .exact import (
    end_phase_pmf,
    expected_uses_to_knockout,
    expected_wounds,
    knockout_chain,
    knockout_curve,
    p_success,
    wounds_pmf,
)
from .rules import (
    FACTIONS,
    HIT_EFFECTS,
    MAX_DICE,
    MAX_FACE_COUNT,
    MAX_HEALTH,
    TARGET_KINDS,
    DieSpec,
    DuelState,
    FollowerSkill,
    GodtearParams,
    Skill,
    Status,
    Target,
    default_health,
    knockout_steps,
)
from .sim import run_activation, run_end_phase, sample_rolls, simulate

__all__ = ["TASKS", "die_from_params", "activation_actions", "activation_target"]

_TOKEN = dict(min=-1, max=1)

DIE_PARAMS: tuple[Param, ...] = (
    Param("die_blank", "int", 2, "faces of the die showing 0 pips (faces)", min=0, max=MAX_FACE_COUNT),
    Param("die_one", "int", 3, "faces showing 1 pip (faces)", min=0, max=MAX_FACE_COUNT),
    Param("die_two", "int", 1, "faces showing 2 pips (faces)", min=0, max=MAX_FACE_COUNT),
)


def die_from_params(params: Mapping[str, Any]) -> DieSpec:
    """The :class:`DieSpec` of a resolved parameter dict (``die_blank``, ``die_one``, ``die_two``)."""
    return DieSpec((int(params["die_blank"]), int(params["die_one"]), int(params["die_two"])))


def _check_die(params: Mapping[str, Any]) -> None:
    for k in ("die_blank", "die_one", "die_two"):
        if int(params[k]) < 0:
            raise ParamError(k, params[k], "an integer >= 0 (faces)")
    if int(params["die_blank"]) + int(params["die_one"]) + int(params["die_two"]) < 1:
        raise ParamError("die_two", params["die_two"], "such that the die has at least one face "
                         "(die_blank + die_one + die_two >= 1)")


def _check_tokens(params: Mapping[str, Any], keys: tuple[str, ...]) -> None:
    for k in keys:
        if params[k] not in (-1, 0, 1):
            raise ParamError(k, params[k], "-1 (blight), 0 (none) or 1 (boon)")


def _check_nonneg(params: Mapping[str, Any], keys: tuple[str, ...]) -> None:
    for k in keys:
        if int(params[k]) < 0:
            raise ParamError(k, params[k], "an integer >= 0 (dice)")


# ---------------------------------------------------------------------------
# success_roll
# ---------------------------------------------------------------------------


def _check_success(params: Mapping[str, Any]) -> None:
    _check_die(params)
    _check_nonneg(params, ("accuracy",))
    _check_tokens(params, ("accuracy_token", "dodge_token"))


def _sim_success(params: Mapping[str, Any], n_trials: int, *, rng: np.random.Generator
                 ) -> dict[str, npt.NDArray[Any]]:
    n = max(0, int(params["accuracy"]) + int(params["accuracy_token"]))
    tot = sample_rolls(n, n_trials, die=die_from_params(params), rng=rng)
    return {"success": tot >= int(params["dodge"]) + int(params["dodge_token"])}


def _exact_success(params: Mapping[str, Any]) -> dict[str, float]:
    # a dodge blight on dodge 0 is dodge -1: the same as 0 (any total succeeds)
    return {"success:proportion": p_success(int(params["accuracy"]),
                                            max(int(params["dodge"]) + int(params["dodge_token"]), 0),
                                            boon=int(params["accuracy_token"]), die=die_from_params(params))}


SUCCESS_TASK = Task(
    name="success_roll",
    simulate=_sim_success,
    metrics=(Metric("success", "proportion", doc="成功判定 succeeds: pips total >= the target's dodge"),),
    params=DIE_PARAMS + (
        Param("accuracy", "int", 4, "skill accuracy 精度 (dice)", min=0, max=40),
        Param("dodge", "int", 2, "target's dodge 回避 (pips)", min=0, max=80),
        Param("accuracy_token", "int", 0, "attacker's accuracy blight/boon: -1, 0, +1 (one die fewer/more)", **_TOKEN),
        Param("dodge_token", "int", 0, "target's dodge blight/boon: -1, 0, +1 (pips)", **_TOKEN),
    ),
    exact=_exact_success,
    check=_check_success,
    doc="One success roll (成功判定): roll accuracy dice; success when the total >= dodge.",
)


# ---------------------------------------------------------------------------
# damage_roll
# ---------------------------------------------------------------------------


def _check_damage(params: Mapping[str, Any]) -> None:
    _check_die(params)
    _check_nonneg(params, ("damage",))
    _check_tokens(params, ("damage_token", "protection_token"))
    if params.get("health") is not None and int(params["health"]) < 1:
        raise ParamError("health", params["health"], "an integer >= 1 (or leave the key out: no cap)")


def _sim_damage(params: Mapping[str, Any], n_trials: int, *, rng: np.random.Generator
                ) -> dict[str, npt.NDArray[Any]]:
    n = max(0, int(params["damage"]) + int(params["damage_token"]))
    tot = sample_rolls(n, n_trials, die=die_from_params(params), rng=rng)
    prot = max(int(params["protection"]) + int(params["protection_token"]), 0)
    w = np.maximum(tot - prot, 0)
    if params.get("health") is not None:
        w = np.minimum(w, int(params["health"]))
    return {"wounds": w, "any_wound": w > 0}


def _exact_damage(params: Mapping[str, Any]) -> dict[str, float]:
    prot = max(int(params["protection"]) + int(params["protection_token"]), 0)  # below 0 counts as 0
    kw = dict(health=params.get("health"), boon=int(params["damage_token"]), die=die_from_params(params))
    pmf = wounds_pmf(int(params["damage"]), prot, **kw)
    return {"wounds:mean": float(expected_wounds(int(params["damage"]), prot, **kw)),
            "any_wound:proportion": float(1.0 - pmf[0]),
            **{f"wounds:pmf={k}": float(q) for k, q in enumerate(pmf)}}  # for event metrics


DAMAGE_TASK = Task(
    name="damage_roll",
    simulate=_sim_damage,
    metrics=(
        Metric("wounds", "mean", doc="wounds from one damage roll (ダメージ判定), after a successful success roll",
               bounds=(0, math.inf)),
        Metric("any_wound", "proportion", doc="the damage roll deals at least one wound"),
    ),
    params=DIE_PARAMS + (
        Param("damage", "int", 5, "skill damage ダメージ (dice)", min=0, max=40),
        Param("protection", "int", 3, "target's protection 防御 (pips)", min=0, max=80),
        Param("health", "int", None, "target's health left: wounds above it are lost (wounds); "
              "leave out for no cap", min=1, max=MAX_HEALTH, optional=True),
        Param("damage_token", "int", 0, "attacker's damage blight/boon: -1, 0, +1 (dice)", **_TOKEN),
        Param("protection_token", "int", 0, "target's protection blight/boon: -1, 0, +1 (pips)", **_TOKEN),
    ),
    exact=_exact_damage,
    check=_check_damage,
    doc="One damage roll (ダメージ判定): wounds = damage total - protection, at least 0, at most the health left.",
)


# ---------------------------------------------------------------------------
# knockout: k uses of one skill on one target
# ---------------------------------------------------------------------------

_KO_TOKENS = ("accuracy_token", "damage_token", "dodge_token", "protection_token")


def _check_knockout(params: Mapping[str, Any]) -> None:
    _check_die(params)
    _check_nonneg(params, ("accuracy", "damage"))
    _check_tokens(params, _KO_TOKENS)
    if int(params["health"]) < 1:
        raise ParamError("health", params["health"], "an integer >= 1 (wounds)")
    if int(params["uses"]) < 0:
        raise ParamError("uses", params["uses"], "an integer >= 0")
    if int(params["max_uses"]) < max(int(params["uses"]), 1):
        raise ParamError("max_uses", params["max_uses"], f"an integer >= uses = {params['uses']} and >= 1")
    if params["hit_effect"] not in HIT_EFFECTS:
        raise ParamError("hit_effect", params["hit_effect"], "one of " + ", ".join(HIT_EFFECTS))


def _ko_kwargs(params: Mapping[str, Any]) -> dict[str, Any]:
    return dict(dodge=int(params["dodge"]), protection=int(params["protection"]), health=int(params["health"]),
                hit_effect=params["hit_effect"], die=die_from_params(params),
                **{k: int(params[k]) for k in _KO_TOKENS})


def _sim_knockout(params: Mapping[str, Any], n_trials: int, *, rng: np.random.Generator
                  ) -> dict[str, npt.NDArray[Any]]:
    skill = Skill(int(params["accuracy"]), int(params["damage"]), params["hit_effect"])
    target = Target(int(params["dodge"]), int(params["protection"]), int(params["health"]))
    p = GodtearParams(skill, target, uses=int(params["uses"]), max_uses=int(params["max_uses"]),
                      attacker=Status(accuracy=int(params["accuracy_token"]), damage=int(params["damage_token"])),
                      target_status=Status(dodge=int(params["dodge_token"]),
                                           protection=int(params["protection_token"])),
                      die=die_from_params(params))
    r = simulate(p, n_trials, rng=rng)
    return {"knockout": r["knockout"], "wounds": r["wounds"], "uses_to_knockout": r["uses_to_knockout"]}


def _exact_knockout(params: Mapping[str, Any]) -> dict[str, float]:
    a, x, uses, cap = int(params["accuracy"]), int(params["damage"]), int(params["uses"]), int(params["max_uses"])
    kw = _ko_kwargs(params)
    curve = knockout_curve(a, x, uses=cap, **kw)
    skill = Skill(a, x, params["hit_effect"])
    target = Target(kw["dodge"], kw["protection"], kw["health"])
    init = DuelState(0, Status(accuracy=kw["accuracy_token"], damage=kw["damage_token"]),
                     Status(dodge=kw["dodge_token"], protection=kw["protection_token"]))
    dist = knockout_chain([skill] * uses, target, initial=init, die=kw["die"])[-1]
    out = {"knockout:proportion": float(curve[uses]),
           "wounds:mean": float(sum(s.wounds * p for s, p in dist.items()))}
    wounds_pmf_: dict[int, float] = {}
    for st, p in dist.items():
        wounds_pmf_[int(st.wounds)] = wounds_pmf_.get(int(st.wounds), 0.0) + float(p)
    out.update({f"wounds:pmf={w}": p for w, p in sorted(wounds_pmf_.items())})
    # P(knock-out at use k) = curve[k] - curve[k - 1], k = 1..max_uses; the rest is censored (NaN)
    out.update({f"uses_to_knockout:pmf={k}": float(max(curve[k] - curve[k - 1], 0.0))
                for k in range(1, min(cap, len(curve) - 1) + 1)})

    def quant(q: float) -> float:
        for k, p in enumerate(curve):
            if p >= q - 1e-12:
                return float(k)
        return math.inf

    out["uses_to_knockout:q50"] = quant(0.5)
    out["uses_to_knockout:q90"] = quant(0.9)
    mean = expected_uses_to_knockout(a, x, **kw)
    if math.isfinite(mean):
        out["uses_to_knockout:mean"] = mean
    return out


KNOCKOUT_TASK = Task(
    name="knockout",
    simulate=_sim_knockout,
    metrics=(
        Metric("knockout", "proportion", doc="target knocked out (打倒) within `uses` uses of the skill"),
        Metric("wounds", "mean", doc="wounds on the target after `uses` uses (wounds, at most health)",
               bounds=(0, math.inf)),
        Metric("uses_to_knockout", "mean", quantiles=(0.5, 0.9),
               doc="uses of the skill until the knock-out (uses; NaN = not within max_uses)"),
    ),
    params=DIE_PARAMS + (
        Param("accuracy", "int", 4, "skill accuracy 精度 (dice)", min=0, max=40),
        Param("damage", "int", 4, "skill damage ダメージ (dice)", min=0, max=40),
        Param("dodge", "int", 2, "target's dodge 回避 (pips)", min=0, max=80),
        Param("protection", "int", 1, "target's protection 防御 (pips)", min=0, max=80),
        Param("health", "int", 5, "target's health 体力 (wounds; illustrative default, no cards in the rulebook)",
              min=1, max=60),
        Param("uses", "int", 2, "uses of the skill counted for `knockout` and `wounds`", min=0, max=200),
        Param("max_uses", "int", 60, "uses simulated for `uses_to_knockout` (censoring cap)", min=1, max=500),
        Param("hit_effect", "str", "none", "success effect 成功効果 of the skill", choices=HIT_EFFECTS),
        Param("accuracy_token", "int", 0, "attacker's accuracy token before the first use: -1, 0, +1", **_TOKEN),
        Param("damage_token", "int", 0, "attacker's damage token before the first use: -1, 0, +1", **_TOKEN),
        Param("dodge_token", "int", 0, "target's dodge token before the first use: -1, 0, +1", **_TOKEN),
        Param("protection_token", "int", 0, "target's protection token before the first use: -1, 0, +1", **_TOKEN),
    ),
    exact=_exact_knockout,
    check=_check_knockout,
    doc="A skill is used again and again on one target, wounds carried over: P(knock-out within k uses), "
        "wounds after k uses, and uses until the knock-out.",
)


# ---------------------------------------------------------------------------
# activation: two actions, several targets
# ---------------------------------------------------------------------------


def _skill_of(params: Mapping[str, Any], i: int) -> Skill:
    rows = params.get(f"skill{i}_rows")
    eff = params[f"skill{i}_effect"]
    if rows is not None:
        return FollowerSkill(tuple((int(a), int(d)) for a, d in rows), eff).row(int(params["models_in_hex"]))
    return Skill(int(params[f"skill{i}_accuracy"]), int(params[f"skill{i}_damage"]), eff)


def activation_actions(params: Mapping[str, Any]) -> list[tuple[Skill, int]]:
    """The actions of an ``activation`` cell: ``[(Skill, targets), ...]`` (1 or 2 actions).

    A skill given by ``skill<i>_rows`` (a small-follower card) uses the row of
    ``models_in_hex``.
    """
    acts = [(_skill_of(params, 1), int(params["skill1_targets"]))]
    if int(params["actions"]) >= 2:
        acts.append((_skill_of(params, 2), int(params["skill2_targets"])))
    return acts


def activation_target(params: Mapping[str, Any]) -> Target:
    """The :class:`Target` of an ``activation`` cell (health defaults by ``target_kind``)."""
    h = params.get("health")
    h = default_health(params["target_kind"]) if h is None else int(h)
    return Target(int(params["dodge"]), int(params["protection"]), int(h))


def _check_activation(params: Mapping[str, Any]) -> None:
    _check_die(params)
    _check_tokens(params, _KO_TOKENS)
    kind = params["target_kind"]
    if kind not in TARGET_KINDS:
        raise ParamError("target_kind", kind, "one of " + ", ".join(TARGET_KINDS))
    if params["faction"] not in FACTIONS:
        raise ParamError("faction", params["faction"], "one of " + ", ".join(FACTIONS))
    if params.get("health") is None and default_health(kind) is None:
        raise ParamError("health", None, f"set for a {kind} (the rulebook prints no cards; only small "
                         "followers default to 1 health)")
    if params.get("health") is not None and int(params["health"]) < 1:
        raise ParamError("health", params["health"], "an integer >= 1 (wounds)")
    n_models = int(params["n_models"])
    if kind == "champion" and n_models != 1:
        raise ParamError("n_models", n_models, "1 for a champion target")
    if not 1 <= n_models <= 6:
        raise ParamError("n_models", n_models, "an integer in 1..6 (models in the target unit)")
    if int(params["actions"]) not in (1, 2):
        raise ParamError("actions", params["actions"], "1 or 2 (skill actions in the activation)")
    if not 1 <= int(params["models_in_hex"]) <= 3:
        raise ParamError("models_in_hex", params["models_in_hex"], "1, 2 or 3 (small followers in the user's hex)")
    for i in range(1, int(params["actions"]) + 1):
        _check_nonneg(params, (f"skill{i}_accuracy", f"skill{i}_damage"))
        t = int(params[f"skill{i}_targets"])
        if not 1 <= t <= n_models:
            raise ParamError(f"skill{i}_targets", t, f"an integer in 1..n_models = {n_models}")
        if params[f"skill{i}_effect"] not in HIT_EFFECTS:
            raise ParamError(f"skill{i}_effect", params[f"skill{i}_effect"], "one of " + ", ".join(HIT_EFFECTS))
        rows = params.get(f"skill{i}_rows")
        if rows is not None:
            if not 1 <= len(rows) <= 3 or any(int(v) < 0 for r in rows for v in r):
                raise ParamError(f"skill{i}_rows", rows, "1 to 3 [accuracy, damage] rows of dice >= 0")
            if int(params["models_in_hex"]) > len(rows):
                raise ParamError("models_in_hex", params["models_in_hex"],
                                 f"<= the {len(rows)} rows of skill{i}_rows")


def _activation_tokens(params: Mapping[str, Any]) -> tuple[Status, Status]:
    return (Status(accuracy=int(params["accuracy_token"]), damage=int(params["damage_token"])),
            Status(dodge=int(params["dodge_token"]), protection=int(params["protection_token"])))


def _sim_activation(params: Mapping[str, Any], n_trials: int, *, rng: np.random.Generator
                    ) -> dict[str, npt.NDArray[Any]]:
    att, unit = _activation_tokens(params)
    r = run_activation(activation_actions(params), activation_target(params), n_trials,
                       n_models=int(params["n_models"]), attacker=att, target_status=unit,
                       die=die_from_params(params), rng=rng)
    steps = knockout_steps(params["target_kind"], FACTIONS[params["faction"]])
    return {"knockouts": r["knockouts"], "any_knockout": r["knockouts"] > 0, "wounds": r["wounds"],
            "tally_steps": r["knockouts"] * steps}


def _exact_activation(params: Mapping[str, Any]) -> dict[str, float]:
    if int(params["n_models"]) != 1:
        return {}  # several models: Monte Carlo only
    att, unit = _activation_tokens(params)
    target = activation_target(params)
    skills = [s for s, _ in activation_actions(params)]
    dist = knockout_chain(skills, target, initial=DuelState(0, att, unit), die=die_from_params(params))[-1]
    p = float(sum(q for s, q in dist.items() if s.knocked_out(target.health)))
    steps = knockout_steps(params["target_kind"], FACTIONS[params["faction"]])
    return {"knockouts:mean": p, "any_knockout:proportion": p,
            "wounds:mean": float(sum(s.wounds * q for s, q in dist.items())), "tally_steps:mean": p * steps}


def _skill_params(i: int, acc: int, dmg: int) -> tuple[Param, ...]:
    return (
        Param(f"skill{i}_accuracy", "int", acc, f"action {i}: skill accuracy (dice)", min=0, max=40),
        Param(f"skill{i}_damage", "int", dmg, f"action {i}: skill damage (dice)", min=0, max=40),
        Param(f"skill{i}_targets", "int", 1, f"action {i}: models targeted, one success and damage roll "
              "each (models)", min=1, max=6),
        Param(f"skill{i}_effect", "str", "none", f"action {i}: success effect 成功効果", choices=HIT_EFFECTS),
        Param(f"skill{i}_rows", "int_pairs", None, f"action {i}: small-follower card rows [[acc, dmg], ...] "
              "for 1, 2, 3 models in the hex, overriding accuracy/damage", min=0, max=MAX_DICE, optional=True),
    )


ACTIVATION_TASK = Task(
    name="activation",
    simulate=_sim_activation,
    metrics=(
        Metric("knockouts", "mean", doc="models of the target unit knocked out (models)", bounds=(0, math.inf)),
        Metric("any_knockout", "proportion", doc="at least one model knocked out"),
        Metric("wounds", "mean", doc="wounds dealt in the activation (wounds)", bounds=(0, math.inf)),
        Metric("tally_steps", "mean", doc="steps on the tally (戦況表) from the knock-outs (steps)"),
    ),
    params=DIE_PARAMS + _skill_params(1, 4, 4) + _skill_params(2, 3, 3) + (
        Param("actions", "int", 2, "skill actions in the activation (1 or 2; each skill once)", min=1, max=2),
        Param("models_in_hex", "int", 1, "attacker's small followers in its hex: selects the card row", min=1, max=3),
        Param("target_kind", "str", "small_follower", "what the target is (tally: 4 / 1 / 2 steps)",
              choices=TARGET_KINDS),
        Param("n_models", "int", 1, "models in the target unit (models)", min=1, max=6),
        Param("health", "int", None, "health of each target model (wounds); left out: 1 for small followers",
              min=1, max=MAX_HEALTH, optional=True),
        Param("dodge", "int", 2, "target's dodge 回避 (pips)", min=0, max=80),
        Param("protection", "int", 1, "target's protection 防御 (pips)", min=0, max=80),
        Param("accuracy_token", "int", 0, "attacker's accuracy token at the start: -1, 0, +1", **_TOKEN),
        Param("damage_token", "int", 0, "attacker's damage token at the start: -1, 0, +1", **_TOKEN),
        Param("dodge_token", "int", 0, "target unit's dodge token at the start: -1, 0, +1", **_TOKEN),
        Param("protection_token", "int", 0, "target unit's protection token at the start: -1, 0, +1", **_TOKEN),
        Param("faction", "str", "none", "attacker's faction, for the +1 tally bonus", choices=tuple(FACTIONS)),
    ),
    exact=_exact_activation,
    check=_check_activation,
    doc="One activation: two skill actions (each skill once), each on one or several models of a unit, tokens "
        "used and expired in order; knock-outs, wounds and tally steps.",
)


# ---------------------------------------------------------------------------
# end_phase: 生命 / 変化 dice
# ---------------------------------------------------------------------------


def _check_end(params: Mapping[str, Any]) -> None:
    _check_die(params)
    if params["rule"] not in ("life", "change"):
        raise ParamError("rule", params["rule"], "'life' (生命) or 'change' (変化)")


def _sim_end(params: Mapping[str, Any], n_trials: int, *, rng: np.random.Generator) -> dict[str, npt.NDArray[Any]]:
    return {"count": run_end_phase(params["rule"], n_trials, die=die_from_params(params), rng=rng)}


def _exact_end(params: Mapping[str, Any]) -> dict[str, float]:
    pmf = end_phase_pmf(params["rule"], die=die_from_params(params))
    return {"count:mean": float(sum(k * p for k, p in pmf.items()))}


END_PHASE_TASK = Task(
    name="end_phase",
    simulate=_sim_end,
    metrics=(Metric("count", "mean", doc="生命: new objective hexes (roll + 2); 変化: objective hexes moved (roll)"),),
    params=DIE_PARAMS + (Param("rule", "str", "life", "scenario end-phase rule", choices=("life", "change")),),
    exact=_exact_end,
    check=_check_end,
    doc="The scenario end-phase die roll of the turn's loser (生命, 変化).",
)

#: All tasks, by name.
TASKS: dict[str, Task] = {t.name: t for t in (SUCCESS_TASK, DAMAGE_TASK, KNOCKOUT_TASK, ACTIVATION_TASK,
                                              END_PHASE_TASK)}

