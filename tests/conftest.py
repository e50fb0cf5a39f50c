"""Shared fixtures: paths, and writing scenario files into a temporary folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "notebooks" / "gacha_god_chance.ipynb"


@pytest.fixture
def write_scenario(tmp_path):
    """Write a scenario TOML (body without the notebook line) and return its path."""

    def write(body: str, name: str = "scen.toml") -> Path:
        path = tmp_path / name
        path.write_text(f'notebook = "{NOTEBOOK.as_posix()}"\n' + body, encoding="utf-8")
        return path

    return write


def run_cli(*args: str, cwd: Path | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run ``python -m gamesim.cli ARGS`` in a subprocess and capture its output."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.run(
        [sys.executable, "-m", "gamesim.cli", *args],
        cwd=cwd or ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


#: Text every study report must show (run table, rules section, intervals, plots).
COMMON_REPORT_TEXTS = ("seed entropy", "gamesim version", "Rules and variant modelled", "95%", "data:image/png;base64")


def check_report(out_dir: Path, scenario: str, texts: tuple[str, ...] = (), code: tuple[str, ...] = ()) -> str:
    """Run ``gamesim report SCENARIO`` into ``out_dir`` and check the HTML and PDF it writes.

    Asserts: exit 0; a PDF over 20 kB; ``COMMON_REPORT_TEXTS`` and ``texts`` in the HTML;
    no code (``load_results(`` and ``code``) and no traceback or error in it. Returns the HTML.
    """
    proc = run_cli("report", scenario, "--out-dir", str(out_dir), "--quiet", timeout=600)
    assert proc.returncode == 0, proc.stderr
    name = Path(scenario).stem
    html = (out_dir / f"{name}.html").read_text(encoding="utf-8")
    pdf = (out_dir / f"{name}.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and len(pdf) > 20_000
    for text in COMMON_REPORT_TEXTS + texts:
        assert text in html, text
    for snippet in ("load_results(",) + code:
        assert snippet not in html, f"code cells must be hidden ({snippet!r} in the report)"
    assert "Traceback" not in html and "Error" not in html.split("<body")[1][:200]
    return html
