"""ガッチャ ~God Chance~ as a whole game: rule readings on constructed positions (boss, last dance, chips, round effects)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from gamesim.core.registry import ParamError
from gamesim.games.gacha_game import (
    DataError,
    last_dance_chances,
    load_data,
    make_config,
    reference_games,
    simulate_games,
)
from gamesim.games.gacha_game.data import DATA_DIR
from gamesim.games.gacha_game.sim import SOURCES
from tests.conftest import assert_same_mean, quick_and_slow
from tests.games.gacha_game.helpers import _check_invariants, _deterministic_data, _write

ILLU = DATA_DIR / "illustrative.toml"


@pytest.fixture(scope="module")
def data():
    return load_data()


def _constructed(action=None, boss_health=None, bag=(0, 5, 45), bosses=None, navi=None, event=None, boss_round=None,
                 event_kinds=None, **patch):
    """The deterministic data set with every action card's both sides ``action`` (default 👑1),
    every boss's health ``boss_health`` (if given), boss effects ``bosses`` ({name: effect})
    fields ``navi`` / ``event`` added to every navi / event card, and top-level fields ``patch``."""
    import tomllib

    from gamesim.games.gacha_game.data import parse_data

    raw = tomllib.loads(ILLU.read_text(encoding="utf-8"))
    raw["bag"] = list(bag)
    for a in raw["action"]:
        a["top"] = dict(action or {"money": 1})
        a["bottom"] = dict(action or {"money": 1})
    for e in raw["event"]:
        e.pop("effect", None)
        e.pop("bag", None)
    for b in raw["boss"]:
        b["effect"] = dict((bosses or {}).get(b["name"], {}))
        b.pop("round", None)
        if b["name"] in (boss_round or {}):
            b["round"] = boss_round[b["name"]]
        if boss_health is not None:
            b["health"] = boss_health
    for n in raw["navi"]:
        n["weekday"], n["overdrive"] = {}, {}
        n.pop("on_sr", None), n.pop("on_n", None), n.pop("overdrive_round", None)
        n.update(navi or {})
    for e in raw["event"]:
        e.pop("on_sr", None), e.pop("on_n", None), e.pop("round", None)
        if event_kinds is None or e["kind"] in event_kinds:
            e.update(event or {})
    raw.update(patch)
    return parse_data(raw, "constructed.toml")


def test_boss_refill_reading_on_a_constructed_position():
    """Every card attacks (💥1), every boss has health 1, no card shows 🐱. Read literally
    (boss_refill = false) only the boss revealed at set-up is ever captured; refilling the area
    after each capture captures the whole deck (12 shuffled + ウングリュック at the bottom)."""
    gd = _constructed(action={"attack": 1}, boss_health=1)
    for refill, bosses in ((False, 1), (True, 13)):
        cfg = make_config(data=gd, boss_refill=refill)
        for r in (simulate_games(cfg, 200, rng=np.random.default_rng()),
                  reference_games(cfg, 20, rng=np.random.default_rng())):
            assert (r["bosses"] == bosses).all(), refill


def test_last_dance_zero_first_reading_on_a_constructed_position():
    """Nobody moves on the quest or rate track and nobody captures a boss: read literally, the
    ties at 0 make everybody first three times (3 God Chances each); when a first place needs
    more than 0, nobody gets a ラストダンス God Chance and every game ends in an all-way tie."""
    assert last_dance_chances([0, 0, 0], [0, 0, 0], [0, 0, 0], zero_first=False) == [0, 0, 0]
    assert last_dance_chances([2, 0, 2], [0, 0, 0], [0, 1, 0], zero_first=False) == [1, 1, 1]
    assert last_dance_chances([2, 0, 2], [0, 0, 0], [0, 1, 0]) == [2, 2, 2]
    gd = _deterministic_data()
    for zero_first, chances in ((True, 3), (False, 0)):
        cfg = make_config(n_players=3, data=gd, last_dance_zero_first=zero_first)
        for r in (simulate_games(cfg, 300, rng=np.random.default_rng()),
                  reference_games(cfg, 30, rng=np.random.default_rng())):
            assert (r["ld_god_chances"] == 3 * chances).all()
            if not zero_first:
                assert (r["ur"] == 0).all() and (r["win"] == 1 / 3).all()


@pytest.mark.parametrize("consolete", [True, False])
def test_last_dance_consolete_reading_on_a_constructed_position(consolete):
    """Two slayers reach the ラストダンス holding 4 of the 5 UR cards, tied at 0 everywhere, so
    each has 3 God Chances and completes the set with p = 1 - (4/5)^3 = 61/125. Winning at once
    (the default): seat 1 goes first and wins alone with p; played out: seat 1 wins alone only
    if seat 2 does not complete, p (1 - p), and every other game is shared."""
    from gamesim.games.gacha_game.reference import _Game
    from gamesim.games.gacha_game.sim import _Batch

    cfg = make_config(n_players=2, data=_deterministic_data(), last_dance_consolete=consolete)
    p = Fraction(61, 125)
    alone = p if consolete else p * (1 - p)
    shared = (1 - p) ** 2 if consolete else p * p + (1 - p) ** 2
    n = 20000
    b = _Batch(cfg, n, np.random.default_rng())
    b.owned[:] = 0b01111
    b.end()
    rng = np.random.default_rng()
    ref = []
    for _ in range(2000):
        g = _Game(cfg, rng.random)
        g.owned = [[True] * 4 + [False] for _ in range(2)]
        g.end()
        ref.append(g.win)
    for win in (b.win, np.array(ref)):
        m = win.shape[0]
        for x, ex in (((win[:, 0] == 1.0), alone), (((win > 0).sum(axis=1) > 1), shared)):
            assert abs(x.mean() - float(ex)) <= 4.5 * math.sqrt(float(ex * (1 - ex)) / m)


@pytest.mark.parametrize("boss_use,first,second", [("round", 5 * 5, 5), ("once", 5 + 4, 5)])
def test_boss_use_reading_on_a_constructed_position(boss_use, first, second):
    """Seat 1 holds one boss card (🎰5) and every action card is 🎰1. Usable until the round
    ends, seat 1 plays it in all 5 turns (25 weekday pulls); spent when played, once (5 + 4).
    Either way it is face down in the next round (5 pulls)."""
    from gamesim.games.gacha_game.reference import _Game
    from gamesim.games.gacha_game.sim import _Batch

    gd = _constructed(action={"pulls": 1}, bosses={"スライム": {"pulls": 5}})
    cfg = make_config(n_players=4, data=gd, boss_use=boss_use)
    b_id = gd.boss_names.index("スライム")
    wk = SOURCES.index("weekday")
    b = _Batch(cfg, 50, np.random.default_rng())
    b.owner[:, b_id] = 0
    b.nboss.reshape(50, 4)[:, 0] = 1
    g = _Game(cfg, np.random.default_rng().random)
    g.owner[b_id] = 0
    for expect in (first, second):
        before, before_g = b.pulls[wk].copy(), g.pulls[wk]
        b.weekday()
        b.bosses_face_down()
        g.weekday()
        g.bosses_face_down()
        assert (b.pulls[wk] - before == expect + 3 * 5).all()
        assert g.pulls[wk] - before_g == expect + 3 * 5


@pytest.mark.parametrize("target", ["choose", "first"])
def test_boss_target_reading_on_a_constructed_position(target):
    """The area holds ゴーレム at health 6, then スライム at health 1; a boss_hunter (capture
    worth 6 pulls) attacks once. Choosing, it hits スライム (value 1 + 6 against 3.5 + 1) and
    captures it every time for 1 pull; hitting the first boss, it captures ゴーレム only on a 6."""
    from gamesim.games.gacha_game import attack_tables
    from gamesim.games.gacha_game.policies import target_values
    from gamesim.games.gacha_game.reference import _Game
    from gamesim.games.gacha_game.sim import _Batch

    gd = _constructed()
    cfg = make_config(n_players=2, policy="boss_hunter", data=gd, boss_target=target)
    a, b_ = gd.boss_names.index("ゴーレム"), gd.boss_names.index("スライム")
    e, p = attack_tables(12)
    tv = target_values("boss_hunter", e, p)
    assert tv[0, 1] == 7.0 and abs(tv[0, 6] - 4.5) < 1e-12
    n = 3000
    bt = _Batch(cfg, n, np.random.default_rng())
    bt.area[:] = -1
    bt.area[:, :2] = [a, b_]
    bt.area_len[:] = 2
    bt.ahealth[:] = 0
    bt.ahealth[:, :2] = [6, 1]
    bt._attack(np.arange(n), np.arange(n) * 2, 0, 0)
    games = []
    rng = np.random.default_rng()
    for _ in range(600):
        g = _Game(cfg, rng.random)
        g.area, g.ahealth = [a, b_], [6, 1]
        g.attack(0, 0, 0)
        games.append(g.owner)
    for owner in (bt.owner, np.array(games)):
        if target == "choose":
            assert (owner[:, b_] == 0).all() and (owner[:, a] == -1).all()
        else:
            assert (owner[:, b_] == -1).all()
            x = (owner[:, a] == 0).astype(float)
            assert abs(x.mean() - 1 / 6) <= 4.5 * math.sqrt(5 / 36 / x.size)


@pytest.mark.parametrize("card", ["navi", "event"])
@pytest.mark.parametrize("chip,per", [("sr", "pull"), ("sr", "session"), ("n", "pull"), ("n", "session")])
def test_chip_triggers_on_a_constructed_position(card, chip, per):
    """Every action card is 🎰2 and the bag holds only SR chips (or only N chips); a trigger
    👑1 on that chip gives 2 money a turn per pull, 1 per session: after the 5 weekday turns a
    slayer holds 1 + 10 or 1 + 5 money. The other chip's trigger never fires (1 + 0)."""
    from gamesim.games.gacha_game.reference import _Game
    from gamesim.games.gacha_game.sim import _Batch

    trig = {f"on_{chip}": {"per": per, "effect": {"money": 1}}}
    for bag, fires in (((0, 5, 0), chip == "sr"), ((0, 0, 5), chip == "n")):
        gd = _constructed(action={"pulls": 2}, bag=bag, **{card: trig})
        expect = 1 + ((10 if per == "pull" else 5) if fires else 0)
        cfg = make_config(n_players=3, data=gd)
        b = _Batch(cfg, 40, np.random.default_rng())
        b.weekday()
        g = _Game(cfg, np.random.default_rng().random)
        g.weekday()
        assert (b.money == expect).all() and g.money == [expect] * 3, (bag, b.money[:6], g.money)
        b = _Batch(make_config(n_players=3, data=gd, chip_triggers=False), 40, np.random.default_rng())
        b.weekday()
        assert (b.money == 1).all()
        if card == "navi":  # エキスパートモード: no navi cards, no navi triggers
            b = _Batch(make_config(n_players=3, data=gd, expert=True), 40, np.random.default_rng())
            b.weekday()
            assert (b.money == 1).all()


@pytest.mark.parametrize("where,text,match", [
    ("navi", 'on_ssr = { effect = { money = 1 } }', r'navi "みやび": on_ssr: unknown trigger'),
    ("navi", 'on_sr = { per = "turn", effect = { money = 1 } }', r'navi "みやび": on_sr\.per = \'turn\''),
    ("navi", 'on_sr = { per = "pull", effect = { monee = 1 } }', r'navi "みやび": on_sr\.effect\.monee: unknown icon'),
    ("navi", 'on_n = 3', r'navi "みやび": on_n = 3, must be a table'),
    ("event", 'on_gc = { effect = { money = 1 } }', r'event "CLIMAX: 大感謝祭": on_gc: unknown trigger'),
])
def test_invalid_trigger_is_a_one_line_error(tmp_path, where, text, match):
    src = ILLU.read_text(encoding="utf-8")
    anchor = {"navi": 'name = "みやび"\n', "event": 'name = "CLIMAX: 大感謝祭"\n'}[where]
    assert anchor in src
    with pytest.raises(DataError, match=match) as info:
        load_data(_write(tmp_path, src.replace(anchor, anchor + text + "\n", 1)))
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("n_players", [2, 3])
def test_event_round_effects_on_a_constructed_position(n_players):
    """The deterministic-card game (👑5 a round, nobody on the rate track) with every event
    card's round putting 課金 rates [1 money → 1 pull] and a Saturday table whose column 0 gives
    2 pulls to each of k tied leaders in force: 21 paid pulls a slayer (6 + 5 + 5 + 5) instead
    of 10, and 2 Saturday pulls a slayer a round instead of 0."""
    sat = [[2, 2, 2, 2], [6, 4, 3, 2], [8, 6, 4, 3], [10, 8, 6, 5]]
    gd = _constructed(event={"round": {"paid_rates": [[1, 1]], "saturday": sat}})
    cfg = make_config(n_players=n_players, data=gd)
    base = make_config(n_players=n_players, data=_deterministic_data())
    paid, satd = SOURCES.index("paid"), SOURCES.index("saturday")
    for c, pp, sp in ((cfg, 21, 8), (base, 10, 0)):
        for r in (simulate_games(c, 200, rng=np.random.default_rng()),
                  reference_games(c, 20, rng=np.random.default_rng())):
            assert (r["pulls"][:, paid] == pp * n_players).all()
            assert (r["pulls"][:, satd] == sp * n_players).all()


def test_boss_round_effects_on_a_constructed_position():
    """Seat 1 holds a boss card (🎰5) whose round effect puts rates [1 → 1] and the bag
    [0, 0, 7] in force: after the weekday the game's rates and bag are those; the next event
    (no round effect) puts the defaults back."""
    from gamesim.games.gacha_game.reference import _Game
    from gamesim.games.gacha_game.sim import _Batch

    gd = _constructed(action={"pulls": 1}, bosses={"スライム": {"pulls": 5}})
    gd2 = _constructed(action={"pulls": 1}, bosses={"スライム": {"pulls": 5}},
                       boss_round={"スライム": {"paid_rates": [[1, 1]], "bag": [0, 0, 7]}})
    for data, rid, bag in ((gd, 0, [0, 5, 45]), (gd2, 1, [0, 0, 7])):
        cfg = make_config(n_players=4, data=data)
        b_id = data.boss_names.index("スライム")
        b = _Batch(cfg, 30, np.random.default_rng())
        b.owner[:, b_id] = 0
        b.nboss.reshape(30, 4)[:, 0] = 1
        b.weekday()
        assert (b.rid == rid).all() and (b.cfg_gc == bag[0]).all() and (b.cfg_ot == bag[1] + bag[2]).all()
        assert (b.gcb + b.otb <= sum(bag)).all()
        g = _Game(cfg, np.random.default_rng().random)
        g.owner[b_id] = 0
        g.weekday()
        assert g.rid == rid and g.bag_cfg == bag and sum(g.inbag) <= sum(bag)
        ev = int(data.events_of("weekly")[0])
        b.event(np.full(30, ev))
        g.event(ev)
        assert (b.rid == 0).all() and (b.cfg_ot == 50).all() and g.rid == 0 and g.bag_cfg == [0, 5, 45]


@pytest.mark.parametrize("where,text,match", [
    ("event", 'round = { rates = [[1, 1]] }', r'event "CLIMAX: 大感謝祭": round\.rates: unknown table'),
    ("boss", 'round = { saturdays = [] }', r'boss "スライム": round\.saturdays: unknown table'),
    ("boss", 'round = { saturday = [[1, 2, 3, 4]] }', r'boss "スライム": round\.saturday: 1 rows, must be 4'),
    ("event", 'round = { paid_rates = [[0, 1]] }', r'event "CLIMAX: 大感謝祭": round\.paid_rates\[0\]\[0\] = 0'),
])
def test_invalid_round_effect_is_a_one_line_error(tmp_path, where, text, match):
    src = ILLU.read_text(encoding="utf-8")
    anchor = {"boss": 'name = "スライム"\n', "event": 'name = "CLIMAX: 大感謝祭"\n'}[where]
    assert anchor in src
    with pytest.raises(DataError, match=match) as info:
        load_data(_write(tmp_path, src.replace(anchor, anchor + text + "\n", 1)))
    assert "\n" not in str(info.value)


def _rounds_played(b, g, events):
    """Play the 4 rounds of a _Batch ``b`` and a reference _Game ``g`` phase by phase; the paid
    pulls (all slayers) of each round, per game of ``b`` and for ``g``."""
    from gamesim.games.gacha_game.sim import N_ROUNDS

    paid = SOURCES.index("paid")
    out_b, out_g = [], []
    for r in range(N_ROUNDS):
        b.round = g.round = r
        before_b, before_g = b.pulls[paid].copy(), g.pulls[paid]
        b.event(np.full(b.G, events[r]))
        g.event(events[r])
        b.weekday(), g.weekday()
        b.bosses_face_down(), g.bosses_face_down()
        b.saturday(), g.saturday()
        b.sunday(), g.sunday()
        out_b.append(b.pulls[paid] - before_b)
        out_g.append(g.pulls[paid] - before_g)
    return np.stack(out_b, axis=1), out_g


@pytest.mark.parametrize("round_effects", [True, False])
def test_event_round_effect_lasts_its_round_and_reverts(round_effects):
    """The deterministic-card game (👑5 a round, 👑1 to start) where only the WEEKLY cards
    (rounds 2 and 3) put 課金 rates [1 money → 1 pull] in force. Per slayer and round, paid
    pulls are 3 (6 money at the default rates: 2 → 1), 5, 5 (the sale: 5 money → 5 pulls), then
    2 in round 4 (the defaults again: 5 money → 2 pulls, 1 left). With round_effects = false:
    3, 2, 3, 2 (the defaults throughout)."""
    from gamesim.games.gacha_game.reference import _Game
    from gamesim.games.gacha_game.sim import _Batch

    P = 3
    gd = _constructed(event={"round": {"paid_rates": [[1, 1]]}}, event_kinds=("weekly",))
    cfg = make_config(n_players=P, data=gd, round_effects=round_effects)
    ev = [int(gd.events_of("start_dash")[0]), *gd.events_of("weekly")[:2].tolist(), int(gd.events_of("climax")[0])]
    per_round = [3, 5, 5, 2] if round_effects else [3, 2, 3, 2]
    b = _Batch(cfg, 50, np.random.default_rng())
    g = _Game(cfg, np.random.default_rng().random)
    pb, pg = _rounds_played(b, g, ev)
    assert (pb == np.array(per_round) * P).all(), pb[:3]
    assert pg == [x * P for x in per_round]
    assert (b.rid == 0).all() and g.rid == 0


@pytest.mark.parametrize("expert", [False, True])
def test_navi_overdrive_round_on_a_constructed_position(expert):
    """Every navi card's overdrive_round puts 課金 rates [1 → 1] and the bag [0, 0, 7] in force.
    Seat 1 pulls once from a bag holding only a God Chance chip: one God Chance, and the round
    tables change exactly in the games where the UR card drawn is seat 1's navi character (the
    Overdrive fires), never in エキスパートモード; the next event puts the defaults back."""
    from gamesim.games.gacha_game.reference import _Game
    from gamesim.games.gacha_game.sim import _Batch, _WEEKDAY

    gd = _constructed(bag=(1, 0, 0), navi={"overdrive_round": {"paid_rates": [[1, 1]], "bag": [0, 0, 7]}})
    cfg = make_config(n_players=2, data=gd, expert=expert)
    n = 400
    b = _Batch(cfg, n, np.random.default_rng())
    b._make_bag(np.arange(n))
    b._session(np.arange(n), np.arange(n) * 2, np.ones(n, np.int64), _WEEKDAY)
    fired = np.zeros(n, bool) if expert else ((b.owned[::2] >> b.navi_char[::2]) & 1).astype(bool)
    assert (b.god_chances == 1).all()
    assert (b.rid == np.where(fired, 1, 0)).all()
    assert (b.cfg_gc == np.where(fired, 0, 1)).all() and (b.cfg_ot == np.where(fired, 7, 0)).all()
    assert (b.gcb + b.otb == np.where(fired, 7, 1)).all()  # remade at once with the new chips
    if not expert:
        assert 0 < fired.sum() < n
    seen = set()
    for _ in range(200):
        g = _Game(cfg, np.random.default_rng().random)
        g.make_bag()
        g.session(0, 1, "weekday")
        hit = not expert and g.owned[0][int(gd.navi_character[g.navi[0]])]
        seen.add(hit)
        assert (g.rid, g.bag_cfg, sum(g.inbag)) == ((1, [0, 0, 7], 7) if hit else (0, [1, 0, 0], 1))
    assert seen == ({False} if expert else {True, False})
    ev = int(gd.events_of("weekly")[0])
    b.round = 1
    b.event(np.full(n, ev))
    assert (b.rid == 0).all() and (b.cfg_gc == 1).all() and (b.cfg_ot == 0).all()
    b2 = _Batch(make_config(n_players=2, data=gd, expert=expert, round_effects=False), n, np.random.default_rng())
    b2._make_bag(np.arange(n))
    b2._session(np.arange(n), np.arange(n) * 2, np.ones(n, np.int64), _WEEKDAY)
    assert (b2.rid == 0).all() and (b2.cfg_gc == 1).all()


def _round_heavy_data():
    """The illustrative set with a round-scoped effect on every WEEKLY card, on every navi
    card's Overdrive and on several bosses (rates, Saturday tables and bags), so that the
    simulator and the reference meet them in most games."""
    import tomllib

    from gamesim.games.gacha_game.data import parse_data

    raw = tomllib.loads(ILLU.read_text(encoding="utf-8"))
    sat = [[1, 1, 1, 1], [9, 6, 4, 3], [12, 9, 6, 4], [15, 12, 9, 7]]
    rounds = [{"paid_rates": [[1, 1], [10, 13]]}, {"saturday": sat}, {"bag": [2, 4, 30]},
              {"paid_rates": [[3, 2]], "bag": [1, 3, 20]}]
    for i, e in enumerate(x for x in raw["event"] if x["kind"] == "weekly"):
        if "bag" not in e:
            e["round"] = rounds[i % 3]
    for i, n in enumerate(raw["navi"]):
        n["overdrive_round"] = rounds[(i + 1) % 4]
    for i, b in enumerate(raw["boss"]):
        b["round"] = rounds[i % 4]
    return parse_data(raw, "round_heavy.toml")


@pytest.mark.parametrize("kw", quick_and_slow([
    dict(n_players=4),
    dict(n_players=3, policy="paid_plan", policy_seat1="lookahead", doubtful=True),
    dict(n_players=2, policy="boss_hunter", policy_seat1="money_then_paid", boss_use="once"),
], quick=(2,)))
def test_simulator_agrees_with_reference_on_round_effects(kw):
    cfg = make_config(data=_round_heavy_data(), **kw)
    s = simulate_games(cfg, 6000, rng=np.random.default_rng())
    r = reference_games(cfg, 1500, rng=np.random.default_rng())
    _check_invariants(s, cfg)
    _check_invariants(r, cfg)
    label = f"round-heavy {kw}"
    assert_same_mean(s["consolete_round"] > 0, r["consolete_round"] > 0, label=label + " consolete")
    assert_same_mean(s["ur"].sum(1), r["ur"].sum(1), label=label + " ur")
    assert_same_mean(s["win"][:, 0], r["win"][:, 0], label=label + " win seat 1")
    assert_same_mean(s["god_chances"], r["god_chances"], label=label + " god chances")
    assert_same_mean(s["bosses"], r["bosses"], label=label + " bosses")
    for k, src in enumerate(SOURCES):
        assert_same_mean(s["pulls"][:, k], r["pulls"][:, k], label=f"{label} pulls_{src}")
        assert_same_mean(s["gc_by_source"][:, k], r["gc_by_source"][:, k], label=f"{label} God Chance chips {src}")


@pytest.mark.parametrize("text,match", [
    ('overdrive_round = { rates = [[1, 1]] }', r'navi "みやび": overdrive_round\.rates: unknown table'),
    ('overdrive_round = { saturday = [[1, 2, 3, 4]] }', r'navi "みやび": overdrive_round\.saturday: 1 rows, must be 4'),
    ('overdrive_round = { bag = [1, 2] }', r'navi "みやび": overdrive_round\.bag = \[1, 2\], must be'),
    ('round = { bag = [1, 5, 44] }', r'navi "みやび": round: a navi card\'s round-scoped effect is overdrive_round'),
    ('overdrive_round = 3', r'navi "みやび": overdrive_round = 3, must be a table'),
])
def test_invalid_navi_round_effect_is_a_one_line_error(tmp_path, text, match):
    src = ILLU.read_text(encoding="utf-8")
    anchor = 'name = "みやび"\n'
    with pytest.raises(DataError, match=match) as info:
        load_data(_write(tmp_path, src.replace(anchor, anchor + text + "\n", 1)))
    assert "\n" not in str(info.value)


def test_round_effects_switch_and_doubtful_bound():
    """round_effects = false drops the boss and navi round tables and the events' rate and
    Saturday tables, keeps the events' bags; doubtful_k is bounded by the smallest bag any card
    can put in force."""
    d = load_data()
    off = make_config(round_effects=False).data
    assert d.has_boss_round and d.has_navi_round and (d.event_round > 0).any()
    assert not off.has_boss_round and not off.has_navi_round and (off.event_round == 0).all()
    np.testing.assert_array_equal(off.event_bag, d.event_bag)
    gd = _constructed(boss_round={"スライム": {"bag": [1, 1, 3]}})
    with pytest.raises(ParamError, match="doubtful_k"):
        make_config(data=gd, doubtful=True, doubtful_k=[5])
    make_config(data=gd, doubtful=True, doubtful_k=[4])
    with pytest.raises(TypeError, match="round_effects"):
        make_config(round_effects=1)
