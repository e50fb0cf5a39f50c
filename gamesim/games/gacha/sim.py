"""Vectorized batch simulator of the ガッチャ ~God Chance~ gacha bag.

Axis 0 is the trial. All trials advance one pull session at a time, in
lockstep, with numpy arrays of bag counts; the only Python loops are over
sessions (and over Overdrive chains and mid-session bag refills, which run on
the subset of trials they concern). Trials are processed in chunks of at most
:data:`CHUNK_SIZE` so memory is bounded for any ``n_trials``.

Sampling (the reading of the rules is that of :mod:`gamesim.games.gacha.rules`):

* God Chance chips drawn in a session segment of ``t`` pulls from a bag with
  ``gc`` God Chance and ``ot`` other chips: ``Generator.hypergeometric(gc, ot, t)``;
  when no bag holds more than one God Chance chip this is a Bernoulli
  ``u * (gc + ot) < t * gc`` drawn from one uniform per trial (identical law, cheaper).
* SR chips are not drawn session by session: SR and N chips differ only in the
  ``sr_drawn`` tally, and the non-God-Chance chips drawn from one bag (between two
  bag creations) are a uniformly random subset of that bag's SR+N chips (removals
  in 疑惑の運営モード are uniform and unseen too), so the SR count of a bag is drawn
  once, ``hypergeometric(n_sr, n_n, others_drawn)``, when the bag is remade or the
  schedule ends. Totals per trial have exactly the rules' distribution.
* 疑惑の運営モード removals at each bag creation: ``k`` from ``DoubtfulConfig``, the
  God Chance chips among them hypergeometric.
* God Chance cards: ``Generator.integers(n_characters)``; the navi character is
  card 0 (by symmetry which character is the navi does not matter).

Overdrive sessions are processed breadth-first after the session that triggered
them (all Overdrive sessions have the same size and cards are iid, so this equals
the rulebook's depth-first order 「ただちに」 in distribution; the scalar reference
uses depth-first order and the tests compare the two).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pandas as pd

from gamesim.core.rng import RngLike, as_generator

from gamesim.core.registry import ParamError
from gamesim.core.validate import ParamTypeError, check_bool, check_int, is_int

from .rules import MAX_SESSION_PULLS, MAX_SESSIONS, BagConfig, DoubtfulConfig, check_config

__all__ = [
    "CHUNK_SIZE",
    "MAX_TRIALS",
    "MAX_PLAYERS",
    "MAX_PTC_SESSIONS",
    "run_shared",
    "run_schedule",
    "run_pulls_to_complete",
    "simulate_schedule",
    "simulate_shared",
    "simulate_pulls_to_complete",
]

#: Trials simulated at once (memory bound; ~50 bytes per trial per player-character).
CHUNK_SIZE: int = 32_768

_I64 = np.int64


@dataclass(frozen=True)
class _Cfg:
    n_gc: int
    n_sr: int
    n_n: int
    n_ot: int
    total: int
    n_characters: int
    k_values: npt.NDArray[np.int64] | None
    k_probs: npt.NDArray[np.float64] | None
    overdrive_pulls: int | None

    @staticmethod
    def make(bag: BagConfig, n_characters: int, doubtful: DoubtfulConfig | None,
             overdrive_pulls: int | None) -> "_Cfg":
        if n_characters < 1:
            raise ValueError(f"n_characters = {n_characters!r}, must be >= 1")
        if overdrive_pulls is not None and overdrive_pulls < 1:
            raise ValueError(f"overdrive_pulls = {overdrive_pulls!r}, must be >= 1 or None")
        if doubtful is not None and doubtful.k_max >= bag.total:
            raise ValueError(
                f"doubtful k_values {doubtful.k_values!r}: every k must be < the bag total {bag.total}"
            )
        return _Cfg(
            bag.n_god_chance, bag.n_sr, bag.n_n, bag.n_sr + bag.n_n, bag.total, int(n_characters),
            None if doubtful is None else np.asarray(doubtful.k_values, dtype=_I64),
            None if doubtful is None else np.asarray(doubtful.probabilities, dtype=float),
            None if overdrive_pulls is None else int(overdrive_pulls),
        )


class _Bag:
    """Bag arrays for a batch of trials (one shared bag per trial)."""

    __slots__ = ("gc", "ot", "gcd", "od", "sr")

    def __init__(self, gc: np.ndarray, ot: np.ndarray, gcd: np.ndarray, od: np.ndarray, sr: np.ndarray):
        self.gc, self.ot, self.gcd, self.od, self.sr = gc, ot, gcd, od, sr

    @staticmethod
    def empty(n: int) -> "_Bag":
        z = lambda: np.zeros(n, dtype=_I64)  # noqa: E731
        return _Bag(z(), z(), z(), z(), z())

    def take(self, idx: np.ndarray) -> "_Bag":
        return _Bag(self.gc[idx], self.ot[idx], self.gcd[idx], self.od[idx], self.sr[idx])

    def put(self, idx: np.ndarray, sub: "_Bag") -> None:
        self.gc[idx], self.ot[idx], self.gcd[idx], self.od[idx], self.sr[idx] = (
            sub.gc, sub.ot, sub.gcd, sub.od, sub.sr)


def _flush_sr(b: _Bag, idx: np.ndarray | None, rng: np.random.Generator, cfg: _Cfg) -> None:
    """Draw the SR count among the other chips drawn from the current bags."""
    od = b.od if idx is None else b.od[idx]
    if cfg.n_sr == 0:
        s = 0
    elif cfg.n_n == 0:
        s = od
    else:
        s = rng.hypergeometric(cfg.n_sr, cfg.n_n, od)
    if idx is None:
        b.sr += s
        b.od[:] = 0
    else:
        b.sr[idx] += s
        b.od[idx] = 0


def _rebuild(b: _Bag, idx: np.ndarray, rng: np.random.Generator, cfg: _Cfg) -> None:
    """ガチャ袋作成 for trials ``idx``: full bag, then 疑惑の運営モード removals."""
    if idx.size == 0:
        return
    _flush_sr(b, idx, rng, cfg)
    b.gcd[idx] = 0
    if cfg.k_values is None:
        b.gc[idx] = cfg.n_gc
        b.ot[idx] = cfg.n_ot
        return
    k = rng.choice(cfg.k_values, size=idx.size, p=cfg.k_probs)
    if cfg.n_gc == 0:
        rg = np.zeros(idx.size, dtype=_I64)
    elif cfg.n_gc == 1:
        rg = (rng.random(idx.size) * cfg.total < k).astype(_I64)
    else:
        rg = rng.hypergeometric(cfg.n_gc, cfg.n_ot, k)
    b.gc[idx] = cfg.n_gc - rg
    b.ot[idx] = cfg.n_ot - (k - rg)


def _draw_gc(gc: np.ndarray, ot: np.ndarray, take: np.ndarray | int, left: np.ndarray,
             rng: np.random.Generator, cfg: _Cfg) -> np.ndarray:
    """God Chance chips among ``take`` chips drawn without replacement."""
    if cfg.n_gc <= 1:
        return (rng.random(gc.size) * left < take * gc).astype(_I64)
    return rng.hypergeometric(gc, ot, take)


def _session(b: _Bag, m: int, rng: np.random.Generator, cfg: _Cfg) -> tuple[np.ndarray, np.ndarray]:
    """One session of ``m`` pulls for every trial of ``b``.

    Returns God Chance chips drawn per trial and the trials with at least one.
    """
    left = b.gc + b.ot
    may_empty = m >= int(left.min())  # else no bag can empty in this session
    wrap = left < m if may_empty else None
    any_wrap = wrap is not None and bool(wrap.any())
    take: np.ndarray | int = np.minimum(left, m) if any_wrap else m
    g = _draw_gc(b.gc, b.ot, take, left, rng, cfg)
    o = take - g
    b.gc -= g
    b.ot -= o
    b.od += o
    b.gcd += g
    if any_wrap:
        # the bag emptied mid-session: remake it and keep pulling (subset of trials)
        idx = np.flatnonzero(wrap)  # type: ignore[arg-type]
        rem = m - left[idx]
        while idx.size:
            _rebuild(b, idx, rng, cfg)
            gc, ot = b.gc[idx], b.ot[idx]
            lf = gc + ot
            tk = np.minimum(lf, rem)
            g2 = _draw_gc(gc, ot, tk, lf, rng, cfg)
            o2 = tk - g2
            b.gc[idx] = gc - g2
            b.ot[idx] = ot - o2
            b.od[idx] += o2
            b.gcd[idx] += g2
            g[idx] += g2
            more = rem > lf
            idx, rem = idx[more], (rem - lf)[more]
    nz = np.flatnonzero(g)
    # end of session: remake the bag if empty or every God Chance chip was drawn. Before
    # the session gcd < n_gc (else the bag was remade), so only trials that drew a God
    # Chance chip can have reached gcd >= n_gc.
    if cfg.n_gc == 0:
        reb = np.arange(g.size)
    elif may_empty:
        reb = np.flatnonzero((b.gcd >= cfg.n_gc) | ((b.gc + b.ot) == 0))
    else:
        reb = nz[b.gcd[nz] >= cfg.n_gc]
    _rebuild(b, reb, rng, cfg)
    return g, nz


def _resolve(owned: np.ndarray, trials: np.ndarray | None, g: np.ndarray, nz: np.ndarray, p: int,
             rng: np.random.Generator, cfg: _Cfg) -> tuple[np.ndarray | None, np.ndarray]:
    """God Chance for each chip drawn; returns (Overdrive triggers per trial, trials touched)."""
    if nz.size == 0:
        return None, nz
    total = int(g[nz].sum())
    reps = np.repeat(nz, g[nz])
    cards = rng.integers(cfg.n_characters, size=total)
    tr = reps if trials is None else trials[reps]
    owned[tr, p, cards] = True
    touched = nz if trials is None else trials[nz]
    hits = None
    if cfg.overdrive_pulls is not None:
        hits = np.bincount(reps[cards == 0], minlength=g.size)
    return hits, touched


def _fresh_bag(n: int, rng: np.random.Generator, cfg: _Cfg) -> _Bag:
    b = _Bag.empty(n)
    _rebuild(b, np.arange(n), rng, cfg)
    return b


def _play_session(b: _Bag, owned: np.ndarray, gcount: np.ndarray, pulls: np.ndarray, p: int, m: int,
                  rng: np.random.Generator, cfg: _Cfg) -> np.ndarray:
    """A scheduled session of player ``p`` (all trials) plus its Overdrive chain.

    ``gcount`` and ``pulls`` have shape (n_players, n); ``pulls`` counts Overdrive pulls.

    Returns the trials that had at least one God Chance (for completion checks).
    """
    g, nz = _session(b, m, rng, cfg)
    gcount[p, nz] += g[nz]
    hits, touched = _resolve(owned, None, g, nz, p, rng, cfg)
    if hits is None or not hits.any():
        return touched
    touched_all = [touched]
    pending = hits
    op = cfg.overdrive_pulls
    assert op is not None
    while True:
        idx = np.flatnonzero(pending)
        if idx.size == 0:
            break
        sub = b.take(idx)
        g2, nz2 = _session(sub, op, rng, cfg)
        b.put(idx, sub)
        gcount[p, idx] += g2
        pulls[p, idx] += op
        h2, t2 = _resolve(owned, idx, g2, nz2, p, rng, cfg)
        touched_all.append(t2)
        pending[idx] -= 1
        if h2 is not None:
            pending[idx] += h2
    return np.unique(np.concatenate(touched_all))


def _chunks(n_trials: int, n_players: int, n_characters: int) -> list[int]:
    size = max(1024, min(CHUNK_SIZE, 8_000_000 // max(1, n_players * n_characters)))
    return [min(size, n_trials - s) for s in range(0, n_trials, size)]


#: Most trials in one call of the public simulators (memory is bounded by chunks; time is not).
MAX_TRIALS: int = 10_000_000
#: Most sessions :func:`simulate_pulls_to_complete` may pull per trial (``max_pulls // session_size``).
MAX_PTC_SESSIONS: int = 100_000
#: Most players sharing a bag.
MAX_PLAYERS: int = 16


def _check_shared_args(schedule: object, n_trials: object, n_players: object | None
                       ) -> tuple[list[tuple[int, int]], int, int]:
    """Validate a shared schedule: (player, pulls) pairs, players 1..n_players."""
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
    n_trials = check_int("n_trials", n_trials, min=0, max=MAX_TRIALS)
    if n_players is None:
        n_players = max((p for p, _ in sched), default=1)
    n_players = check_int("n_players", n_players, min=1, max=MAX_PLAYERS)
    for p, _ in sched:
        if p > n_players:
            raise ParamError("schedule", schedule, f"players numbered 1..n_players = {n_players}")
    return sched, n_trials, n_players


def run_shared(
    schedule: Sequence[tuple[int, int]],
    n_trials: int,
    *,
    n_players: int,
    rng: RngLike = None,
    bag: BagConfig = BagConfig(),
    n_characters: int = 5,
    doubtful: DoubtfulConfig | None = None,
    overdrive_pulls: int | None = None,
    stop_at_completion: bool = False,
) -> dict[str, npt.NDArray[np.int64] | npt.NDArray[np.bool_]]:
    """Array kernel: several players pulling from one shared bag.

    Parameters
    ----------
    schedule : sequence of (int, int)
        ``(player, pulls)`` sessions in order; players numbered 1..``n_players``,
        pulls 0..:data:`~gamesim.games.gacha.rules.MAX_SESSION_PULLS`, at most
        :data:`~gamesim.games.gacha.rules.MAX_SESSIONS` sessions.
    n_trials : int
        Independent trials, 0..:data:`MAX_TRIALS`.
    n_players : int
        Players, 1..:data:`MAX_PLAYERS`.
    rng : int, SeedSequence, Generator or None, default None
    bag, n_characters, doubtful, overdrive_pulls
        As in :func:`simulate_shared`.
    stop_at_completion : bool, default False
        End each trial's game at the first コンスリート (the rulebook's end condition,
        used by :func:`simulate_shared` and the ``shared`` task). The kernel default is
        False so that one-player schedules (:func:`run_schedule`) keep counting
        after completion.

    Returns
    -------
    dict of str to ndarray
        ``"god_chances"`` (int64), ``"characters_owned"`` (int64), ``"complete"``
        (bool), ``"pulls"`` (int64, including Overdrive pulls), each of shape
        ``(n_trials, n_players)``; ``"sr_drawn"`` (int64, shape ``(n_trials,)``,
        SR chips drawn by all players together); ``"winner"`` (int64, shape
        ``(n_trials,)``: the first player to complete, 0 = nobody).

    Raises
    ------
    ParamTypeError
        If an argument has the wrong type (a float or bool for an integer, ...).
    ParamError
        If a player is outside 1..n_players, a size is out of range, or the
        configuration is invalid (see :func:`~gamesim.games.gacha.rules.check_config`).

    Notes
    -----
    With ``stop_at_completion`` a trial whose player completes during a session stops
    after that session (with its whole Overdrive chain: only that player pulls in it,
    so the winner is the same as when stopping at the completing God Chance; its God
    Chance and pull counts include the rest of the chain).
    """
    sched0, n_trials, n_players = _check_shared_args(schedule, n_trials, n_players)
    bag, n_characters, doubtful, overdrive_pulls = check_config(bag, n_characters, doubtful, overdrive_pulls)
    stop = check_bool("stop_at_completion", stop_at_completion)
    gen = as_generator(rng)
    cfg = _Cfg.make(bag, n_characters, doubtful, overdrive_pulls)
    sched = [(p - 1, m) for p, m in sched0]
    out_gc = np.zeros((n_trials, n_players), dtype=_I64)
    out_own = np.zeros((n_trials, n_players), dtype=_I64)
    out_pulls = np.zeros((n_trials, n_players), dtype=_I64)
    out_sr = np.zeros(n_trials, dtype=_I64)
    out_win = np.zeros(n_trials, dtype=_I64)
    start = 0
    for size in _chunks(n_trials, n_players, n_characters):
        b = _fresh_bag(size, gen, cfg)
        owned = np.zeros((size, n_players, n_characters), dtype=bool)
        gcount = np.zeros((n_players, size), dtype=_I64)  # player-major: contiguous rows
        pulls = np.zeros((n_players, size), dtype=_I64)  # all pulls, Overdrive included
        winner = np.zeros(size, dtype=_I64)
        live = None  # trials still playing (None = all)
        for p, m in sched:
            if live is None:
                touched = _play_session(b, owned, gcount, pulls, p, m, gen, cfg)
                pulls[p] += m
            else:
                sub = b.take(live)
                o_sub, g_sub, q_sub = owned[live], gcount[:, live], pulls[:, live]
                t_sub = _play_session(sub, o_sub, g_sub, q_sub, p, m, gen, cfg)
                b.put(live, sub)
                owned[live], gcount[:, live], pulls[:, live] = o_sub, g_sub, q_sub
                pulls[p, live] += m
                touched = live[t_sub]
            if stop and touched.size:
                won = touched[(winner[touched] == 0) & owned[touched, p].all(axis=1)]
                if won.size:
                    winner[won] = p + 1
                    live = np.flatnonzero(winner == 0)
                    if live.size == 0:
                        break
        _flush_sr(b, None, gen, cfg)
        sl = slice(start, start + size)
        out_gc[sl] = gcount.T
        out_own[sl] = owned.sum(axis=2)
        out_pulls[sl] = pulls.T
        out_sr[sl] = b.sr
        if stop:
            out_win[sl] = winner
        else:  # first completion cannot be told apart afterwards: report none
            out_win[sl] = 0
        start += size
    return {
        "god_chances": out_gc,
        "characters_owned": out_own,
        "complete": out_own == n_characters,
        "pulls": out_pulls,
        "sr_drawn": out_sr,
        "winner": out_win,
    }


def run_schedule(
    sessions: Sequence[int],
    n_trials: int,
    *,
    rng: RngLike = None,
    bag: BagConfig = BagConfig(),
    n_characters: int = 5,
    doubtful: DoubtfulConfig | None = None,
    overdrive_pulls: int | None = None,
) -> dict[str, npt.NDArray[np.int64] | npt.NDArray[np.bool_]]:
    """Array kernel of :func:`simulate_schedule`: one player, arrays of shape (n_trials,).

    Returns
    -------
    dict of str to ndarray
        ``god_chances``, ``complete``, ``characters_owned``, ``sr_drawn``, ``pulls``.
    """
    r = run_shared([(1, int(m)) for m in sessions], n_trials, n_players=1, rng=rng, bag=bag,
                   n_characters=n_characters, doubtful=doubtful, overdrive_pulls=overdrive_pulls)
    return {
        "god_chances": r["god_chances"][:, 0],
        "complete": r["complete"][:, 0],
        "characters_owned": r["characters_owned"][:, 0],
        "sr_drawn": r["sr_drawn"],
        "pulls": r["pulls"][:, 0],
    }


def simulate_schedule(
    sessions: Sequence[int],
    n_trials: int,
    *,
    rng: RngLike = None,
    bag: BagConfig = BagConfig(),
    n_characters: int = 5,
    doubtful: DoubtfulConfig | None = None,
    overdrive_pulls: int | None = None,
) -> pd.DataFrame:
    """Simulate one player pulling a schedule of sessions from a fresh bag.

    Parameters
    ----------
    sessions : sequence of int
        Session sizes (pulls, >= 0), in order.
    n_trials : int
        Independent trials (>= 0).
    rng : int, SeedSequence, Generator or None, default None
        Normalised with ``np.random.default_rng``.
    bag : BagConfig, default BagConfig()
        Full-bag contents (chips).
    n_characters : int, default 5
        God Chance cards / UR characters.
    doubtful : DoubtfulConfig or None, default None
        疑惑の運営モード; ``None`` = off.
    overdrive_pulls : int or None, default None
        Extra pulls when a God Chance shows the navi character (Overdrive);
        ``None`` = no navi (エキスパートモード).

    Returns
    -------
    pandas.DataFrame
        One row per trial: ``god_chances`` (int64), ``complete`` (bool: コンスリート),
        ``characters_owned`` (int64), ``sr_drawn`` (int64, SR chips),
        ``pulls`` (int64, all pulls drawn including Overdrive pulls).

    Raises
    ------
    ValueError
        If ``n_characters < 1``, ``overdrive_pulls < 1``, a session size is
        negative, or a doubtful ``k`` is >= the bag total.

    Notes
    -----
    Rules read as in ``docs/rules/gacha.md`` (seed ``gacha_god_chance_rules_ja.txt``:
    ガチャ袋作成, ガチャを引く, God Chance, Overdrive, 疑惑の運営モード).

    Examples
    --------
    >>> df = simulate_schedule([10] * 10, 1000, rng=1)
    >>> bool((df.god_chances <= df.pulls).all())
    True
    """
    return pd.DataFrame(run_schedule(sessions, n_trials, rng=rng, bag=bag, n_characters=n_characters,
                                     doubtful=doubtful, overdrive_pulls=overdrive_pulls))


def simulate_shared(
    schedule: Sequence[tuple[int, int]],
    n_trials: int,
    *,
    n_players: int | None = None,
    rng: RngLike = None,
    bag: BagConfig = BagConfig(),
    n_characters: int = 5,
    doubtful: DoubtfulConfig | None = None,
    overdrive_pulls: int | None = None,
    stop_at_completion: bool = True,
) -> pd.DataFrame:
    """Simulate several players sharing one gacha bag, until someone completes.

    Parameters
    ----------
    schedule : sequence of (int, int)
        ``(player, pulls)`` sessions in order; players are numbered from 1.
    n_trials : int
        Independent trials, 0..:data:`MAX_TRIALS`.
    n_players : int or None, default None
        Players, 1..:data:`MAX_PLAYERS`; ``None`` = the largest player number in
        ``schedule``.
    rng, bag, n_characters, doubtful, overdrive_pulls
        As in :func:`simulate_schedule`. Overdrive sessions belong to the player
        whose God Chance triggered them.
    stop_at_completion : bool, default True
        The rulebook's end condition コンスリート: 「いずれかのラウンド中にURキャラカードを全て
        集めたスレイヤーは直ちにゲームに勝利します」: the game ends at the first completion.
        False = the alternative reading, everyone keeps pulling the whole schedule.

    Returns
    -------
    pandas.DataFrame
        Columns ``god_chances_p{i}`` (int64), ``complete_p{i}`` (bool),
        ``characters_owned_p{i}`` (int64), ``pulls_p{i}`` (int64) for i = 1..n_players,
        and ``winner`` (int64: the player who completed first, 0 = nobody; always 0
        when ``stop_at_completion`` is False). With the stop, ``complete_p{i}`` is true
        only for the winner.

    Raises
    ------
    ParamTypeError, ParamError
        If a player number is outside 1..n_players, or as :func:`run_shared`.

    Notes
    -----
    The bag is shared (whatever one player leaves stays for the next session);
    each player has their own collection of UR characters. Rulebook ゲームの終了条件
    (コンスリート); docs/rules/gacha.md.
    """
    sched, n_trials, n_players = _check_shared_args(schedule, n_trials, n_players)
    r = run_shared(sched, n_trials, n_players=n_players, rng=rng, bag=bag, n_characters=n_characters,
                   doubtful=doubtful, overdrive_pulls=overdrive_pulls, stop_at_completion=stop_at_completion)
    cols: dict[str, np.ndarray] = {}
    for i in range(n_players):
        cols[f"god_chances_p{i + 1}"] = r["god_chances"][:, i]
        cols[f"complete_p{i + 1}"] = r["complete"][:, i]
        cols[f"characters_owned_p{i + 1}"] = r["characters_owned"][:, i]
        cols[f"pulls_p{i + 1}"] = r["pulls"][:, i]
    cols["winner"] = r["winner"]
    return pd.DataFrame(cols)


def run_pulls_to_complete(
    session_size: int,
    n_trials: int,
    *,
    max_pulls: int = 2000,
    rng: RngLike = None,
    bag: BagConfig = BagConfig(),
    n_characters: int = 5,
    doubtful: DoubtfulConfig | None = None,
    overdrive_pulls: int | None = None,
) -> dict[str, npt.NDArray[np.float64] | npt.NDArray[np.int64]]:
    """Array kernel of :func:`simulate_pulls_to_complete`.

    Returns
    -------
    dict of str to ndarray, each of shape (n_trials,)
        ``pulls_to_complete`` (float64, NaN if not complete within ``max_pulls``),
        ``god_chances`` (int64, at completion or at the cap) and ``completed`` (bool).

    Raises
    ------
    ParamTypeError, ParamError
        As :func:`simulate_pulls_to_complete`.
    """
    session_size = check_int("session_size", session_size, min=1, max=MAX_SESSION_PULLS)
    n_trials = check_int("n_trials", n_trials, min=0, max=MAX_TRIALS)
    max_pulls = check_int("max_pulls", max_pulls, min=0, max=MAX_PTC_SESSIONS * MAX_SESSION_PULLS)
    if max_pulls // session_size > MAX_PTC_SESSIONS:
        raise ParamError("max_pulls", max_pulls, f"at most {MAX_PTC_SESSIONS} sessions of session_size = "
                         f"{session_size} (max_pulls <= {MAX_PTC_SESSIONS * session_size})")
    bag, n_characters, doubtful, overdrive_pulls = check_config(bag, n_characters, doubtful, overdrive_pulls)
    gen = as_generator(rng)
    cfg = _Cfg.make(bag, n_characters, doubtful, overdrive_pulls)
    n_sessions = int(max_pulls) // int(session_size)
    if bag.n_god_chance == 0:  # no God Chance chip: completion is impossible, nothing to pull for
        n_sessions = 0
    ptc = np.full(n_trials, np.nan)
    gcs = np.zeros(n_trials, dtype=_I64)
    start = 0
    for size in _chunks(n_trials, 1, n_characters):
        b = _fresh_bag(size, gen, cfg)
        owned = np.zeros((size, 1, n_characters), dtype=bool)
        gcount = np.zeros((1, size), dtype=_I64)
        pulls = np.zeros((1, size), dtype=_I64)
        alive = np.arange(start, start + size)  # original trial of each row
        done = np.zeros(size, dtype=bool)
        for j in range(1, n_sessions + 1):
            touched = _play_session(b, owned, gcount, pulls, 0, int(session_size), gen, cfg)
            if touched.size:
                t = touched[~done[touched]]
                newly = t[owned[t, 0].all(axis=1)]
                if newly.size:
                    done[newly] = True
                    ptc[alive[newly]] = j * session_size
                    gcs[alive[newly]] = gcount[0, newly]
                    n_done = int(done.sum())
                    if n_done == done.size:
                        break
                    if n_done > done.size // 4:
                        keep = np.flatnonzero(~done)
                        b = b.take(keep)
                        owned, gcount, pulls = owned[keep], gcount[:, keep], pulls[:, keep]
                        alive, done = alive[keep], done[keep]
        rest = ~done
        gcs[alive[rest]] = gcount[0, rest]
        start += size
    return {"pulls_to_complete": ptc, "god_chances": gcs, "completed": ~np.isnan(ptc)}


def simulate_pulls_to_complete(
    session_size: int,
    n_trials: int,
    *,
    max_pulls: int = 2000,
    rng: RngLike = None,
    bag: BagConfig = BagConfig(),
    n_characters: int = 5,
    doubtful: DoubtfulConfig | None = None,
    overdrive_pulls: int | None = None,
) -> pd.DataFrame:
    """Simulate pulling sessions of ``session_size`` until コンスリート (all characters).

    Parameters
    ----------
    session_size : int
        Pulls per scheduled session, 1..:data:`~gamesim.games.gacha.rules.MAX_SESSION_PULLS`.
    n_trials : int
        Independent trials, 0..:data:`MAX_TRIALS`.
    max_pulls : int, default 2000
        Cap on scheduled pulls (>= 0): at most ``max_pulls // session_size`` sessions,
        itself at most :data:`MAX_PTC_SESSIONS`.
    rng, bag, n_characters, doubtful, overdrive_pulls
        As in :func:`simulate_schedule`.

    Returns
    -------
    pandas.DataFrame
        ``pulls_to_complete`` (float64: scheduled pulls paid for until complete,
        at session granularity, NOT counting free Overdrive pulls; NaN if not
        complete within ``max_pulls``) and ``god_chances`` (int64, at completion
        or at the cap).

    Raises
    ------
    ParamTypeError
        If an argument has the wrong type (a float, even ``10.0``, or a bool for an
        integer; ``bag`` not a BagConfig ...).
    ParamError
        If a value is out of range (``max_pulls = -10``, ``n_characters = 10**9``),
        or the configuration is invalid (:func:`~gamesim.games.gacha.rules.check_config`).
    """
    r = run_pulls_to_complete(session_size, n_trials, max_pulls=max_pulls, rng=rng, bag=bag,
                              n_characters=n_characters, doubtful=doubtful,
                              overdrive_pulls=overdrive_pulls)
    return pd.DataFrame({"pulls_to_complete": r["pulls_to_complete"], "god_chances": r["god_chances"]})
