"""Make a study notebook show the generic report first (idempotent).

Usage: python scripts/add_generic_report.py notebooks/X.ipynb [...]

Inserts, right after the papermill ``parameters`` cell, a code cell that renders the
generic report of the scenario (every part, metric, comparison and distribution), and
turns the notebook's own title line into the heading of the study's own analysis.
"""

from __future__ import annotations

import sys

import nbformat

MARK = "# gamesim: the generic report of every part comes first"
CALL = MARK + "\nimport gamesim\n\ngamesim.Results.load(results_path, scenario_path).report()"
OLD_TITLE = 'display(Markdown(f"# {sc.title}\\n\\n**Question.** {sc.question}"))'
NEW_TITLE = 'display(Markdown(f"# {sc.title}: the study\'s own analysis\\n\\nThe sections above show every part of the scenario; the analysis written for this study follows."))'


def main(paths: list[str]) -> None:
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        if any(MARK in c.source for c in nb.cells):
            continue
        at = next(i for i, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", []))
        nb.cells.insert(at + 1, nbformat.v4.new_code_cell(CALL))
        for c in nb.cells:
            if OLD_TITLE in c.source:
                c.source = c.source.replace(OLD_TITLE, NEW_TITLE)
        for c in nb.cells:  # nbformat >= 5.1 wants ids on every cell
            c.setdefault("id", nbformat.v4.new_code_cell().id)
        nbformat.write(nb, path)
        print(f"{path}: generic report added")


if __name__ == "__main__":
    main(sys.argv[1:])
