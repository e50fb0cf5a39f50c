"""Tests of Godtear's rules: the rulebook's worked examples, status tokens, the tally and end-phase dice.

Golden values come from mathematics (the rulebook's worked examples, brute-force
enumeration of faces, closed forms) and from icepool, an independent exact dice
library used here only as a test oracle. Stochastic tests compare estimates with
exact values (or two independent simulators) at 4.5 standard errors, with a fresh
seed per run, so they pass for any seed.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from gamesim.games.godtear import (
    DuelState,
    Faction,
    FollowerSkill,
    Skill,
    Status,
    TallyEvent,
    Target,
    add_token,
    dice_after_token,
    end_phase_pmf,
    is_success,
    knockout_steps,
    resolve_use,
    run_end_phase,
    tally_steps,
    wounds_dealt,
)

Z = 4.5


# ---------------------------------------------------------------------------
# Rulebook worked examples (モデルのスキルを使う: スキルの例)
# ---------------------------------------------------------------------------


def test_rulebook_success_example() -> None:
    # 眩い光, accuracy 4: four dice all showing 1 = 4 >= Morrigan's dodge 2 -> success
    faces = [1, 1, 1, 1]
    assert sum(faces) == 4 and is_success(sum(faces), 2)
    assert not is_success(1, 2)


def test_rulebook_damage_example() -> None:
    # 5 damage dice 1, 1, 0, 0, 2 = 4 against protection 3 -> 1 wound
    faces = [1, 1, 0, 0, 2]
    assert wounds_dealt(sum(faces), 3) == 1
    st = resolve_use(DuelState(), Skill(4, 5), Target(dodge=2, protection=3, health=5), 4, sum(faces))
    assert st.wounds == 1


def test_wounds_never_negative_and_capped() -> None:
    assert wounds_dealt(2, 5) == 0
    assert wounds_dealt(9, 1, remaining_health=3) == 3  # excess is lost (打倒)
    assert wounds_dealt(3, -1) == 3  # a protection below 0 counts as 0
    st = resolve_use(DuelState(wounds=4), Skill(2, 8), Target(0, 0, 5), 0, 16)
    assert st.wounds == 5 and st.knocked_out(5)
    # a knocked-out target is not changed any more
    assert resolve_use(st, Skill(2, 8), Target(0, 0, 5), 4, 16) == st


# ---------------------------------------------------------------------------
# Status tokens (状態効果)
# ---------------------------------------------------------------------------


def test_add_token() -> None:
    assert add_token(0, 1) == 1 and add_token(0, -1) == -1
    assert add_token(1, 1) == 1 and add_token(-1, -1) == -1  # at most one token of a kind
    assert add_token(1, -1) == 0 and add_token(-1, 1) == 0  # boon and blight cancel
    with pytest.raises(ValueError):
        add_token(0, 2)
    with pytest.raises(ValueError):
        Status(accuracy=2)


def test_dice_after_token() -> None:
    assert dice_after_token(4, 1) == 5 and dice_after_token(4, -1) == 3
    assert dice_after_token(0, -1) == 0  # never below 0 dice


def test_tokens_expire_in_order() -> None:
    t = Target(dodge=2, protection=1, health=5)
    st = DuelState(0, Status(accuracy=1, damage=1), Status(dodge=1, protection=-1))
    # a miss uses the accuracy and dodge tokens, but not the damage ones (no damage roll)
    miss = resolve_use(st, Skill(3, 3), t, 0, None)
    assert miss.attacker == Status(damage=1) and miss.target == Status(protection=-1)
    # a hit uses all four
    hit = resolve_use(st, Skill(3, 3), t, 3, 2)
    assert hit.attacker == Status() and hit.target == Status()
    assert hit.wounds == 2  # protection 1 - 1 = 0
    # success effects resolve before the damage roll
    pb = resolve_use(DuelState(), Skill(3, 3, "protection_blight"), t, 3, 2)
    assert pb.wounds == 2 and pb.target == Status()
    db = resolve_use(DuelState(), Skill(3, 3, "dodge_blight"), t, 3, 2)
    assert db.wounds == 1 and db.target == Status(dodge=-1)
    ab = resolve_use(DuelState(), Skill(3, 3, "accuracy_boon_self"), t, 3, 2)
    assert ab.attacker == Status(accuracy=1)
    # a skill without a damage roll leaves damage tokens alone
    nd = resolve_use(st, Skill(3, None), t, 3, None)
    assert nd.attacker == Status(damage=1) and nd.wounds == 0


def test_follower_rows() -> None:
    fs = FollowerSkill(((2, 1), (3, 2), (4, 3)))
    assert fs.row(1) == Skill(2, 1) and fs.row(3) == Skill(4, 3)
    with pytest.raises(ValueError):
        fs.row(4)
    with pytest.raises(ValueError):
        FollowerSkill(())


# ---------------------------------------------------------------------------
# Tally (戦況表) and end-phase dice (シナリオ)
# ---------------------------------------------------------------------------


def test_tally_steps() -> None:
    assert [tally_steps(e) for e in TallyEvent] == [4, 1, 2, 1, 4]
    assert tally_steps(TallyEvent.CHAMPION_KO, Faction.SLAYER) == 5
    assert tally_steps(TallyEvent.SMALL_FOLLOWER_KO, Faction.MAELSTROM) == 2
    assert tally_steps(TallyEvent.LARGE_FOLLOWER_KO, Faction.MAELSTROM) == 3
    assert tally_steps(TallyEvent.PLANT_BANNER, Faction.SHAPER) == 2
    assert tally_steps(TallyEvent.BANNER_END_PHASE, Faction.GUARDIAN) == 5
    assert tally_steps(TallyEvent.CHAMPION_KO, Faction.MAELSTROM) == 4
    assert knockout_steps("large_follower", Faction.SLAYER) == 2


def test_end_phase(seed: int) -> None:
    assert end_phase_pmf("life", exact=True) == {2: Fraction(1, 3), 3: Fraction(1, 2), 4: Fraction(1, 6)}
    assert end_phase_pmf("change", exact=True) == {0: Fraction(1, 3), 1: Fraction(1, 2), 2: Fraction(1, 6)}
    x = run_end_phase("life", 60_000, rng=seed)
    assert set(np.unique(x)) <= {2, 3, 4}
    mean, var = 2 + 5 / 6, 17 / 36
    assert abs(x.mean() - mean) <= Z * math.sqrt(var / x.size)
    with pytest.raises(ValueError):
        end_phase_pmf("death")
