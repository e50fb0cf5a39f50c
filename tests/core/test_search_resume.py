"""A target search saves its chunks as they complete (``cache_root``): interrupted, it resumes to the same answer."""

from __future__ import annotations

import pytest

import gamesim.run.sweep as sweep_module
from gamesim.core.search import search


def _scenario(game: str) -> dict:
    return {"name": "resume_check", "game": game, "seed": 21, "n_trials": 100, "chunk_size": 100,
            "parts": [{"name": "b", "task": "draw"}],
            "target": {"params": {"p": {"min": 0.30, "max": 0.60, "step": 0.02}}, "n_start": 100,
                       "max_trials": 1600, "constraints": [{"metric": "hit", "low": 0.44, "high": 0.5}]}}


def test_an_interrupted_search_resumes_to_the_same_answer(bernoulli_oracle, tmp_path, monkeypatch):
    whole = search(_scenario(bernoulli_oracle))  # nothing saved: the reference
    real, calls = sweep_module.run_chunk, {"n": 0}

    def interrupted(*a, **kw):  # Ctrl-C after 25 chunks
        calls["n"] += 1
        if calls["n"] > 25:
            raise KeyboardInterrupt
        return real(*a, **kw)

    monkeypatch.setattr(sweep_module, "run_chunk", interrupted)
    with pytest.raises(KeyboardInterrupt):
        search(_scenario(bernoulli_oracle), cache_root=tmp_path)
    monkeypatch.setattr(sweep_module, "run_chunk", real)
    resumed = search(_scenario(bernoulli_oracle), cache_root=tmp_path)
    assert resumed.chunks_reused == 25
    assert resumed.settings.equals(whole.settings) and resumed.recommended == whole.recommended
    assert resumed.trials_used == whole.trials_used

    again = search(_scenario(bernoulli_oracle), cache_root=tmp_path)  # every chunk saved now
    assert again.chunks_reused == whole.trials_used // 100 and again.settings.equals(whole.settings)
    assert search(_scenario(bernoulli_oracle), cache_root=tmp_path, fresh=True).chunks_reused == 0


def test_a_damaged_saved_chunk_is_recomputed(bernoulli_oracle, tmp_path, capsys):
    whole = search(_scenario(bernoulli_oracle), cache_root=tmp_path)
    (folder,) = [f for f in tmp_path.iterdir() if f.name.startswith("resume_check-search-")]
    victim = sorted(folder.glob("p0-c*-k0.parquet"))[0]
    victim.write_bytes(victim.read_bytes()[:100])  # truncated, as by a crash
    again = search(_scenario(bernoulli_oracle), cache_root=tmp_path)
    assert again.settings.equals(whole.settings)
    assert again.chunks_reused == whole.trials_used // 100 - 1
    assert f"{victim}: " in capsys.readouterr().err  # one line naming the file it recomputes


def test_saved_chunks_belong_to_one_search(bernoulli_oracle, tmp_path):
    """Another box, seed or crn gets its own folder: no chunk of another search is read."""
    search(_scenario(bernoulli_oracle), cache_root=tmp_path)
    other = _scenario(bernoulli_oracle)
    other["target"]["params"] = {"p": {"min": 0.30, "max": 0.62, "step": 0.02}}
    assert search(other, cache_root=tmp_path).chunks_reused == 0
    assert search(_scenario(bernoulli_oracle), cache_root=tmp_path, seed=22).chunks_reused == 0
    assert search(_scenario(bernoulli_oracle), cache_root=tmp_path, crn=False).chunks_reused == 0
    assert len([f for f in tmp_path.iterdir() if f.name.startswith("resume_check-search-")]) == 4


def test_cache_root_is_refused_with_rng(bernoulli_oracle, tmp_path):
    with pytest.raises(ValueError, match="cache_root needs a seed"):
        search(_scenario(bernoulli_oracle), cache_root=tmp_path, rng=5, seed=None)
    with pytest.raises(TypeError, match="fresh"):
        search(_scenario(bernoulli_oracle), fresh="yes")


def test_without_a_seed_the_saved_entropy_is_kept(bernoulli_oracle, tmp_path):
    """No seed anywhere: the first run draws entropy and saves it with its chunks; the next run uses it (as a
    sweep's manifest does), so it resumes the same search."""
    sc = _scenario(bernoulli_oracle)
    del sc["seed"]
    first = search(sc, cache_root=tmp_path)
    second = search(sc, cache_root=tmp_path)
    assert second.seed_entropy == first.seed_entropy and second.chunks_reused == first.trials_used // 100
    assert second.settings.equals(first.settings)
    assert search(sc).seed_entropy != first.seed_entropy  # nothing saved: fresh entropy each time
