"""One shape per game (issue 25, point 3): every registered game has the same front door.

For each game of :func:`gamesim.core.registry.all_games`:

* ``rules.py`` defines one frozen dataclass named ``<Game>Params`` (its parameters, checked once
  when built), and ``<Game>Params()`` builds with the defaults;
* ``sim.simulate`` has the signature ``(params, n_games, *, rng=None, ...)`` (any further
  parameter keyword-only, with a default);
* ``simulate(<Game>Params(), 50, rng=seed)`` returns a dict of numpy arrays whose axis 0 is the
  trial (length 50), and the same seed gives the same arrays; :func:`gamesim.core.frames.trials_frame`
  (the one DataFrame wrapper) makes it a table of 50 rows;
* ``simulate`` gives arrays identical, at the same seed, to the game's older entry point
  (:data:`OLDER_ENTRY`): the proof that the common name changed no result. The games whose
  entry point always was ``simulate(params, n_games, *, rng)`` are listed in
  :data:`BORN_WITH_SIMULATE`; a new game must be put in one of the two.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
from types import ModuleType
from typing import Any, Callable

import numpy as np
import pytest

from gamesim.core.frames import trials_frame
from gamesim.core.registry import all_games, builtin_game_packages

GAMES: list[str] = sorted(all_games())
N = 50
SEEDS = (0, 20251126)


def _rules(game: str) -> ModuleType:
    return importlib.import_module(f"gamesim.games.{game}.rules")


def _sim(game: str) -> ModuleType:
    return importlib.import_module(f"gamesim.games.{game}.sim")


def _params_class(game: str) -> type:
    rules = _rules(game)
    found = [obj for name, obj in vars(rules).items()
             if name.endswith("Params") and inspect.isclass(obj) and obj.__module__ == rules.__name__]
    assert len(found) == 1, f"gamesim.games.{game}.rules defines {len(found)} *Params classes: {found}"
    return found[0]


def _older_dqz(p: Any, n: int, rng: Any) -> dict[str, np.ndarray]:
    from gamesim.games.dqz.bestiary import get_monster
    from gamesim.games.dqz.sim import run_battles

    return run_battles([get_monster("スライム")], n, p, rng=rng)


def _older_gacha(p: Any, n: int, rng: Any) -> dict[str, np.ndarray]:
    from gamesim.games.gacha.sim import run_schedule

    return run_schedule([10] * 10, n, rng=rng, bag=p.bag, n_characters=p.n_characters, doubtful=p.doubtful,
                        overdrive_pulls=p.overdrive_pulls)


def _older_gacha_game(p: Any, n: int, rng: Any) -> dict[str, np.ndarray]:
    from gamesim.games.gacha_game.sim import make_config, simulate_games

    return simulate_games(make_config(), n, rng=rng)  # GachaGameParams() is make_config()'s set-up


def _older_godtear(p: Any, n: int, rng: Any) -> dict[str, np.ndarray]:
    from gamesim.games.godtear.sim import run_knockout

    return run_knockout(p.skill, p.target, n, uses=p.uses, max_uses=p.max_uses, attacker=p.attacker,
                        target_status=p.target_status, die=p.die, rng=rng)


def _older_ice_cream_turret(p: Any, n: int, rng: Any) -> dict[str, np.ndarray]:
    from gamesim.games.ice_cream_turret.sim import run_games

    return run_games(p, "greedy", n, rng=rng)


def _older_qftnw(p: Any, n: int, rng: Any) -> dict[str, np.ndarray]:
    from gamesim.games.qftnw.sim import run_games

    return run_games(p, ("uniform", "uniform"), n, rng=rng)


#: The entry point each older game had before ``simulate``, called as ``simulate``'s defaults do.
OLDER_ENTRY: dict[str, Callable[[Any, int, Any], dict[str, np.ndarray]]] = {
    "dqz": _older_dqz,
    "gacha": _older_gacha,
    "gacha_game": _older_gacha_game,
    "godtear": _older_godtear,
    "ice_cream_turret": _older_ice_cream_turret,
    "qftnw": _older_qftnw,
}
#: Games whose entry point always was ``simulate(params, n_games, *, rng)`` (nothing to compare with).
BORN_WITH_SIMULATE: frozenset[str] = frozenset({"kami_no_ikari", "mech_arena", "panzer_hexen"})


def _assert_same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> None:
    assert a.keys() == b.keys()
    for k in a:
        assert a[k].dtype == b[k].dtype, k
        np.testing.assert_array_equal(a[k], b[k], err_msg=k, strict=True)


def test_every_registered_game_is_checked() -> None:
    assert len(GAMES) >= 9
    assert set(GAMES) == set(builtin_game_packages())
    unplaced = set(GAMES) - set(OLDER_ENTRY) - BORN_WITH_SIMULATE
    assert not unplaced, f"put {sorted(unplaced)} in OLDER_ENTRY or BORN_WITH_SIMULATE"


@pytest.mark.parametrize("game", GAMES)
def test_rules_define_one_frozen_params_dataclass(game: str) -> None:
    cls = _params_class(game)
    assert dataclasses.is_dataclass(cls), cls
    assert cls.__dataclass_params__.frozen, f"{cls.__qualname__} is not frozen"  # type: ignore[attr-defined]
    p = cls()  # every field has a default
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(p, dataclasses.fields(cls)[0].name, None)
    assert cls.__doc__ and "Raises" in cls.__doc__  # numpydoc: the exceptions the checks raise


@pytest.mark.parametrize("game", GAMES)
def test_simulate_signature(game: str) -> None:
    fn = getattr(_sim(game), "simulate", None)
    assert callable(fn), f"gamesim.games.{game}.sim has no simulate"
    params = list(inspect.signature(fn).parameters.values())
    assert [q.name for q in params[:2]] == ["params", "n_games"]
    assert all(q.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD for q in params[:2])
    rest = {q.name: q for q in params[2:]}
    assert "rng" in rest and rest["rng"].kind is inspect.Parameter.KEYWORD_ONLY and rest["rng"].default is None
    for q in rest.values():
        assert q.kind is inspect.Parameter.VAR_KEYWORD or (
            q.kind is inspect.Parameter.KEYWORD_ONLY and q.default is not inspect.Parameter.empty), q
    assert fn.__doc__ and "Returns" in fn.__doc__ and "Raises" in fn.__doc__


@pytest.mark.parametrize("game", GAMES)
def test_simulate_returns_trial_arrays_and_repeats(game: str) -> None:
    p = _params_class(game)()
    simulate = _sim(game).simulate
    a = simulate(p, N, rng=SEEDS[0])
    assert isinstance(a, dict) and a
    for k, v in a.items():
        assert isinstance(k, str)
        assert isinstance(v, np.ndarray), (k, type(v))
        assert v.ndim >= 1 and v.shape[0] == N, (k, v.shape)
    _assert_same(a, simulate(p, N, rng=SEEDS[0]))
    _assert_same(a, simulate(p, N, rng=np.random.default_rng(SEEDS[0])))  # an int seed is default_rng(seed)
    # the one DataFrame wrapper: a row per trial, every value of every array in its column
    df = trials_frame(a)
    assert len(df) == N
    assert df.shape[1] == sum(int(np.prod(v.shape[1:], dtype=np.int64)) for v in a.values())
    for k, v in a.items():
        col = k if v.ndim == 1 else f"{k}{'_0' * (v.ndim - 1)}"
        np.testing.assert_array_equal(df[col].to_numpy(), v.reshape(N, -1)[:, 0], err_msg=k)


@pytest.mark.parametrize("game", sorted(OLDER_ENTRY))
@pytest.mark.parametrize("seed", SEEDS)
def test_simulate_matches_the_older_entry_point(game: str, seed: int) -> None:
    p = _params_class(game)()
    _assert_same(_sim(game).simulate(p, N, rng=seed), OLDER_ENTRY[game](p, N, seed))


#: The tasks that ask the question of their game's ``simulate`` and must call it. A game's other
#: tasks ask another question of the same game and call that question's own entry point
#: (docs/architecture.md, "One shape per game": e.g. godtear's ``activation``, gacha's ``shared``).
SIMULATE_TASKS: dict[str, tuple[str, ...]] = {
    "dqz": ("battle", "run"),
    "gacha": ("schedule",),
    "gacha_game": ("game",),
    "godtear": ("knockout",),
    "ice_cream_turret": ("solitaire", "score_attack"),
    "kami_no_ikari": ("game",),
    "mech_arena": ("duel",),
    "panzer_hexen": ("game",),
    "qftnw": ("game",),
}


def test_every_game_names_its_simulate_tasks() -> None:
    assert set(SIMULATE_TASKS) == set(GAMES)
    for game, names in SIMULATE_TASKS.items():
        assert set(names) <= set(all_games()[game].tasks), game


@pytest.mark.parametrize("game, task", [(g, t) for g, ts in sorted(SIMULATE_TASKS.items()) for t in ts])
def test_task_runs_through_simulate(game: str, task: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sweep's task calls ``simulate`` with a ``<Game>Params`` (once per chunk), nothing around it."""
    tasks = importlib.import_module(f"gamesim.games.{game}.tasks")
    real, calls = tasks.simulate, []

    def spy(params: Any, n_games: int, **kw: Any) -> dict[str, np.ndarray]:
        calls.append((params, n_games))
        return real(params, n_games, **kw)

    monkeypatch.setattr(tasks, "simulate", spy)
    t = all_games()[game].tasks[task]
    out = t.simulate(t.defaults(), 7, rng=np.random.default_rng(SEEDS[1]))  # a cell with no overrides
    assert len(calls) == 1 and isinstance(calls[0][0], _params_class(game)) and calls[0][1] == 7
    assert all(np.asarray(v).shape[0] == 7 for v in out.values())

