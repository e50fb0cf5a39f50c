"""A designer's own files from the command line and from Python: templates written by `gamesim new` run as
they are, results files keep lists and metadata, the README's Python cells run as written, and scenario
errors name the key. (Split from test_own_scenarios.py so that the test workers share the load.)
"""

from __future__ import annotations

import re

import pandas as pd
import pytest

from gamesim.core.api import Results
from gamesim.core.scenario import load_scenario
from tests.conftest import ROOT, run_cli


def test_python_api_matches_the_command_line(tmp_path):
    scenario = {
        "name": "api_vs_cli", "game": "godtear", "seed": 99, "n_trials": 800, "chunk_size": 400,
        "parts": [{"name": "p", "task": "success_roll",
                   "cases": [{"name": "a", "accuracy": 2}, {"name": "b", "accuracy": 3}], "grid": {"dodge": [1, 2]}}],
        "compare": {"baseline": "a"},
    }
    import gamesim

    res = gamesim.sweep(scenario, progress=False, cache_root=tmp_path / "c1")
    toml = tmp_path / "api_vs_cli.toml"
    toml.write_text(
        'name = "api_vs_cli"\ngame = "godtear"\nseed = 99\nn_trials = 800\nchunk_size = 400\n'
        '[[parts]]\nname = "p"\ntask = "success_roll"\ncases = [{ name = "a", accuracy = 2 }, { name = "b", accuracy = 3 }]\n'
        'grid = { dodge = [1, 2] }\n[compare]\nbaseline = "a"\n', encoding="utf-8")
    proc = run_cli("run", str(toml), "--out-dir", str(tmp_path / "o"), "--quiet")
    assert proc.returncode == 0, proc.stderr
    cli = Results.load(tmp_path / "o" / "api_vs_cli.parquet")
    drop = ["scenario_hash"]
    pd.testing.assert_frame_equal(res.to_frame().drop(columns=drop), cli.to_frame().drop(columns=drop),
                                  check_dtype=False)
    pd.testing.assert_frame_equal(res.to_frame("compare"), cli.to_frame("compare"), check_dtype=False)
    t = res.table("success")
    assert list(t.index.names) == ["case", "dodge"] and len(t) == 4 and "exact proportion" in t.columns
    c = res.compare("success")
    assert len(c) == 2 and "difference [95% CI]" in c.columns
    spec = res.plot("success").to_dict()  # a Vega-Altair chart: one panel, one series per case
    data = next(iter(spec["datasets"].values()))
    assert {d["series"] for d in data} == {"a", "b"} and {d["x"] for d in data} == {1.0, 2.0}
    est = gamesim.estimate([True, False, True, True])
    assert est.n == 4 and 0 < est.ci_low < 0.75 < est.ci_high < 1
    assert "gacha" in gamesim.all_games() and gamesim.games.gacha.__name__ == "gamesim.games.gacha"


def test_csv_results_keep_lists_and_metadata(tmp_path):
    proc = run_cli("run", "tests/data/gacha_small.toml", "--out-dir", str(tmp_path), "--format", "csv", "--quiet")
    assert proc.returncode == 0, proc.stderr
    table = pd.read_csv(tmp_path / "gacha_small.csv")
    assert table["doubtful_k"].dropna().iloc[0] == "[3, 4]"
    assert (tmp_path / "gacha_small.meta.json").is_file() and (tmp_path / "gacha_small.dist.csv").is_file()
    assert Results.load(tmp_path / "gacha_small.csv").meta["seed_entropy"] == "42"


def test_parquet_results_store_lists_as_lists(tmp_path):
    import pyarrow.parquet as pq

    proc = run_cli("run", "tests/data/gacha_small.toml", "--out-dir", str(tmp_path), "--quiet")
    assert proc.returncode == 0, proc.stderr
    schema = pq.read_schema(tmp_path / "gacha_small.parquet")
    assert str(schema.field("doubtful_k").type).startswith("list")
    res = Results.load(tmp_path / "gacha_small.parquet")
    assert res.to_frame()["doubtful_k"].dropna().iloc[0] == (3, 4)


def test_list_shows_defaults_ranges_and_filters_by_game():
    proc = run_cli("list", "godtear")
    assert proc.returncode == 0, proc.stderr
    assert "accuracy = 4  [an integer >= 0 and <= 40]" in proc.stdout
    assert "gacha" not in proc.stdout.split("\n", 1)[1].split("(gamesim new")[0].replace("godtear", "")
    bad = run_cli("list", "chess")
    assert bad.returncode == 2 and "unknown game 'chess'" in bad.stderr


def _all_tasks() -> list[tuple[str, str]]:
    import gamesim

    return [(g, t) for g, game in sorted(gamesim.all_games().items()) for t in game.tasks]


@pytest.mark.parametrize("game,task", _all_tasks())
def test_new_prints_a_template_that_runs_as_is(game, task, tmp_path, capsys):
    import numpy as np

    from gamesim.cli import main

    assert main(["new", game, task]) == 0  # in process (the command line itself is run below)
    text = capsys.readouterr().out
    path = tmp_path / f"my_{game}_{task}.toml"
    path.write_text(text, encoding="utf-8")
    sc = load_scenario(path)
    part = sc.parts[0]
    assert sc.game.name == game and part.task.name == task and sc.notebook is None
    for p in part.task.params:
        assert f"# {p.name} = " in text
    # the template sweeps one parameter, and one the default settings do not ignore: its cells differ
    assert len(part.grid) == 1 and len(part.cells()) >= 2
    outs = [part.task.simulate(cell, 64, rng=np.random.default_rng(0)) for cell in part.cells()]
    assert any(not np.array_equal(np.asarray(o[k]), np.asarray(outs[0][k]), equal_nan=True)
               for o in outs[1:] for k in outs[0] if k in o), text
    if (game, task) == ("gacha", "schedule"):  # the command line end to end; every template in the slow test below
        proc = run_cli("new", game, task)
        assert proc.returncode == 0 and proc.stdout == text, proc.stderr
        run = run_cli("run", str(path), "--out-dir", str(tmp_path / "o"), "--quiet")
        assert run.returncode == 0, run.stderr
        bad = run_cli("new", game, "no_such_task")
        assert bad.returncode == 2 and "unknown task" in bad.stderr


@pytest.mark.slow
def test_every_template_runs_as_is(tmp_path, capsys):
    from gamesim.cli import main

    # in process: `gamesim new` and `gamesim run` are run end to end as commands above; a command per
    # template would add a Python start-up (about 1.5 s) to each of the 20 sweeps
    for game, task in _all_tasks():
        path = tmp_path / f"my_{game}_{task}.toml"
        assert main(["new", game, task]) == 0
        path.write_text(capsys.readouterr().out, encoding="utf-8")
        code = main(["run", str(path), "--out-dir", str(tmp_path / "o"), "--quiet"])
        assert code == 0, (game, task, capsys.readouterr().err)
        res = Results.load(tmp_path / "o" / f"my_{game}_{task}.parquet")
        assert res.frame["cell"].nunique() == len(load_scenario(path).parts[0].cells())


def test_example_scenarios_load():
    paths = sorted((ROOT / "scenarios" / "examples").glob("*.toml"))
    assert paths
    for p in paths:
        sc = load_scenario(p)
        assert sc.compare is not None


def test_scenario_errors_for_cases_and_compare(write_scenario):
    from gamesim.core.scenario import ScenarioError

    base = 'game = "gacha"\nn_trials = 10\n[[parts]]\nname = "a"\ntask = "schedule"\n'
    cases = [
        (base + 'cases = [{ name = "x", bag_n = 44 }, { name = "x", bag_n = 43 }]\n', "must be unique"),
        (base + 'cases = [{ colour = 1 }]\n', "unknown parameter parts[0].cases[0].colour"),
        (base + 'cases = [{ total_pulls = 5 }]\ngrid = { total_pulls = [1, 2] }\n', "also swept"),
        (base + 'cases = [{ bag_n = -1 }]\n', "parts[0].cases[0].bag_n = -1"),
        (base + 'grid = { total_pulls = [1, 2] }\n[compare]\nbaseline = "x"\n', "no part has cases"),
        # a swept value given as if it were a case name: the message says how to name it
        (base + 'grid = { session_size = [1, 5] }\n[compare]\nbaseline = 5\n',
         "(to compare against that value write baseline = { session_size = 5 })"),
        (base + 'grid = { total_pulls = [1, 2] }\n[compare]\nbaseline = { total_pulls = 3 }\n', "must be one of"),
        (base + 'cases = [{ name = "x" }]\n[compare]\nbaseline = "x"\nmetrics = ["nope"]\n', "compare.metrics"),
    ]
    for body, frag in cases:
        path = write_scenario(body)
        with pytest.raises(ScenarioError, match=re.escape(frag)):
            load_scenario(path)


def test_builtin_study_notebooks_render_the_generic_report_first():
    import nbformat

    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        code = [c.source for c in nb.cells if c.cell_type == "code"]
        assert "parameters" in nb.cells[0].metadata.get("tags", []), path.name
        assert ".report()" in code[1], f"{path.name}: the generic report must come right after the parameters"


@pytest.mark.slow
def test_readme_python_cells_run_as_written(tmp_path):
    """The README's "same from Python" cells, run as a notebook would (in order, one namespace)."""
    import os
    import subprocess
    import sys

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("### The same from Python"):text.index("## Hit a target")]
    cells = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(cells) >= 2 and "gamesim.sweep(" in cells[0] and "gamesim.estimate(" in cells[1]
    proc = subprocess.run([sys.executable, "-c", "\n".join(cells)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=600, env=dict(os.environ, MPLBACKEND="Agg"))
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert (tmp_path / "reports" / ".chunks").is_dir()  # the CLI's chunk cache, relative to the working folder
