"""Property tests of the scenario loader and the CLI (issue 9).

Random scenario dicts of every registered game, well typed and ill typed (wrong types, out-of-range and huge
values, unknown keys, bad names, duplicate grid values, NaN and infinities, deep
nesting), are written as TOML. The loader either returns a Scenario or raises
ScenarioError (never another exception), and the CLI answers any of them with exit
status 0 or a one-line error (status 1 or 2), never a traceback.
"""

from __future__ import annotations

import json
import math
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from gamesim.cli import main
from gamesim.core.registry import all_games, get_game
from gamesim.core.scenario import MAX_TRIALS, Scenario, ScenarioError, load_scenario
from tests.conftest import quick_and_slow
from tests.reliability.api_support import FAST_S

#: Every registered game: the loader and the CLI are exercised with each game's own tasks.
GAMES = sorted(all_games())


def toml_value(v: Any) -> str:
    """A TOML literal for a JSON-like value (inline tables and arrays)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{json.dumps(str(k), ensure_ascii=False)} = {toml_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(type(v))


def to_toml(doc: dict[str, Any]) -> str:
    lines = []
    tables = {}
    for k, v in doc.items():
        if k == "parts" and isinstance(v, list) and v and all(isinstance(p, dict) for p in v):
            tables[k] = v
        elif isinstance(v, dict) and k in ("params", "precision"):
            tables[k] = v
        else:
            lines.append(f"{json.dumps(k, ensure_ascii=False)} = {toml_value(v)}")
    for k, v in tables.items():
        if k == "parts":
            for part in v:
                lines.append("[[parts]]")
                lines += [f"{json.dumps(pk, ensure_ascii=False)} = {toml_value(pv)}" for pk, pv in part.items()]
        else:
            lines.append(f"[{k}]")
            lines += [f"{json.dumps(pk, ensure_ascii=False)} = {toml_value(pv)}" for pk, pv in v.items()]
    return "\n".join(lines) + "\n"


ANY_SCALAR = st.one_of(
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(max_size=6),
)
ANY_VALUE = st.recursive(ANY_SCALAR, lambda inner: st.lists(inner, max_size=3), max_leaves=6)


#: Valid integer draws take the ``SPAN + 1`` smallest values of a parameter's range; ``LIGHT_SPAN`` for the
#: documents the CLI test runs (each is a sweep), where the integers are playouts, look-ahead depths and
#: sizes: an Ice Cream Turret score-attack cell of 40 games with ``rollout_k = 7, rollout_horizon = 6`` and
#: look-ahead playouts takes 12 CPU-s (a document of 2 parts of 9 such cells, minutes), with 3 and 2 about 2.
SPAN, LIGHT_SPAN = 6, 2
#: Trials per cell of a light document (and its precision rule's ``max_trials``): at most these. A cell of
#: panzer_hexen games with every seat a rollout player (4 players, ``rollout_k = rollout_horizon = 3``, all
#: among the smallest values) costs about 0.25 CPU-s a game: 12 games a cell made one run of the suite's
#: panzer_hexen example take 10 s.
LIGHT_TRIALS, LIGHT_MAX_TRIALS = 6, 12


def param_value(p, valid: bool, light: bool = False):
    """A value for parameter ``p``: in its declared range, or anything at all (with ``light``,
    valid integers only among the ``LIGHT_SPAN + 1`` smallest, and no "damaged" draw that is a
    valid integer above them, nor a list holding one)."""
    if not valid:
        return ANY_VALUE.filter(lambda v: not _heavy_value(p, v)) if light else ANY_VALUE
    if p.choices is not None:
        return st.sampled_from(p.choices)
    span = LIGHT_SPAN if light else SPAN
    lo = -10 if p.min is None else int(p.min)
    hi = lo + 10 if p.max is None else int(p.max)
    if p.kind == "int":
        return st.integers(lo, min(hi, lo + span))
    if p.kind == "float":
        return st.floats(lo, min(hi, lo + 6))
    if p.kind == "bool":
        return st.booleans()
    if p.kind == "int_pairs":
        return st.lists(st.lists(st.integers(lo, lo + 4), min_size=2, max_size=2), min_size=1, max_size=3)
    if p.kind.endswith("list"):
        return st.lists(st.integers(lo, lo + 4), min_size=1, max_size=3)
    return st.text(max_size=4)


def _heavy_value(p, v: Any) -> bool:
    """A valid integer value of ``p`` beyond the ``LIGHT_SPAN + 1`` smallest, or a list holding one: a
    "damaged" draw that is in fact a valid, costly setting (a panzer_hexen cell of 40 games with
    ``rollout_k = 64, rollout_horizon = 20`` takes 46 s)."""
    if isinstance(v, list):
        return any(_heavy_value(p, x) for x in v)
    if p.kind != "int" or not isinstance(v, int) or isinstance(v, bool):
        return False
    lo = -10 if p.min is None else int(p.min)
    return v > lo + LIGHT_SPAN and (p.max is None or v <= p.max) and (p.min is None or v >= p.min)


def _large_valid_size(v: Any) -> bool:
    """An integer that is a valid trial count above ``LIGHT_TRIALS`` (a long run, not a damaged value)."""
    return isinstance(v, int) and not isinstance(v, bool) and LIGHT_TRIALS < v <= MAX_TRIALS


@st.composite
def scenario_doc(draw, *, game: str = "godtear", light: bool = False) -> dict[str, Any]:
    """A scenario dict of ``game``: mostly well typed, with random damage here and there."""
    GAME = get_game(game)
    clean = draw(st.booleans())  # half the documents are well typed throughout
    ok = lambda: clean or draw(st.integers(0, 9)) > 0  # noqa: E731 - else about one key in ten is damaged
    tasks = ["success_roll", "damage_roll", "end_phase"] if light and game == "godtear" else list(GAME.tasks)
    doc: dict[str, Any] = {}
    doc["name"] = draw(st.from_regex(r"[a-z][a-z0-9_]{0,12}", fullmatch=True)) if ok() else draw(
        st.one_of(st.text(max_size=120), st.integers(), st.just("a\tb"), st.just("x" * 101)))
    doc["game"] = game if ok() else draw(st.one_of(st.text(max_size=5), st.integers()))
    if ok():
        doc["seed"] = draw(st.integers(0, 2**64))
    else:
        doc["seed"] = draw(ANY_VALUE)
    # damaged sizes: junk, or an integer above MAX_TRIALS (10**7 itself is a valid size); with `light`, no
    # valid size above LIGHT_TRIALS either (a drawn 10**7 panzer_hexen games ran for hours)
    sizes = ANY_VALUE.filter(lambda v: not _large_valid_size(v)) if light else ANY_VALUE
    most = LIGHT_TRIALS if light else 40
    doc["n_trials"] = draw(st.integers(1, most)) if ok() else draw(st.one_of(sizes, st.integers(MAX_TRIALS + 1, 10**19)))
    if draw(st.booleans()):
        doc["chunk_size"] = draw(st.integers(1, most)) if ok() else draw(st.one_of(ANY_VALUE,
                                                                                    st.just(1_000_000_000)))
    parts = []
    for i in range(draw(st.integers(1, 2))):
        task = GAME.tasks[draw(st.sampled_from(tasks))]
        part: dict[str, Any] = {"name": f"p{i}" if ok() else draw(st.one_of(st.text(max_size=4), st.integers())),
                                "task": task.name if ok() else draw(st.text(max_size=8))}
        params = {p.name: p for p in task.params if p.kind not in ("int_pairs",)}
        names = sorted(params)
        fixed = draw(st.lists(st.sampled_from(names), max_size=2, unique=True))
        if fixed:
            part["params"] = {k: draw(param_value(params[k], ok(), light)) for k in fixed}
        swept = draw(st.lists(st.sampled_from(names), min_size=0, max_size=2, unique=True))
        grid = {}
        for k in swept:
            if ok():
                grid[k] = draw(st.lists(param_value(params[k], True, light), min_size=1, max_size=3, unique_by=repr))
            else:
                grid[k] = draw(st.one_of(st.lists(param_value(params[k], True, light), max_size=3),
                                         param_value(params[k], False, light)))
        part["grid"] = grid
        if not ok():
            part[draw(st.sampled_from(["n_trials", "title", "bogus"]))] = draw(sizes)
        parts.append(part)
    doc["parts"] = parts if ok() else draw(st.one_of(st.just([]), ANY_VALUE))
    if draw(st.integers(0, 3)) == 0:
        doc["precision"] = {"metric": draw(st.sampled_from(["success", "wounds", "count", "nope"])),
                            "half_width": draw(st.one_of(st.floats(0.05, 2.0), ANY_SCALAR)),
                            "max_trials": draw(st.one_of(st.integers(1, LIGHT_MAX_TRIALS if light else 80),
                                                         ANY_SCALAR.filter(lambda v: not (light and _large_valid_size(v)))))}
    if not ok():
        doc[draw(st.text(min_size=1, max_size=6))] = draw(ANY_VALUE)
    if clean and "precision" in doc:
        first = GAME.tasks[doc["parts"][0]["task"]]
        doc["precision"] = {"metric": first.metrics_for(first.defaults())[0].name, "half_width": 1.0,
                            "max_trials": LIGHT_MAX_TRIALS if light else 60}
    return doc


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_loader_gives_a_scenario_or_a_scenario_error(tmp_path_factory, game, data):
    doc = data.draw(scenario_doc(game=game))
    path = tmp_path_factory.mktemp("s") / "scen.toml"
    path.write_text(to_toml(doc), encoding="utf-8")
    t0 = time.process_time()
    try:
        sc = load_scenario(path)
    except ScenarioError as exc:
        assert time.process_time() - t0 < FAST_S  # however large the sizes asked for
        event("refused")
        msg = str(exc)
        assert msg.startswith(str(path)) and "\n" not in msg.strip() or "not valid TOML" in msg, msg
        return
    event("accepted")
    assert isinstance(sc, Scenario)
    for part in sc.parts:  # everything accepted is well formed and within its limits
        cells = part.cells()
        assert cells and len({json.dumps(c, sort_keys=True) for c in cells}) == len(cells)
        for cell in cells:
            for p in part.task.params:
                v = cell[p.name]
                if p.kind == "int" and v is not None:
                    assert type(v) is int and (p.min is None or v >= p.min) and (p.max is None or v <= p.max)


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=200))
def test_loader_survives_arbitrary_text(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("t") / "scen.toml"
    path.write_text("game = 'godtear'\n" + text, encoding="utf-8")
    try:
        load_scenario(path)
    except ScenarioError:
        pass


def test_loader_refuses_binary_deep_and_missing_files(tmp_path):
    cases = {"binary.toml": b"\xff\xfe\x00garbage", "deep.toml": b"a = " + b"[" * 5000 + b"]" * 5000}
    for name, content in cases.items():
        (tmp_path / name).write_bytes(content)
        with pytest.raises(ScenarioError, match=name):
            load_scenario(tmp_path / name)
    with pytest.raises(ScenarioError, match="no such scenario"):
        load_scenario(tmp_path / "missing.toml")


# the quick loop draws scenarios of three games (each example runs a sweep); the whole suite, of every game
@pytest.mark.parametrize("game", quick_and_slow(GAMES, quick=tuple(GAMES.index(g) for g in ("dqz", "gacha", "godtear"))))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_cli_never_prints_a_traceback(tmp_path_factory, capsys, game, data):
    doc = data.draw(scenario_doc(game=game, light=True))
    folder = tmp_path_factory.mktemp("c")
    path = folder / "scen.toml"
    path.write_text(to_toml(doc), encoding="utf-8")
    t0 = time.process_time()
    code = main(["run", str(path), "--out-dir", str(folder / "out"), "--quiet"])
    elapsed = time.process_time() - t0
    out, err = capsys.readouterr()
    assert "Traceback" not in err + out
    event(f"exit {code}")
    if code == 0:
        assert (folder / "out").is_dir() and list((folder / "out").glob("*.parquet"))
    else:
        assert code in (1, 2)
        assert elapsed < 5.0, f"refused after {elapsed:.1f} s"  # refusals come before any work
        errors = [ln for ln in err.splitlines() if ln.startswith("gamesim: error:")]
        assert len(errors) == 1, err
