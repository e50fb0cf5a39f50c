"""Findings sentences, charts and the page finisher on a small sweep (no notebook, no PDF): fast."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import gamesim
from gamesim.report.present import format_interval
from gamesim.report.charts import compare_chart, distribution_chart, estimates_chart, metric_groups
from gamesim.report.findings import comparison_sentences, findings_markdown
from gamesim.report.page import external_urls, finish_page


@pytest.fixture(scope="module")
def res(tmp_path_factory):
    scenario = {
        "name": "findings_check", "game": "godtear", "seed": 5, "n_trials": 600, "chunk_size": 600,
        "title": "Findings <script>alert(1)</script> check",
        "parts": [{"name": "p", "task": "knockout",
                   "cases": [{"name": "weak", "accuracy": 2}, {"name": "strong", "accuracy": 5},
                             {"name": "same", "accuracy": 2}],
                   "grid": {"dodge": [1, 3]}}],
        "compare": {"baseline": "weak"},
    }
    return gamesim.sweep(scenario, progress=False, cache_root=tmp_path_factory.mktemp("chunks"))


def test_no_spread_reads_as_words_not_infinite_bounds():
    assert format_interval(8.0, -math.inf, math.inf, n=2000) == "no spread: all 2,000 values equal 8.000"
    assert format_interval(8.0, -math.inf, math.inf) == "8.000 [-inf, inf]"  # without n it cannot say
    # a proportion never seen in 40,000 trials: its Wilson upper bound is not 0, and does not read as 0
    from gamesim.core.stats import proportion_estimate

    e = proportion_estimate(0, 40_000)
    assert 9e-5 < e.ci_high < 1e-4
    assert format_interval(e.estimate, e.ci_low, e.ci_high, n=40_000) == "0.000000 [0.000000, 0.000096]"
    assert format_interval(-0.00001234, -0.0002, 0.0004) == "-0.000012 [-0.000200, 0.000400]"
    assert format_interval(0.0004999, 0.00049, 0.00051) == "0.00050 [0.00049, 0.00051]"
    assert format_interval(0.25, 0.2, 0.3) == "0.250 [0.200, 0.300]"  # as before where nothing would read 0
    assert format_interval(0.0, 0.0, 0.0) == "0.000 [0.000, 0.000]"  # truly 0
    # near 1, the same: 20,000 wins out of 20,000 do not read as the point interval [1.000, 1.000]
    e = proportion_estimate(20_000, 20_000)
    assert 0.9998 < e.ci_low < 0.9999 and e.ci_high == 1.0
    assert format_interval(e.estimate, e.ci_low, e.ci_high, n=20_000) == "1.0000 [0.9998, 1.0000]"
    e = proportion_estimate(19_999, 20_000)
    assert format_interval(e.estimate, e.ci_low, e.ci_high, n=20_000) == "1.0000 [0.9997, 1.0000]"
    assert format_interval(14.9983, 14.9951, 15.0016, digits=2) == "14.998 [14.995, 15.002]"  # a mean, 2 decimals asked
    assert format_interval(0.9985, 0.9978, 0.9989) == "0.999 [0.998, 0.999]"  # bounds that print apart: as before
    assert format_interval(1.0, 1.0, 1.0) == "1.000 [1.000, 1.000]"  # truly a point
    from gamesim.report.present import format_value, interval_table

    assert [format_value(v) for v in (0.0, 1.2e-5, 0.5, math.nan)] == ["0.000", "0.000012", "0.500", "–"]
    rows = pd.DataFrame({"a": [1, 1], "b": [0, 1], "estimate": [0.0, 0.5], "ci_low": [0.0, 0.4],
                         "ci_high": [1.9e-5, 0.6], "exact": [1.2e-5, 0.5]})
    table = interval_table(rows, "a", "b")
    assert table.loc[1, 0] == "0.000000 [0.000000, 0.000019] (0.000012)" and table.loc[1, 1] == "0.500 [0.400, 0.600] (0.500)"
    # all values at the metric's lower bound (wounds all 0): the bound side collapses, the other is open
    assert format_interval(0.0, 0.0, math.inf, n=2000) == "no spread: all 2,000 values equal 0.000"
    assert format_interval(1.0, 0.5, math.inf, n=2000) == "1.000 [0.500, inf]"  # a spread, one side open
    assert format_interval(0.5, 0.4, 0.6, n=10) == "0.500 [0.400, 0.600]"
    assert format_interval(9.0, -math.inf, math.inf, n=3000, digits=2, short=True) == "9.00 (all equal)"
    rows = pd.DataFrame({"hp": [160, 160], "party": [3, 5], "estimate": [9.0, 14.9983], "ci_low": [-math.inf, 14.9951],
                         "ci_high": [math.inf, 15.0016], "n": [3000, 3000]})
    table = interval_table(rows, "hp", "party", digits=2)
    assert table.loc[160, 3] == "9.00 (all equal)" and table.loc[160, 5] == "14.998 [14.995, 15.002]"


def test_findings_state_every_comparison_as_the_intervals_say(res):
    comp = res.comparisons[res.comparisons["statistic"] == "difference"]
    sentences = comparison_sentences(res, "p")
    assert len(sentences) == comp["variant"].nunique() == 2
    for variant, g in comp.groupby("variant"):
        s = next(x for x in sentences if x.startswith(f"*{variant}* against *weak*:"))
        up, down = (g["ci_low"] > 0).sum(), (g["ci_high"] < 0).sum()
        # every paired difference 0, in trials that vary
        identical = ((g["estimate"] == 0) & (g["se"] == 0) & g["crn"].astype(bool) & g["correlation"].notna()).sum()
        none = len(g) - up - down - identical
        for count, word in ((up, "higher in"), (down, "lower in"), (identical, "the same result in every paired trial in"),
                            (none, "no detectable difference in")):
            assert (word in s) == (count > 0), (word, s)
    # "same" has the baseline's settings (and, paired on common random numbers, its very trials): every trial alike,
    # which is said as such (not as "no detectable difference", which reads as too few trials to tell)
    same = next(x for x in sentences if x.startswith("*same* against"))
    assert "the same result in every paired trial in" in same and "detectable" not in same, same
    assert "higher in" not in same and "lower in" not in same
    strong = next(x for x in sentences if x.startswith("*strong* against"))
    assert "the same result" not in strong, strong
    text = findings_markdown(res)
    assert text.startswith("## Findings") and "<script>" not in text
    assert "lowest" in text and "highest" in text and "Exact values:" in text


def test_findings_lead_with_the_metrics_a_part_names(tmp_path):
    """A part's findings key: Findings show those metrics first, in that order, and count the rest."""
    scenario = {"name": "chosen", "game": "qftnw", "seed": 3, "n_trials": 200, "chunk_size": 200,
                "parts": [{"name": "p", "task": "game", "grid": {"advanced": [False, True]}}]}
    plain = gamesim.sweep(scenario, progress=False, cache_root=tmp_path / "a")
    metrics = plain.metrics("p")
    assert len(metrics) > 3
    chosen = [metrics[-1], metrics[-3]]  # the last ones, which the default (first metrics) would not show
    scenario["parts"][0]["findings"] = chosen
    res = gamesim.sweep(scenario, progress=False, cache_root=tmp_path / "b")
    bullets = [ln for ln in findings_markdown(res).splitlines() if ln.startswith("- ")]
    assert [b.split("**")[1] for b in bullets[:2]] == chosen, bullets[:3]
    assert bullets[2].startswith(f"- {len(metrics) - 2} more metrics")
    default = [ln for ln in findings_markdown(plain).splitlines() if ln.startswith("- ")]
    assert [b.split("**")[1] for b in default[:2]] == metrics[:2]
    # the figures put them first too: the first panel is the first named metric, and within each figure's
    # statistic group the named ones come before the others, in the key's order
    groups = [[m for m, _ in g] for g in metric_groups(res, "p")]
    assert groups[0][0] == chosen[0]
    for g in groups:
        named = [m for m in g if m in chosen]
        assert g[:len(named)] == [m for m in chosen if m in g]
    assert sorted(m for g in groups for m in g) == sorted(metrics)
    assert [m for g in metric_groups(plain, "p") for m, _ in g][0] == metrics[0]
    # one figure: the named metrics lead it whatever their statistic (a mean, then a proportion)
    one = {"name": "one", "game": "godtear", "seed": 3, "n_trials": 200, "chunk_size": 200,
           "parts": [{"name": "p", "task": "knockout", "grid": {"uses": [1, 2]},
                      "findings": ["uses_to_knockout", "knockout"]}]}
    res1 = gamesim.sweep(one, progress=False, cache_root=tmp_path / "d")
    assert [m for m, _ in metric_groups(res1, "p")[0]] == ["uses_to_knockout", "knockout", "wounds"]
    # and so does the comparison chart, whose panels are in the estimates chart's order
    scenario["compare"] = {"baseline": {"advanced": False}}
    res = gamesim.sweep(scenario, progress=False, cache_root=tmp_path / "c")
    panels = compare_chart(res, "p").to_dict()["facet"]["sort"]
    assert panels[:2] == chosen and sorted(panels) == sorted(metrics), panels


def test_charts_are_one_figure_per_part_with_every_metric_and_no_infinite_numbers(res):
    spec = estimates_chart(res, "p").to_dict()
    data = next(iter(spec["datasets"].values()))
    assert {d["series"] for d in data} == {"weak", "strong", "same"}
    # the legend lists the cases in the scenario's order, not alphabetically
    assert [layer["encoding"]["color"]["sort"] for layer in spec["spec"]["layer"]][0] == ["weak", "strong", "same"]
    # dodge is swept over whole numbers, 1 and 3: ticks at those values, as integers (not 1.0, 1.5, 2.0, ...)
    x_axes = [layer["encoding"]["x"]["axis"] for layer in spec["spec"]["layer"]]
    assert x_axes and all(a == {"format": "d", "values": [1, 3]} for a in x_axes), x_axes
    assert {d["metric"] for d in data} == {f"{m} ({res.primary_statistic(m, part='p')})" for m in res.metrics("p")}
    assert sum(len(g) for g in metric_groups(res, "p")) == len(res.metrics("p"))
    n_metrics = len(res.metrics("p"))
    for cap in (1, 2, 3, n_metrics):  # as few figures as the cap allows, of even size, every metric once, in order
        groups = metric_groups(res, "p", max_panels=cap)
        assert sorted(m for g in groups for m, _ in g) == sorted(res.metrics("p"))
        if n_metrics <= cap:
            assert len(groups) == 1
            continue
        for stat in {st for g in groups for _, st in g}:
            assert all(all(st == stat for _, st in g) for g in groups if g[0][1] == stat)  # one statistic a figure
            sizes = [len(g) for g in groups if g[0][1] == stat]
            n = sum(sizes)
            assert max(sizes) <= cap and len(sizes) == -(-n // cap) and max(sizes) - min(sizes) <= 1, sizes
    c = compare_chart(res, "p").to_dict()
    rows = next(iter(c["datasets"].values()))
    assert len(rows) == len(res.comparisons[res.comparisons["statistic"] == "difference"])
    assert {r["verdict"] for r in rows} <= {"higher", "lower", "no detectable difference"}
    # the panels in the task's order of metrics, as in the estimates chart (not by name: knockout before wounds
    # before uses_to_knockout)
    compared = set(res.comparisons["metric"])
    assert c["facet"]["sort"] == [m for m in res.metrics("p") if m in compared] and len(compared) > 2, c["facet"]
    if not res.distributions.empty:
        distribution_chart(res, "p").to_dict()


def test_distribution_selects_cells_by_their_settings(res):
    if res.distributions.empty:
        pytest.skip("no integer metric tabulated")
    metric = res.distributions["metric"].iloc[0]
    d = res.distribution(metric, case="strong", dodge=3)
    assert set(d["case"]) == {"strong"} and set(d["dodge"]) == {3} and d["cell"].nunique() == 1
    assert {"case", "dodge", "value", "at_least", "at_least_low", "at_least_high"} <= set(d.columns)
    with pytest.raises(KeyError, match="not a swept setting"):
        res.distribution(metric, colour=1)
    with pytest.raises(KeyError, match="no cell"):
        res.distribution(metric, dodge=99)


def test_finished_page_loads_nothing_from_the_network():
    page = ('<html><head><script src="https://cdn.example/require.js"></script>'
            '<link rel="stylesheet" href="//cdn.example/x.css"/>'
            '<script type="text/x-mathjax-config">MathJax.Hub.Config({})</script>'
            '<script type="module">if (d) { await import("https://cdnjs.example/mermaid.mjs"); }</script>'
            '</head><body><main><h1 id="T">T</h1><h2 id="A">A</h2><h2 id="B">B</h2>'
            '<a href="https://example.org/">a plain link is not a load</a></main></body></html>')
    assert len(external_urls(page)) == 3
    out = finish_page(page, bundle="/* no charts */")
    assert external_urls(out) == [] and "mathjax" not in out.lower()
    assert '<nav class="gamesim-toc">' in out and 'href="#A"' in out and 'href="#B"' in out
    assert out.index("<main>") < out.index("<nav class=\"gamesim-toc\">") < out.index("<h1")


def test_all_pairs_give_one_sentence_and_one_chart_row_per_pair(tmp_path):
    """[compare] pairs = "all": each pair is stated on its own, never merged with another pair of the same variant."""
    scenario = {
        "name": "all_pairs_check", "game": "godtear", "seed": 11, "n_trials": 400, "chunk_size": 400,
        "parts": [{"name": "p", "task": "knockout",
                   "cases": [{"name": "a", "accuracy": 2}, {"name": "b", "accuracy": 4}, {"name": "c", "accuracy": 6}]}],
        "compare": {"baseline": "a", "pairs": "all", "metrics": ["knockout"]},
    }
    r = gamesim.sweep(scenario, progress=False, cache_root=tmp_path)
    comp = r.comparisons[r.comparisons["statistic"] == "difference"]
    pairs = {(b, v) for b, v in zip(comp["baseline"], comp["variant"])}
    assert len(pairs) == 3
    sentences = comparison_sentences(r, "p")
    assert sorted(s.split(":")[0] for s in sentences) == sorted(f"*{v}* against *{b}*" for b, v in pairs)
    rows = {d["setting"] for d in next(iter(compare_chart(r, "p").to_dict()["datasets"].values()))}
    assert rows == {f"{v} − {b}" for b, v in pairs}
    assert "Holm-adjusted" in r.compare("knockout").columns


def test_report_draws_the_widest_distributions_and_tabulates_every_one(res):
    from gamesim.report.generic import MAX_DISTRIBUTION_METRICS, distribution_metrics

    drawn, tabulated = distribution_metrics(res, "p")
    d = res.distributions[res.distributions["part"] == "p"]
    assert set(tabulated) == set(d["metric"])
    n_values = d.groupby("metric")["value"].nunique()
    assert len(drawn) <= MAX_DISTRIBUTION_METRICS and set(drawn) <= set(tabulated)
    assert all(n_values[m] > 2 for m in drawn)  # a 0/1 metric's distribution is its proportion
    wide = n_values[n_values > 2]
    assert len(drawn) == min(MAX_DISTRIBUTION_METRICS, len(wide))
    if drawn:  # none left out is wider than one drawn
        assert max((n_values[m] for m in wide.index if m not in drawn), default=0) <= n_values[drawn].min()
    assert distribution_metrics(res, "no such part") == ([], [])


def test_has_parts_asks_for_rows_of_every_named_part() -> None:
    from gamesim.report.present import has_parts

    frame = pd.DataFrame({"part": ["a", "a", "b"], "metric": ["x", "y", "x"]})
    assert has_parts(frame, "a") and has_parts(frame, "a", "b")
    assert not has_parts(frame, "c") and not has_parts(frame, "a", "c")
    assert not has_parts(frame.iloc[0:0], "a")  # a part the scenario named but the sweep wrote no row of
    with pytest.raises(TypeError, match="part names"):
        has_parts(frame)
    with pytest.raises(TypeError, match="part names"):
        has_parts(frame, ["a"])  # type: ignore[arg-type]


def test_report_text_writes_values_as_a_scenario_file_does():
    """true/false (TOML's spelling, so a value copied from a report into a scenario is valid), lists as JSON."""
    import numpy as np

    from gamesim.report.present import interval_table, scenario_spelling, show_text

    assert [show_text(v) for v in (True, np.bool_(False), (1, 2), None, 3, "x")] == ["true", "false", "[1, 2]", "–",
                                                                                  "3", "x"]
    df = pd.DataFrame({"a": [True, False], "b": ["x", True], "c": [1.5, 2.5]},
                      index=pd.MultiIndex.from_tuples([(True, 1), (False, 2)], names=["expert", "n"]))
    out = scenario_spelling(df)
    assert list(out.index) == [("true", 1), ("false", 2)] and out.index.names == ["expert", "n"]
    assert list(out["a"]) == ["true", "false"] and list(out["b"]) == ["x", "true"] and list(out["c"]) == [1.5, 2.5]
    assert "True" not in out.to_html() and list(df["a"]) == [True, False]  # the caller's frame is unchanged
    plain = pd.DataFrame({"c": [1.5]}, index=pd.Index([3], name="n"))
    assert scenario_spelling(plain) is plain
    rows = pd.DataFrame({"overdrive": [False, True, False, True], "expert": [False, False, True, True],
                         "estimate": [0.5] * 4, "ci_low": [0.4] * 4, "ci_high": [0.6] * 4, "n": [10] * 4})
    table = interval_table(rows, "overdrive", "expert", exact=False)
    assert list(table.index) == ["false", "true"] and list(table.columns) == ["false", "true"]
    assert list(interval_table(rows, ["overdrive", "expert"], exact=False).index)[0] == ("false", "false")


def test_findings_lead_with_the_scenarios_own_metrics_rank_all_pairs_and_say_where_precision_failed(tmp_path):
    """No findings key: the [precision] metric, then the [compare] metrics lead the Findings (not the task's first
    metrics); pairs = "all" gives the ranking the exact values give, best first; a precision target missed is
    named by the cell's settings in the Findings, as the results' target_met says."""
    from gamesim.core.registry import get_game

    task = get_game("godtear").tasks["knockout"]
    exact = {a: task.exact(task.defaults(accuracy=a))["wounds:mean"] for a in (1, 2, 4)}
    scenario = {
        "name": "ranked", "game": "godtear", "seed": 2, "n_trials": 400, "chunk_size": 400,
        "parts": [{"name": "p", "task": "knockout",
                   "cases": [{"name": "a", "accuracy": 1}, {"name": "b", "accuracy": 2}, {"name": "c", "accuracy": 4}]}],
        "compare": {"baseline": "a", "pairs": "all", "metrics": ["uses_to_knockout", "wounds"], "better": "higher"},
        "precision": {"metric": "wounds", "half_width": 0.02, "max_trials": 800},
    }
    r = gamesim.sweep(scenario, progress=False, cache_root=tmp_path)
    bullets = [ln for ln in findings_markdown(r).splitlines() if ln.startswith("- ")]
    assert [b.split("**")[1] for b in bullets[:2]] == ["wounds", "uses_to_knockout"], bullets[:3]

    ranked = [b for b in bullets if ", higher is better:" in b and b.startswith("- **wounds**")]
    assert len(ranked) == 1, bullets
    order = sorted(exact, key=exact.get, reverse=True)  # the exact means: accuracy 4, 2, 1
    se = r.rows("wounds", part="p", statistic="mean")["se"].max()
    assert min(abs(exact[x] - exact[y]) for x in exact for y in exact if x != y) > 8 * se  # no near tie
    names = {1: "a", 2: "b", 4: "c"}
    positions = [ranked[0].index(f"{k}. case = {names[a]} ") for k, a in enumerate(order, 1)]
    assert positions == sorted(positions), ranked[0]
    assert f"best {names[order[0]]}, and no other value is indistinguishable from it" in ranked[0]
    rows = r.rows("wounds", part="p", statistic="mean").set_index("case")
    for case in names.values():  # every ranked estimate with its trials
        item = ranked[0].split(f"case = {case} (", 1)[1].split(")", 1)[0]
        assert item.endswith(f", n = {int(rows.loc[case, 'n']):,}"), item

    frame = r.part_frame("p")
    met = frame[frame["metric"] == "wounds"].drop_duplicates("cell").set_index("case")["target_met"]
    prec = [b for b in bullets if b.startswith("- Precision target")]
    assert len(prec) == 1
    if met.all():
        assert "met in every one of the 3 cells" in prec[0]
    else:
        assert f"met in {int(met.sum())} of 3 cells" in prec[0]
        for case, ok in met.items():
            assert (f"case = {case}" in prec[0]) == (not ok), prec[0]


def test_precision_sentence_explains_a_cell_with_no_spread(tmp_path):
    """A cell whose every trial gives the same value of an unbounded metric can never meet a precision target
    (its interval is infinite while that holds): the Findings say so instead of leaving "not met" unexplained."""
    import numpy as np

    from gamesim.core import registry
    from gamesim.core.registry import Game, Metric, Param, Task, register_game

    def sim(params, n_trials, *, rng):
        g = np.random.default_rng(rng)
        return {"x": np.zeros(n_trials) if params["flat"] else g.exponential(1.0, n_trials)}

    game = register_game(Game("flat_metric_findings_test", "synthetic (tests only)",
                              {"t": Task("t", sim, (Metric("x", "mean"),), (Param("flat", "bool", True),))}))
    try:
        r = gamesim.sweep({"name": "flat", "game": game.name, "seed": 1, "n_trials": 100, "chunk_size": 100,
                           "parts": [{"name": "p", "task": "t", "grid": {"flat": [True, False]}}],
                           "precision": {"metric": "x", "half_width": 0.5, "max_trials": 300}},
                          progress=False, cache_root=tmp_path)
    finally:
        registry._REGISTRY.pop(game.name, None)
    prec = [ln for ln in findings_markdown(r).splitlines() if ln.startswith("- Precision target")]
    assert len(prec) == 1 and "met in 1 of 2 cells" in prec[0] and "at flat = true" in prec[0], prec
    assert "every trial there gave the same value" in prec[0]



def _tens(params, n_trials, *, rng):  # type: ignore[no-untyped-def]
    """``ten``: 10 * p in every trial, or (``spread`` > 0) 10 * p plus a die roll of the trial's own stream."""
    roll = np.random.default_rng(rng).integers(1, 7, n_trials) if params["spread"] else np.zeros(n_trials)
    return {"ten": 10.0 * params["p"] + roll}


@pytest.mark.parametrize(("crn", "spread", "same"), [(True, 1, True), (True, 0, False), (False, 0, False)])
def test_the_same_result_in_every_paired_trial_only_where_trials_are_paired_and_vary(tmp_path, crn, spread, same):
    """Two cases with equal settings. Paired on common random numbers, with trials that vary: "the same result in
    every paired trial". A metric that never varies (in either cell) is not news: "no detectable difference"; nor
    are equal samples that are not paired (``crn = false``)."""
    from gamesim.core import registry
    from gamesim.core.registry import Game, Metric, Param, Task, register_game

    game = register_game(Game("tens_findings_test", "synthetic metric (tests only)",
                              {"draw": Task("draw", _tens, (Metric("ten", "mean"),),
                                            (Param("p", "float", 0.5, min=0.0, max=1.0),
                                             Param("spread", "int", 0, min=0, max=1)))}))
    try:
        r = gamesim.sweep({"name": "tens_check", "game": game.name, "seed": 5, "n_trials": 300, "chunk_size": 300,
                           "params": {"spread": spread},
                           "parts": [{"name": "p", "task": "draw",
                                      "cases": [{"name": "a", "p": 0.5}, {"name": "b", "p": 0.5}]}],
                           "compare": {"baseline": "a", "crn": crn}}, progress=False, cache_root=tmp_path)
    finally:
        registry._REGISTRY.pop(game.name, None)
    diff = r.comparisons[r.comparisons["statistic"] == "difference"].iloc[0]
    assert bool(diff["crn"]) == crn and (diff["estimate"] == 0 and diff["se"] == 0) == (crn or not spread)
    (sentence,) = comparison_sentences(r, "p")
    if same:
        assert "the same result in every paired trial in **ten** at n = 300 pairs" in sentence, sentence
        assert "detectable" not in sentence
    else:
        assert "the same result" not in sentence and "no detectable difference in **ten**" in sentence, sentence


def test_matplotlib_estimates_of_a_whole_number_parameter_have_whole_number_ticks():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from gamesim.report.present import plot_estimates

    rows = pd.DataFrame({"n_players": [3, 4], "estimate": [0.3, 0.25], "ci_low": [0.28, 0.23], "ci_high": [0.32, 0.27]})
    fig, ax = plt.subplots()
    plot_estimates(ax, rows, "n_players")
    fig.canvas.draw()
    ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
    assert ticks and all(float(t).is_integer() for t in ticks), ticks
    plt.close(fig)


def test_a_metric_described_differently_by_a_parts_cells_is_described_for_each_of_them():
    from gamesim.core.scenario import load_scenario
    from gamesim.report.generic import metric_doc

    assert metric_doc({"one doc": [{"n": 2}, {"n": 3}]}) == "one doc"
    # told apart by one swept dimension: its values
    assert metric_doc({"a": [{"x": 1, "n": 2}], "b": [{"x": 1, "n": 3}, {"x": 1, "n": 4}]}) == "a (at n = 2); b (at n = 3, 4)"
    # by no single dimension: the cells' settings, three at most
    text = metric_doc({"a": [{"x": 0, "n": 0}, {"x": 1, "n": 1}], "b": [{"x": 0, "n": 1}, {"x": 1, "n": 0}]})
    assert text == "a (at x = 0, n = 0; x = 1, n = 1); b (at x = 0, n = 1; x = 1, n = 0)", text
    many = [{"x": i, "n": i % 2} for i in range(5)]
    text = metric_doc({"a": many, "b": [{"x": 0, "n": 1}]})
    assert text == "a (at x = 0, n = 0; x = 1, n = 1; x = 2, n = 0; 2 more cells); b (at x = 0, n = 1)", text
    # a real case: the gacha bag's shared task says what complete_p1 is under each stop rule
    part = load_scenario({"name": "s", "game": "gacha", "seed": 1, "n_trials": 10, "parts": [
        {"name": "s", "task": "shared", "grid": {"stop_at_completion": [True, False]}}]}).parts[0]
    by_doc: dict[str, list[dict]] = {}
    for cell, label in zip(part.cells(), part.labels()):
        doc = next(m.doc for m in part.task.metrics_for(cell) if m.name == "complete_p1")
        by_doc.setdefault(doc, []).append(label)
    text = metric_doc(by_doc)
    assert "(at stop_at_completion = true)" in text and "(at stop_at_completion = false)" in text, text
