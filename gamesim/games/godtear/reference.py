"""Plain-Python, one-trial-at-a-time reference of Godtear's rolls and combat.

Each die is one ``rng.integers(n_faces)`` call; each use of a skill is the rules
core's :func:`~gamesim.games.godtear.rules.resolve_use` applied to the rolled
totals, on immutable :class:`~gamesim.games.godtear.rules.DuelState` objects. The
tests compare the vectorized simulator (:mod:`.sim`) with it statistically, and
the benchmark times it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from gamesim.core.registry import ParamError
from gamesim.core.rng import RngLike
from gamesim.core.validate import Int, Optional, ParamTypeError, Rng, Unchecked, check_int, validate_params

from .rules import (
    DIE,
    GODTEAR_DIE,
    MAX_ACTIONS,
    MAX_MODELS,
    MAX_USES,
    ROLL_DICE,
    SKILL,
    STATUS,
    TARGET,
    USES,
    DieSpec,
    DuelState,
    Skill,
    Status,
    Target,
    _after_success,
    _dice_after_token,
    _is_success,
    _resolve_use,
)

__all__ = ["reference_roll", "reference_rolls", "reference_knockout", "reference_activation"]

#: Most trials of one reference call (one Python loop iteration per die: slow on purpose).
MAX_REFERENCE_TRIALS = 1_000_000


TRIALS = Int(0, MAX_REFERENCE_TRIALS)


def _check_work(n_trials: int, work: int) -> None:
    """``n_trials x work`` at most 100 x ``MAX_REFERENCE_TRIALS`` (a relation of checked arguments)."""
    if n_trials * work > 100 * MAX_REFERENCE_TRIALS:
        raise ParamError("n_trials", n_trials, f"an integer <= {100 * MAX_REFERENCE_TRIALS // work:,} here "
                         "(the scalar reference would run for hours)")


@validate_params(n_dice=ROLL_DICE, die=DIE, rng=Rng())
def reference_roll(n_dice: int, *, die: DieSpec = GODTEAR_DIE, rng: RngLike = None) -> int:
    """Total pips of ``n_dice`` dice, rolled one at a time.

    Parameters
    ----------
    n_dice : int
        Dice (>= 0).
    die : DieSpec, default GODTEAR_DIE
    rng : int, SeedSequence, Generator or None, keyword-only

    Returns
    -------
    int

    Raises
    ------
    ParamTypeError, ParamError
        If ``n_dice`` is not an integer in ``0 .. MAX_ROLL_DICE``, ``die`` not a DieSpec or
        ``rng`` not a seed or generator.
    """
    faces = die.face_values
    total = 0
    for _ in range(n_dice):
        total += faces[int(rng.integers(die.n_faces))]
    return total


#: Unchecked body of :func:`reference_roll` (one call per roll of the reference's loops).
_reference_roll = reference_roll.__wrapped__


@validate_params(n_dice=ROLL_DICE, n_trials=TRIALS, die=DIE, rng=Rng())

def reference_rolls(n_dice: int, n_trials: int, *, die: DieSpec = GODTEAR_DIE, rng: RngLike = None
                    ) -> npt.NDArray[np.int64]:
    """``n_trials`` totals of ``n_dice`` dice, one Python loop iteration per die.

    Returns
    -------
    ndarray of int64, shape (n_trials,)

    Raises
    ------
    ParamTypeError, ParamError
        As :func:`reference_roll`, or ``n_trials`` not an integer in ``0 .. MAX_REFERENCE_TRIALS``
        (fewer for many dice).
    """
    _check_work(n_trials, max(1, n_dice) // 10 + 1)
    return np.array([_reference_roll(n_dice, die=die, rng=rng) for _ in range(n_trials)], dtype=np.int64)


def _one_use(state: DuelState, skill: Skill, target: Target, die: DieSpec, gen: np.random.Generator) -> DuelState:
    s = _reference_roll(_dice_after_token(skill.accuracy, state.attacker.accuracy), die=die, rng=gen)
    d = None
    if _is_success(s, target.dodge + state.target.dodge) and skill.damage is not None:
        att, _ = _after_success(state, skill)
        d = _reference_roll(_dice_after_token(skill.damage, att.damage), die=die, rng=gen)
    return _resolve_use(state, skill, target, s, d)


@validate_params(skill=SKILL, target=TARGET, n_trials=TRIALS, uses=USES, max_uses=Optional(Int(1, MAX_USES)),
                 attacker=STATUS, target_status=STATUS, die=DIE, rng=Rng())
def reference_knockout(skill: Skill, target: Target, n_trials: int, *, uses: int, max_uses: int | None = None,
                       attacker: Status = Status(), target_status: Status = Status(), die: DieSpec = GODTEAR_DIE,
                       rng: RngLike = None) -> dict[str, npt.NDArray[np.generic]]:
    """Scalar twin of :func:`gamesim.games.godtear.sim.run_knockout` (same arguments and outputs).

    Raises
    ------
    ParamTypeError, ParamError
        As :func:`~gamesim.games.godtear.sim.run_knockout`, with ``n_trials`` at most
        ``MAX_REFERENCE_TRIALS`` and ``n_trials * max_uses`` at most 10^8.
    """
    if max_uses is not None:  # relations of the checked arguments
        check_int("max_uses", max_uses, min=max(uses, 1), max=MAX_USES)
    max_uses = max(uses, 50) if max_uses is None else max_uses
    _check_work(n_trials, max_uses)
    gen = rng
    ko = np.zeros(n_trials, dtype=bool)
    wounds = np.zeros(n_trials, dtype=np.int64)
    t_ko = np.full(n_trials, np.nan)
    for i in range(n_trials):
        st = DuelState(0, attacker, target_status)
        w_at = 0
        for k in range(1, max_uses + 1):
            if st.knocked_out(target.health):
                if k > uses:
                    break
            else:
                st = _one_use(st, skill, target, die, gen)
                if st.knocked_out(target.health):
                    t_ko[i] = k
            if k == uses:
                w_at = st.wounds
        wounds[i] = w_at
        ko[i] = not math.isnan(t_ko[i]) and t_ko[i] <= uses
    return {"knockout": ko, "wounds": wounds, "uses_to_knockout": t_ko}


@validate_params(actions=Unchecked("a sequence of (Skill, targets) pairs: checked in the body"), target=TARGET,
                 n_trials=TRIALS, n_models=Int(1, MAX_MODELS), attacker=STATUS, target_status=STATUS, die=DIE,
                 rng=Rng())
def reference_activation(actions: Sequence[tuple[Skill, int]], target: Target, n_trials: int, *, n_models: int = 1,
                         attacker: Status = Status(), target_status: Status = Status(),
                         die: DieSpec = GODTEAR_DIE, rng: RngLike = None) -> dict[str, npt.NDArray[np.generic]]:
    """Scalar twin of :func:`gamesim.games.godtear.sim.run_activation` (same arguments and outputs).

    The target unit is a Python list of wounds; each targeted model is resolved as a
    :class:`DuelState` carrying the shared attacker and unit tokens.

    Raises
    ------
    ParamTypeError, ParamError
        As :func:`~gamesim.games.godtear.sim.run_activation`, with ``n_trials`` at most
        ``MAX_REFERENCE_TRIALS``.
    """
    if isinstance(actions, (str, bytes)) or not isinstance(actions, Sequence) or not all(
        isinstance(a, (tuple, list)) and len(a) == 2 and isinstance(a[0], Skill) for a in actions
    ) or not 1 <= len(actions) <= MAX_ACTIONS:
        raise ParamTypeError("actions", actions, f"a sequence of 1 to {MAX_ACTIONS} (Skill, targets) pairs")
    for _, n_t in actions:
        check_int("targets", n_t, min=1, max=MAX_MODELS)
    _check_work(n_trials, n_models * len(actions))
    gen = rng
    per_model = np.zeros((n_trials, n_models), dtype=np.int64)
    for i in range(n_trials):
        wounds = [0] * n_models
        att, unit = attacker, target_status
        for skill, n_t in actions:
            chosen = [j for j in range(n_models) if wounds[j] < target.health][: int(n_t)]
            for j in chosen:
                st = _one_use(DuelState(wounds[j], att, unit), skill, target, die, gen)
                wounds[j], att, unit = st.wounds, st.attacker, st.target
        per_model[i] = wounds
    return {"knockouts": (per_model >= target.health).sum(axis=1).astype(np.int64),
            "wounds": per_model.sum(axis=1), "wounds_per_model": per_model}
