"""The gacha bag's batch kernel: trials pulling sessions from their bags in lockstep (axis 0 = trial).

Shared by :mod:`.sim` (schedules and shared bags) and :mod:`.purchase` (purchase plans); the
sampling laws are stated in :mod:`.sim`. Inputs are trusted (the callers check them).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gamesim.core.batching import chunk_spans

from .rules import BagConfig, DoubtfulConfig

__all__ = ["CHUNK_SIZE"]

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
        """The kernel's set-up from a checked configuration (the public callers check it)."""
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
    return [stop - start for start, stop in chunk_spans(n_trials, size)]
