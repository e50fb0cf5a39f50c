"""The registered task of 神の怒り: metrics as declared, the hero player, the built-in study loads, and
a scenario pointing at a bad board file fails in one line naming the file and the key."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gamesim.core.registry import get_game
from gamesim.core.scenario import ScenarioError, load_scenario

ROOT = Path(__file__).resolve().parents[3]
TASK = get_game("kami_no_ikari").tasks["game"]


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_task_returns_every_declared_metric(n_players: int) -> None:
    params = TASK.defaults(n_players=n_players, hero="chicken:4", policy="random")
    TASK.check(params)
    out = TASK.simulate(params, 60, rng=np.random.default_rng(n_players))
    names = [m.name for m in TASK.metrics_for(params)]
    assert sorted(out) == sorted(names)
    for m in TASK.metrics_for(params):
        v = np.asarray(out[m.name])
        assert v.shape == (60,), m.name
        if m.kind == "proportion":
            assert v.dtype == bool, m.name
    shares = sum(out[f"seat{i}_win_share"] for i in range(n_players))
    assert np.allclose(shares, 1.0)
    assert np.allclose(out["start_edge"], out["seat0_win_share"] - 1 / n_players)


def test_builtin_study_loads_and_bad_board_is_one_line(tmp_path: Path) -> None:
    sc = load_scenario(ROOT / "scenarios" / "kami_no_ikari.toml")
    assert {p.name for p in sc.parts} >= {"start_player", "mate_and_road", "lines", "skill"}
    board = tmp_path / "my_board.toml"
    board.write_text('[[lines]]\nends = [1, 2]\nlength = 3\n', encoding="utf-8")
    scen = tmp_path / "s.toml"
    scen.write_text(f'name = "s"\ngame = "kami_no_ikari"\nn_trials = 10\n[[parts]]\nname = "a"\ntask = "game"\n'
                    f'params = {{ board = "{board.as_posix()}" }}\n', encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_scenario(scen)
    msg = str(info.value)
    assert "\n" not in msg and "my_board.toml" in msg and "lines[0].length" in msg and "params.board" in msg
