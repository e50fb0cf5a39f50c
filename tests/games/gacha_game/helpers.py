"""Helpers shared by the ガッチャ ~God Chance~ whole-game tests: data files, invariants, deterministic cards."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from gamesim.games.gacha_game.data import DATA_DIR
from gamesim.games.gacha_game.sim import SOURCES

ILLU = DATA_DIR / "illustrative.toml"


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "cards.toml"
    p.write_text(text, encoding="utf-8")
    return p


def _check_invariants(r, cfg):
    n = r["win"].shape[0]
    np.testing.assert_allclose(r["win"].sum(axis=1), 1.0)
    assert ((r["ur"] >= 0) & (r["ur"] <= 5)).all()
    cons = r["consolete_round"] > 0
    assert ((r["consolete_round"] >= 0) & (r["consolete_round"] <= 4)).all()
    assert (r["last_dance"] == ~cons).all()
    winner = np.argmax(r["win"], axis=1)
    assert (r["ur"][np.arange(n), winner][cons] == 5).all()
    assert (r["win"][cons].max(axis=1) == 1.0).all()
    assert not r["ld_decides"][cons].any()
    # the winner of a last-dance game has the most UR cards
    assert (r["ur"][np.arange(n), winner] == r["ur"].max(axis=1)).all()
    assert (r["pulls"] >= 0).all() and (r["bosses"] <= 13).all()
    if cfg.expert:
        assert (r["navi"] == -1).all() and (r["pulls"][:, SOURCES.index("overdrive")] == 0).all()
    else:
        assert all(len(set(row)) == cfg.n_players for row in r["navi"].tolist())


def _deterministic_data():
    """Every action card 👑1 on both sides, no God Chance chip, no event/navi/boss effects."""
    from gamesim.games.gacha_game.data import parse_data
    import tomllib

    raw = tomllib.loads(ILLU.read_text(encoding="utf-8"))
    raw["bag"] = [0, 5, 45]
    for a in raw["action"]:
        a["top"] = {"money": 1}
        a["bottom"] = {"money": 1}
    for e in raw["event"]:
        for k in ("effect", "bag", "round", "on_sr", "on_n"):
            e.pop(k, None)
    for b in raw["boss"]:
        b["effect"] = {}
        b.pop("round", None)
    for n in raw["navi"]:
        n["weekday"], n["overdrive"] = {}, {}
        n.pop("on_sr", None), n.pop("on_n", None), n.pop("overdrive_round", None)
    return parse_data(raw, "deterministic.toml")
