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
