"""Pure rules core of ガッチャ ~God Chance~: the gacha bag, God Chance and 課金ガチャ.

Everything here is deterministic: chance points *list* their outcomes with
probabilities and never draw random numbers. The batch simulator
(:mod:`gamesim.games.gacha.sim`), the exact solver
(:mod:`gamesim.games.gacha.exact`) and the scalar reference
(:mod:`gamesim.games.gacha.reference`) all implement the same reading of the
rules, documented in ``docs/rules/gacha.md``.

Source: ``shared/seeds/gacha_god_chance_rules_ja.txt``, sections ガチャ袋作成,
ガチャを引く, God Chance, Overdrive, 課金ガチャの例 and 疑惑の運営モード.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache

import numpy as np
import numpy.typing as npt
from scipy.optimize import Bounds, LinearConstraint, milp

__all__ = [
    "Chip",
    "N_GOD_CHANCE_DEFAULT",
    "N_SR_DEFAULT",
    "N_N_DEFAULT",
    "N_CHARACTERS_DEFAULT",
    "OVERDRIVE_PULLS_DEFAULT",
    "DOUBTFUL_K_DEFAULT",
    "BagConfig",
    "DoubtfulConfig",
    "RateBundle",
    "DEFAULT_BUNDLES",
    "BundleMix",
    "normalize_bundles",
    "best_bundle_mix",
    "coupon_collector_probability",
    "owned_transition_matrix",
    "BagState",
    "SessionOutcome",
    "full_bag",
    "removal_outcomes",
    "bag_creation_outcomes",
    "draw_outcomes",
    "apply_draw",
    "must_rebuild",
    "session_outcomes",
    "split_sessions",
]


class Chip(IntEnum):
    """Kinds of ガチャチップス in the ガチャ袋 (index into count tuples)."""

    GOD_CHANCE = 0  #: the God Chance chip (当たり)
    SR = 1  #: SR chip (はずれ)
    N = 2  #: N chip (はずれ)


#: Default chips per bag creation (ガチャ袋作成: ●1, ●5, ●44).
N_GOD_CHANCE_DEFAULT: int = 1
N_SR_DEFAULT: int = 5
N_N_DEFAULT: int = 44
#: Number of God Chance cards / UR characters (God Chanceカード：5枚).
N_CHARACTERS_DEFAULT: int = 5
#: Overdrive extra pulls in the rulebook's みやび example (●：10).
OVERDRIVE_PULLS_DEFAULT: int = 10
#: Chips removed per bag creation in 疑惑の運営モード (「3~4個ほど」).
DOUBTFUL_K_DEFAULT: tuple[int, ...] = (3, 4)


@dataclass(frozen=True)
class BagConfig:
    """Contents of a full gacha bag (ガチャ袋作成).

    Parameters
    ----------
    n_god_chance : int, default 1
        God Chance chips (chips).
    n_sr : int, default 5
        SR chips (chips).
    n_n : int, default 44
        N chips (chips).

    Raises
    ------
    ValueError
        If a count is negative or not an integer, or if the bag would hold no chip.

    Notes
    -----
    Rulebook, ガチャ袋作成: 「●：1個、●：5個、●：44個をガチャ袋に入れます」.
    """

    n_god_chance: int = N_GOD_CHANCE_DEFAULT
    n_sr: int = N_SR_DEFAULT
    n_n: int = N_N_DEFAULT

    def __post_init__(self) -> None:
        for name in ("n_god_chance", "n_sr", "n_n"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
                raise ValueError(f"BagConfig.{name} = {v!r}, must be an integer >= 0")
        if self.total < 1:
            raise ValueError("BagConfig: the bag must hold at least 1 chip (total = 0)")

    @property
    def total(self) -> int:
        """Chips in a full bag."""
        return int(self.n_god_chance + self.n_sr + self.n_n)

    @property
    def counts(self) -> tuple[int, int, int]:
        """``(n_god_chance, n_sr, n_n)``, indexed by :class:`Chip`."""
        return (int(self.n_god_chance), int(self.n_sr), int(self.n_n))


@dataclass(frozen=True)
class DoubtfulConfig:
    """疑惑の運営モード: chips secretly removed at every bag creation.

    Parameters
    ----------
    k_values : tuple of int, default (3, 4)
        Possible numbers of removed chips (chips), each >= 0.
    k_probs : tuple of float or None, default None
        Probabilities of each ``k_values`` entry; ``None`` means uniform.

    Raises
    ------
    ValueError
        If ``k_values`` is empty or has a negative entry, or ``k_probs`` has the
        wrong length, a negative entry, or does not sum to 1.

    Notes
    -----
    Rulebook, 疑惑の運営モード: 「ガチャ袋作成」が完了した際、毎回…ランダムに3~4個ほど
    ガチャチップスを抜き取ります。 The removed chips are not looked at and return at the
    next bag creation. "3~4個ほど" is read as k uniform on {3, 4}.
    """

    k_values: tuple[int, ...] = DOUBTFUL_K_DEFAULT
    k_probs: tuple[float, ...] | None = None

    def __post_init__(self) -> None:
        kv = tuple(int(k) for k in self.k_values)
        if not kv or min(kv) < 0:
            raise ValueError(f"DoubtfulConfig.k_values = {self.k_values!r}, must be non-empty, each >= 0")
        object.__setattr__(self, "k_values", kv)
        if self.k_probs is not None:
            kp = tuple(float(p) for p in self.k_probs)
            if len(kp) != len(kv) or min(kp) < 0 or abs(sum(kp) - 1.0) > 1e-9:
                raise ValueError(
                    f"DoubtfulConfig.k_probs = {self.k_probs!r}, must be {len(kv)} "
                    "non-negative probabilities summing to 1"
                )
            object.__setattr__(self, "k_probs", kp)

    @property
    def probabilities(self) -> tuple[float, ...]:
        """Probability of each entry of ``k_values`` (uniform when ``k_probs`` is None)."""
        if self.k_probs is None:
            return tuple(1.0 / len(self.k_values) for _ in self.k_values)
        return self.k_probs

    @property
    def k_max(self) -> int:
        """Largest number of removed chips."""
        return max(self.k_values)


# ---------------------------------------------------------------------------
# 課金ガチャ (paid gacha)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RateBundle:
    """One 課金ガチャ rate: pay ``cost`` money, pull ``pulls`` chips.

    Parameters
    ----------
    cost : int
        Money paid (👑), >= 1.
    pulls : int
        Pulls received (🎰), >= 1.

    Raises
    ------
    ValueError
        If ``cost <= 0`` or ``pulls <= 0``.
    """

    cost: int
    pulls: int

    def __post_init__(self) -> None:
        if int(self.cost) != self.cost or self.cost <= 0:
            raise ValueError(f"RateBundle.cost = {self.cost!r}, must be an integer >= 1")
        if int(self.pulls) != self.pulls or self.pulls <= 0:
            raise ValueError(f"RateBundle.pulls = {self.pulls!r}, must be an integer >= 1")


#: Rulebook 課金ガチャの例 rates: 👑×2 → 🎰×1, 👑×10 → 🎰×12, 👑×15 → 🎰×25.
DEFAULT_BUNDLES: tuple[RateBundle, ...] = (RateBundle(2, 1), RateBundle(10, 12), RateBundle(15, 25))


@dataclass(frozen=True)
class BundleMix:
    """The result of :func:`best_bundle_mix`.

    Parameters
    ----------
    bundles : tuple of RateBundle
        The rates considered.
    counts : tuple of int
        How many times each bundle is bought.
    pulls : int
        Total pulls (one session).
    money_spent : int
        Total money paid (<= the money available).
    """

    bundles: tuple[RateBundle, ...]
    counts: tuple[int, ...]
    pulls: int
    money_spent: int


def normalize_bundles(bundles: Iterable[RateBundle | Sequence[int]]) -> tuple[RateBundle, ...]:
    """Turn ``(cost, pulls)`` pairs or :class:`RateBundle` objects into a tuple of bundles.

    Parameters
    ----------
    bundles : iterable of RateBundle or (int, int)
        Rates as ``(money, pulls)``.

    Returns
    -------
    tuple of RateBundle

    Raises
    ------
    ValueError
        If a pair does not have two entries, or a cost or pull count is <= 0.
    """
    out = []
    for b in bundles:
        if isinstance(b, RateBundle):
            out.append(b)
        else:
            pair = tuple(b)
            if len(pair) != 2:
                raise ValueError(f"bundle {b!r} must be a (money, pulls) pair")
            out.append(RateBundle(int(pair[0]), int(pair[1])))
    return tuple(out)


def best_bundle_mix(
    money: int, bundles: Iterable[RateBundle | Sequence[int]] = DEFAULT_BUNDLES
) -> BundleMix:
    """The 課金ガチャ purchase that gives the most pulls for ``money``.

    Parameters
    ----------
    money : int
        Money available (👑), >= 0.
    bundles : iterable of RateBundle or (int, int), default DEFAULT_BUNDLES
        Rates ``(money, pulls)``, each usable any number of times.

    Returns
    -------
    BundleMix
        Counts per bundle, total pulls and money spent. Among mixes with the most
        pulls, the one spending the least money.

    Raises
    ------
    ValueError
        If ``money < 0``, a bundle has cost or pulls <= 0, or the solver fails.

    Notes
    -----
    Integer programme solved exactly with ``scipy.optimize.milp`` (HiGHS): maximise
    ``sum(p_i x_i)`` s.t. ``sum(c_i x_i) <= money``, ``x_i`` integer >= 0; then a
    second solve with the pulls fixed minimises the money. Rulebook 課金ガチャの例:
    8 money → 4 pulls, 10 → 12, 25 → 37.

    Examples
    --------
    >>> best_bundle_mix(25).pulls
    37
    """
    bs = normalize_bundles(bundles)
    if int(money) != money or money < 0:
        raise ValueError(f"money = {money!r}, must be an integer >= 0")
    money = int(money)
    if not bs:
        return BundleMix((), (), 0, 0)
    cost = np.array([b.cost for b in bs], dtype=float)
    pulls = np.array([b.pulls for b in bs], dtype=float)
    if money < cost.min():
        return BundleMix(bs, tuple(0 for _ in bs), 0, 0)
    ub = np.floor(money / cost)
    integrality = np.ones(len(bs))
    bounds = Bounds(np.zeros(len(bs)), ub)
    r1 = milp(-pulls, constraints=[LinearConstraint(cost[None, :], -np.inf, money)],
              integrality=integrality, bounds=bounds)
    if not r1.success:  # pragma: no cover - HiGHS always solves these
        raise ValueError(f"milp failed for money={money}: {r1.message}")
    best_pulls = int(round(float(pulls @ np.round(r1.x))))
    r2 = milp(cost, constraints=[LinearConstraint(cost[None, :], -np.inf, money),
                                 LinearConstraint(pulls[None, :], best_pulls, best_pulls)],
              integrality=integrality, bounds=bounds)
    x = np.round(r2.x if r2.success else r1.x).astype(int)
    counts = tuple(int(v) for v in x)
    return BundleMix(bs, counts, int(sum(c * b.pulls for c, b in zip(counts, bs))),
                     int(sum(c * b.cost for c, b in zip(counts, bs))))


# ---------------------------------------------------------------------------
# God Chance / コンスリート
# ---------------------------------------------------------------------------


def owned_transition_matrix(n_characters: int) -> npt.NDArray[np.float64]:
    """One God Chance as a Markov step on the number of characters owned.

    Parameters
    ----------
    n_characters : int
        God Chance cards (characters), >= 1.

    Returns
    -------
    ndarray of float64, shape (n_characters + 1, n_characters + 1)
        ``C[c, c + 1] = (n - c) / n`` (a new character), ``C[c, c] = c / n``.
    """
    n = int(n_characters)
    c = np.arange(n + 1)
    mat = np.zeros((n + 1, n + 1))
    mat[c, c] = c / n
    mat[c[:-1], c[:-1] + 1] = (n - c[:-1]) / n
    return mat


def coupon_collector_probability(
    n_god_chances: npt.ArrayLike, n_characters: int = N_CHARACTERS_DEFAULT
) -> npt.NDArray[np.float64]:
    """P(コンスリート) after ``G`` God Chances: all ``n`` characters owned.

    Parameters
    ----------
    n_god_chances : int or array_like of int
        Numbers of God Chances ``G`` (>= 0), any shape.
    n_characters : int, default 5
        Characters (God Chance cards), >= 1.

    Returns
    -------
    ndarray of float64, same shape as ``n_god_chances``
        ``sum_j (-1)^j C(n, j) (1 - j/n)^G``.

    Raises
    ------
    ValueError
        If ``n_characters < 1`` or some ``G < 0``.

    Notes
    -----
    God Chance: a card is chosen uniformly from the n cards (「5枚のGod Chanceカードから
    裏向きでランダムに1枚選びます」), independently each time, and the character is gained
    if not owned. Computed by the owned-count Markov chain (numerically stable for any
    n), which equals the inclusion-exclusion formula above.
    """
    g = np.asarray(n_god_chances)
    if n_characters < 1:
        raise ValueError(f"n_characters = {n_characters!r}, must be >= 1")
    if g.size and g.min() < 0:
        raise ValueError("n_god_chances must be >= 0")
    gmax = int(g.max()) if g.size else 0
    mat = owned_transition_matrix(n_characters)
    v = np.zeros(n_characters + 1)
    v[0] = 1.0
    table = np.empty(gmax + 1)
    for i in range(gmax + 1):
        table[i] = v[-1]
        v = v @ mat
    return table[g.astype(np.int64)]


# ---------------------------------------------------------------------------
# The bag as an immutable state
# ---------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class BagState:
    """The shared ガチャ袋 between sessions (hashable, immutable).

    Parameters
    ----------
    in_bag : tuple of 3 int
        Chips in the bag by :class:`Chip` kind.
    hidden : tuple of 3 int
        Chips secretly removed at the last bag creation (疑惑の運営モード), by kind.
    gc_drawn : int
        God Chance chips drawn since the last bag creation.
    """

    in_bag: tuple[int, int, int]
    hidden: tuple[int, int, int] = (0, 0, 0)
    gc_drawn: int = 0

    @property
    def n_left(self) -> int:
        """Chips in the bag."""
        return sum(self.in_bag)


@dataclass(frozen=True)
class SessionOutcome:
    """One chance outcome of a pull session.

    Parameters
    ----------
    drawn : tuple of 3 int
        Chips drawn in the session by :class:`Chip` kind (God Chances = ``drawn[0]``).
    state : BagState
        The bag after the session (after any end-of-session bag creation).
    probability : float
    """

    drawn: tuple[int, int, int]
    state: BagState
    probability: float


def full_bag(bag: BagConfig) -> BagState:
    """A freshly made full bag (ガチャ袋作成 without removals)."""
    return BagState(bag.counts, (0, 0, 0), 0)


def _mv_hypergeometric(counts: tuple[int, int, int], m: int) -> list[tuple[tuple[int, int, int], float]]:
    """All ``(a, b, c)`` with ``a+b+c = m`` drawn without replacement, with probabilities."""
    g, s, n = counts
    total = math.comb(g + s + n, m)
    out = []
    for a in range(min(g, m) + 1):
        for b in range(min(s, m - a) + 1):
            c = m - a - b
            if c > n:
                continue
            w = math.comb(g, a) * math.comb(s, b) * math.comb(n, c)
            if w:
                out.append(((a, b, c), w / total))
    return out


def removal_outcomes(counts: tuple[int, int, int], k: int) -> list[tuple[tuple[int, int, int], float]]:
    """Ways to remove ``k`` chips at random from a bag with ``counts``.

    Parameters
    ----------
    counts : tuple of 3 int
        Chips by kind.
    k : int
        Chips removed, ``0 <= k <= sum(counts)``.

    Returns
    -------
    list of ((int, int, int), float)
        Removed chips by kind and probability (multivariate hypergeometric).
    """
    return _mv_hypergeometric(counts, k)


def draw_outcomes(counts: tuple[int, int, int], m: int) -> list[tuple[tuple[int, int, int], float]]:
    """Ways to draw ``m`` chips without replacement from a bag with ``counts``.

    Parameters
    ----------
    counts : tuple of 3 int
        Chips in the bag by kind.
    m : int
        Pulls, ``0 <= m <= sum(counts)``.

    Returns
    -------
    list of ((int, int, int), float)
        Drawn chips by kind and probability (multivariate hypergeometric).
    """
    return _mv_hypergeometric(counts, m)


@lru_cache(maxsize=None)
def bag_creation_outcomes(
    bag: BagConfig, doubtful: DoubtfulConfig | None = None
) -> tuple[tuple[BagState, float], ...]:
    """Outcomes of a ガチャ袋作成 (bag creation).

    Parameters
    ----------
    bag : BagConfig
    doubtful : DoubtfulConfig or None
        疑惑の運営モード; ``None`` = normal rules.

    Returns
    -------
    tuple of (BagState, float)
        New states (``gc_drawn = 0``) with probabilities summing to 1.

    Notes
    -----
    All chips return to the bag (including previously hidden ones), then in 疑惑の運営モード
    ``k`` chips are removed unseen: k drawn from ``doubtful``, the removed set uniformly
    random.
    """
    full = bag.counts
    if doubtful is None:
        return ((BagState(full, (0, 0, 0), 0), 1.0),)
    acc: dict[BagState, float] = {}
    for k, pk in zip(doubtful.k_values, doubtful.probabilities):
        if pk == 0:
            continue
        for removed, p in removal_outcomes(full, k):
            st = BagState(tuple(f - r for f, r in zip(full, removed)), removed, 0)  # type: ignore[arg-type]
            acc[st] = acc.get(st, 0.0) + pk * p
    return tuple(acc.items())


def apply_draw(state: BagState, drawn: tuple[int, int, int]) -> BagState:
    """The bag after removing the ``drawn`` chips (no bag creation)."""
    return BagState(
        tuple(b - d for b, d in zip(state.in_bag, drawn)),  # type: ignore[arg-type]
        state.hidden,
        state.gc_drawn + drawn[Chip.GOD_CHANCE],
    )


def must_rebuild(state: BagState, bag: BagConfig) -> bool:
    """Whether a bag creation follows the end of a pull session.

    Notes
    -----
    ガチャ袋作成を行うのは: 「ガチャ袋が空になったとき」, or 「ガチャを引き終わった際、●が明確に
    ガチャ袋内に無いとき」. "Clearly not in the bag" is read as: every God Chance chip put
    in at the last bag creation has been drawn since (chips removed unseen in
    疑惑の運営モード are not known to be gone). With ``n_god_chance = 0`` this is always
    true (no God Chance chip can be in the bag), so the bag is remade after every session.
    """
    return state.n_left == 0 or state.gc_drawn >= bag.n_god_chance


@lru_cache(maxsize=None)
def session_outcomes(
    state: BagState, m: int, bag: BagConfig, doubtful: DoubtfulConfig | None = None
) -> tuple[SessionOutcome, ...]:
    """All outcomes of a session of ``m`` pulls from ``state``.

    Parameters
    ----------
    state : BagState
        Bag before the session (non-empty).
    m : int
        Pulls in the session, >= 0.
    bag : BagConfig
    doubtful : DoubtfulConfig or None

    Returns
    -------
    tuple of SessionOutcome
        Drawn chips by kind, bag after the session, probability (summing to 1).
        Outcomes with the same drawn counts and final state are merged.

    Notes
    -----
    ガチャを引く: chips are drawn one at a time without replacement; if the bag empties
    before ``m`` chips are drawn it is remade (ガチャ袋作成, with removals in
    疑惑の運営モード) and pulling continues (「途中でガチャ袋が空になった場合は「ガチャ袋作成」を
    行ったうえで引き続けます」). After the session the bag is remade if
    :func:`must_rebuild`. God Chances are resolved after the session, one per God
    Chance chip drawn.
    """
    acc: dict[tuple[tuple[int, int, int], BagState], float] = {}

    def rec(st: BagState, left: int, got: tuple[int, int, int], p: float) -> None:
        n_left = st.n_left
        if left > n_left:
            # draw the whole bag, remake it, continue
            got2 = tuple(g + b for g, b in zip(got, st.in_bag))
            for st2, q in bag_creation_outcomes(bag, doubtful):
                rec(st2, left - n_left, got2, p * q)  # type: ignore[arg-type]
            return
        for drawn, q in draw_outcomes(st.in_bag, left):
            st2 = apply_draw(st, drawn)
            got2 = tuple(g + d for g, d in zip(got, drawn))
            if must_rebuild(st2, bag):
                for st3, r in bag_creation_outcomes(bag, doubtful):
                    key = (got2, st3)
                    acc[key] = acc.get(key, 0.0) + p * q * r  # type: ignore[index]
            else:
                key = (got2, st2)
                acc[key] = acc.get(key, 0.0) + p * q  # type: ignore[index]

    rec(state, int(m), (0, 0, 0), 1.0)
    return tuple(SessionOutcome(d, s, p) for (d, s), p in acc.items())


def split_sessions(total_pulls: int, session_size: int) -> list[int]:
    """Split ``total_pulls`` into sessions of ``session_size`` and a shorter remainder.

    Parameters
    ----------
    total_pulls : int
        Pulls (>= 0).
    session_size : int
        Pulls per session (>= 1).

    Returns
    -------
    list of int
        E.g. 100 pulls in sessions of 37 → ``[37, 37, 26]``.

    Raises
    ------
    ValueError
        If ``session_size < 1`` or ``total_pulls < 0``.
    """
    if session_size < 1 or total_pulls < 0:
        raise ValueError("session_size must be >= 1 and total_pulls >= 0")
    q, r = divmod(int(total_pulls), int(session_size))
    return [int(session_size)] * q + ([r] if r else [])
