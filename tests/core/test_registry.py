"""Every registered game keeps the task contract the sweep engine relies on."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from gamesim.core.registry import ParamError, all_games, builtin_game_packages, get_game
from gamesim.core.scenario import check_param_value


def _all_tasks():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        games = all_games()
    return [(g.name, t.name) for g in games.values() for t in g.tasks.values()]


def test_every_game_package_imports_and_registers():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a package that fails to import warns: fail here
        games = all_games()
    assert set(builtin_game_packages()) <= set(games)
    for g in games.values():
        assert g.tasks and g.title and g.seed_file and g.rules_doc


def test_unknown_game():
    with pytest.raises(KeyError, match="known games"):
        get_game("no_such_game")


@pytest.mark.parametrize("game,task", _all_tasks())
def test_task_contract(game, task):
    t = get_game(game).tasks[task]
    params = {}
    for p in t.params:
        assert p.doc, f"{game}.{task}.{p.name} has no doc"
        params[p.name] = check_param_value(p, p.default) if p.default is not None or not p.optional else None
    if t.check is not None:
        t.check(params)
    metrics = t.metrics_for(params)
    assert metrics and len({m.name for m in metrics}) == len(metrics)
    n = 40
    a = t.simulate(dict(params), n, rng=np.random.default_rng(2024))
    b = t.simulate(dict(params), n, rng=np.random.default_rng(2024))
    for m in metrics:
        assert m.name in a, f"{game}.{task} does not return metric {m.name}"
        x = np.asarray(a[m.name])
        assert x.shape == (n,), (m.name, x.shape)
        if m.kind == "proportion":
            assert x.dtype == bool or set(np.unique(x)) <= {0, 1}, m.name
        np.testing.assert_array_equal(x, np.asarray(b[m.name]), err_msg=f"{m.name} not reproducible")
    if t.exact is not None:
        names = {m.name for m in metrics}
        for key, value in t.exact(params).items():
            metric, _, stat = key.partition(":")
            assert metric in names and stat, key
            assert np.isfinite(value) or np.isinf(value), key


def test_param_error_names_key():
    err = ParamError("bag_n", -1, "an integer >= 0")
    assert "bag_n = -1, must be an integer >= 0" == str(err)


def test_get_game_imports_only_the_game_asked_for():
    """A sweep worker looks its game up once per chunk: that imports the game's own package, not every
    game's (a fresh interpreter, so that other tests' imports do not count)."""
    import subprocess
    import sys

    code = ("import sys; from gamesim.core.registry import get_game; g = get_game('godtear'); "
            "assert get_game('godtear') is g; "
            "print(sorted(m for m in sys.modules if m.startswith('gamesim.games.') and m.count('.') == 2))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "['gamesim.games.godtear']"
