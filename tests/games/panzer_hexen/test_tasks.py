"""Registration and the task of ぱんつぁーへくせん, and the card file's one-line errors."""

from __future__ import annotations

import tomllib

import numpy as np
import pytest

from gamesim.core.registry import ParamError, get_game
from gamesim.games.panzer_hexen.data import DATA_DIR, DataError, load_cards, parse_cards, without

RAW = (DATA_DIR / "illustrative.toml").read_text(encoding="utf-8")


def test_registered_and_open_procedures_flagged() -> None:
    g = get_game("panzer_hexen")
    assert set(g.tasks) == {"game"} and g.rules_doc == "docs/rules/panzer_hexen.md"
    docs = {p.name: p.doc for p in g.tasks["game"].params}
    for k in ("start_voice", "start_charge", "counter_gain", "decks", "collision", "comms_option", "team_score"):
        assert docs[k].startswith("OPEN"), k
    assert "ILLUSTRATIVE" in docs["data"]


@pytest.mark.parametrize("over", [{}, {"n_players": 4, "teams": True, "policy": "random"},
                                  {"remove": "P02", "seat0_witch": "W03", "collision": "first_only"}])
def test_task_runs_with_every_metric(over: dict) -> None:
    t = get_game("panzer_hexen").tasks["game"]
    params = t.defaults(**over)
    t.check(params)
    out = t.simulate(params, 30, rng=np.random.default_rng())
    assert {m.name for m in t.metrics_for(params)} == set(out)
    assert all(v.shape == (30,) for v in out.values())
    shares = sum(out[f"share_{a}"] for a in ("policy", "rest", "sortie", "training", "meeting", "comms"))
    np.testing.assert_allclose(shares, 1.0)
    win = sum(out[f"winner_share_{a}"] for a in ("policy", "rest", "sortie", "training", "meeting", "comms"))
    np.testing.assert_allclose(win, 1.0)


def test_checks_name_the_parameter(tmp_path) -> None:  # type: ignore[no-untyped-def]
    t = get_game("panzer_hexen").tasks["game"]
    for over, key in (({"seat0_witch": "nobody"}, "seat0_witch"), ({"remove": "X99"}, "remove"),
                      ({"teams": True}, "teams"), ({"data": "/no/such.toml"}, "data")):
        with pytest.raises(ParamError) as info:
            t.check(t.defaults(**over))
        assert info.value.key == key
    bad = tmp_path / "c.toml"
    bad.write_text(RAW.replace('name = "N07"\n', 'name = "N07"\nhp = 3\n'), encoding="utf-8")
    with pytest.raises(ParamError) as info:
        t.check(t.defaults(data=str(bad)))
    assert info.value.key == "data" and 'neuroi "N07"' in str(info.value) and "'hp'" in str(info.value)


@pytest.mark.parametrize("old, new, needle", [
    ('name = "P03"\ncost = 6\nvp = 4\neffect = "meeting_plus"', 'name = "P03"\ncost = 6\nvp = 4\neffect = "fly"',
     'policies "P03": effect = \'fly\', unknown effect'),
    ('name = "W02"\npriority = 10', 'name = "W02"\npriority = 11', 'witches "W02": priority = 11 used twice'),
    ('name = "W01"\npriority = 11\nattack = 3', 'name = "W01"\npriority = 11\nattack = 3.0',
     'witches "W01": attack = 3.0'),
    ('name = "G01"\ncost = 2', 'name = "G01"\ncost = -1', 'guns "G01": cost = -1'),
    ('name = "S01"\ncost = 2\n', 'name = "S01"\n', 'strikers "S01": missing field \'cost\''),
    ('name = "W04"\npriority = 8\nattack = 4\ndefence = 1\nrange = 1\nability = "none"',
     'name = "W04"\npriority = 8\nattack = 4\ndefence = 1\nrange = 1\nability = "laser"', 'ability = \'laser\''),
])
def test_card_file_errors_are_one_line_naming_card_and_field(old: str, new: str, needle: str) -> None:
    assert old in RAW
    with pytest.raises(DataError) as info:
        parse_cards(tomllib.loads(RAW.replace(old, new)), source="x.toml")
    msg = str(info.value)
    assert "\n" not in msg and msg.startswith("x.toml") and needle in msg, msg


def test_builtin_set_is_labelled_illustrative_and_complete() -> None:
    c = load_cards()
    assert c.illustrative and "ILLUSTRATIVE" in RAW
    assert (len(c.witches), len(c.neuroi), len(c.equipment), len(c.policies)) == (11, 30, 24, 24)
    assert len(without(c, "N01").neuroi) == 29 and len(without(c, "S01").equipment) == 23
    with pytest.raises(DataError):
        without(c, "W01")
