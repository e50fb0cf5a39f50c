"""Tests of QftNW's simulator: invariants, exact oracle and hand derivations, vs the plain-Python reference.

Golden values come from mathematics (hand derivations from the rulebook, closed-form
matrix games, exact enumeration), never from a seeded run. Stochastic tests compare
estimates with exact values, or two independent simulators, at 4.5 standard errors,
so they pass for any seed (fresh seed per run).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from gamesim.games.qftnw import (
    choose_type,
    GAME_COLUMNS,
    Cond,
    edition_params,
    exact_truncated,
    make_policy,
    reference_simulate,
    run_games,
    simulate,
    win_condition,
)
from tests.conftest import assert_same_mean, quick_and_slow
from tests.games.qftnw.helpers import ORIG, SPA, V2

Z = 4.5


# ---------------------------------------------------------------------------
# Invariants: cards conserved, games end or are reported unfinished
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("edition", ["original", "spa", "v2"])
@pytest.mark.parametrize("advanced", [False, True])
def test_cards_conserved_and_games_end(edition: str, advanced: bool, seed: int) -> None:
    p = edition_params(edition, advanced=advanced)
    for pols in (("uniform", "uniform"), ("greedy", "equilibrium")):
        r = run_games(p, pols, 600, rng=seed, check=True, chunk_size=250)  # asserts conservation per round
        assert r["winner"].shape == (600,)
        assert ((r["winner"] >= 0) == (r["cond"] > 0)).all()
        assert (r["rounds"] >= 2).all()  # nobody can win in round 1 from one card each
    reference_simulate(100, edition=edition, advanced=advanced, policies=("cautious", "greedy"), rng=seed)


def test_tie_floor_both_conserves_cards(seed: int) -> None:
    run_games(edition_params("spa", tie_floor="both", start_funds=2, reset_funds=2), ("uniform", "uniform"),
              500, rng=seed, check=True)


def test_capped_games_are_reported_unfinished(seed: int) -> None:
    df = simulate(2000, edition="v2", max_rounds=6, rng=seed)
    assert len(df) == 2000
    un = df[df.unfinished]
    assert len(un) > 0
    assert (un.winner == -1).all() and (un.win_condition == "").all() and (un.ended == "cap").all()
    assert (un.rounds == 6).all()
    fin = df[~df.unfinished]
    assert fin.winner.isin([0, 1]).all() and fin.win_condition.isin(["three", "straight5", "straight3"]).all()
    assert (fin.ended == "win").all() and (fin.rounds <= 6).all()


def test_unwinnable_deck_runs_out_or_caps(seed: int) -> None:
    # 2 types x 2 copies, three of a kind and straights impossible: nobody can ever win
    kw = dict(n_types=2, n_copies=2, straight3=False, max_rounds=50)
    for df in (simulate(500, rng=seed, **kw), reference_simulate(200, rng=seed, **kw)):
        assert (df.winner == -1).all() and df.ended.isin(["cap", "deck_empty"]).all()
        assert (df.ended == "deck_empty").any()


def test_simulate_public_api(seed: int) -> None:
    df = simulate(1500, edition="spa", advanced=True, policies=("uniform", "cautious"), rng=seed)
    assert list(df.columns) == list(GAME_COLUMNS)
    assert len(df) == 1500
    assert df.winner.isin([0, 1, -1]).all()
    assert (df.bankruptcies == df.bankruptcies_p0 + df.bankruptcies_p1).all()
    assert ((df.min_funds_p0 <= 0) == (df.bankruptcies_p0 > 0)).all()
    assert df.mean_funds_p0.between(1, 6).all()
    again = simulate(1500, edition="spa", advanced=True, policies=("uniform", "cautious"), rng=seed)
    pd.testing.assert_frame_equal(df, again)  # same seed, same games
    assert len(simulate(0)) == 0
    with pytest.raises(ValueError):
        simulate(10, edition="deluxe")
    with pytest.raises(ValueError):
        simulate(10, policies=("uniform",))
    with pytest.raises(ValueError):
        simulate(10, policies=("uniform", "bluffer"))


# ---------------------------------------------------------------------------
# Exact oracle (truncated enumeration) and hand derivations
# ---------------------------------------------------------------------------


def test_two_round_bankruptcy_by_hand() -> None:
    # Uniform bids from funds 5: bankrupt within two rounds needs a round-1 drop to f then a round-2
    # loss >= f. Round 1 (p0's view, 25 equally likely pairs): lose 4 (5v1) 1/25, lose 3 (5v2,4v1)
    # 2/25, lose 2 (5v3,4v2,3v1) 3/25, tie (-1) 5/25. Round 2 losses >= 1, 2, 3, 4 have 6, 6, 3, 1
    # pairs of 25. P = (1*6 + 2*6 + 3*3 + 5*1) / 625 = 32/625, whatever the deck.
    p = edition_params("original", n_types=2, n_copies=5, max_rounds=2)
    ex = exact_truncated(p)
    assert ex["bankruptcies_p0"] == pytest.approx(float(Fraction(32, 625)), abs=1e-12)
    assert ex["bankruptcies_p1"] == pytest.approx(float(Fraction(32, 625)), abs=1e-12)
    assert ex["p0_wins"] == pytest.approx(ex["p1_wins"])


def _within(est: float, se: float, exact: float, what: str, n: int) -> None:
    # An integer-valued outcome with mean m has variance >= f (1 - f), f = m - floor(m) (equality
    # for 0/1 outcomes): never let a sample that happens to show no spread (a rare outcome not
    # seen at all) shrink the standard error below what the exact mean implies.
    f = exact - math.floor(exact)
    se = max(se, math.sqrt(f * (1.0 - f) / n))
    assert abs(est - exact) <= Z * max(se, 1e-12) + 1e-12, f"{what}: {est} vs exact {exact} (se {se})"


SMALL = dict(n_types=3, n_copies=3, n_of_a_kind=2, long_straight=3, short_straight=2)


@pytest.mark.parametrize("kw, pols", [
    (dict(edition="original", max_rounds=6, **SMALL), ("greedy", "cautious")),
    (dict(edition="spa", max_rounds=5, advanced=True, **SMALL), ("greedy", "cautious")),
    (dict(edition="v2", max_rounds=2), ("cautious", "greedy")),
    (dict(edition="spa", max_rounds=4, tie_floor="both", start_funds=2, **SMALL), ("uniform", "mixed:1,1,2,3,3")),
    (dict(edition="original", max_rounds=3, start_funds=2, n_types=4, n_copies=2, n_of_a_kind=2, long_straight=4,
          short_straight=2), ("uniform@spoil", "uniform@take")),
])
def test_simulator_matches_exact_enumeration(kw: dict, pols: tuple, seed: int) -> None:
    ed = kw.pop("edition")
    p = edition_params(ed, **kw)
    ex = exact_truncated(p, pols)
    n = 60_000
    df = simulate(n, edition=ed, policies=pols, rng=seed, **kw)
    w = df.winner.to_numpy()
    for name, x in [("p0_wins", w == 0), ("p1_wins", w == 1), ("unfinished", w < 0),
                    ("cond_three", df.win_condition == "three"), ("cond_straight5", df.win_condition == "straight5"),
                    ("cond_straight3", df.win_condition == "straight3"), ("any_bankruptcy", df.bankruptcies > 0),
                    ("bankruptcies_p0", df.bankruptcies_p0), ("bankruptcies_p1", df.bankruptcies_p1)]:
        x = np.asarray(x, dtype=float)
        _within(x.mean(), x.std(ddof=1) / math.sqrt(n), ex[name], f"{ed} {pols} {name}", n)


def test_v2_three_card_straight_both_readings() -> None:
    """ver.2 contradicts itself: its introduction says 「また相手が持っていない3枚ストレートでも勝ち」, its
    勝利条件 list gives only 「同じ領地カードを3枚揃える」 and 「5枚続きのストレートを揃える」. Default: the list.

    Hand-built: A, B, C against an opponent holding D only is the introduction's example shape
    (相手がA・B・Cのどれも持っていない時にABCを揃えれば勝ち).
    """
    abc, d_only = (1, 1, 1, 0, 0, 0, 0), (0, 0, 0, 1, 0, 0, 0)
    assert V2.straight3 is False and win_condition(abc, d_only, V2) == 0
    intro = edition_params("v2", straight3=True)
    assert win_condition(abc, d_only, intro) == int(Cond.STRAIGHT3)
    assert win_condition(abc, d_only, SPA) == int(Cond.STRAIGHT3)
    assert win_condition(abc, (0, 1, 0, 0, 0, 0, 0), intro) == 0  # the opponent holds B


def test_naming_rules_by_hand() -> None:
    """破産: 対戦相手は破産者の領地カードを1種類選んで… (the rulebook leaves the choice to the namer).

    Hand-computed, original edition (all cards of the named type to the deck bottom):
    bankrupt A×2, D, E against a namer with nothing. ``most`` names A. ``spoil`` counts the
    bankrupt's winning draws after the penalty: without A it wins by drawing C (CDE) or F (DEF,
    opponent-free three-card straights): 2; without D only A (three A) wins: 1; without E: 1; so D.
    Second case, bankrupt A, F×2 against a namer holding B, C: ``most``/``spoil`` name F
    (without F the bankrupt has no winning draw; without A it draws F for three); ``take`` names A:
    the namer then wins by drawing A (ABC) or D (BCD): 2 chances, against 1 (D) if F is named.
    """
    hb, hn = (2, 0, 0, 1, 1, 0, 0), (0,) * 7
    assert choose_type(hb, hn, ORIG, "most") == 0
    assert choose_type(hb, hn, ORIG, "spoil") == 3
    hb, hn = (1, 0, 0, 0, 0, 2, 0), (0, 1, 1, 0, 0, 0, 0)
    assert choose_type(hb, hn, ORIG, "most") == 5
    assert choose_type(hb, hn, ORIG, "spoil") == 5
    assert choose_type(hb, hn, ORIG, "take") == 0
    # Spa: naming D gives the namer the second D (1枚を捨て、残りを相手に渡す): B, C, D is an
    # opponent-free straight at once, so ``take`` names D
    hb, hn = (1, 0, 0, 2, 0, 0, 0), (0, 1, 1, 0, 0, 0, 0)
    assert choose_type(hb, hn, SPA, "take") == 3
    assert choose_type((0,) * 7, hn, SPA, "spoil") == -1
    assert make_policy("greedy@spoil").naming == "spoil" and make_policy("uniform", naming="take").naming == "take"
    assert make_policy("mixed:1,1,1,1,1@take").spec() == "mixed:0.2,0.2,0.2,0.2,0.2@take"
    with pytest.raises(ValueError, match="naming"):
        make_policy("uniform@kind")


def test_naming_batch_matches_scalar(seed: int) -> None:
    from gamesim.games.qftnw.policies import choose_type_batch

    rng = np.random.default_rng(seed)
    for p in (ORIG, SPA, V2):
        hb = rng.integers(0, 3, size=(400, 7))
        hn = rng.integers(0, 3, size=(400, 7))
        for naming in ("most", "spoil", "take"):
            got = choose_type_batch(hb, hn, p, naming)
            want = [choose_type(tuple(a), tuple(b), p, naming) for a, b in zip(hb.tolist(), hn.tolist())]
            assert got.tolist() == want, (p.edition, naming)


def test_exact_refuses_too_many_rounds() -> None:
    with pytest.raises(ValueError):
        exact_truncated(edition_params("original", n_types=2, n_copies=2, max_rounds=3))


# ---------------------------------------------------------------------------
# Vectorized simulator vs plain-Python reference (two-sample, 4.5 SE)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("kw, pols", quick_and_slow([
    (dict(edition="original"), ("uniform", "uniform")),
    (dict(edition="spa", advanced=True), ("greedy", "cautious")),
    (dict(edition="v2"), ("equilibrium", "mixed:0.3,0.1,0.1,0.2,0.3")),
    (dict(edition="spa", tie_floor="both", start_funds=3, gain=1, n_copies=4), ("uniform", "greedy")),
    (dict(edition="spa", start_funds=2), ("uniform@spoil", "greedy@take")),
], quick=(0, 1)))
def test_vectorized_matches_reference(kw: dict, pols: tuple, seed: int) -> None:
    n_vec, n_ref = 30_000, 1_500
    v = simulate(n_vec, policies=pols, rng=seed, **kw)
    r = reference_simulate(n_ref, policies=pols, rng=seed + 1, check=False, **kw)
    cols = {
        "rounds": lambda d: d.rounds, "bankruptcies": lambda d: d.bankruptcies,
        "bk_p0": lambda d: d.bankruptcies_p0, "p0_wins": lambda d: d.winner == 0,
        "three": lambda d: d.win_condition == "three", "straight5": lambda d: d.win_condition == "straight5",
        "straight3": lambda d: d.win_condition == "straight3", "min_funds_p1": lambda d: d.min_funds_p1,
        "mean_funds_p0": lambda d: d.mean_funds_p0, "unfinished": lambda d: d.unfinished,
    }
    for name, f in cols.items():
        assert_same_mean(f(v), f(r), z=Z, label=f"{kw} {pols} {name}")


def test_chunking_does_not_change_the_law(seed: int) -> None:
    a = simulate(20_000, rng=seed, chunk_size=777)
    b = simulate(20_000, rng=seed + 1)
    for col in ("rounds", "bankruptcies"):
        assert_same_mean(a[col], b[col], z=Z, label=col)


def test_seats_are_symmetric_under_uniform_play(seed: int) -> None:
    df = simulate(40_000, edition="original", rng=seed)
    m = np.where(df.winner == 0, 1.0, np.where(df.winner == 1, -1.0, 0.0))
    assert abs(m.mean()) <= Z * m.std(ddof=1) / math.sqrt(m.size)
