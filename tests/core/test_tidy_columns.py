"""One list of the tidy table's non-parameter columns: ``gamesim.run.results.TIDY_COLUMNS``.

The sweep (which types the parameter columns of the table it builds) and ``Results.dims``
(which, without the scenario, takes the swept dimensions from the table) both read it, so a
column added to the tidy table is added once.
"""

from __future__ import annotations

from gamesim.api import Results
from gamesim.run.results import TIDY_COLUMNS
from gamesim.run.scenario import load_scenario, param_columns
from gamesim.run.sweep import run_sweep

SCENARIO = """
game = "gacha"
seed = 7
n_trials = 400
chunk_size = 200
[[parts]]
name = "completion"
task = "schedule"
cases = [
  { name = "short", total_pulls = 20 },
  { name = "long", total_pulls = 120 },
]
grid = { session_size = [1, 10] }
[[parts]]
name = "money"
task = "money"
grid = { money = [10, 25] }
[precision]
metric = "complete"
half_width = 0.5
max_trials = 400
"""


def test_tidy_columns_minus_the_list_are_the_parameters(write_scenario, tmp_path):
    sc = load_scenario(write_scenario(SCENARIO))
    res = run_sweep(sc, n_jobs=1, cache_root=tmp_path / "chunks", progress=False)
    params = {k for part in sc.parts for cell in part.cells() for k in param_columns(cell)}
    assert params and "case" not in params
    assert set(res.table.columns) - TIDY_COLUMNS == params
    # every listed column is one the table has (the list does not drift the other way either)
    assert TIDY_COLUMNS <= set(res.table.columns)


def test_dims_without_the_scenario_read_the_same_list(write_scenario, tmp_path):
    sc = load_scenario(write_scenario(SCENARIO))
    res = run_sweep(sc, n_jobs=1, cache_root=tmp_path / "chunks", progress=False)
    bare = Results(res.table, res.comparisons, res.distributions, {}, None)
    with_scenario = Results(res.table, res.comparisons, res.distributions, {}, sc)
    assert with_scenario.dims("money") == bare.dims("money") == ["money"]
    assert with_scenario.dims("completion") == ["case", "session_size"]
    # without the scenario: the case and every parameter column that varies (the cases set total_pulls),
    # never a listed column (n, estimate, seed_entropy, scenario_hash, ... vary too)
    assert bare.dims("completion") == ["case", "session_size", "total_pulls"]


def test_the_sweep_and_the_api_share_the_one_list():
    import gamesim.run.sweep as sweep

    assert sweep._FIXED_COLUMNS is TIDY_COLUMNS


def test_distribution_keys_are_typed_as_if_added_table_by_table() -> None:
    """``sweep._with_keys`` adds each part's keys once; the stacked table (values, dtypes, column
    order) is the one that adding them to each table with ``DataFrame.assign`` gives."""
    import numpy as np
    import pandas as pd

    from gamesim.run.sweep import _with_keys

    rng = np.random.default_rng()  # fresh tables each run: the property holds for any
    kinds = [lambda: int(rng.integers(0, 9)), lambda: float(rng.random()), lambda: None, lambda: bool(rng.random() < .5),
             lambda: str(rng.integers(0, 3)), lambda: (1, int(rng.integers(0, 3)))]
    for _ in range(30):
        tables, keys = [], []
        for part in range(int(rng.integers(1, 4))):
            names = [f"k{j}" for j in rng.choice(6, size=int(rng.integers(0, 4)), replace=False)]
            make = {k: kinds[int(k[1])] for k in names}  # one type per key, as a part's parameter
            if rng.random() < 0.3:
                names.append("value")  # a key named like a table column replaces it
                make["value"] = kinds[0]
            for cell in range(int(rng.integers(1, 4))):
                n = int(rng.integers(1, 5))
                t = pd.DataFrame({"value": np.arange(n), "probability": rng.random(n)})
                if rng.random() < 0.5:
                    t["exact"] = rng.random(n)
                tables.append(t)
                keys.append({"part": f"p{part}", "cell": cell, "metric": "m", **{k: make[k]() for k in names}})
        expected = pd.concat([t.assign(**{k: [v] * len(t) for k, v in rec.items()}) for t, rec in zip(tables, keys)],
                             ignore_index=True)
        got = _with_keys(tables, keys)
        assert sorted(got.columns) == sorted(expected.columns)
        pd.testing.assert_frame_equal(got[expected.columns], expected)
