"""Scenario files: valid ones load, bad ones give one clear error (file, key, value, allowed)."""

from __future__ import annotations

import pytest

from gamesim.core.scenario import ScenarioError, load_scenario
from tests.conftest import ROOT, run_cli

GOOD = """
game = "gacha"
seed = 1
n_trials = 100
chunk_size = 50
[params]
bag_n = 44
[[parts]]
name = "a"
task = "schedule"
grid = { session_size = [1, 10], total_pulls = [20, 40, 60] }
"""


def test_builtin_scenarios_load():
    paths = sorted((ROOT / "scenarios").glob("*.toml"))
    assert paths, "no built-in scenarios"
    for p in paths:
        sc = load_scenario(p)
        assert sc.parts and sc.n_trials >= 1


def test_good_scenario_cells(write_scenario):
    sc = load_scenario(write_scenario(GOOD))
    cells = sc.parts[0].cells()
    assert len(cells) == 6
    assert [(c["session_size"], c["total_pulls"]) for c in cells[:3]] == [(1, 20), (1, 40), (1, 60)]
    assert all(c["bag_n"] == 44 and c["bag_god_chance"] == 1 for c in cells)
    assert sc.name == "scen" and sc.seed == 1 and sc.chunk_size == 50


def expect_error(write_scenario, body: str, *fragments: str) -> str:
    path = write_scenario(body)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    msg = str(info.value)
    assert msg.startswith(str(path)), msg
    for frag in fragments:
        assert frag in msg, (frag, msg)
    return msg


def test_unknown_top_level_key(write_scenario):
    expect_error(write_scenario, "colour = 'red'\n" + GOOD, "unknown key 'colour'", "allowed keys", "n_trials")
    expect_error(write_scenario, GOOD + "\ncolour = 'red'\n", "unknown key parts[0].colour", "allowed keys")


def test_unknown_parameter_in_grid(write_scenario):
    body = GOOD.replace("total_pulls = [20, 40, 60]", "total_pull = [20]")
    expect_error(write_scenario, body, "parts[0].grid.total_pull", "allowed:", "total_pulls")


def test_wrong_type(write_scenario):
    expect_error(write_scenario, GOOD.replace("n_trials = 100", 'n_trials = "many"'), "n_trials = 'many'", "integer >= 1")


def test_negative_count(write_scenario):
    expect_error(write_scenario, GOOD.replace("bag_n = 44", "bag_n = -1"), "params.bag_n = -1", ">= 0")


def test_bool_is_not_an_int(write_scenario):
    expect_error(write_scenario, GOOD.replace("bag_n = 44", "bag_n = true"), "params.bag_n = true, must be", "integer")


@pytest.mark.parametrize("old,new,shown", [
    ("seed = 1", "seed = false", "seed = false, must be"),
    ("seed = 1", "seed = 2024-01-01", "seed = 2024-01-01, must be"),
    ("[20, 40, 60]", "[20, true, 60]", "grid.total_pulls[1] = true, must be"),
    ("n_trials = 100", 'n_trials = { many = true, "a b" = [1.5] }', 'n_trials = { many = true, "a b" = [1.5] }, must be'),
    ('task = "schedule"', 'task = "schedule"\ncases = [{ name = true }]', "cases[0].name = true, must be"),
    ("grid = { session_size = [1, 10], total_pulls = [20, 40, 60] }",
     "grid = { overdrive = [true, false] }\n[compare]\nbaseline = { overdrive = 1 }",
     "compare.baseline = { overdrive = 1 }, must be one of the overdrive values of part 'a': true, false"),
])
def test_values_are_shown_as_the_file_spells_them(write_scenario, old, new, shown):
    """A designer wrote TOML: the error echoes ``true``, a date or an inline table as written, not Python's
    ``True``, ``datetime.date(...)`` or ``{'many': True}``."""
    msg = expect_error(write_scenario, GOOD.replace(old, new), shown)
    assert "True" not in msg and "False" not in msg and "datetime" not in msg, msg


def test_a_case_that_fails_the_tasks_check_is_named_by_its_index(write_scenario):
    """A cross-parameter check failing in one case names that case (cases[1].bag_total), not 'cases.bag_total'."""
    body = GOOD.replace('task = "schedule"', 'task = "schedule"\ncases = [{ name = "ok", bag_total = 50 }, '
                        '{ name = "short", bag_total = 49 }]')
    expect_error(write_scenario, body, "parts[0].cases[1].bag_total = 49, must be")


def test_a_default_another_setting_rules_out_is_named_as_the_default_at_its_cell(write_scenario):
    """n_players = 3 swept with the shared bag's default schedule, which gives player 3 no session: the error
    names the schedule as the task's default (the file never set it), not as 'params.schedule', and the cell
    that rules it out."""
    body = GOOD.replace('task = "schedule"', 'task = "shared"').replace(
        "grid = { session_size = [1, 10], total_pulls = [20, 40, 60] }", "grid = { n_players = [2, 3] }")
    msg = expect_error(write_scenario, body, "schedule (the task's default, not set in the file; at n_players = 3) = "
                       "[[1, 10], [2, 1]], must be a session for every player 1..n_players = 3 (player 3 has none)")
    assert "params.schedule" not in msg, msg
    # a value the file fixes, ruled out in one cell of the grid: named where the file sets it, with the cell
    body = ('game = "mech_arena"\nn_trials = 10\n[[parts]]\nname = "a"\ntask = "duel"\n'
            'params = { start_distance = 2 }\ngrid = { max_distance = [3, 1] }\n')
    expect_error(write_scenario, body, "parts[0].params.start_distance (at max_distance = 1) = 2, must be an integer "
                 ">= 0 and <= 1")


def test_missing_compare_baseline_says_it_is_missing(write_scenario):
    """A [compare] table without baseline (easy to leave out with pairs = "all") reads "is missing", not
    "= None"."""
    body = GOOD.replace("grid = { session_size = [1, 10], total_pulls = [20, 40, 60] }",
                        "grid = { session_size = [1, 10] }") + '\n[compare]\npairs = "all"\n'
    msg = expect_error(write_scenario, body, "compare.baseline is missing; give a case name",
                       'with pairs = "all" too')
    assert "None" not in msg, msg


def test_chip_counts_that_do_not_add_up(write_scenario):
    body = GOOD.replace("bag_n = 44", "bag_n = 44\nbag_total = 49")
    expect_error(write_scenario, body, "bag_total = 49", "50")


def test_rate_bundle_costing_zero(write_scenario):
    body = GOOD.replace('task = "schedule"', 'task = "money"\nparams = { bundles = [[0, 1], [10, 12]] }').replace(
        "grid = { session_size = [1, 10], total_pulls = [20, 40, 60] }", "grid = { money = [10] }"
    )
    expect_error(write_scenario, body, "parts[0].params.bundles", ">= 1")


def test_grid_value_out_of_range(write_scenario):
    expect_error(write_scenario, GOOD.replace("[1, 10]", "[1, 0]"), "parts[0].grid.session_size[1] = 0", ">= 1")


def test_unknown_game_and_task(write_scenario):
    expect_error(write_scenario, GOOD.replace('game = "gacha"', 'game = "chess"'), "game = 'chess'", "gacha")
    expect_error(write_scenario, GOOD.replace('task = "schedule"', 'task = "nope"'), "parts[0].task = 'nope'", "schedule")


def test_part_findings_name_metrics_of_its_task(write_scenario):
    """A part's findings key (the metrics its Findings lead with) names metrics its task reports, each once."""
    part = 'task = "schedule"\n'
    ok = write_scenario(GOOD.replace(part, part + 'findings = ["god_chances", "complete"]\n'))
    assert load_scenario(ok).parts[0].findings == ("god_chances", "complete")
    assert load_scenario(write_scenario(GOOD, name="plain.toml")).parts[0].findings == ()
    expect_error(write_scenario, GOOD.replace(part, part + 'findings = ["wins"]\n'),
                 "parts[0].findings = ['wins']", "metrics of task 'schedule'", "complete")
    for bad in ('[1]', '["complete", "complete"]', '[""]', '{ a = 1 }'):
        expect_error(write_scenario, GOOD.replace(part, part + f"findings = {bad}\n"), "parts[0].findings = ",
                     "a list of different metric names")


def test_precision_metric_must_exist(write_scenario):
    body = GOOD + "\n[precision]\nmetric = 'wins'\nhalf_width = 0.01\n"
    expect_error(write_scenario, body, "precision.metric = 'wins'", "complete")
    body = GOOD + "\n[precision]\nmetric = 'complete'\nhalf_width = 0\n"
    expect_error(write_scenario, body, "precision.half_width = 0", "> 0")


def test_bad_toml_and_missing_file(write_scenario, tmp_path):
    expect_error(write_scenario, GOOD + "\n[[parts]\n", "not valid TOML")
    with pytest.raises(ScenarioError, match="no such scenario file"):
        load_scenario(tmp_path / "missing.toml")


def test_cli_user_error_is_one_line_exit_2(write_scenario):
    path = write_scenario(GOOD.replace("bag_n = 44", "bag_n = -5"))
    proc = run_cli("run", str(path), "--quiet")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"gamesim: error: {path}: params.bag_n = -5")


def test_cli_bad_option_values_exit_2(write_scenario):
    path = write_scenario(GOOD)
    assert run_cli("run", str(path), "--n-jobs", "0").returncode == 2
    proc = run_cli("run", str(path), "--scheduler", "tcp://127.0.0.1:1")
    assert proc.returncode == 2 and "--backend dask" in proc.stderr
