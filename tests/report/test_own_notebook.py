"""A designer's own notebook (`gamesim report X.toml --notebook mine.ipynb`): checked before it runs, and a
notebook written by hand (no cell ids, no kernel metadata) runs without warnings."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import nbformat
import pytest

from gamesim.report.render import ReportError, _load_notebook, execute_notebook


@pytest.mark.parametrize(("content", "says"), [
    (b"hello\n", "not UTF-8 JSON"),
    (b"\xff\xfe{}", "not UTF-8 JSON"),
    (b"[1, 2]", "nbformat = 'list'"),
    (json.dumps({"cells": []}).encode(), "of format 4 (nbformat = None)"),
    (json.dumps({"nbformat": 3, "nbformat_minor": 0, "worksheets": []}).encode(), "of format 4 (nbformat = 3)"),
    (json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code"}]}).encode(),
     "not a valid Jupyter notebook"),
])
def test_what_is_not_a_notebook_is_refused_in_one_line_naming_the_file(tmp_path, content, says):
    path = tmp_path / "mine.ipynb"
    path.write_bytes(content)
    with pytest.raises(ReportError) as err:
        _load_notebook(path)
    msg = str(err.value)
    assert msg.startswith(f"{path}: ") and says in msg and "\n" not in msg, msg
    with pytest.raises(ReportError, match="cannot be read"):
        _load_notebook(tmp_path / "missing.ipynb")


def test_a_notebook_written_by_hand_runs_without_warnings(tmp_path):
    """No cell ids (nbformat 4.4) and no kernel or language metadata: the ids are added and the language is
    given, so it runs as Jupyter would run it; the parameters are injected as for any study notebook."""
    path = tmp_path / "mine.ipynb"
    path.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 4, "metadata": {}, "cells": [
        {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
         "source": "print('results at', results_path)"}]}), encoding="utf-8")
    out = tmp_path / "out" / "executed.ipynb"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        execute_notebook(path, out, {"results_path": "somewhere.parquet"})
    executed = nbformat.read(out, as_version=4)
    printed = "".join(o.get("text", "") for c in executed.cells if c.cell_type == "code" for o in c.outputs)
    assert "results at somewhere.parquet" in printed
    assert all(c.get("id") for c in executed.cells)
    assert Path(path).read_text(encoding="utf-8").count('"id"') == 0  # the designer's file is left as it was
