"""Shared helpers of the fault-injection tests: a small Godtear scenario and in-process CLI runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamesim.cli import main

#: Small and fast: 3 cells x 3 chunks of 100 trials (godtear kernels run in milliseconds).
SMALL = """
name = "{name}"
game = "godtear"
{seed}
n_trials = 300
chunk_size = 100
[[parts]]
name = "wounds"
task = "damage_roll"
params = {{ damage = 2 }}
grid = {{ protection = [0, 1, 3] }}
"""


def scenario_text(name: str = "small", seed: int | None = 11) -> str:
    return SMALL.format(name=name, seed=f"seed = {seed}" if seed is not None else "")


@pytest.fixture
def scen(tmp_path):
    """Write a scenario file (default: the small one) and return its path."""

    def write(text: str | None = None, file: str = "small.toml") -> Path:
        path = tmp_path / file
        path.write_text(scenario_text() if text is None else text, encoding="utf-8")
        return path

    return write


@pytest.fixture
def cli(capsys):
    """Run ``gamesim ARGS`` in-process; return (exit status, stdout, stderr)."""

    def run(*args: str) -> tuple[int, str, str]:
        code = main([str(a) for a in args])
        out, err = capsys.readouterr()
        return code, out, err

    return run


def one_error_line(err: str) -> str:
    """The stderr of a refused command: exactly one ``gamesim: error:`` line, no traceback."""
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert "Traceback" not in err, err
    errors = [ln for ln in lines if ln.startswith("gamesim: error:")]
    assert len(errors) == 1, err
    return errors[0]
