"""Pure rules core of ガッチャ ~God Chance~: the gacha bag, God Chance and 課金ガチャ.

Everything here is deterministic: chance points *list* their outcomes with
probabilities and never draw random numbers. The batch simulator
(:mod:`gamesim.games.gacha.sim`), the exact solver
(:mod:`gamesim.games.gacha.exact`) and the scalar reference
(:mod:`gamesim.games.gacha.reference`) all implement the same reading of the
rules, documented in ``docs/rules/gacha.md``.

Source: ``shared/seeds/gacha_god_chance_rules_ja.txt``, sections ガチャ袋作成,
ガチャを引く, God Chance, Overdrive, 課金ガチャの例 and 疑惑の運営モード.

The game's parameters are :class:`GachaParams`: the bag (:class:`BagConfig`), the number of
characters, 疑惑の運営モード (:class:`DoubtfulConfig`) and Overdrive in one frozen object, checked
once when built (as :func:`check_config`); :func:`gamesim.games.gacha.sim.simulate` takes one.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from gamesim.core.registry import ParamError
from gamesim.core.validate import (
    Instance,
    Int,
    IntList,
    Optional,
    ParamTypeError,
    Unchecked,
    check_float_list,
    check_int,
    check_int_list,
    is_int,
    validate_params,
)

__all__ = [
    "MAX_TRIALS",
    "MAX_PLAYERS",
    "MAX_PTC_SESSIONS",
    "Chip",
    "N_GOD_CHANCE_DEFAULT",
    "N_SR_DEFAULT",
    "N_N_DEFAULT",
    "N_CHARACTERS_DEFAULT",
    "OVERDRIVE_PULLS_DEFAULT",
    "DOUBTFUL_K_DEFAULT",
    "BagConfig",
    "DoubtfulConfig",
    "GachaParams",
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
    "check_config",
    "MAX_CHIPS",
    "MAX_GOD_CHANCE_CHIPS",
    "MAX_CHARACTERS",
    "MAX_SESSION_PULLS",
    "MAX_SESSIONS",
    "MAX_MONEY",
    "MAX_BUNDLES",
    "MAX_BUNDLE_VALUE",
    "MAX_GOD_CHANCES",
    "MAX_OVERDRIVE_PULLS",
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

# ---------------------------------------------------------------------------
# Size limits (refused up front by every public function, see docs/rules/gacha.md)
# ---------------------------------------------------------------------------

#: Most chips of one kind in a full bag (the rulebook's bag holds 50 chips in all).
MAX_CHIPS: int = 1000
#: Most God Chance chips in a full bag (the box holds 3 God Chanceチップス).
MAX_GOD_CHANCE_CHIPS: int = 50
#: Most God Chance cards / UR characters (the rulebook has 5).
MAX_CHARACTERS: int = 100
#: Most pulls in one session (the rulebook's biggest purchase is 37 pulls).
MAX_SESSION_PULLS: int = 10_000
#: Most sessions in one schedule.
MAX_SESSIONS: int = 10_000
#: Most money for 課金ガチャ (the box holds 35 マネーチップス).
MAX_MONEY: int = 10_000
#: Most 課金ガチャ rate bundles, and the largest cost / pulls of one bundle.
MAX_BUNDLES: int = 20
MAX_BUNDLE_VALUE: int = 10_000
#: Most God Chances in :func:`coupon_collector_probability`.
MAX_GOD_CHANCES: int = 1_000_000
#: Most Overdrive pulls per trigger.
MAX_OVERDRIVE_PULLS: int = 1000
#: Most distinct numbers of removed chips in 疑惑の運営モード.
MAX_DOUBTFUL_K_VALUES: int = 20


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
    ParamTypeError
        (a ``TypeError``) If a count is not an integer (a float, even ``44.0``, or a bool).
    ParamError
        (a ``ValueError``) If a count is negative, above :data:`MAX_GOD_CHANCE_CHIPS`
        (God Chance chips) or :data:`MAX_CHIPS` (SR, N chips), or the bag would hold no chip.

    Notes
    -----
    Rulebook, ガチャ袋作成: 「●：1個、●：5個、●：44個をガチャ袋に入れます」.
    """

    n_god_chance: int = N_GOD_CHANCE_DEFAULT
    n_sr: int = N_SR_DEFAULT
    n_n: int = N_N_DEFAULT

    def __post_init__(self) -> None:
        object.__setattr__(self, "n_god_chance",
                           check_int("n_god_chance", self.n_god_chance, min=0, max=MAX_GOD_CHANCE_CHIPS))
        object.__setattr__(self, "n_sr", check_int("n_sr", self.n_sr, min=0, max=MAX_CHIPS))
        object.__setattr__(self, "n_n", check_int("n_n", self.n_n, min=0, max=MAX_CHIPS))
        if self.total < 1:
            raise ParamError("bag_total", 0, "at least 1 chip in the bag (n_god_chance + n_sr + n_n >= 1)")

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
    ParamTypeError
        (a ``TypeError``) If ``k_values`` is not a sequence of integers or ``k_probs``
        not a sequence of numbers.
    ParamError
        (a ``ValueError``) If ``k_values`` is empty, longer than
        :data:`MAX_DOUBTFUL_K_VALUES` or has a negative entry, or ``k_probs`` has the
        wrong length, an entry outside [0, 1] or nan, or does not sum to 1. (Whether
        every k is smaller than the bag total is checked where the bag is known:
        :func:`check_config`.)

    Notes
    -----
    Rulebook, 疑惑の運営モード: 「ガチャ袋作成」が完了した際、毎回…ランダムに3~4個ほど
    ガチャチップスを抜き取ります。 The removed chips are not looked at and return at the
    next bag creation. "3~4個ほど" is read as k uniform on {3, 4}.
    """

    k_values: tuple[int, ...] = DOUBTFUL_K_DEFAULT
    k_probs: tuple[float, ...] | None = None

    def __post_init__(self) -> None:
        kv = tuple(check_int_list("k_values", self.k_values, min=0, max=2 * MAX_CHIPS + MAX_GOD_CHANCE_CHIPS,
                                  max_len=MAX_DOUBTFUL_K_VALUES))
        object.__setattr__(self, "k_values", kv)
        if self.k_probs is not None:
            kp = tuple(check_float_list("k_probs", self.k_probs, min=0.0, max=1.0, min_len=len(kv),
                                        max_len=len(kv)))
            if abs(sum(kp) - 1.0) > 1e-9:
                raise ParamError("k_probs", self.k_probs, f"{len(kv)} non-negative probabilities summing to 1")
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
    ParamTypeError
        (a ``TypeError``) If ``cost`` or ``pulls`` is not an integer.
    ParamError
        (a ``ValueError``) If either is < 1 or > :data:`MAX_BUNDLE_VALUE`.
    """

    cost: int
    pulls: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "cost", check_int("cost", self.cost, min=1, max=MAX_BUNDLE_VALUE))
        object.__setattr__(self, "pulls", check_int("pulls", self.pulls, min=1, max=MAX_BUNDLE_VALUE))


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


#: The 課金ガチャ rates argument (a list of pairs or RateBundles: not one constraint).
BUNDLES = Unchecked("a list of (money, pulls) pairs or RateBundles: parsed by normalize_bundles in the body")


@validate_params(bundles=BUNDLES)
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
    ParamTypeError
        (a ``TypeError``) If ``bundles`` is not a sequence of pairs, or an entry is
        not an integer.
    ParamError
        (a ``ValueError``) If a pair does not have two entries, a cost or pull count
        is < 1 or > :data:`MAX_BUNDLE_VALUE`, or there are more than
        :data:`MAX_BUNDLES` bundles.
    """
    allowed = f"a list of at most {MAX_BUNDLES} (money, pulls) integer pairs, each in 1..{MAX_BUNDLE_VALUE}"
    if isinstance(bundles, (str, bytes, dict)) or not isinstance(bundles, (Sequence, np.ndarray)):
        raise ParamTypeError("bundles", bundles, allowed)
    if len(bundles) > MAX_BUNDLES:
        raise ParamError("bundles", bundles, allowed)
    out = []
    for b in bundles:
        if isinstance(b, RateBundle):
            out.append(b)
            continue
        if isinstance(b, (str, bytes)) or not isinstance(b, (Sequence, np.ndarray)):
            raise ParamTypeError("bundles", bundles, allowed)
        pair = tuple(b)
        if len(pair) != 2:
            raise ParamError("bundles", bundles, allowed)
        try:
            out.append(RateBundle(pair[0], pair[1]))
        except ParamTypeError:
            raise ParamTypeError("bundles", bundles, allowed) from None
        except ParamError:
            raise ParamError("bundles", bundles, allowed) from None
    return tuple(out)


_normalize_bundles = normalize_bundles.__wrapped__


@validate_params(money=Int(0, MAX_MONEY), bundles=BUNDLES)
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
    ParamTypeError
        (a ``TypeError``) If ``money`` is not an integer or ``bundles`` is malformed.
    ParamError
        (a ``ValueError``) If ``money`` is outside 0..:data:`MAX_MONEY`, or a bundle is
        invalid (see :func:`normalize_bundles`).
    ValueError
        If the solver fails (never seen with HiGHS).

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
    from scipy.optimize import Bounds, LinearConstraint, milp  # here, not at import: workers start faster

    bs = _normalize_bundles(bundles)
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


#: God Chance cards / UR characters.
N_CHARACTERS = Int(1, MAX_CHARACTERS)


@validate_params(n_characters=N_CHARACTERS)
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

    Raises
    ------
    ParamTypeError
        If ``n_characters`` is not an integer.
    ParamError
        If ``n_characters`` is outside 1..:data:`MAX_CHARACTERS`.
    """
    n = n_characters
    c = np.arange(n + 1)
    mat = np.zeros((n + 1, n + 1))
    mat[c, c] = c / n
    mat[c[:-1], c[:-1] + 1] = (n - c[:-1]) / n
    return mat


_owned_transition_matrix = owned_transition_matrix.__wrapped__


@validate_params(n_characters=N_CHARACTERS,
                 n_god_chances=Unchecked("an integer or an array of integers of any shape: checked in the body"))
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
    ParamTypeError
        If ``n_god_chances`` holds a non-integer (a float, even ``3.0``, or a bool) or
        ``n_characters`` is not an integer.
    ParamError
        If ``n_characters`` is outside 1..:data:`MAX_CHARACTERS` or some ``G`` is outside
        0..:data:`MAX_GOD_CHANCES`.

    Notes
    -----
    God Chance: a card is chosen uniformly from the n cards (「5枚のGod Chanceカードから
    裏向きでランダムに1枚選びます」), independently each time, and the character is gained
    if not owned. Computed by the owned-count Markov chain (numerically stable for any
    n), which equals the inclusion-exclusion formula above.
    """
    allowed = f"integers in 0..{MAX_GOD_CHANCES}"
    try:
        g = np.asarray(n_god_chances)
    except (ValueError, TypeError):  # ragged nested lists
        raise ParamTypeError("n_god_chances", n_god_chances, allowed) from None
    if g.size == 0 and g.dtype.kind == "f":  # an empty list: nothing to compute
        return np.zeros(g.shape, dtype=np.float64)
    if g.dtype == object or g.dtype.kind not in "iu":
        raise ParamTypeError("n_god_chances", n_god_chances, allowed)
    if g.size and (g.min() < 0 or g.max() > MAX_GOD_CHANCES):
        raise ParamError("n_god_chances", n_god_chances, allowed)
    gmax = int(g.max()) if g.size else 0
    mat = _owned_transition_matrix(n_characters)
    v = np.zeros(n_characters + 1)
    v[0] = 1.0
    table = np.empty(gmax + 1)
    for i in range(gmax + 1):
        table[i] = v[-1]
        v = v @ mat
    return np.asarray(table[g.astype(np.int64)], dtype=np.float64)


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
        God Chance chips drawn since the last bag creation (0..:data:`MAX_GOD_CHANCE_CHIPS`).

    Raises
    ------
    ParamTypeError, ParamError
        If a count is not an integer, negative or above :data:`MAX_CHIPS`, or a tuple
        does not have 3 entries.
    """

    in_bag: tuple[int, int, int]
    hidden: tuple[int, int, int] = (0, 0, 0)
    gc_drawn: int = 0

    def __post_init__(self) -> None:
        # fast path (the exact solver makes many states); full messages otherwise
        ok = (type(self.in_bag) is tuple and type(self.hidden) is tuple and len(self.in_bag) == 3
              and len(self.hidden) == 3 and type(self.gc_drawn) is int and 0 <= self.gc_drawn <= MAX_GOD_CHANCE_CHIPS
              and all(type(x) is int and 0 <= x <= MAX_CHIPS for x in self.in_bag)
              and all(type(x) is int and 0 <= x <= MAX_CHIPS for x in self.hidden))
        if not ok:
            for name in ("in_bag", "hidden"):
                v = check_int_list(name, getattr(self, name), min=0, max=MAX_CHIPS, min_len=3, max_len=3)
                object.__setattr__(self, name, tuple(v))
            object.__setattr__(self, "gc_drawn", check_int("gc_drawn", self.gc_drawn, min=0,
                                                             max=MAX_GOD_CHANCE_CHIPS))

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


# Declared constraints of the public functions (issue 25 point 2), shared by sim, exact,
# reference and purchase.

#: A bag's contents (its counts are checked when it is made).
BAG = Instance(BagConfig, "a BagConfig")
#: 疑惑の運営モード or None (whether every k is below the bag total is checked in the body).
DOUBTFUL = Optional(Instance(DoubtfulConfig, "a DoubtfulConfig or None"))
#: Overdrive's extra pulls or None (whether the Overdrive chain ends is checked in the body).
OVERDRIVE = Optional(Int(1, MAX_OVERDRIVE_PULLS))
#: A bag between sessions.
STATE = Instance(BagState, "a BagState")
#: Chips by kind (God Chance, SR, N).
COUNTS = IntList(0, MAX_CHIPS, min_len=3, max_len=3)


@validate_params(bag=BAG)
def full_bag(bag: BagConfig) -> BagState:
    """A freshly made full bag (ガチャ袋作成 without removals).

    Parameters
    ----------
    bag : BagConfig

    Returns
    -------
    BagState

    Raises
    ------
    ParamTypeError
        If ``bag`` is not a :class:`BagConfig`.
    """
    return BagState(bag.counts, (0, 0, 0), 0)


def _check_fits(doubtful: DoubtfulConfig | None, bag: BagConfig) -> None:
    """The relation of a checked ``doubtful`` and ``bag``: every k below the bag total."""
    if doubtful is not None and doubtful.k_max >= bag.total:
        raise ParamError("doubtful", doubtful, f"every k < the bag total {bag.total} (a bag must keep a chip)")


@validate_params(bag=BAG, n_characters=N_CHARACTERS, doubtful=DOUBTFUL, overdrive_pulls=OVERDRIVE)
def check_config(
    bag: object,
    n_characters: object,
    doubtful: object = None,
    overdrive_pulls: object = None,
) -> tuple[BagConfig, int, DoubtfulConfig | None, int | None]:
    """Check the common configuration of the gacha simulators and solvers.

    Parameters
    ----------
    bag : BagConfig
    n_characters : int
        1..:data:`MAX_CHARACTERS`.
    doubtful : DoubtfulConfig or None
        Every k must be smaller than the bag total.
    overdrive_pulls : int or None
        1..:data:`MAX_OVERDRIVE_PULLS`, or None (no Overdrive). The Overdrive chain must
        be certain to end: the expected number of Overdrives triggered by one Overdrive
        session, bounded by ``n_god_chance * (1 + overdrive_pulls / smallest bag) /
        n_characters``, must be below 1 (otherwise a chain of extra pulls could grow
        without end).

    Returns
    -------
    tuple
        ``(bag, n_characters, doubtful, overdrive_pulls)`` with Python ints.

    Raises
    ------
    ParamTypeError
        For an argument of the wrong type (a float or bool for an int).
    ParamError
        For a value out of range, as above.
    """
    # the relations between the (declared, checked) arguments
    n, d, op = n_characters, doubtful, overdrive_pulls
    _check_fits(d, bag)
    if op is not None and bag.n_god_chance > 0:
        smallest = bag.total - (0 if d is None else d.k_max)
        mu = bag.n_god_chance * (1.0 + op / smallest) / n
        if mu >= 1.0:
            raise ParamError(
                "overdrive_pulls", op,
                f"small enough that an Overdrive chain ends: n_god_chance * (1 + overdrive_pulls / {smallest}) "
                f"/ n_characters < 1 (here {mu:.3g})")
    return bag, n, d, op


#: The relations of :func:`check_config` for arguments checked already (by a declaration).
_check_config = check_config.__wrapped__


@dataclass(frozen=True)
class GachaParams:
    """The set-up every gacha simulator and solver shares, checked once: bag, 疑惑の運営モード, Overdrive.

    One frozen object instead of the four arguments ``bag, n_characters, doubtful,
    overdrive_pulls`` that the functions of :mod:`.sim`, :mod:`.exact` and :mod:`.purchase`
    take one by one (they keep taking them: :meth:`kwargs` spreads a GachaParams into them).
    Built with the same checks as :func:`check_config`, so a GachaParams always holds a valid,
    normalised set-up (Python ints).

    Parameters
    ----------
    bag : BagConfig, default BagConfig()
        Full-bag contents (chips; default 1 God Chance, 5 SR, 44 N).
    n_characters : int, default 5
        God Chance cards / UR characters (characters), 1..:data:`MAX_CHARACTERS`.
    doubtful : DoubtfulConfig or None, default None
        疑惑の運営モード (chips removed unseen at every bag creation); ``None`` = off. Every
        ``k`` must be smaller than the bag total.
    overdrive_pulls : int or None, default None
        Extra pulls (pulls) when a God Chance shows the navi character (Overdrive),
        1..:data:`MAX_OVERDRIVE_PULLS`; ``None`` = no navi (エキスパートモード). The Overdrive
        chain must be certain to end (see :func:`check_config`).

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``bag`` is not a BagConfig, ``doubtful`` neither a DoubtfulConfig
        nor None, or a count is not an integer (a float or bool).
    ParamError
        (a ``ValueError``) For a value out of range, as :func:`check_config`.

    Examples
    --------
    >>> p = GachaParams(n_characters=4, doubtful=DoubtfulConfig())
    >>> sorted(p.kwargs())
    ['bag', 'doubtful', 'n_characters', 'overdrive_pulls']
    """

    bag: BagConfig = BagConfig()
    n_characters: int = N_CHARACTERS_DEFAULT
    doubtful: DoubtfulConfig | None = None
    overdrive_pulls: int | None = None

    def __post_init__(self) -> None:
        _, n, _, op = check_config(self.bag, self.n_characters, self.doubtful, self.overdrive_pulls)
        object.__setattr__(self, "n_characters", n)
        object.__setattr__(self, "overdrive_pulls", op)

    def kwargs(self) -> dict[str, BagConfig | int | DoubtfulConfig | None]:
        """``{"bag", "n_characters", "doubtful", "overdrive_pulls"}``: the keyword arguments of the gacha functions."""
        return {"bag": self.bag, "n_characters": self.n_characters, "doubtful": self.doubtful,
                "overdrive_pulls": self.overdrive_pulls}


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


@validate_params(counts=COUNTS, k=Unchecked("an integer in 0..sum(counts): checked in the body"))
def removal_outcomes(counts: tuple[int, int, int], k: int) -> list[tuple[tuple[int, int, int], float]]:
    """Ways to remove ``k`` chips at random from a bag with ``counts``.

    Parameters
    ----------
    counts : tuple of 3 int
        Chips by kind, each 0..:data:`MAX_CHIPS`.
    k : int
        Chips removed, ``0 <= k <= sum(counts)``.

    Returns
    -------
    list of ((int, int, int), float)
        Removed chips by kind and probability (multivariate hypergeometric).

    Raises
    ------
    ParamTypeError, ParamError
        If ``counts`` is not 3 integers in range, or ``k`` is not an integer in
        0..sum(counts).
    """
    return _mv_hypergeometric(tuple(counts), check_int("k", k, min=0, max=sum(counts)))


@validate_params(counts=COUNTS, m=Unchecked("an integer in 0..sum(counts): checked in the body"))
def draw_outcomes(counts: tuple[int, int, int], m: int) -> list[tuple[tuple[int, int, int], float]]:
    """Ways to draw ``m`` chips without replacement from a bag with ``counts``.

    Parameters
    ----------
    counts : tuple of 3 int
        Chips in the bag by kind, each 0..:data:`MAX_CHIPS`.
    m : int
        Pulls, ``0 <= m <= sum(counts)``.

    Returns
    -------
    list of ((int, int, int), float)
        Drawn chips by kind and probability (multivariate hypergeometric).

    Raises
    ------
    ParamTypeError, ParamError
        If ``counts`` is not 3 integers in range, or ``m`` is not an integer in
        0..sum(counts).
    """
    return _mv_hypergeometric(tuple(counts), check_int("m", m, min=0, max=sum(counts)))


@validate_params(bag=BAG, doubtful=DOUBTFUL)
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

    Raises
    ------
    ParamTypeError
        If ``bag`` is not a BagConfig or ``doubtful`` not a DoubtfulConfig/None.
    ParamError
        If some removal count k is >= the bag total.

    Notes
    -----
    All chips return to the bag (including previously hidden ones), then in 疑惑の運営モード
    ``k`` chips are removed unseen: k drawn from ``doubtful``, the removed set uniformly
    random.
    """
    _check_fits(doubtful, bag)
    return _creation(bag, doubtful)


@lru_cache(maxsize=256)
def _creation(bag: BagConfig, doubtful: DoubtfulConfig | None) -> tuple[tuple[BagState, float], ...]:
    full = bag.counts
    if doubtful is None:
        return ((BagState(full, (0, 0, 0), 0), 1.0),)
    acc: dict[BagState, float] = {}
    for k, pk in zip(doubtful.k_values, doubtful.probabilities):
        if pk == 0:
            continue
        for removed, p in _mv_hypergeometric(full, k):
            st = BagState(tuple(f - r for f, r in zip(full, removed)), removed, 0)  # type: ignore[arg-type]
            acc[st] = acc.get(st, 0.0) + pk * p
    return tuple(acc.items())


@validate_params(state=STATE, drawn=COUNTS)
def apply_draw(state: BagState, drawn: tuple[int, int, int]) -> BagState:
    """The bag after removing the ``drawn`` chips (no bag creation).

    Raises
    ------
    ParamTypeError, ParamError
        If ``state`` is not a BagState, or ``drawn`` is not 3 integers, each between 0
        and the chips of that kind in the bag.
    """
    if any(x > b for x, b in zip(drawn, state.in_bag)):  # a relation with state: not declarable
        raise ParamError("drawn", drawn, f"at most the chips in the bag {state.in_bag} of each kind")
    return _apply(state, drawn)


def _apply(state: BagState, drawn: tuple[int, int, int]) -> BagState:
    return BagState(
        (state.in_bag[0] - drawn[0], state.in_bag[1] - drawn[1], state.in_bag[2] - drawn[2]),
        state.hidden,
        state.gc_drawn + drawn[Chip.GOD_CHANCE],
    )


@validate_params(state=STATE, bag=BAG)
def must_rebuild(state: BagState, bag: BagConfig) -> bool:
    """Whether a bag creation follows the end of a pull session.

    Raises
    ------
    ParamTypeError
        If ``state`` is not a BagState or ``bag`` not a BagConfig.

    Notes
    -----
    ガチャ袋作成を行うのは: 「ガチャ袋が空になったとき」, or 「ガチャを引き終わった際、●が明確に
    ガチャ袋内に無いとき」. "Clearly not in the bag" is read as: every God Chance chip put
    in at the last bag creation has been drawn since (chips removed unseen in
    疑惑の運営モード are not known to be gone). With ``n_god_chance = 0`` this is always
    true (no God Chance chip can be in the bag), so the bag is remade after every session.
    """
    return state.n_left == 0 or state.gc_drawn >= bag.n_god_chance


_must_rebuild = must_rebuild.__wrapped__


@validate_params(state=STATE, m=Int(0, MAX_SESSION_PULLS), bag=BAG, doubtful=DOUBTFUL)
def session_outcomes(
    state: BagState, m: int, bag: BagConfig, doubtful: DoubtfulConfig | None = None
) -> tuple[SessionOutcome, ...]:
    """All outcomes of a session of ``m`` pulls from ``state``.

    Parameters
    ----------
    state : BagState
        Bag before the session (non-empty).
    m : int
        Pulls in the session, 0..:data:`MAX_SESSION_PULLS`.
    bag : BagConfig
    doubtful : DoubtfulConfig or None

    Returns
    -------
    tuple of SessionOutcome
        Drawn chips by kind, bag after the session, probability (summing to 1).
        Outcomes with the same drawn counts and final state are merged.

    Raises
    ------
    ParamTypeError
        If an argument has the wrong type (``m`` a float or bool, ``state`` not a BagState ...).
    ParamError
        If ``m`` is out of range, the bag in ``state`` is empty, or some doubtful k is
        >= the bag total.

    Notes
    -----
    ガチャを引く: chips are drawn one at a time without replacement; if the bag empties
    before ``m`` chips are drawn it is remade (ガチャ袋作成, with removals in
    疑惑の運営モード) and pulling continues (「途中でガチャ袋が空になった場合は「ガチャ袋作成」を
    行ったうえで引き続けます」). After the session the bag is remade if
    :func:`must_rebuild`. God Chances are resolved after the session, one per God
    Chance chip drawn. Computed bag by bag (each refill of an emptied bag merges
    identical outcomes), so the work grows linearly with the number of refills.
    """
    _check_fits(doubtful, bag)
    if state.n_left == 0:
        raise ParamError("state", state, "a bag holding at least one chip")
    return _session_outcomes(state, m, bag, doubtful)


@lru_cache(maxsize=100_000)
def _session_outcomes(
    state: BagState, m: int, bag: BagConfig, doubtful: DoubtfulConfig | None
) -> tuple[SessionOutcome, ...]:
    acc: dict[tuple[tuple[int, int, int], BagState], float] = {}
    creation = _creation(bag, doubtful)
    # work[pulls still to draw][(bag state, chips drawn so far)] = probability. A bag that
    # empties mid-session is remade and goes back in with fewer pulls to draw, so taking
    # the largest number of pulls first finds every bucket complete (no recursion).
    work: dict[int, dict[tuple[BagState, tuple[int, int, int]], float]] = {m: {(state, (0, 0, 0)): 1.0}}
    while work:
        left = max(work)
        for (st, got), p in work.pop(left).items():
            n_left = st.n_left
            if left > n_left:
                # draw the whole bag, remake it, continue pulling
                got2 = (got[0] + st.in_bag[0], got[1] + st.in_bag[1], got[2] + st.in_bag[2])
                bucket = work.setdefault(left - n_left, {})
                for st2, q in creation:
                    bucket[(st2, got2)] = bucket.get((st2, got2), 0.0) + p * q
                continue
            for drawn, q in _mv_hypergeometric(st.in_bag, left):
                st2 = _apply(st, drawn)
                got2 = (got[0] + drawn[0], got[1] + drawn[1], got[2] + drawn[2])
                if _must_rebuild(st2, bag):
                    for st3, r in creation:
                        key = (got2, st3)
                        acc[key] = acc.get(key, 0.0) + p * q * r
                else:
                    key = (got2, st2)
                    acc[key] = acc.get(key, 0.0) + p * q
    return tuple(SessionOutcome(d, s, p) for (d, s), p in acc.items())


@validate_params(total_pulls=Int(0, MAX_SESSIONS * MAX_SESSION_PULLS), session_size=Int(1, MAX_SESSION_PULLS))
def split_sessions(total_pulls: int, session_size: int) -> list[int]:
    """Split ``total_pulls`` into sessions of ``session_size`` and a shorter remainder.

    Parameters
    ----------
    total_pulls : int
        Pulls, 0..:data:`MAX_SESSIONS` * :data:`MAX_SESSION_PULLS`.
    session_size : int
        Pulls per session, 1..:data:`MAX_SESSION_PULLS`.

    Returns
    -------
    list of int
        E.g. 100 pulls in sessions of 37 → ``[37, 37, 26]``.

    Raises
    ------
    ParamTypeError
        If an argument is not an integer (a float or a bool).
    ParamError
        If an argument is out of range, or the split would give more than
        :data:`MAX_SESSIONS` sessions.
    """
    q, r = divmod(total_pulls, session_size)
    if q + (1 if r else 0) > MAX_SESSIONS:
        raise ParamError("total_pulls", total_pulls,
                         f"at most {MAX_SESSIONS} sessions of session_size = {session_size} "
                         f"(total_pulls <= {MAX_SESSIONS * session_size})")
    return [session_size] * q + ([r] if r else [])


#: Most trials in one call of the public simulators (memory is bounded by chunks; time is not).
MAX_TRIALS: int = 10_000_000
#: Most sessions :func:`simulate_pulls_to_complete` may pull per trial (``max_pulls // session_size``).
MAX_PTC_SESSIONS: int = 100_000
#: Most players sharing a bag.
MAX_PLAYERS: int = 16


#: The shared schedule argument (pairs, players numbered up to n_players: not one constraint).
SCHEDULE = Unchecked("a list of (player, pulls) integer pairs, players 1..n_players: checked in the body")


def _check_schedule(schedule: object, n_players: int | None) -> tuple[list[tuple[int, int]], int]:
    """The schedule as plain int pairs and ``n_players`` (checked already, or None: the largest player)."""
    sched = _schedule_pairs(schedule)
    return sched, _schedule_players(sched, schedule, n_players)


def _schedule_pairs(schedule: object) -> list[tuple[int, int]]:
    allowed = (f"a list of at most {MAX_SESSIONS} (player, pulls) integer pairs, players >= 1, "
               f"pulls in 0..{MAX_SESSION_PULLS}")
    if isinstance(schedule, (str, bytes, dict)) or not isinstance(schedule, (Sequence, np.ndarray)):
        raise ParamTypeError("schedule", schedule, allowed)
    if len(schedule) > MAX_SESSIONS:
        raise ParamError("schedule", schedule, allowed)
    sched = []
    for pair in schedule:
        if isinstance(pair, (str, bytes)) or not isinstance(pair, (Sequence, np.ndarray)) or len(pair) != 2:
            raise ParamTypeError("schedule", schedule, allowed)
        if not (is_int(pair[0]) and is_int(pair[1])):
            raise ParamTypeError("schedule", schedule, allowed)
        if pair[0] < 1 or not 0 <= pair[1] <= MAX_SESSION_PULLS:
            raise ParamError("schedule", schedule, allowed)
        sched.append((int(pair[0]), int(pair[1])))
    return sched


def _schedule_players(sched: list[tuple[int, int]], schedule: object, n_players: int | None) -> int:
    if n_players is None:
        n_players = check_int("n_players", max((p for p, _ in sched), default=1), min=1, max=MAX_PLAYERS)
    for p, _ in sched:
        if p > n_players:
            raise ParamError("schedule", schedule, f"players numbered 1..n_players = {n_players}")
    return n_players


#: Trials of a simulator.
N_TRIALS = Int(0, MAX_TRIALS)
#: A schedule of session sizes (pulls): a list of integers >= 0.
SESSIONS = IntList(0, MAX_SESSION_PULLS, min_len=0, max_len=MAX_SESSIONS)
#: Pulls per session.
SESSION_SIZE = Int(1, MAX_SESSION_PULLS)
#: The set-up every simulator and the reference take (the relations of check_config are checked in the bodies).
CONFIG = dict(bag=BAG, n_characters=N_CHARACTERS, doubtful=DOUBTFUL, overdrive_pulls=OVERDRIVE)
#: Scheduled pulls of a pulls-to-complete trial (at most MAX_PTC_SESSIONS sessions: :func:`_check_max_pulls`).
MAX_PULLS = Int(0, MAX_PTC_SESSIONS * MAX_SESSION_PULLS)


def _check_max_pulls(max_pulls: int, session_size: int) -> None:
    """Refuse a pulls-to-complete cap of more than :data:`MAX_PTC_SESSIONS` sessions (a relation of two checked
    arguments, which no declaration states)."""
    if max_pulls // session_size > MAX_PTC_SESSIONS:
        raise ParamError("max_pulls", max_pulls, f"at most {MAX_PTC_SESSIONS} sessions of session_size = "
                         f"{session_size} (max_pulls <= {MAX_PTC_SESSIONS * session_size})")
