"""Tests of Ice Cream Turret's simulator: vectorized kernels vs the scalar rules core, whole games vs the reference.

Rule tests use hand-drawn boards (top row first; ``.`` empty, ``C`` crush ice) whose outcome
follows from the rulebook text. The vectorized kernels are compared cell for cell with the
scalar rules core on random boards and states, and whole games in distribution with the
plain-Python reference (two-sample tests at 4.5 SD, fresh seeds: they pass for any seed).
"""

from __future__ import annotations


import numpy as np
import pytest

from gamesim.core.registry import ParamError
from gamesim.games.ice_cream_turret import (
    CRUSH,
    IceCreamParams,
    board_to_rows,
    gravity,
    greedy_keys,
    greedy_keys_batch,
    lookahead_values,
    lookahead_values_batch,
    make_policy,
    reference_simulate,
    resolve,
    resolve_batch,
    run_games,
)
from gamesim.games.ice_cream_turret.rules import N_VALUES
from gamesim.games.ice_cream_turret.kernels import tables
from gamesim.games.ice_cream_turret.policies import _best_greedy_keys
from gamesim.games.ice_cream_turret.sim import advance
from tests.conftest import assert_same_mean
from tests.games.ice_cream_turret.helpers import _batch, _random_board, _random_states

P = IceCreamParams()
SA = IceCreamParams(mode="score_attack")
C = CRUSH


# ---------------------------------------------------------------------------
# Vectorized kernels against the scalar rules core
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("p", [P, SA, IceCreamParams(crush_cascade=True, mode="score_attack", line_bonus="double",
                                                     equal_runs_score=True)])
def test_resolve_batch_equals_scalar_resolve(p: IceCreamParams, seed: int) -> None:
    rng = np.random.default_rng(seed)
    boards = np.concatenate([_random_board(rng, 1500, 6), _random_board(rng, 1500, 9)])
    r = resolve_batch(boards, p)
    waves = 0
    for i, b in enumerate(boards):
        ref = resolve(tuple(int(x) for x in b), p)
        assert tuple(r["board"][i].tolist()) == ref.board, board_to_rows(tuple(b.tolist()))
        assert tuple(r["removed"][i].tolist()) == ref.removed
        assert r["waves"][i] == ref.waves and r["score"][i] == ref.score
        assert frozenset(np.flatnonzero(r["first"][i]).tolist()) == ref.first_wave
        waves += ref.waves
    assert waves > 500  # the random boards do exercise clears and chains


def test_greedy_and_lookahead_values_equal_scalar(seed: int) -> None:
    rng = np.random.default_rng(seed)
    states = _random_states(rng, 150, P)
    g = _batch(states)
    kb = greedy_keys_batch(g.board, g.card, P)
    lb = lookahead_values_batch(g, P, np.random.default_rng(0))
    for i, s in enumerate(states):
        np.testing.assert_allclose(kb[i], greedy_keys(s.board, s.card, P))
        np.testing.assert_allclose(lb[i], lookahead_values(s, P))
    # boards with full columns (not a choice: -inf) and cards in row 5, greedy keys only
    boards = _random_board(rng, 300)
    boards[:, 12:][rng.random((300, 3)) < 0.5] = 0
    boards = np.array([resolve(gravity(tuple(int(x) for x in b)), P).board for b in boards], np.int8)
    cards = rng.integers(1, 11, size=300).astype(np.int8)
    kb = greedy_keys_batch(boards, cards, P)
    assert np.isinf(kb).any()
    for i in range(300):
        np.testing.assert_allclose(kb[i], greedy_keys(tuple(boards[i].tolist()), int(cards[i]), P))


@pytest.mark.parametrize("p", [P, SA, IceCreamParams(crush_cascade=True, mode="score_attack", line_bonus="double",
                                                     equal_runs_score=True)])
def test_best_next_card_keys_equal_greedy_keys_per_value(p: IceCreamParams, seed: int) -> None:
    """The lookahead's batched next-card evaluation (clears looked up for ten values at once,
    only clearing placements resolved) gives exactly the greedy keys' maximum, value by value."""
    rng = np.random.default_rng(seed)
    for high in (6, 9):
        boards = _random_board(rng, 1500, high)
        boards[:, 12:] = 0  # stable boards of running games: row 5 empty
        boards = resolve_batch(boards, p)["board"]
        want = rng.random((1500, N_VALUES)) < 0.8
        best = _best_greedy_keys(boards, want, p, tables(p))
        assert best.shape == (1500, N_VALUES) and np.isinf(best[:, 0]).all()
        for v in range(1, N_VALUES):
            ref = greedy_keys_batch(boards, np.full(1500, v, np.int8), p).max(axis=1)
            np.testing.assert_array_equal(best[:, v], np.where(want[:, v], ref, -np.inf))
        assert (best[want] >= 300 - 10 * 5).any() and (best[want] < 0).any()  # clearing and plain placements


def test_card_conservation_over_whole_games(seed: int) -> None:
    rng = np.random.default_rng(seed)
    from gamesim.games.ice_cream_turret.sim import new_games, tables

    for p in (P, SA, IceCreamParams(deck_out="last_card")):
        t = tables(p)
        g = new_games(p, 300, rng=rng)
        pol = make_policy("greedy")
        total_added = np.tile(t.add[1].astype(int), (g.size, 1))
        while g.size:
            before = g.cycle.copy()
            advance(g, pol.choose(g, p, rng), p, rng)
            grew = g.cycle > before
            for i in np.flatnonzero(grew):
                total_added[i] += t.add[min(int(g.cycle[i]), t.add.shape[0] - 1)]
            run = g.status == 0
            have = g.deck.astype(int) + g.disc + np.stack([np.bincount(b, minlength=N_VALUES) for b in g.board])
            have[np.arange(g.size), g.card.astype(int)] += run  # the card in hand
            have[:, 0] = 0
            lost_crush = total_added[:, C] - have[:, C]  # crush ice taken out of the game after the last cycle
            assert (have[:, :C] == total_added[:, :C])[run].all()
            assert ((lost_crush >= 0) & ((lost_crush == 0) | (g.cycle > p.n_cycles)))[run].all()
            keep = np.flatnonzero(run)
            g, total_added = g.take(keep), total_added[keep]


# ---------------------------------------------------------------------------
# Whole games: vectorized simulator vs plain-Python reference (two-sample tests)
# ---------------------------------------------------------------------------

_KEYS = ("won", "game_over", "cycle", "placed", "score", "max_chain", "chain_waves", "cleared")


@pytest.mark.parametrize("p,policy,n_ref", [(P, "random", 600), (SA, "random", 600), (P, "greedy", 100),
                                            (SA, "greedy", 100),
                                            (IceCreamParams(copies_7=8, crush_count=1), "greedy", 80),
                                            (IceCreamParams(deck_out="last_card", n_cycles=2), "greedy", 100),
                                            (IceCreamParams(deck_out="last_card", mode="score_attack"), "random", 400)])
def test_simulator_matches_reference(p: IceCreamParams, policy: str, n_ref: int, seed: int) -> None:
    ss = np.random.SeedSequence(seed)
    a, b = ss.spawn(2)
    vec = run_games(p, policy, 4000, rng=a)
    ref = reference_simulate(p, policy, n_ref, rng=b)
    for k in _KEYS:
        assert_same_mean(vec[k], ref[k], label=f"{policy} {p.mode} {k}")


def test_policies_are_ordered() -> None:
    r = run_games(P, "random", 2000, rng=None)
    g = run_games(P, "greedy", 2000, rng=None)
    # greedy clears lines; random stacks and mostly loses in cycle 1 (15-ish cards)
    assert g["placed"].mean() > r["placed"].mean() + 20
    assert g["cycle"].mean() > r["cycle"].mean() + 1


def test_rollout_and_lookahead_run_and_are_reproducible() -> None:
    from gamesim.games.ice_cream_turret import RolloutPolicy

    with pytest.raises(ParamError, match="playout"):
        RolloutPolicy(2, 1, "random")
    for pol in ("lookahead", "rollout:2:1", RolloutPolicy(2, 1, "lookahead")):
        x = run_games(P, pol, 6, rng=7)
        y = run_games(P, pol, 6, rng=7)
        for k in x:
            np.testing.assert_array_equal(x[k], y[k])
        assert (x["status"] > 0).all()


def test_reproducible_and_chunk_invariant_counts(seed: int) -> None:
    x = run_games(P, "greedy", 500, rng=seed)
    y = run_games(P, "greedy", 500, rng=seed)
    np.testing.assert_array_equal(x["placed"], y["placed"])
    z = run_games(P, "greedy", 500, rng=seed + 1, chunk_size=64)
    assert z["placed"].shape == (500,) and (z["status"] > 0).all()


def test_max_placements_cuts_games_off() -> None:
    r = run_games(IceCreamParams(max_placements=5), "greedy", 200, rng=None)
    assert (r["placed"] <= 5).all() and r["capped"].mean() > 0.9
    assert not (r["won"] & r["capped"]).any()
