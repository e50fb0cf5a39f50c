"""Named, pluggable QftNW player strategies (policies).

A policy decides a player's bid each round and, when the *opponent* goes
bankrupt, which of the bankrupt's territory types to name. Every policy has a
scalar form (:meth:`Policy.probs_one`, used by the plain-Python reference and the
exact solver) and a vectorized form (:meth:`Policy.probs_batch` /
:meth:`Policy.bid_batch`, axis 0 = game, used by the batch simulator). Bids are
mixed strategies: probabilities over the hand cards 1..5, zero on illegal cards
(上級ルール: the card bid last round is locked unless that round was a tie).

Policies (spec strings accepted by :func:`make_policy`):

``uniform``
    Each bid uniform over the legal cards.
``mixed`` / ``mixed:p1,p2,p3,p4,p5``
    A fixed mixed strategy over 1..5, renormalised over the legal cards (uniform over the legal
    cards if it puts no mass on them).
``cautious``
    Uniform over the *safe* legal bids (those that cannot bankrupt the player whatever legal
    card the opponent bids); uniform over the legal bids when no bid is safe.
``greedy``
    Values the face-up territory card and, under 上級ルール, the visible deck top (3 = taking it
    wins, 2 = the opponent would win with it, 1 = adds to a type already held, 0 = otherwise).
    If the current card is worth something and at least as much as the next one, it bids one of
    its two highest safe legal cards (equal chance); otherwise it bids its lowest legal card,
    keeping its high cards unlocked for the next round.
``equilibrium`` / ``equilibrium:fund_weight,bankrupt_penalty``
    The equilibrium mixed strategy of the one-round zero-sum game at the current state (funds and
    locks), from :func:`gamesim.games.qftnw.equilibrium.equilibrium_table`.

Naming a type at the opponent's bankruptcy is an option of every policy (``naming``; a spec
suffix ``@most``, ``@spoil`` or ``@take``): ``most`` (default) names the type the bankrupt holds
most of, ties to the earliest letter; ``spoil`` the type that breaks the bankrupt's near win;
``take`` the type best for the namer's own win (:func:`gamesim.games.qftnw.rules.choose_type`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from gamesim.core.registry import ParamError
from gamesim.core.validate import (
    ParamTypeError,
    Unchecked,
    check_choice,
    check_float,
    check_float_list,
    validate_params,
)

from .equilibrium import equilibrium_table
from .rules import (
    FUNDS,
    LOCK,
    N_HAND,
    NAMINGS,
    PARAMS,
    QftnwParams,
    _legal_bids,
    _resolve_bids,
    _choose_type_most,
    _win_condition,
    choose_type,
)
from .vecrules import cond_table, presence_mask, win_condition_vec

__all__ = [
    "POLICY_NAMES",
    "Obs",
    "ObsBatch",
    "Policy",
    "UniformPolicy",
    "MixedPolicy",
    "CautiousPolicy",
    "GreedyPolicy",
    "EquilibriumPolicy",
    "make_policy",
    "safe_bids",
]

#: Policy names accepted by :func:`make_policy` (``mixed`` and ``equilibrium`` take arguments).
POLICY_NAMES: tuple[str, ...] = ("uniform", "mixed", "cautious", "greedy", "equilibrium")


class Obs(NamedTuple):
    """What a player sees before bidding (scalar form), from its own seat.

    Attributes
    ----------
    f_self, f_opp : int
        Funds (1..fund_cap).
    hold_self, hold_opp : tuple of int, shape (n_types,)
        Territory counts.
    flip : int
        Type of the face-up territory card being bid for.
    nxt : int
        Type of the visible deck top (上級ルール), or -1 when not visible / deck empty.
    lock_self, lock_opp : int
        Locked hand card (0 = none).
    """

    f_self: int
    f_opp: int
    hold_self: tuple[int, ...]
    hold_opp: tuple[int, ...]
    flip: int
    nxt: int
    lock_self: int
    lock_opp: int


class ObsBatch(NamedTuple):
    """:class:`Obs` for ``m`` games at once (each field an array with leading axis m)."""

    f_self: npt.NDArray[np.int64]
    f_opp: npt.NDArray[np.int64]
    hold_self: npt.NDArray[np.integer]
    hold_opp: npt.NDArray[np.integer]
    flip: npt.NDArray[np.integer]
    nxt: npt.NDArray[np.integer] | None
    lock_self: npt.NDArray[np.int64]
    lock_opp: npt.NDArray[np.int64]


@validate_params(p=PARAMS, f_self=FUNDS, f_opp=FUNDS, lock_self=LOCK, lock_opp=LOCK)
def safe_bids(f_self: int, f_opp: int, lock_self: int, lock_opp: int, p: QftnwParams) -> tuple[int, ...]:
    """Legal bids that cannot bankrupt the player, whatever legal card the opponent bids.

    Returns
    -------
    tuple of int
        Possibly empty (e.g. funds 1 under ``tie_floor = "both"`` with card 1 locked).

    Raises
    ------
    ParamTypeError, ParamError
        If ``p`` is not a QftnwParams, a fund is not an integer 1..``p.fund_cap`` or a lock
        not an integer 0..5 (0 = none locked).
    """
    mine = _legal_bids(lock_self, p.advanced)
    theirs = _legal_bids(lock_opp, p.advanced)
    return tuple(c for c in mine if all(_resolve_bids(c, o, f_self, f_opp, p)[1] > 0 for o in theirs))


#: Unchecked body of :func:`safe_bids`, for trusted callers (the policies' tables).
_safe_bids = safe_bids.__wrapped__


def _flat_index(fs: np.ndarray, fo: np.ndarray, ls: np.ndarray, lo: np.ndarray, cap: int) -> np.ndarray:
    return ((fs * (cap + 1) + fo) * (N_HAND + 1) + ls) * (N_HAND + 1) + lo


def _sample(probs: npt.NDArray[np.float64], u: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
    """Bids 1..5 by inverse CDF: one uniform per row of ``probs`` (m, 5)."""
    cs = np.cumsum(probs, axis=1)
    x = u * cs[:, -1]
    return (cs[:, :-1] <= x[:, None]).sum(axis=1) + 1


class Policy:
    """Base class: a player strategy. Subclasses set ``name`` and implement the bid rule."""

    name: str = "policy"

    def spec(self) -> str:
        """Spec string that :func:`make_policy` turns back into this policy."""
        return self.name + self._naming_suffix()

    def _naming_suffix(self) -> str:
        return "" if self.naming == "most" else "@" + self.naming

    # --- bids -------------------------------------------------------------
    def probs_one(self, obs: Obs, p: QftnwParams) -> list[float]:
        """Probabilities of bids 1..5 (length 5, zero on illegal cards) for one game."""
        raise NotImplementedError

    def probs_batch(self, obs: ObsBatch, p: QftnwParams) -> npt.NDArray[np.float64]:
        """Probabilities of bids 1..5, shape (m, 5), for m games."""
        raise NotImplementedError

    def bid_batch(self, obs: ObsBatch, p: QftnwParams, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """Sampled bids (1..5), shape (m,), one uniform per game (:meth:`bid_from_uniform`)."""
        return self.bid_from_uniform(obs, p, rng.random(obs.f_self.shape[0]))

    def bid_from_uniform(self, obs: ObsBatch, p: QftnwParams, u: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
        """Bids (1..5), shape (m,), from one uniform in [0, 1) per game by inverse CDF.

        The simulator gives each seat and round its own stream of uniforms (one per game of
        the chunk), so a rule change that moves one game's play leaves every other draw as it was.
        """
        return _sample(self.probs_batch(obs, p), u)

    # --- naming a type at the opponent's bankruptcy -------------------------
    naming: str = "most"

    def name_type_one(self, hold_bankrupt: tuple[int, ...], hold_self: tuple[int, ...] | None = None,
                      p: QftnwParams | None = None) -> int:
        """Type to name when the opponent is bankrupt (-1 if it holds none), by ``self.naming``.

        ``"most"`` needs only ``hold_bankrupt``; ``"spoil"``/``"take"`` need the namer's own
        holdings and the rules (:func:`gamesim.games.qftnw.rules.choose_type`).
        """
        if self.naming == "most":
            return _choose_type_most(hold_bankrupt)
        if hold_self is None or p is None:
            raise ValueError(f"naming {self.naming!r} needs the namer's holdings and the rules")
        return choose_type(hold_bankrupt, hold_self, p, self.naming)

    def name_type_batch(self, hold_bankrupt: npt.NDArray[np.integer], hold_self: npt.NDArray[np.integer] | None = None,
                        p: QftnwParams | None = None) -> npt.NDArray[np.int64]:
        """Vectorized :meth:`name_type_one`, shape (m,)."""
        if self.naming == "most":
            t = np.argmax(hold_bankrupt, axis=1)
            return np.where(hold_bankrupt.max(axis=1) > 0, t, -1)
        if hold_self is None or p is None:
            raise ValueError(f"naming {self.naming!r} needs the namer's holdings and the rules")
        return choose_type_batch(hold_bankrupt, hold_self, p, self.naming)

    def __repr__(self) -> str:
        return f"<policy {self.spec()}>"


class _StatePolicy(Policy):
    """A policy whose bid depends only on (own funds, opponent funds, own lock, opponent lock)."""

    def probs_state(self, fs: int, fo: int, ls: int, lo: int, p: QftnwParams) -> list[float]:
        raise NotImplementedError

    def probs_one(self, obs: Obs, p: QftnwParams) -> list[float]:
        return self.probs_state(obs.f_self, obs.f_opp, obs.lock_self, obs.lock_opp, p)

    def table(self, p: QftnwParams) -> npt.NDArray[np.float64]:
        """Flattened table of :meth:`probs_state`, shape ((cap+1)^2 * 36, 5)."""
        return _state_table(self, p)

    def probs_batch(self, obs: ObsBatch, p: QftnwParams) -> npt.NDArray[np.float64]:
        k = _flat_index(obs.f_self, obs.f_opp, obs.lock_self, obs.lock_opp, p.fund_cap)
        return self.table(p)[k]


@lru_cache(maxsize=64)
def _state_table(pol: _StatePolicy, p: QftnwParams) -> npt.NDArray[np.float64]:
    cap = p.fund_cap
    locks = range(N_HAND + 1) if p.advanced else (0,)
    t = np.full((cap + 1, cap + 1, N_HAND + 1, N_HAND + 1, N_HAND), 1.0 / N_HAND)
    for fs in range(1, cap + 1):
        for fo in range(1, cap + 1):
            for ls in locks:
                for lo in locks:
                    t[fs, fo, ls, lo] = pol.probs_state(fs, fo, ls, lo, p)
    t = t.reshape(-1, N_HAND)
    t.setflags(write=False)
    return t


def _on(cards: tuple[int, ...], weights: list[float] | None = None) -> list[float]:
    out = [0.0] * N_HAND
    if weights is None:
        for c in cards:
            out[c - 1] = 1.0 / len(cards)
        return out
    s = sum(weights)
    for c, w in zip(cards, weights):
        out[c - 1] = w / s
    return out


@dataclass(frozen=True, eq=True)
class UniformPolicy(_StatePolicy):
    """Each bid uniform over the legal cards (``uniform``)."""

    name: str = "uniform"
    naming: str = "most"

    def __post_init__(self) -> None:
        check_choice("naming", self.naming, NAMINGS)

    def probs_state(self, fs: int, fo: int, ls: int, lo: int, p: QftnwParams) -> list[float]:
        return _on(_legal_bids(ls, p.advanced))

    def bid_from_uniform(self, obs: ObsBatch, p: QftnwParams, u: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
        if not p.advanced:
            return (u * N_HAND).astype(np.int64) + 1
        lock = obs.lock_self
        locked = lock > 0
        c = (u * np.where(locked, N_HAND - 1, N_HAND)).astype(np.int64) + 1
        return c + (locked & (c >= lock))


@dataclass(frozen=True, eq=True)
class MixedPolicy(_StatePolicy):
    """A fixed mixed strategy over bids 1..5 (``mixed:p1,...,p5``), renormalised over legal cards.

    Parameters
    ----------
    probs : tuple of float, length 5
        Non-negative weights of bids 1..5 (normalised; must not all be 0).

    Raises
    ------
    ParamError
        (``ValueError``; ``TypeError`` for non-numbers) wrong length, a negative or non-finite
        (``nan``, ``inf``) weight, or all zero.
    """

    probs: tuple[float, ...] = (0.2, 0.2, 0.2, 0.2, 0.2)
    name: str = "mixed"
    naming: str = "most"

    def __post_init__(self) -> None:
        pr = tuple(check_float_list("mixed_probs", self.probs, min=0.0, max=1e12, min_len=N_HAND, max_len=N_HAND))
        if sum(pr) <= 0:
            raise ParamError("mixed_probs", self.probs, "5 non-negative weights, not all 0")
        check_choice("naming", self.naming, NAMINGS)
        s = sum(pr)
        object.__setattr__(self, "probs", tuple(x / s for x in pr))

    def spec(self) -> str:
        return "mixed:" + ",".join(f"{x:.6g}" for x in self.probs) + self._naming_suffix()

    def probs_state(self, fs: int, fo: int, ls: int, lo: int, p: QftnwParams) -> list[float]:
        legal = _legal_bids(ls, p.advanced)
        w = [self.probs[c - 1] for c in legal]
        return _on(legal) if sum(w) <= 0 else _on(legal, w)


@dataclass(frozen=True, eq=True)
class CautiousPolicy(_StatePolicy):
    """Never bids what could bankrupt it when a safe bid exists (``cautious``)."""

    name: str = "cautious"
    naming: str = "most"

    def __post_init__(self) -> None:
        check_choice("naming", self.naming, NAMINGS)

    def probs_state(self, fs: int, fo: int, ls: int, lo: int, p: QftnwParams) -> list[float]:
        safe = _safe_bids(fs, fo, ls, lo, p)
        return _on(safe if safe else _legal_bids(ls, p.advanced))


@dataclass(frozen=True, eq=True)
class EquilibriumPolicy(_StatePolicy):
    """One-round equilibrium mixed strategy at the current state (``equilibrium:fw,bp``).

    Parameters
    ----------
    fund_weight, bankrupt_penalty : float
        The designer's round payoff (:func:`gamesim.games.qftnw.equilibrium.round_payoff_matrix`).
    """

    fund_weight: float = 1.0
    bankrupt_penalty: float = 2.0
    name: str = "equilibrium"
    naming: str = "most"

    def __post_init__(self) -> None:
        object.__setattr__(self, "fund_weight", check_float("fund_weight", self.fund_weight, min=-1e6, max=1e6))
        object.__setattr__(self, "bankrupt_penalty",
                           check_float("bankrupt_penalty", self.bankrupt_penalty, min=-1e6, max=1e6))
        check_choice("naming", self.naming, NAMINGS)

    def spec(self) -> str:
        return f"equilibrium:{self.fund_weight:g},{self.bankrupt_penalty:g}" + self._naming_suffix()

    def probs_state(self, fs: int, fo: int, ls: int, lo: int, p: QftnwParams) -> list[float]:
        t = equilibrium_table(p, fund_weight=self.fund_weight, bankrupt_penalty=self.bankrupt_penalty)
        return [float(x) for x in t[fs, fo, ls, lo]]


# ---------------------------------------------------------------------------
# greedy
# ---------------------------------------------------------------------------


def _card_value_one(t: int, hs: tuple[int, ...], ho: tuple[int, ...], p: QftnwParams) -> int:
    if t < 0:
        return -1
    hs1 = list(hs)
    hs1[t] += 1
    if _win_condition(hs1, ho, p):
        return 3
    ho1 = list(ho)
    ho1[t] += 1
    if _win_condition(ho1, hs, p):
        return 2
    return 1 if hs[t] > 0 else 0


def _card_value_batch(t: np.ndarray, hs: np.ndarray, ho: np.ndarray, p: QftnwParams,
                      masks: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Vectorized :func:`_card_value_one` (presence-mask table when the deck has <= 10 types).

    The table path tests three of a kind on the added type only, which is exact in every reachable
    state (at bidding time neither player satisfies a condition yet).
    """
    m = t.shape[0]
    r = np.arange(m)
    tt = np.maximum(t, 0)
    table = cond_table(p)
    if table is not None and masks is not None:
        ms, mo = masks
        b = np.left_shift(1, tt)
        k = p.n_of_a_kind
        selfwin = (hs[r, tt] + 1 >= k) | (table[ms | b, mo] > 0)
        oppwin = (ho[r, tt] + 1 >= k) | (table[mo | b, ms] > 0)
    else:
        hs1 = hs.copy()
        hs1[r, tt] += 1
        ho1 = ho.copy()
        ho1[r, tt] += 1
        selfwin = win_condition_vec(hs1, ho, p) > 0
        oppwin = win_condition_vec(ho1, hs, p) > 0
    v = np.where(selfwin, 3, np.where(oppwin, 2, (hs[r, tt] > 0).astype(np.int64)))
    return np.where(t < 0, -1, v)


@dataclass(frozen=True, eq=True)
class GreedyPolicy(Policy):
    """Bids high for a valuable face-up card, low to keep high cards for a better next one (``greedy``)."""

    name: str = "greedy"
    naming: str = "most"

    def __post_init__(self) -> None:
        check_choice("naming", self.naming, NAMINGS)

    def probs_one(self, obs: Obs, p: QftnwParams) -> list[float]:
        legal = _legal_bids(obs.lock_self, p.advanced)
        v_cur = _card_value_one(obs.flip, obs.hold_self, obs.hold_opp, p)
        v_next = _card_value_one(obs.nxt, obs.hold_self, obs.hold_opp, p) if p.advanced else -1
        if v_cur >= 1 and v_cur >= v_next:
            safe = _safe_bids(obs.f_self, obs.f_opp, obs.lock_self, obs.lock_opp, p)
            cand = sorted(safe if safe else legal, reverse=True)[:2]
            return _on(tuple(cand))
        return _on((min(legal),))

    def probs_batch(self, obs: ObsBatch, p: QftnwParams) -> npt.NDArray[np.float64]:
        m = obs.f_self.shape[0]
        masks = (presence_mask(obs.hold_self), presence_mask(obs.hold_opp))
        v_cur = _card_value_batch(obs.flip, obs.hold_self, obs.hold_opp, p, masks)
        if p.advanced and obs.nxt is not None:
            v_next = _card_value_batch(obs.nxt, obs.hold_self, obs.hold_opp, p, masks)
        else:
            v_next = np.full(m, -1)
        go = (v_cur >= 1) & (v_cur >= v_next)
        k = _flat_index(obs.f_self, obs.f_opp, obs.lock_self, obs.lock_opp, p.fund_cap)
        legal = _legal_table(p)[k]
        safe = _safe_table(p)[k]
        cand = np.where(safe.any(axis=1, keepdims=True), safe, legal)
        rank = np.cumsum(cand[:, ::-1], axis=1)[:, ::-1]  # candidates at or above each card
        top2 = cand & (rank <= 2)
        low = np.zeros((m, N_HAND), dtype=bool)
        low[np.arange(m), np.argmax(legal, axis=1)] = True
        pick = np.where(go[:, None], top2, low).astype(np.float64)
        return pick / pick.sum(axis=1, keepdims=True)


def choose_type_batch(hold_bankrupt: npt.NDArray[np.integer], hold_namer: npt.NDArray[np.integer],
                      p: QftnwParams, naming: str) -> npt.NDArray[np.int64]:
    """Vectorized :func:`gamesim.games.qftnw.rules.choose_type`, shape (m,) (-1: nothing held)."""
    hb = np.asarray(hold_bankrupt, dtype=np.int64)
    hn = np.asarray(hold_namer, dtype=np.int64)
    m, T = hb.shape
    if naming == "most":
        t = np.argmax(hb, axis=1)
        return np.where(hb.max(axis=1) > 0, t, -1)
    keys = np.full((m, T), -1, dtype=np.int64)
    eye = np.eye(T, dtype=np.int64)
    for t in range(T):
        c = hb[:, t]
        hb2 = hb.copy()
        hb2[:, t] = 0
        hn2 = hn.copy()
        if p.transfer != "discard_all":
            hn2[:, t] += np.maximum(c - 1, 0)
        if naming == "spoil":
            threat = sum((win_condition_vec(hb2 + eye[u], hn2, p) > 0).astype(np.int64) for u in range(T))
            key = (T - threat) * 1000 + c
        else:
            now = (win_condition_vec(hn2, hb2, p) > 0).astype(np.int64)
            chances = sum((win_condition_vec(hn2 + eye[u], hb2, p) > 0).astype(np.int64) for u in range(T))
            key = now * 10**6 + chances * 1000 + c
        keys[:, t] = np.where(c > 0, key, -1)
    t = np.argmax(keys, axis=1)
    return np.where(hb.max(axis=1) > 0, t, -1)


@lru_cache(maxsize=64)
def _legal_table(p: QftnwParams) -> npt.NDArray[np.bool_]:
    t = np.zeros((p.fund_cap + 1, p.fund_cap + 1, N_HAND + 1, N_HAND + 1, N_HAND), dtype=bool)
    for ls in range(N_HAND + 1):
        for c in _legal_bids(ls, p.advanced):
            t[:, :, ls, :, c - 1] = True
    return t.reshape(-1, N_HAND)


@lru_cache(maxsize=64)
def _safe_table(p: QftnwParams) -> npt.NDArray[np.bool_]:
    t = np.zeros((p.fund_cap + 1, p.fund_cap + 1, N_HAND + 1, N_HAND + 1, N_HAND), dtype=bool)
    locks = range(N_HAND + 1) if p.advanced else (0,)
    for fs in range(1, p.fund_cap + 1):
        for fo in range(1, p.fund_cap + 1):
            for ls in locks:
                for lo in locks:
                    for c in _safe_bids(fs, fo, ls, lo, p):
                        t[fs, fo, ls, lo, c - 1] = True
    return t.reshape(-1, N_HAND)


@validate_params(
    spec=Unchecked("a spec string or a Policy, parsed in the body (errors name 'policy')"),
    mixed_probs=Unchecked("checked by MixedPolicy, only for a bare 'mixed'"),
    fund_weight=Unchecked("checked by EquilibriumPolicy, only for a bare 'equilibrium'"),
    bankrupt_penalty=Unchecked("checked by EquilibriumPolicy, only for a bare 'equilibrium'"),
    naming=Unchecked("a spec's @suffix overrides it; the result is checked in the body"),
)
def make_policy(spec: Any, *, mixed_probs: Any = None, fund_weight: float = 1.0,
                bankrupt_penalty: float = 2.0, naming: str = "most") -> Policy:
    """Build a policy from its name or spec string.

    Parameters
    ----------
    spec : str or Policy
        ``"uniform"``, ``"cautious"``, ``"greedy"``, ``"mixed"`` (weights from ``mixed_probs``),
        ``"mixed:p1,p2,p3,p4,p5"``, ``"equilibrium"`` (payoff from ``fund_weight`` and
        ``bankrupt_penalty``) or ``"equilibrium:fund_weight,bankrupt_penalty"``, each optionally
        followed by ``"@most"``, ``"@spoil"`` or ``"@take"`` (how it names a type when the opponent
        goes bankrupt, overriding ``naming``); a :class:`Policy` is returned unchanged.
    mixed_probs : sequence of 5 floats, optional
        Weights for a bare ``"mixed"`` (finite, >= 0, not all 0).
    fund_weight, bankrupt_penalty : float
        Payoff of a bare ``"equilibrium"`` (finite, |x| <= 1e6).
    naming : {"most", "spoil", "take"}, default "most"
        Naming rule (:func:`gamesim.games.qftnw.rules.choose_type`): the type the bankrupt holds
        most of; the type that spoils the bankrupt's near win; the type best for the namer's own win.

    Returns
    -------
    Policy

    Raises
    ------
    ParamError
        (a ``ValueError``; ``ParamTypeError``, also a ``TypeError``, for wrong types) unknown name
        or naming, a malformed argument list, ``nan``/infinite weights or payoffs, or ``"mixed"``
        without weights.
    """
    if isinstance(spec, Policy):
        return spec
    if not isinstance(spec, str):
        raise ParamTypeError("policy", spec, f"a name in {POLICY_NAMES} (optionally @most/@spoil/@take) or a Policy")
    body, at, suffix = spec.strip().partition("@")
    if at:
        naming = suffix.strip()
    check_choice("naming", naming, NAMINGS)
    name, _, arg = body.strip().partition(":")
    try:
        nums = tuple(float(x) for x in arg.split(",")) if arg else ()
    except ValueError:
        raise ParamError("policy", spec, "a policy spec whose arguments are numbers separated by commas") from None
    if name == "uniform" and not arg:
        return UniformPolicy(naming=naming)
    if name == "cautious" and not arg:
        return CautiousPolicy(naming=naming)
    if name == "greedy" and not arg:
        return GreedyPolicy(naming=naming)
    if name == "mixed":
        w = nums if arg else mixed_probs
        if w is None:
            raise ParamError("policy", spec, "'mixed:p1,p2,p3,p4,p5' or a bare 'mixed' with mixed_probs")
        return MixedPolicy(tuple(w) if isinstance(w, (list, tuple)) else w, naming=naming)
    if name == "equilibrium":
        if arg and len(nums) != 2:
            raise ParamError("policy", spec, "'equilibrium:fund_weight,bankrupt_penalty'")
        fw, bp = nums if arg else (fund_weight, bankrupt_penalty)
        return EquilibriumPolicy(fw, bp, naming=naming)
    raise ParamError("policy", spec, f"one of {', '.join(POLICY_NAMES)} (mixed:p1,..,p5 and equilibrium:fw,bp "
                     "take arguments; @most/@spoil/@take choose the naming)")
