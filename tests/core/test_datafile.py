"""source_label: a data file's label starts a one-line message whatever it holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamesim.core.datafile import source_label


@pytest.mark.parametrize("source, shown", [("weapons.toml", "weapons.toml"), ("<data>", "<data>"),
                                           (Path("cards/a b.toml"), "cards/a b.toml"), ("カード.toml", "カード.toml"),
                                           ("a\nb", "'a\\nb'"), ("\t", "'\\t'")])
def test_printable_labels_as_given_others_quoted(source, shown):
    assert source_label(source) == shown
