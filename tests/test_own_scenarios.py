"""A designer's own scenarios, shaped like no built-in study, get complete and correct reports.

For every game: renamed parts, an extra grid dimension, cases, a [compare] table and no
notebook key. The generic report must show every grid combination in its tables and plot
legends, exact values in the right cells, the comparison, and no built-in study wording.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest

from gamesim.core.api import Results
from gamesim.report.generic import table_id
from gamesim.report.present import format_interval, format_value
from gamesim.core.scenario import load_scenario
from tests.conftest import ROOT, Rendered, check_page

OWN = {
    "gacha": """
title = "Bag experiments for a new expansion"
game = "gacha"
question = "Does a second God Chance chip beat a smaller bag?"
seed = 7
n_trials = 1500
chunk_size = 750
[[parts]]
name = "chip_mix"
title = "Chips in the bag"
task = "schedule"
cases = [{ name = "baseline bag", bag_god_chance = 1, bag_n = 44 }, { name = "two GC", bag_god_chance = 2, bag_n = 43 },
         { name = "small bag", bag_n = 30 }]
grid = { session_size = [1, 10], total_pulls = [40, 80, 120] }
[[parts]]
name = "finish_line"
task = "pulls_to_complete"
grid = { bag_sr = [3, 5], session_size = [5, 20] }
[compare]
baseline = "baseline bag"
metrics = ["complete", "god_chances"]
""",
    "godtear": """
title = "Champion durability draft"
game = "godtear"
question = "How much tougher is a champion with one more protection?"
seed = 11
n_trials = 2000
chunk_size = 1000
[[parts]]
name = "toughness"
task = "knockout"
cases = [{ name = "soft", protection = 0, health = 5 }, { name = "hard", protection = 1 }]
grid = { accuracy = [3, 4, 5], uses = [1, 2], dodge = [1, 2] }
[[parts]]
name = "to_hit"
task = "success_roll"
grid = { accuracy = [2, 3, 4, 5], dodge = [1, 3] }
[compare]
baseline = "soft"
metrics = ["knockout", "wounds"]
""",
    "qftnw": """
title = "Funding house rule"
game = "qftnw"
question = "Does starting with more funds shorten games?"
seed = 3
n_trials = 400
chunk_size = 200
[params]
max_rounds = 400
[[parts]]
name = "money_start"
task = "game"
cases = [{ name = "lean", start_funds = 4 }, { name = "rich", start_funds = 6 }]
grid = { edition = ["original", "spa"], fund_cap = [6, 8] }
[compare]
baseline = "lean"
metrics = ["p0_wins", "bankruptcies", "seat_margin"]
""",
    "dqz": """
title = "Monster tuning pass"
game = "dqz"
question = "How much HP can the slime have before parties lose?"
seed = 5
n_trials = 600
chunk_size = 300
[[parts]]
name = "slime_hp"
task = "battle"
cases = [{ name = "trio", party_size = 3 }, { name = "quartet", party_size = 4 }]
grid = { hp = [20, 40, 60], hand_size = [3, 4] }
[compare]
baseline = "trio"
metrics = ["won", "turns"]
""",
    "gacha_game": """
title = "Slayer table sizes"
game = "gacha_game"
question = "Do eager pullers end more games by コンスリート than random players, at two and three seats?"
seed = 13
n_trials = 240
chunk_size = 120
[[parts]]
name = "table_talk"
title = "Eager or random slayers"
task = "game"
cases = [{ name = "coin tossers", policy = "random" }, { name = "eager pullers", policy = "greedy_pulls" }]
grid = { n_players = [2, 3], expert = [false, true] }
[[parts]]
name = "raid_check"
task = "boss_attack"
grid = { kind = ["normal", "critical", "double"], health = [1, 3, 6] }
[compare]
baseline = "coin tossers"
metrics = ["consolete", "win_seat1"]
""",
    "ice_cream_turret": """
title = "Sprinkle deck pass"
game = "ice_cream_turret"
question = "How far does a tidy player get beyond a coin-flip player as the 7s change?"
seed = 17
n_trials = 200
chunk_size = 200
[[parts]]
name = "sprinkles"
task = "solitaire"
cases = [{ name = "coin flip", policy = "random" }, { name = "tidy", policy = "greedy" }]
grid = { copies_7 = [0, 4, 8], crush_cascade = [false, true] }
[[parts]]
name = "high_score"
title = "Score chase"
task = "score_attack"
grid = { line_bonus = ["cap", "double"], base_copies = [3, 4] }
[compare]
baseline = "coin flip"
metrics = ["won", "cycle_reached"]
""",
}

#: Games whose scenarios above have cells with exact values.
EXACT_GAMES = {"gacha", "godtear", "gacha_game"}

#: Wording of the built-in study notebooks that must never appear in a generic report.
BUILTIN_WORDING = ("default bag (1 God Chance", "change scenarios/", "qftnw_editions.toml", "gacha_god_chance.toml",
                   "godtear_knockout.toml", "dqz_battles.toml", "gacha_game.toml", "ice_cream_turret.toml",
                   "godtear_hit_tables.toml", "Traceback")


def _builtin_texts() -> list[str]:
    """Every title, question and note of the built-in scenarios, and the prose of the study notebooks.

    Taken as plain-text fragments of at least 30 characters (split at Markdown markup and line
    ends, HTML-escaped as the report would show them), so none of them can leak into the
    generic report of a designer's own scenario.
    """
    import html
    import tomllib

    import nbformat

    texts: list[str] = []
    for path in sorted((ROOT / "scenarios").glob("*.toml")):
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        for d in [raw, *raw.get("parts", [])]:
            texts += [str(d[k]) for k in ("title", "question", "notes") if d.get(k)]
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        texts += [c.source for c in nb.cells if c.cell_type == "markdown"]
    out = set()
    for text in texts:
        for frag in re.split(r"[\n*`#|\[\]()_\\]+", text):
            frag = " ".join(frag.split())
            if len(frag) >= 30:
                out.add(html.escape(frag, quote=False))
    return sorted(out)


def _table_html(page: str, tid: str) -> str:
    m = re.search(rf'<table[^>]*id="{re.escape(tid)}"[^>]*>(.*?)</table>', page, re.S)
    assert m, f"no table {tid} in the report"
    return m.group(1)


class _Cells(HTMLParser):
    """The header and body cells of a pandas ``to_html`` table, as (tag, text, rowspan) per row."""

    def __init__(self) -> None:
        super().__init__()
        self.head: list[list[str]] = []
        self.body: list[list[tuple[str, str, int]]] = []
        self.section = ""
        self.cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):  # type: ignore[no-untyped-def]
        if tag in ("thead", "tbody"):
            self.section = tag
        elif tag == "tr":
            (self.head if self.section == "thead" else self.body).append([])
        elif tag in ("th", "td"):
            self.cell, self.tag, self.span = [], tag, int(dict(attrs).get("rowspan", 1))

    def handle_data(self, data):  # type: ignore[no-untyped-def]
        if self.cell is not None:
            self.cell.append(data)

    def handle_endtag(self, tag):  # type: ignore[no-untyped-def]
        if tag in ("th", "td") and self.cell is not None:
            text = " ".join("".join(self.cell).split())
            if self.section == "thead":
                self.head[-1].append(text)
            else:
                self.body[-1].append((self.tag, text, self.span))
            self.cell = None


def _table_rows(body: str, n_index: int) -> dict[tuple[str, ...], dict[str, str]]:
    """The rendered table as {index values (as shown): {column: text}}, row-spanned index cells repeated."""
    p = _Cells()
    p.feed(body)
    columns = p.head[0][n_index:]
    pending: dict[int, list] = {}
    out = {}
    for row in p.body:
        own = iter(row)
        index = []
        for level in range(n_index):
            if pending.get(level, [None, 0])[1] > 0:
                pending[level][1] -= 1
                index.append(pending[level][0])
            else:
                tag, text, span = next(own)
                assert tag == "th", row
                pending[level] = [text, span - 1]
                index.append(text)
        values = [text for _, text, _ in own]
        assert len(values) == len(columns), (row, columns)
        out[tuple(index)] = dict(zip(columns, values))
    return out


def _shown(value: object) -> str:
    """A value as the report shows it: as a scenario file writes it (booleans true/false)."""
    return json.dumps(value) if isinstance(value, bool) else str(value)


def _series_caption(page: str, what: str, after: str) -> list[str]:
    """The series named under the first figure captioned ``what`` after the text ``after``."""
    start = page.index(after)
    m = re.compile(rf'<p class="gamesim-series">{re.escape(what)}(?: \(([^)]*)\))?: (.*?)</p>', re.S).search(page, start)
    assert m, f"no series caption {what!r}"
    return [s for s in m.group(2).split("; ") if s]


@pytest.fixture(scope="session")
def own_scenario(tmp_path_factory):
    """``own_scenario(game) -> Path``: the scenario ``OWN[game]`` written once per session."""
    folder = tmp_path_factory.mktemp("own")

    def get(game: str) -> Path:
        path = folder / f"own_{game}.toml"
        if not path.is_file():
            path.write_text(OWN[game], encoding="utf-8")
        return path

    return get


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(OWN))
def test_own_scenario_report_shows_every_combination(game, own_scenario, report_of):
    path = own_scenario(game)
    check_generic_report(path, report_of(path), exact_expected=game in EXACT_GAMES)


def check_generic_report(path: Path, rendered: Rendered, *, exact_expected: bool) -> tuple[str, Results]:
    """Every check of the generic report of ``path`` (a scenario without a notebook); returns the page and results."""
    sc = load_scenario(path)
    assert sc.notebook is None
    out = rendered.out_dir
    page = rendered.html
    for phrase in BUILTIN_WORDING:
        assert phrase not in page, phrase
    leaked = [t for t in _builtin_texts() if t in page]
    assert not leaked, leaked
    assert "load_results(" not in page and ".report()" not in page  # code hidden
    assert sc.title in page and sc.question in page
    check_page(rendered)

    res = Results.load(out / f"{sc.name}.parquet", path)
    n_exact = 0
    for part in sc.parts:
        cells = part.labels()
        assert part.name in page
        if part.title:
            assert part.title in page
        # every metric the task declares for some cell is reported (some depend on the cell, e.g. seats)
        declared = {m.name: [] for c in part.cells() for m in part.task.metrics_for(c)}
        for label, cell in zip(cells, part.cells()):
            for m in part.task.metrics_for(cell):
                declared[m.name].append(label)
        assert set(res.metrics(part.name)) == set(declared), part.name
        # the part's one figure: x is the numeric swept dimension with most values (else the one with most
        # values, as categories); one series per combination of the others, named under the figure
        seen = {d: list(dict.fromkeys(lab[d] for lab in cells)) for d in part.dims}
        swept = [d for d in part.dims if len(seen[d]) > 1]
        numeric = [d for d in swept if all(isinstance(v, int) and not isinstance(v, bool) for v in seen[d])]
        x = max(numeric or swept, key=lambda d: len(seen[d])) if swept else None
        others = [d for d in part.dims if d != x]
        combos = sorted({tuple(lab[d] for d in others) for lab in cells}, key=str)
        series = _series_caption(page, "Series plotted", f"<figcaption>{part.name}: ")
        if others:
            assert len(series) == len(combos), (part.name, series, combos)
            for combo in combos:
                assert " | ".join(_shown(v) for v in combo) in series, (part.name, combo, series)
        for metric in res.metrics(part.name):
            having = declared[metric]  # the cells with this metric, each a row of its table
            body = _table_html(page, table_id(part.name, metric))
            assert body.count("<tr") - body.split("</thead>")[0].count("<tr") == len(having), (part.name, metric)
            for value in {lab[d] for lab in having for d in part.dims}:
                assert _shown(value) in body, (metric, value)
            # every exact value sits in its own cell's row, beside that cell's estimate, and agrees with it
            shown_rows = _table_rows(body, len(part.dims))
            assert len(shown_rows) == len(having)
            rows = res.rows(metric, part=part.name)
            for _, r in rows[rows["exact"].notna()].iterrows():
                label = cells[int(r["cell"])]
                row = shown_rows[tuple(_shown(label[d]) for d in part.dims)]
                stat = r["statistic"]
                assert row[f"exact {stat}"] == format_value(r["exact"]), (metric, label, row, r["exact"])
                assert row[f"{stat} [95% CI]"] == format_interval(r["estimate"], r["ci_low"], r["ci_high"],
                                                                  n=int(r["n"]), short=True)
                assert int(row["n"].replace(",", "")) == r["n"]
                if stat in ("proportion", "mean"):
                    se = r["se"]
                    if stat == "proportion":  # a rare event may show no success: use the SE the exact value implies
                        se = max(se, (r["exact"] * (1 - r["exact"]) / r["n"]) ** 0.5)
                    assert abs(r["estimate"] - r["exact"]) <= 4.5 * se + 1e-9, (metric, label, r.to_dict())
                n_exact += 1
        if part.cases:
            # the cases table shows each value as the scenario wrote it, "(default)" where a case leaves it out
            shown_cases = _table_rows(_table_html(page, table_id(part.name, "cases", "cases")), 1)
            names = list(dict.fromkeys(k for c in part.cases for k in c.params))
            assert shown_cases == {(c.name,): {k: _shown(c.params[k]) if k in c.params else "(default)" for k in names}
                                   for c in part.cases}, shown_cases
            comp = res.to_frame("compare")
            mine = comp[(comp["part"] == part.name) & (comp["statistic"] == "difference")]
            assert len(mine) == len(sc.compare.metrics) * (len(part.cases) - 1) * (len(cells) // len(part.cases))
            for metric in sc.compare.metrics:
                body = _table_html(page, table_id(part.name, metric, "compare"))
                m = mine[mine["metric"] == metric]
                assert body.count("<tr") - body.split("</thead>")[0].count("<tr") == len(m)
                for _, r in m.iterrows():
                    assert f"{r['estimate']:.3f} [{r['ci_low']:.3f}, {r['ci_high']:.3f}]" in body
                    if pd.notna(r["exact"]):
                        se = r["se"]
                        if res.primary_statistic(metric, part=part.name) == "proportion":
                            # rare events can show no success at all: use the SE the exact values imply too
                            ex = res.rows(metric, part=part.name).set_index("cell")["exact"]
                            pv, pb = ex[r["cell"]], ex[r["baseline_cell"]]
                            se = max(se, ((pv * (1 - pv) + pb * (1 - pb)) / r["n"]) ** 0.5)
                        assert abs(r["estimate"] - r["exact"]) <= 4.5 * se + 1e-9, r.to_dict()
    if exact_expected:  # the games with exact solvers show exact values for these scenarios
        assert n_exact > 0, sc.name
    # seeds and reproduction recorded in the report
    assert str(sc.seed) in page and "seed entropy" in page
    return page, res


@pytest.mark.slow
def test_two_chip_example_report_answers_its_question(report_of):
    """The shipped example: P(コンスリート by 200 pulls) for both bags, exact values, the difference with its interval."""
    path = ROOT / "scenarios" / "examples" / "gacha_two_god_chance_chips.toml"
    page, res = check_generic_report(path, report_of(path), exact_expected=True)
    rows = res.rows("complete", part="bag_variants", statistic="proportion")
    at200 = rows[rows["total_pulls"] == 200]
    assert set(at200["case"]) == {"1 God Chance / 44 N", "2 God Chance / 43 N"} and len(at200) == 4
    assert at200["exact"].notna().all()  # checked against the estimates and placed in their rows above
    shown = _table_rows(_table_html(page, table_id("bag_variants", "complete", "compare")), 3)
    comp = res.to_frame("compare")
    diff = comp[(comp["metric"] == "complete") & (comp["statistic"] == "difference") & (comp["total_pulls"] == 200)]
    assert len(diff) == 2  # single pulls and sessions of 10
    for _, d in diff.iterrows():
        row = shown[(d["variant"], str(d["session_size"]), "200")]
        assert row["difference [95% CI]"] == f"{d['estimate']:.3f} [{d['ci_low']:.3f}, {d['ci_high']:.3f}]"
        assert row["exact"] == f"{d['exact']:.3f}" and d["ci_low"] > 0  # two chips complete more often
