"""Every report names the data a run read, and flags ILLUSTRATIVE data at the top of its Findings.

A data set is a ``file=True`` parameter's value (a built-in set or a designer's file). The label
(title, ILLUSTRATIVE flag, which part is invented) comes from the file itself: ``Param.describe``.
"""

from __future__ import annotations

import hashlib
import types
from pathlib import Path

import pytest

import gamesim
from gamesim.core.registry import DataLabel, all_games
from gamesim.report.findings import findings_markdown
from gamesim.report.present import data_set_lines, data_sets
from gamesim.run.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
BOARD = ROOT / "gamesim" / "games" / "kami_no_ikari" / "data" / "board_illustrative.toml"


def _file_params():
    for game in all_games().values():
        for task in game.tasks.values():
            for p in task.params:
                if p.file or p.describe is not None:
                    yield game.name, task.name, p


def test_every_data_parameter_describes_its_data():
    found = list(_file_params())
    assert {(g, p.name) for g, _, p in found} >= {("gacha_game", "data"), ("kami_no_ikari", "board"),
                                                   ("mech_arena", "weapons"), ("panzer_hexen", "data"),
                                                   ("dqz", "monster"), ("dqz", "monsters")}
    for game, task, p in found:
        assert p.describe is not None, (game, task, p.name)
        label = p.describe(p.default, {})
        assert isinstance(label, DataLabel) and label.title.strip(), (game, task, p.name)


def test_built_in_labels_say_what_the_files_say():
    import tomllib

    labels = {(g, p.name): p.describe(p.default, {}) for g, _, p in _file_params() if p.file}
    # the three built-in sets invented for the pictured cards / missing board say so in their own files
    for game, rel in (("gacha_game", "gacha_game/data/illustrative.toml"),
                      ("panzer_hexen", "panzer_hexen/data/illustrative.toml"),
                      ("kami_no_ikari", "kami_no_ikari/data/board_illustrative.toml")):
        raw = tomllib.loads((ROOT / "gamesim" / "games" / rel).read_text(encoding="utf-8"))
        label = next(v for (g, _), v in labels.items() if g == game)
        assert raw["illustrative"] is True and label.illustrative and label.title == raw["title"]
    # the board's invented lines are named from its own [[lines]] status
    raw = tomllib.loads(BOARD.read_text(encoding="utf-8"))
    invented = [f"{a}-{b}" for a, b in (ln["ends"] for ln in raw["lines"] if ln["status"] == "illustrative")]
    assert labels["kami_no_ikari", "board"].note.endswith(", ".join(invented))
    # mech_arena: the 2013 lists are the text's, but the weapons it names without defining are stand-ins
    weapons = tomllib.loads((ROOT / "gamesim/games/mech_arena/data/weapons_2013.toml").read_text(encoding="utf-8"))
    assumed = {w for m in weapons["mechs"].values() for w, d in m["weapons"].items() if d.get("assumed")}
    label = labels["mech_arena", "weapons"]
    assert assumed and label.illustrative and all(w in label.note for w in assumed)


@pytest.fixture()
def two_boards(tmp_path):
    """A kami_no_ikari scenario: one part on the built-in board, one on a designer's board file."""
    text = BOARD.read_text(encoding="utf-8")
    own = (text.replace('illustrative = true', 'illustrative = false')
           .replace('status = "illustrative"', 'status = "text"'))
    title = next(line for line in own.splitlines() if line.startswith("title = "))
    own = own.replace(title, 'title = "Reprint board <b>2015</b> <script>alert(1)</script>"')
    (tmp_path / "reprint.toml").write_text(own, encoding="utf-8")
    path = tmp_path / "boards.toml"
    path.write_text('game = "kami_no_ikari"\nseed = 3\nn_trials = 30\nchunk_size = 30\n'
                    '[[parts]]\nname = "builtin"\ntask = "game"\ngrid = { n_players = [2, 3] }\n'
                    '[[parts]]\nname = "reprint"\ntask = "game"\nparams = { board = "reprint.toml" }\n'
                    'grid = { n_players = [2, 3] }\n', encoding="utf-8")
    return path


def _results(path: Path, meta: dict | None = None):
    return types.SimpleNamespace(scenario=load_scenario(path), meta=meta or {})


def test_data_sets_name_each_set_once_with_the_parts_that_read_it(two_boards):
    uses = data_sets(_results(two_boards))
    assert [(u.param, u.values, u.parts, u.illustrative) for u in uses] == [
        ("board", ("illustrative",), ("builtin",), True), ("board", ("reprint.toml",), ("reprint",), False)]
    lines = data_set_lines(_results(two_boards))
    # the built-in board's title says ILLUSTRATIVE itself; the designer's board says nothing of it
    assert len(lines) == 2 and "*ILLUSTRATIVE board" in lines[0] and "ILLUSTRATIVE" not in lines[1]
    assert "<script>" not in lines[1] and "alert" not in lines[1] and "Reprint board" in lines[1]
    # the dropped tags leave no space inside the emphasis (`*... *` would print its asterisks)
    assert "*Reprint board <b>2015</b>*" in lines[1]
    warn = data_set_lines(_results(two_boards), illustrative_only=True)
    assert len(warn) == 1 and warn[0].startswith("**Partly ILLUSTRATIVE data:** `board = illustrative`")
    assert "\n" not in "".join(lines + warn)


def test_a_title_on_several_lines_stays_one_line(two_boards):
    own = two_boards.parent / "reprint.toml"
    text = own.read_text(encoding="utf-8")
    title = next(line for line in text.splitlines() if line.startswith("title = "))
    own.write_text(text.replace(title, 'title = """Reprint\n# not a heading\n\nboard"""'), encoding="utf-8")
    (line,) = [x for x in data_set_lines(_results(two_boards)) if "reprint.toml" in x]
    assert "\n" not in line and "*Reprint # not a heading board*" in line


def test_a_file_changed_or_gone_since_the_run_is_said(two_boards):
    own = two_boards.parent / "reprint.toml"
    sc = load_scenario(two_boards)
    (recorded,) = [d for d in sc.data_files]
    meta = {"data_files": [{"key": recorded.key, "path": str(recorded.path), "sha256": recorded.sha256}]}
    assert recorded.sha256 == hashlib.sha256(own.read_bytes()).hexdigest()
    res = types.SimpleNamespace(scenario=sc, meta=meta)
    assert data_sets(res)[1].note == ""
    own.write_text(own.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert "changed since this run" in data_sets(res)[1].note
    own.unlink()
    gone = data_sets(res)[1]
    assert gone.title == "" and not gone.illustrative and gone.note.startswith("could not be read now:")


def test_findings_open_with_the_illustrative_data_and_the_rules_list_every_set(two_boards):
    res = gamesim.sweep(two_boards, progress=False, cache_root=two_boards.parent / "chunks")
    text = findings_markdown(res)
    first_part = text.index("**builtin**")
    assert text.index("ILLUSTRATIVE data:** `board = illustrative` (part `builtin`)") < first_part
    assert "reprint.toml" not in text  # a designer's real board is no warning


def test_panzer_study_findings_claim_invented_cards_only_for_an_illustrative_file():
    import pandas as pd

    from gamesim.core.validate import ParamTypeError
    from gamesim.games.panzer_hexen.study import findings

    res = pd.DataFrame(columns=["part", "metric", "statistic", "estimate", "ci_low", "ci_high"])
    assert findings(res)[0].startswith("**ILLUSTRATIVE card data**")
    assert not any("ILLUSTRATIVE" in line for line in findings(res, illustrative=False))
    with pytest.raises(ParamTypeError, match="illustrative"):
        findings(res, illustrative=1)


@pytest.mark.parametrize("game,loader", [("gacha_game", "load_data"), ("panzer_hexen", "load_cards")])
def test_a_card_file_title_must_be_one_line_of_text(tmp_path, game, loader):
    import importlib

    data = importlib.import_module(f"gamesim.games.{game}.data")
    text = (ROOT / "gamesim" / "games" / game / "data" / "illustrative.toml").read_text(encoding="utf-8")
    title = next(line for line in text.splitlines() if line.startswith("title = "))
    for bad in ("title = 3", 'title = """two\nlines"""'):
        path = tmp_path / f"{game}.toml"
        path.write_text(text.replace(title, bad), encoding="utf-8")
        with pytest.raises(data.DataError, match=r"title = .*must be one line of text"):
            getattr(data, loader)(path)
    assert getattr(data, loader)().title == title.split(" = ", 1)[1].strip('"')


def test_bestiary_monsters_are_illustrative_unless_the_scenario_gives_their_values(tmp_path):
    from gamesim.games.dqz.bestiary import BESTIARY

    path = tmp_path / "dqz.toml"
    names = list(BESTIARY)[:3]
    path.write_text('game = "dqz"\nn_trials = 10\n'
                    f'[[parts]]\nname = "named"\ntask = "battle"\ngrid = {{ monster = {names!r} }}\n'.replace("'", '"')
                    + '[[parts]]\nname = "own"\ntask = "battle"\n'
                    'cases = [{ name = "custom", monster = "custom", hp = 30, level = 2, skills = "" },\n'
                    f'  {{ name = "all given", monster = "{names[0]}", hp = 30, level = 2, skills = "" }},\n'
                    f'  {{ name = "hp given", monster = "{names[1]}", hp = 30 }}]\n'
                    '[[parts]]\nname = "runs"\ntask = "run"\n', encoding="utf-8")
    uses = data_sets(_results(path))
    # the three swept names share one label and one line; "custom" and an entry with all three values
    # given name no invented data; an entry with only hp given stays partly invented
    assert [(u.param, u.values, u.parts, bool(u.note)) for u in uses] == [
        ("monster", tuple(names), ("named",), False), ("monster", (names[1],), ("own",), True),
        ("monsters", ("スライム, ドラキー, ホイミスライム",), ("runs",), False)]
    assert all(u.illustrative for u in uses)
    warn = data_set_lines(_results(path), illustrative_only=True)
    assert warn[0].startswith("**ILLUSTRATIVE data:** `monster` = " + ", ".join(f"`{n}`" for n in names))
    assert warn[1].startswith("**Partly ILLUSTRATIVE data:**") and "level, skills stay invented" in warn[1]
    assert all('monster = "custom"' in w or "custom" in w for w in warn) and "point `monster`" not in "".join(warn)


def test_a_data_file_is_read_once_whatever_the_cells(two_boards, monkeypatch):
    import gamesim.games.kami_no_ikari.tasks as kami_tasks

    calls = []
    real = kami_tasks.load_board
    monkeypatch.setattr(kami_tasks, "load_board", lambda board: calls.append(board) or real(board))
    uses = data_sets(_results(two_boards))  # 2 cells per part, one file per part
    assert len(uses) == 2 and sorted(Path(c).name for c in calls) == ["illustrative", "reprint.toml"]
