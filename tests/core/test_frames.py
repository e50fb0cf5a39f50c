"""The one DataFrame wrapper of a game's per-trial arrays (gamesim.core.frames)."""

from __future__ import annotations

import numpy as np
import pytest

from gamesim.core.errors import ParamError
from gamesim.core.frames import trials_frame


def test_columns_per_seat_and_dtypes_kept():
    won = np.array([True, False, True])
    vp = np.arange(6, dtype=np.int16).reshape(3, 2)
    acts = np.arange(12).reshape(3, 2, 2)
    df = trials_frame({"won": won, "vp": vp, "acts": acts})
    assert list(df.columns) == ["won", "vp_0", "vp_1", "acts_0_0", "acts_0_1", "acts_1_0", "acts_1_1"]
    assert len(df) == 3 and list(df.index) == [0, 1, 2]
    assert df["won"].dtype == bool and df["vp_1"].dtype == np.int16
    np.testing.assert_array_equal(df["vp_1"], vp[:, 1])
    np.testing.assert_array_equal(df["acts_1_0"], acts[:, 1, 0])
    assert trials_frame({}).shape == (0, 0)


@pytest.mark.parametrize("bad", [
    {"a": np.arange(3), "b": np.arange(4)},          # lengths differ
    {"a": np.float64(1.0)},                          # no trial axis
    {"": np.arange(2)},                              # empty name
    {3: np.arange(2)},                               # not a name
    {"x_0": np.arange(2), "x": np.zeros((2, 1))},    # column names clash
])
def test_refused(bad):
    with pytest.raises(ParamError):
        trials_frame(bad)
