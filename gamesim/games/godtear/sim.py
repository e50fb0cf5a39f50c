"""Vectorized Monte Carlo of Godtear's rolls, repeated skill uses and full activations.

Axis 0 is always the trial. Trials are processed in chunks of :data:`CHUNK_SIZE`
so memory stays bounded whatever ``n_trials`` is. This is the only module of the
package that draws random numbers; every function takes a keyword-only ``rng``
(int, SeedSequence, Generator or None) normalised by
:func:`gamesim.core.rng.as_generator`.

Dice are rolled one by one: a ``(dice, trials)`` array of face indices from
``Generator.integers``, looked up in the die's face values and summed over the
dice each trial actually rolls (boons and blights change the count per trial).
The rules applied are those of :func:`gamesim.games.godtear.rules.resolve_use`,
written on arrays.

In :func:`run_knockout`, the counted uses (``1 .. uses``) draw each die from its own
stream: for use ``k``, the accuracy roll's die ``j`` and the damage roll's die ``j``
each come from a child generator spawned from the trial chunk's generator (one face
per trial of the chunk, rolled or not). One more accuracy die, or one trial knocked
out earlier, then leaves every other die of every trial on the same number, so
variants compared with common random numbers stay paired die by die (a boon adds
one die: ``dice + 1`` streams are spawned per roll). The later uses (``uses_to_knockout`` only) roll as above.

Entry point shared by every game: :func:`simulate` ``(params, n_games, *, rng=None)`` takes a
:class:`~gamesim.games.godtear.rules.GodtearParams` (the knock-out chain's set-up, checked once
when built) and returns :func:`run_knockout`'s arrays; the other functions keep their names.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from gamesim.core.batching import chunk_spans
from gamesim.core.registry import ParamError
from gamesim.core.rng import RngLike
from gamesim.core.validate import Choice, Instance, Int, Optional, ParamTypeError, Rng, Unchecked, check_int, validate_params

from .rules import (
    DIE,
    GODTEAR_DIE,
    MAX_ACTIONS,
    MAX_MODELS,
    MAX_ROLL_DICE,
    MAX_USES,
    ROLL_DICE,
    SKILL,
    STATUS,
    TARGET,
    USES,
    DieSpec,
    GodtearParams,
    Skill,
    Status,
    Target,
)

__all__ = [
    "CHUNK_SIZE",
    "roll_totals",
    "sample_rolls",
    "run_knockout",
    "simulate",
    "run_activation",
    "run_end_phase",
]

#: Trials per chunk.
CHUNK_SIZE = 65_536
#: Most trials of one call (the outputs are held in memory: 8 bytes per trial and output).
MAX_TRIALS = 10_000_000
#: Most trial-uses of one run_knockout call (n_trials x max_uses): about a minute of work.
MAX_TRIAL_USES = 1_000_000_000


#: Declared constraints of the simulators' sizes (:func:`validate_params`).
TRIALS = Int(0, MAX_TRIALS)
#: ``max_uses`` of the knock-out chain: at least ``max(uses, 1)``, a relation checked in the body.
MAX_USES_OR_NONE = Optional(Int(1, MAX_USES))


def _check_work(n_trials: int, per_trial: int, what: str) -> None:
    """``n_trials x per_trial`` at most ``MAX_TRIALS`` (a relation of two checked arguments)."""
    if n_trials * per_trial > MAX_TRIALS:
        raise ParamError("n_trials", n_trials, f"an integer <= {MAX_TRIALS // per_trial:,} {what}")


@validate_params(n_dice=Unchecked("array-like, converted once and checked in the body (1-D integers, size, range)"),
                 die=DIE, rng=Rng())
def roll_totals(n_dice: npt.ArrayLike, *, die: DieSpec = GODTEAR_DIE, rng: RngLike = None) -> npt.NDArray[np.int64]:
    """Roll ``n_dice[i]`` dice for every trial ``i`` and return the pips totals.

    Parameters
    ----------
    n_dice : array_like of int, shape (n,)
        Dice per trial, each in ``0 .. MAX_ROLL_DICE`` (200); ``n <= MAX_TRIALS``.
    die : DieSpec, default GODTEAR_DIE
    rng : int, SeedSequence, Generator or None, keyword-only
        Random source.

    Returns
    -------
    ndarray of int64, shape (n,)
        Total pips rolled per trial.

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``n_dice`` is not a 1-D array of integers (floats and bools are
        refused), ``die`` not a :class:`DieSpec` or ``rng`` not a seed or generator.
    ParamError
        (a ``ValueError``) If a count is outside ``0 .. MAX_ROLL_DICE``, there are more than
        ``MAX_TRIALS`` trials or ``rng`` is a negative seed.
    """
    raw = np.asarray(n_dice)
    if raw.ndim != 1 or not (raw.dtype.kind in "iu" or (raw.size == 0 and raw.dtype.kind == "f")):
        raise ParamTypeError("n_dice", n_dice, "a 1-D array of integers (dice per trial)")
    if raw.size > MAX_TRIALS:
        raise ParamError("n_dice", f"<array of {raw.size} trials>", f"at most {MAX_TRIALS:,} trials")
    if raw.size and (int(raw.min()) < 0 or int(raw.max()) > MAX_ROLL_DICE):
        raise ParamError("n_dice", f"<array with values {int(raw.min())}..{int(raw.max())}>",
                         f"dice counts in 0..{MAX_ROLL_DICE}")
    return _roll_totals(raw.astype(np.int64), die, rng)


def _roll_totals(n: npt.NDArray[np.int64], die: DieSpec, gen: np.random.Generator) -> npt.NDArray[np.int64]:
    """The kernel of :func:`roll_totals` (inputs trusted)."""
    m = int(n.max()) if n.size else 0
    if m <= 0:
        return np.zeros(n.shape, dtype=np.int64)
    lut = np.asarray(die.face_values, dtype=np.int8 if die.max_pips < 128 else np.int64)
    # dice-major layout: one contiguous row per die, so the sum over dice adds whole rows
    faces = gen.integers(0, die.n_faces, size=(m, n.size), dtype=np.uint8 if die.n_faces <= 256 else np.int64)
    vals = np.take(lut, faces)
    if int(n.min()) < m:
        vals *= np.arange(m, dtype=np.int64)[:, None] < n[None, :]
    acc = np.int16 if m * die.max_pips < 32_000 else np.int64
    return np.add.reduce(vals, axis=0, dtype=acc).astype(np.int64)


@validate_params(n_dice=ROLL_DICE, n_trials=TRIALS, die=DIE, rng=Rng())
def sample_rolls(n_dice: int, n_trials: int, *, die: DieSpec = GODTEAR_DIE, rng: RngLike = None
                 ) -> npt.NDArray[np.int64]:
    """Totals of ``n_trials`` independent rolls of ``n_dice`` dice.

    Parameters
    ----------
    n_dice : int
        Dice per roll (>= 0).
    n_trials : int
        Rolls (>= 0).
    die : DieSpec, default GODTEAR_DIE
    rng : int, SeedSequence, Generator or None, keyword-only

    Returns
    -------
    ndarray of int64, shape (n_trials,)

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``n_dice`` or ``n_trials`` is not an integer, ``die`` not a
        :class:`DieSpec` or ``rng`` not a seed or generator.
    ParamError
        (a ``ValueError``) If ``n_dice`` is outside ``0 .. MAX_ROLL_DICE`` (200), ``n_trials``
        outside ``0 .. MAX_TRIALS`` (10 million) or ``rng`` is a negative seed.
    """
    out = np.empty(n_trials, dtype=np.int64)
    for a, b in chunk_spans(n_trials, CHUNK_SIZE):
        out[a:b] = _roll_totals(np.full(b - a, n_dice, dtype=np.int64), die, rng)
    return out


#: Unchecked body of :func:`sample_rolls` (:func:`run_end_phase`).
_sample_rolls = sample_rolls.__wrapped__


def _gain(cur: npt.NDArray[np.int8], g: int) -> npt.NDArray[np.int8]:
    """Vectorized :func:`gamesim.games.godtear.rules.add_token`."""
    return np.where(cur == 0, g, np.where(cur == g, cur, 0)).astype(np.int8)


def _roll_at(n: npt.NDArray[np.int64], die: DieSpec, gens: Sequence[np.random.Generator],
             idx: npt.NDArray[np.intp], width: int) -> npt.NDArray[np.int64]:
    """Totals of rolls of ``n`` dice by the trials ``idx`` of a chunk of ``width``, one stream per die position.

    Die ``j`` of every trial of the chunk is drawn from ``gens[j]`` (``width`` faces, one
    per trial, whether it rolls or not), so trial ``i``'s ``j``-th die is the same number
    whatever the other dice, the number of dice, or which trials are still playing.
    """
    m = int(n.max()) if n.size else 0
    out = np.zeros(n.shape, dtype=np.int64)
    lut = np.asarray(die.face_values, dtype=np.int64)
    dt = np.uint8 if die.n_faces <= 256 else np.int64
    for j in range(m):
        faces = gens[j].integers(0, die.n_faces, size=width, dtype=dt).take(idx)
        out += np.take(lut, faces) * (n > j)
    return out


def _use(gen: np.random.Generator, die: DieSpec, skill: Skill, target: Target, idx: npt.NDArray[np.intp],
         wounds: npt.NDArray[np.int64], tok: dict[str, npt.NDArray[np.int8]],
         streams: tuple[Sequence[np.random.Generator], Sequence[np.random.Generator], int] | None = None,
         ) -> npt.NDArray[np.bool_]:
    """One use of ``skill`` by the trials ``idx`` on the model whose wounds are ``wounds[idx]``.

    ``wounds`` is a view of one wound per trial (the chosen model); ``tok`` the token
    arrays (``acc``, ``dmg`` of the attacker, ``dodge``, ``prot`` of the target unit),
    all updated in place. Returns the success flags of ``idx``. With ``streams =
    (accuracy_gens, damage_gens, width)`` the dice come from one stream per die position
    (:func:`_roll_at`); otherwise from ``gen``.
    """
    n_acc = np.maximum(skill.accuracy + tok["acc"][idx].astype(np.int64), 0)
    s = _roll_at(n_acc, die, streams[0], idx, streams[2]) if streams else _roll_totals(n_acc, die, gen)
    hit = s >= target.dodge + tok["dodge"][idx].astype(np.int64)
    tok["acc"][idx] = 0
    tok["dodge"][idx] = 0
    h = idx[hit]
    eff = skill.hit_effect
    if eff == "dodge_blight":
        tok["dodge"][h] = _gain(tok["dodge"][h], -1)
    elif eff == "protection_blight":
        tok["prot"][h] = _gain(tok["prot"][h], -1)
    elif eff == "accuracy_boon_self":
        tok["acc"][h] = _gain(tok["acc"][h], 1)
    elif eff == "damage_boon_self":
        tok["dmg"][h] = _gain(tok["dmg"][h], 1)
    if skill.damage is None or h.size == 0:
        return hit
    n_dmg = np.maximum(skill.damage + tok["dmg"][h].astype(np.int64), 0)
    d = _roll_at(n_dmg, die, streams[1], h, streams[2]) if streams else _roll_totals(n_dmg, die, gen)
    prot = np.maximum(target.protection + tok["prot"][h].astype(np.int64), 0)
    w = np.clip(d - prot, 0, target.health - wounds[h])
    wounds[h] += w
    tok["dmg"][h] = 0
    tok["prot"][h] = 0
    return hit


def _tokens(size: int, attacker: Status, target: Status) -> dict[str, npt.NDArray[np.int8]]:
    return {"acc": np.full(size, attacker.accuracy, np.int8), "dmg": np.full(size, attacker.damage, np.int8),
            "dodge": np.full(size, target.dodge, np.int8), "prot": np.full(size, target.protection, np.int8)}


@validate_params(skill=SKILL, target=TARGET, n_trials=TRIALS, uses=USES, max_uses=MAX_USES_OR_NONE,
                 attacker=STATUS, target_status=STATUS, die=DIE, rng=Rng())
def run_knockout(skill: Skill, target: Target, n_trials: int, *, uses: int, max_uses: int | None = None,
                 attacker: Status = Status(), target_status: Status = Status(), die: DieSpec = GODTEAR_DIE,
                 rng: RngLike = None) -> dict[str, npt.NDArray[np.generic]]:
    """Repeated uses of one skill on one target, wounds carried over, until knocked out.

    Parameters
    ----------
    skill : Skill
        Used once per "use" (e.g. once per activation, turn after turn).
    target : Target
        Dodge, protection and health of the target.
    n_trials : int
        Independent trials (>= 0).
    uses : int
        Uses counted for ``knockout`` and ``wounds`` (>= 0).
    max_uses : int or None, default None
        Uses simulated for ``uses_to_knockout`` (default: ``max(uses, 50)``); trials
        not knocked out by then get NaN (right-censored).
    attacker, target_status : Status, default Status()
        Tokens before the first use (accuracy/damage on the attacker, dodge/protection on
        the target); they expire when used.
    die : DieSpec, default GODTEAR_DIE
    rng : int, SeedSequence, Generator or None, keyword-only

    Returns
    -------
    dict of str to ndarray, each shape (n_trials,)
        ``knockout`` (bool): knocked out within ``uses``; ``wounds`` (int64): wounds after
        ``uses`` uses; ``uses_to_knockout`` (float64): the use that knocked it out, NaN
        beyond ``max_uses``.

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If an argument has the wrong type (a float or bool for a count, not a
        Skill...).
    ParamError
        (a ``ValueError``) If ``uses`` is outside ``0 .. MAX_USES`` (1000), ``max_uses`` outside
        ``max(uses, 1) .. MAX_USES``, ``n_trials`` outside ``0 .. MAX_TRIALS`` or ``n_trials *
        max_uses > MAX_TRIAL_USES`` (10^9).
    """
    if max_uses is not None:  # relations of the checked arguments
        check_int("max_uses", max_uses, min=max(uses, 1), max=MAX_USES)
    max_uses = max(uses, 50) if max_uses is None else max_uses
    _check_work(n_trials, max_uses // 100 + 1, f"with max_uses = {max_uses} (n_trials x max_uses <= "
                f"{MAX_TRIAL_USES:,})")
    gen = rng
    ko = np.zeros(n_trials, dtype=bool)
    wounds_out = np.zeros(n_trials, dtype=np.int64)
    t_ko = np.full(n_trials, np.nan)
    for a, b in chunk_spans(n_trials, CHUNK_SIZE):
        size = b - a
        wounds = np.zeros(size, dtype=np.int64)
        tok = _tokens(size, attacker, target_status)
        t = np.full(size, np.nan)
        snap = np.zeros(size, dtype=np.int64)
        for k in range(1, max_uses + 1):
            idx = np.flatnonzero(wounds < target.health)
            if idx.size == 0 and k > uses:
                break
            streams = None
            if k <= uses:  # the counted uses: one stream per (use, roll, die position), see the module notes
                acc_root, dmg_root = gen.spawn(2)  # die j of a roll is always child j of its root
                streams = (acc_root.spawn(max(skill.accuracy, 0) + 1), dmg_root.spawn(max(skill.damage or 0, 0) + 1),
                           size)
            if idx.size:
                _use(gen, die, skill, target, idx, wounds, tok, streams)
                t[idx[wounds[idx] >= target.health]] = k
            if k == uses:
                snap = wounds.copy()
        wounds_out[a:b] = snap
        t_ko[a:b] = t
        ko[a:b] = t <= uses
    return {"knockout": ko, "wounds": wounds_out, "uses_to_knockout": t_ko}


#: Unchecked body of :func:`run_knockout` (:func:`simulate`: a GodtearParams is checked when built).
_run_knockout = run_knockout.__wrapped__


@validate_params(params=Instance(GodtearParams, "a GodtearParams"), n_games=TRIALS, rng=Rng())
def simulate(params: GodtearParams, n_games: int, *, rng: RngLike = None) -> dict[str, npt.NDArray[np.generic]]:
    """The knock-out chain of ``params``, ``n_games`` trials: every game's common entry point.

    Delegates to :func:`run_knockout` (the same random streams: identical arrays for the
    same ``rng``).

    Parameters
    ----------
    params : GodtearParams
        Skill, target, counted and simulated uses, starting tokens, die.
    n_games : int
        Independent trials, 0..:data:`MAX_TRIALS` (and ``n_games x max_uses`` at most
        :data:`MAX_TRIAL_USES`).
    rng : int, SeedSequence, Generator or None, keyword-only, default None
        Random source, normalised by :func:`gamesim.core.rng.as_generator`.

    Returns
    -------
    dict of str to ndarray, each shape (n_games,)
        As :func:`run_knockout`: ``knockout`` (bool), ``wounds`` (int64, wounds),
        ``uses_to_knockout`` (float64, uses; NaN beyond ``max_uses``).

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``params`` is not a :class:`GodtearParams`, ``n_games`` not an integer
        or ``rng`` not a seed or generator.
    ParamError
        (a ``ValueError``) If ``n_games`` is out of range (or over the work bound, named
        ``n_trials``) or ``rng`` is a negative seed.
    """
    return _run_knockout(params.skill, params.target, n_games, uses=params.uses, max_uses=params.max_uses,
                        attacker=params.attacker, target_status=params.target_status, die=params.die, rng=rng)


@validate_params(actions=Unchecked("a sequence of (Skill, targets) pairs: checked in the body"), target=TARGET,
                 n_trials=TRIALS, n_models=Int(1, MAX_MODELS), attacker=STATUS, target_status=STATUS, die=DIE,
                 rng=Rng())
def run_activation(actions: Sequence[tuple[Skill, int]], target: Target, n_trials: int, *, n_models: int = 1,
                   attacker: Status = Status(), target_status: Status = Status(), die: DieSpec = GODTEAR_DIE,
                   rng: RngLike = None) -> dict[str, npt.NDArray[np.generic]]:
    """One activation (two actions): each action a skill used on up to ``n`` models of one unit.

    Parameters
    ----------
    actions : sequence of (Skill, int)
        In order, each action's skill and how many different models it targets (>= 1).
        A unit's skill that targets several models repeats success and damage rolls per
        model (モデルのスキルを使う).
    target : Target
        Stats of every model of the target unit (followers share a card).
    n_trials : int
        Independent trials (>= 0).
    n_models : int, default 1
        Models in the target unit (1 for a champion).
    attacker : Status, default Status()
        Attacker's tokens at the start of the activation (accuracy and damage).
    target_status : Status, default Status()
        Target unit's tokens (dodge, protection); a unit's tokens affect all its models
        and expire at the first roll that uses them, whichever model it targets.
    die : DieSpec, default GODTEAR_DIE
    rng : int, SeedSequence, Generator or None, keyword-only

    Returns
    -------
    dict of str to ndarray
        ``knockouts`` (int64, (n_trials,)): models knocked out; ``wounds`` (int64,
        (n_trials,)): wounds dealt in total; ``wounds_per_model`` (int64,
        (n_trials, n_models)).

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If an argument has the wrong type (a float or bool for a count, not a
        Skill...) or ``actions`` is not 1 to ``MAX_ACTIONS`` (10) pairs.
    ParamError
        (a ``ValueError``) If ``n_models`` is outside ``1 .. MAX_MODELS`` (100), a target count
        is outside ``1 .. MAX_MODELS``, or ``n_trials * n_models > MAX_TRIALS``.

    Notes
    -----
    Each action targets the first ``n`` models not yet knocked out, in model order (a
    single-target skill keeps hitting the same model until it falls: focus fire). Tokens
    are used and expire in the order of the rolls.
    """
    if isinstance(actions, (str, bytes)) or not isinstance(actions, Sequence) or not all(
        isinstance(a, (tuple, list)) and len(a) == 2 and isinstance(a[0], Skill) for a in actions
    ) or not 1 <= len(actions) <= MAX_ACTIONS:
        raise ParamTypeError("actions", actions, f"a sequence of 1 to {MAX_ACTIONS} (Skill, targets) pairs")
    for _, n_t in actions:
        check_int("targets", n_t, min=1, max=MAX_MODELS)
    _check_work(n_trials, n_models, f"with n_models = {n_models} (n_trials x n_models <= {MAX_TRIALS:,})")
    gen = rng
    per_model = np.zeros((n_trials, n_models), dtype=np.int64)
    for a, b in chunk_spans(n_trials, CHUNK_SIZE):
        size = b - a
        wounds = np.zeros((size, n_models), dtype=np.int64)
        tok = _tokens(size, attacker, target_status)
        rows = np.arange(size)
        for skill, n_t in actions:
            alive = wounds < target.health
            rank = np.cumsum(alive, axis=1)
            for slot in range(min(int(n_t), n_models)):
                sel = alive & (rank == slot + 1)
                has = sel.any(axis=1)
                if not has.any():
                    break
                col = sel.argmax(axis=1)
                idx = rows[has]
                w = wounds[rows, col]  # copy: the chosen model's wounds, per trial
                _use(gen, die, skill, target, idx, w, tok)
                wounds[idx, col[idx]] = w[idx]
        per_model[a:b] = wounds
    knocked = (per_model >= target.health).sum(axis=1)
    return {"knockouts": knocked.astype(np.int64), "wounds": per_model.sum(axis=1), "wounds_per_model": per_model}


@validate_params(rule=Choice(("life", "change")), n_trials=TRIALS, die=DIE, rng=Rng())
def run_end_phase(rule: str, n_trials: int, *, die: DieSpec = GODTEAR_DIE, rng: RngLike = None
                  ) -> npt.NDArray[np.int64]:
    """The 生命 / 変化 end-phase die roll: new objectives (roll + 2) or hexes moved (roll).

    Parameters
    ----------
    rule : {"life", "change"}
    n_trials : int
    die : DieSpec, default GODTEAR_DIE
    rng : int, SeedSequence, Generator or None, keyword-only

    Returns
    -------
    ndarray of int64, shape (n_trials,)

    Raises
    ------
    ParamError
        (a ``ValueError``) For an unknown ``rule``, ``n_trials`` outside ``0 .. MAX_TRIALS`` or a
        negative seed.
    ParamTypeError
        (a ``TypeError``) If ``n_trials`` is not an integer, ``die`` not a :class:`DieSpec` or
        ``rng`` not a seed or generator.
    """
    return _sample_rolls(1, n_trials, die=die, rng=rng) + (2 if rule == "life" else 0)
