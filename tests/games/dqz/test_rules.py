"""Tests of dqz's rules: the rulebook's worked examples and the dice skills (resolved with fixed dice).

Golden values come from the rulebook's worked examples and from mathematics
(Fraction arithmetic, brute-force enumeration, the exact deal enumeration), never
from a seeded run. Stochastic tests compare at 4.5 standard errors, so they pass for
any seed.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from gamesim.games.dqz import (
    BESTIARY,
    DamageRule,
    Monster,
    Skill,
    Strategy,
    StrategyPlay,
    Timing,
    attack_value,
    damage_from_value,
    enumerate_plays,
    exact_value,
    experience_split,
    focus_target,
    inn_refill,
    parse_skills,
    round_half_away,
    triggers_multiple,
    value_table,
)
from gamesim.games.dqz.rules import effective_value, parse_skill
from gamesim.games.dqz.sim import BattleConfig, _apply_skill, _State


# ---------------------------------------------------------------------------
# Worked examples of the rulebook (dqz_rules_ja.txt)
# ---------------------------------------------------------------------------


def test_base_example_value() -> None:
    # 5＋4×3÷2 = 5 + 6 = 11
    assert attack_value([5, 4, 3, 2], ["+", "*", "/"]) == 11
    assert attack_value([5, 4, 3, 2], "+×÷") == 11


def test_minna_ganbare_example() -> None:
    # (5＋4)×3÷2 = 27/2 = 13.5 -> 14 (rounded at the end)
    assert attack_value([5, 4, 3, 2], "+*/", strategy=("みんながんばれ", 0)) == 14
    assert exact_value([5, 4, 3, 2], "+*/", paren=0) == Fraction(27, 2)


def test_gangan_ikouze_example() -> None:
    # 5＋(4×2)×3÷2 = 17
    assert attack_value([5, 4, 3, 2], "+*/", strategy=StrategyPlay(Strategy.GANGAN_IKOUZE, 1)) == 17


def test_ore_ni_makasero_example() -> None:
    # (5＋3)＋4×3÷2 = 14
    assert attack_value([5, 4, 3, 2], "+*/", strategy="おれにまかせろ") == 14


def test_jumon_setsuyaku_example() -> None:
    # 5＋4×3＋2 with the first ＋ from じゅもんせつやく: the ＋ card is used a second time
    assert attack_value([5, 4, 3, 2], "+*+", strategy="じゅもんせつやく") == 19
    with pytest.raises(ValueError):
        attack_value([5, 4, 3, 2], "*++", strategy="じゅもんせつやく")  # its ＋ sits right after the hero


def test_inochi_daijini_does_not_change_the_value() -> None:
    assert attack_value([5, 4, 3, 2], "+*/", strategy="いのちだいじに") == 11


def test_physical_immunity_examples() -> None:
    # 例1) (5×4＋3－2)×(-1) = -21 -> ノーダメージ
    v = attack_value([5, 4, 3, 2], "*+-")
    assert v == 21 and damage_from_value(v, physical_immune=True) == 0
    assert damage_from_value(v, physical_immune=True, negative_heals=True) == -21
    # 例2) prints (1－5×4＋3)×(-1) = 22; 1-20+3 = -16 gives 16, the printed 22 needs 1－5×4－3 = -22
    # (a typo in the rulebook, see docs/rules/dqz.md): both checked
    assert damage_from_value(attack_value([1, 5, 4, 3], "-*+"), physical_immune=True) == 16
    assert damage_from_value(attack_value([1, 5, 4, 3], "-*-"), physical_immune=True) == 22


def test_doku_examples() -> None:
    # どくこうげき 1: 「こうげきカード(1)」 counts 0. 5×4－3÷(1－1) cannot be played; 5×4÷3－(1－1) = 20/3 -> 7
    eff = [effective_value(c, i, poison=1) for i, c in enumerate([5, 4, 3, 1])]
    assert eff == [5, 4, 3, 0]
    with pytest.raises(ValueError):
        attack_value(eff, "*-/")
    assert attack_value(eff, "*/-") == 7
    # 6 rolled: no card changes
    assert [effective_value(c, 0, poison=6) for c in range(1, 6)] == [1, 2, 3, 4, 5]
    # the exact table agrees: with value 1 poisoned and every card 1 for the last player, ÷ is illegal there
    plays = enumerate_plays([[5], [4], [3], [1]], poison=1)
    assert all(ops[2] != "/" for _, ops, _, _ in plays)
    assert 7 in {v for *_, v in plays}


def test_mahi_examples() -> None:
    # 2 rolled: the 2nd player's card counts 0. 5×4－3÷1 -> 5×0－3÷1 = -3; 5÷4×3－1 -> 5÷0... illegal
    eff = [effective_value(c, i, paralysed=1) for i, c in enumerate([5, 4, 3, 1])]
    assert attack_value(eff, "*-/") == -3
    with pytest.raises(ValueError):
        attack_value(eff, "/*-")
    plays = enumerate_plays([[5], [4], [3], [1]], paralysed=1)
    assert all(ops[0] != "/" for _, ops, _, _ in plays)


def test_rariho_example() -> None:
    # 2 rolled: 5×4－3÷1 -> 5×1－3÷1 = 2
    eff = [effective_value(c, i, asleep=1) for i, c in enumerate([5, 4, 3, 1])]
    assert attack_value(eff, "*-/") == 2


def test_zaraki_example() -> None:
    # 1 rolled: 「こうげきカード(1)」 cannot be played; a player holding only 1s cannot take part
    assert enumerate_plays([[1]], forbidden=1) == []
    assert {c for cards, *_ in enumerate_plays([[5, 1], [1, 2]], forbidden=1) for c in cards} == {5, 2}


def test_shuchu_example() -> None:
    # 勇者:3, 2番目:4, 3番目:2, 4番目:2 -> the 3rd player (index 2) discards
    assert focus_target([3, 4, 2, 2]) == 2
    assert focus_target([0, 0]) is None
    assert focus_target([0, 2, 1]) == 2  # the dead hero (0 cards) is not the target


def test_experience_example() -> None:
    # deck 8, 5 players, Lv2: hero and the 2nd-3rd get 2, the other two get 1
    assert experience_split(2, 5, 8) == [2, 2, 2, 1, 1]
    assert experience_split(3, 3, 100) == [3, 3, 3]
    assert experience_split(2, 4, 0) == [0, 0, 0, 0]


def test_inn_example() -> None:
    # 4 of 5 players hold 47 cards: the 5th gets only 3
    assert inn_refill([12, 12, 12, 11, 0], 3) == [0, 0, 0, 0, 3]
    assert inn_refill([1, 5, 0], 40) == [2, 0, 3]


def test_round_half_away() -> None:
    assert round_half_away(Fraction(27, 2)) == 14
    assert round_half_away(Fraction(-27, 2)) == -14
    assert round_half_away(Fraction(5, 2)) == 3 and round_half_away(Fraction(-5, 2)) == -3
    assert round_half_away(Fraction(20, 3)) == 7 and round_half_away(Fraction(-7, 3)) == -2


def test_division_by_zero_raises() -> None:
    with pytest.raises(ValueError):
        attack_value([5, 0], "/")
    with pytest.raises(ValueError):
        attack_value([5, 3, 3], "/-", strategy=("minna_ganbare", 1))  # 5÷(3－3)
    assert attack_value([5, 3, 3], "/-") == -1  # 5÷3－3 = -4/3 -> -1
    with pytest.raises(ValueError):
        attack_value([5, 3], "+", strategy=("gangan_ikouze", 2))
    with pytest.raises(ValueError):
        attack_value([5, 3], "?")


def test_spell_resistance_and_triggers() -> None:
    assert damage_from_value(17, spell_resistant=True, strategy_used=True) == 9
    assert damage_from_value(17, spell_resistant=True, strategy_used=False) == 17
    assert triggers_multiple(15, (5,)) and not triggers_multiple(7, (3, 4, 5))
    # 「攻撃値が5の倍数だったとき」: the rulebook does not make 0 or a negative value a multiple
    assert not triggers_multiple(0, (3,)) and not triggers_multiple(-12, (4,))
    assert triggers_multiple(0, (3,), nonpositive=True) and triggers_multiple(-12, (4,), nonpositive=True)


def test_spell_resistance_rounds_once_at_the_end() -> None:
    """呪文耐性：高 「ダメージが1/2(端数切り上げ)」 with バトル 「端数は **最後に** 四捨五入する」.

    Hand-computed: 4×3＋2÷5 = 62/5 = 12.4. Halving the exact value gives 6.2, rounded up once at the
    end: 7 (our reading, the default); rounding the value first gives 12, halved: 6 (``value_first``).
    """
    assert exact_value([4, 3, 2, 5], ["*", "+", "/"]) == Fraction(62, 5)
    assert attack_value([4, 3, 2, 5], "*+/") == 12
    assert exact_value([5, 5, 3, 4, 5], ["+", "*", "+", "/"]) == Fraction(104, 5)  # 5＋5×3＋4÷5
    x = Fraction(62, 5)
    assert damage_from_value(x, spell_resistant=True, strategy_used=True) == 7
    assert damage_from_value(x, spell_resistant=True, strategy_used=True, resist_rounding="value_first") == 6
    # 104/5 = 20.8: at the end 10.4 -> 11; value first 21 -> 10.5 -> 11 (same); 27/2 = 13.5: 6.75 -> 7 / 14 -> 7
    assert damage_from_value(Fraction(104, 5), spell_resistant=True, strategy_used=True) == 11
    assert damage_from_value(Fraction(104, 5), spell_resistant=True, strategy_used=True,
                             resist_rounding="value_first") == 11
    # 41/4 = 10.25: at the end 5.125 -> 6; value first 10 -> 5
    assert damage_from_value(Fraction(41, 4), spell_resistant=True, strategy_used=True) == 6
    assert damage_from_value(Fraction(41, 4), spell_resistant=True, strategy_used=True,
                             resist_rounding="value_first") == 5
    # without a strategy card the value is only rounded (四捨五入): 62/5 -> 12
    assert damage_from_value(x, spell_resistant=True, strategy_used=False) == 12
    # 物理攻撃無効 with it: -(62/5) halved -> 31/5 in magnitude, no damage unless negative_heals
    assert damage_from_value(-x, physical_immune=True, spell_resistant=True, strategy_used=True) == 7
    assert damage_from_value(x, physical_immune=True, spell_resistant=True, strategy_used=True) == 0
    assert damage_from_value(x, physical_immune=True, spell_resistant=True, strategy_used=True,
                             negative_heals=True) == -7


def test_value_table_halves_match_fractions() -> None:
    """The table's exact halves agree with damage_from_value on Fractions for every 3-player play."""
    tab = value_table(3)
    rule = DamageRule(spell_resistant=True)
    for vi, var in enumerate(tab.variants):
        sp = var.strategy
        for t in range(0, 125, 7):
            cards = [(t // 25) % 5 + 1, (t // 5) % 5 + 1, t % 5 + 1]
            for pi in range(tab.perms.shape[1]):
                if not tab.valid[vi, t, pi]:
                    continue
                vals = [Fraction(c) for c in cards]
                paren = None
                if sp is not None and sp.kind == Strategy.GANGAN_IKOUZE:
                    vals[sp.target] *= 2
                elif sp is not None and sp.kind == Strategy.ORE_NI_MAKASERO:
                    vals[0] += 3
                elif sp is not None and sp.kind == Strategy.MINNA_GANBARE:
                    paren = sp.target
                x = exact_value(vals, ["+-*/"[o] for o in tab.perms[vi, pi]], paren=paren)
                want = damage_from_value(x, spell_resistant=True, strategy_used=True)
                got = rule.damage(tab.values[vi, t, pi:pi + 1], np.array([True]), tab.half[vi, t, pi:pi + 1])[0]
                assert got == want, (var, cards, x)


def test_skill_parsing() -> None:
    sk = parse_skills("かえんのいき, ザラキ@post, まひこうげき@先制")
    assert [(u.skill, u.timing) for u in sk] == [(Skill.KAEN_NO_IKI, Timing.POST), (Skill.ZARAKI, Timing.POST),
                                                 (Skill.MAHI, Timing.PRE)]
    assert parse_skills("") == ()
    with pytest.raises(ValueError):
        parse_skill("はげしいほのお@pre")  # only [攻撃終了後]
    with pytest.raises(ValueError):
        parse_skill("メラゾーマ")
    with pytest.raises(ValueError):
        parse_skills("ホイミ, ホイミ")
    with pytest.raises(ValueError):
        Monster("x", 1, 0)
    assert len(BESTIARY) >= 10
    keywords = {u.skill for m in BESTIARY.values() for u in m.skills}
    assert keywords == set(Skill)  # the illustrative bestiary uses every keyword


# ---------------------------------------------------------------------------
# Dice skills, resolved with fixed dice (the rulebook's 例1/例2)
# ---------------------------------------------------------------------------


class FixedDice:
    """Stand-in generator: ``integers`` returns the given dice in turn; ``random`` is 0.5."""

    def __init__(self, dice: list[int]):
        self.dice = list(dice)

    def integers(self, lo, hi=None, size=None):  # type: ignore[no-untyped-def]
        d = self.dice.pop(0)
        return np.full(size, d, dtype=np.int64) if size is not None else d

    def random(self, size=None):  # type: ignore[no-untyped-def]
        return np.full(size, 0.5) if size is not None else 0.5


def _state_with(hands: list[list[int]], stock: list[int] | None = None) -> _State:
    cfg = BattleConfig(len(hands), hand_size=0)
    st = _State(1, cfg, np.random.default_rng(0))
    for p, h in enumerate(hands):
        for c in h:
            st.hands[0, p, c - 1] += 1
    for k in stock or []:
        st.stock[0, st.slen[0]] = k
        st.slen[0] += 1
    return st


def _hands(st: _State) -> list[list[int]]:
    return [[v + 1 for v in range(5) for _ in range(st.hands[0, p, v])] for p in range(st.hands.shape[1])]


def _run_skill(skill: Skill, dice: list[int], hands: list[list[int]], pre: bool = True, stock: list[int] | None = None):
    st = _state_with(hands, stock)
    now = {"poison": np.zeros(1, np.int64), "para": np.full(1, -1), "sleep": np.full(1, -1),
           "zaraki": np.zeros(1, np.int64), "tsukon": np.zeros(1, np.int64), "mahoton": np.zeros(1, bool)}
    tod: list = []
    _apply_skill(st, skill, pre, np.array([0]), now, np.array([0]), FixedDice(dice), tod)  # type: ignore[arg-type]
    discarded = sorted(int(v) for _, vals in tod for v in vals)
    return st, now, discarded


def test_ionazun_examples() -> None:
    # 例1: 1 and 2 -> everyone discards a 3; a player without a 3 discards any 2 (we take the lowest)
    st, _, disc = _run_skill(Skill.IONAZUN, [1, 2], [[3, 5], [1, 4, 5], [3, 3]])
    assert _hands(st) == [[5], [5], [3]] and disc == [1, 3, 3, 4]
    # 例2: 3 and 4 -> 7: no card 7, nothing discarded
    st, _, disc = _run_skill(Skill.IONAZUN, [3, 4], [[3, 5], [1, 4, 5]])
    assert disc == [] and _hands(st) == [[3, 5], [1, 4, 5]]
    # a 6 (sum >= 6) never makes anyone discard
    st, _, disc = _run_skill(Skill.IONAZUN, [1, 5], [[1], [2]])
    assert disc == []


def test_begirama_gira_examples() -> None:
    st, _, disc = _run_skill(Skill.BEGIRAMA, [1], [[2, 5], [4], []])
    assert _hands(st) == [[5], [], []] and disc == [2, 4]
    st, _, disc = _run_skill(Skill.BEGIRAMA, [3], [[2, 5], [4]])
    assert disc == []
    st, _, disc = _run_skill(Skill.GIRA, [1], [[2, 5], [4]])
    assert _hands(st) == [[5], [4]]
    st, _, disc = _run_skill(Skill.GIRA, [3], [[2, 5], [4]])
    assert disc == []


def test_modifier_skills_pre_and_post() -> None:
    _, now, _ = _run_skill(Skill.DOKU, [1], [[1]])
    assert now["poison"][0] == 1  # 【先制】: this attack
    st, now, _ = _run_skill(Skill.DOKU, [6], [[1]], pre=False)
    assert st.p_poison[0] == 0 and now["poison"][0] == 0  # 6: no change next turn
    st, now, _ = _run_skill(Skill.MAHI, [2], [[1], [2], [3]], pre=False)
    assert st.p_para[0] == 1 and now["para"][0] == -1  # [攻撃終了後]: next attack, 2nd player
    _, now, _ = _run_skill(Skill.RARIHO, [6], [[1]] * 5)
    assert now["sleep"][0] == -1  # no 6th player
    _, now, _ = _run_skill(Skill.ZARAKI, [1], [[1]])
    assert now["zaraki"][0] == 1
    _, now, _ = _run_skill(Skill.MAHOTON, [2], [[1]])
    assert not now["mahoton"][0]
    st, now, _ = _run_skill(Skill.MAHOTON, [3], [[1]], pre=False)
    assert st.p_mahoton[0]
    _, now, _ = _run_skill(Skill.TSUKON, [6], [[1]])
    assert now["tsukon"][0] == 0


def test_fushigi_odori_examples() -> None:
    mg, gg = int(Strategy.MINNA_GANBARE), int(Strategy.GANGAN_IKOUZE)
    st, _, _ = _run_skill(Skill.FUSHIGI_ODORI, [1], [[1]], stock=[mg, gg])
    assert st.slen[0] == 1 and st.stock[0, 0] == gg and st.sdeck[0, mg] == 3  # 「みんな～」 back to the deck
    st, _, _ = _run_skill(Skill.FUSHIGI_ODORI, [3], [[1]], stock=[mg, gg])
    assert st.slen[0] == 2 and st.sdeck[0].sum() == 10  # only two stocked: nothing happens


def test_shuchu_and_heal_skills() -> None:
    st, _, disc = _run_skill(Skill.SHUCHU, [1], [[1, 2, 3], [1, 2, 3, 4], [4, 5], [1, 2]])
    assert disc == [4] and _hands(st)[2] == [5]
    # ベホイミ 「2D6を振って出した目の数、HPが回復する」: 回復 restores HP up to the starting maximum
    for cap, start, dice, want in ((True, 10, [3, 4], 17), (True, 15, [3, 4], 20), (True, 20, [6, 6], 20),
                                   (False, 15, [3, 4], 22)):
        st = _state_with([[1]])
        st.max_hp, st.heal_cap = 20, cap
        st.hp[0] = start
        tod: list = []
        now = {"poison": np.zeros(1, np.int64)}
        _apply_skill(st, Skill.BEHOIMI, False, np.array([0]), now, np.array([0]), FixedDice(dice), tod)  # type: ignore
        assert st.hp[0] == want, (cap, start, dice)
    st = _state_with([[1]])
    st.max_hp, st.heal_cap = 12, True
    st.hp[0] = 10
    _apply_skill(st, Skill.HOIMI, False, np.array([0]), {}, np.array([0]), FixedDice([5]), [])  # type: ignore
    assert st.hp[0] == 12  # ホイミ: 10 + 5 capped at 12
