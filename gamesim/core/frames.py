"""One DataFrame wrapper for every game: the per-trial arrays of a game's ``simulate`` as a table.

Every game's ``sim.simulate(params, n_games, *, rng)`` returns a dict of numpy arrays whose axis 0
is the trial (issue 25 point 3, checked by ``tests/games/test_game_shape.py``). :func:`trials_frame`
turns any such dict into a :class:`pandas.DataFrame` with one row per trial, so no game writes its
own wrapper:

>>> import numpy as np
>>> trials_frame({"rounds": np.array([3, 5]), "vp": np.array([[1, 2], [4, 0]])})
   rounds  vp_0  vp_1
0       3     1     2
1       5     4     0

QftNW's older ``simulate(n_games, edition=...)`` form keeps its own labelled frame
(:func:`gamesim.games.qftnw.sim.to_frame`), as documented there.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from gamesim.core.errors import ParamError

__all__ = ["trials_frame"]


def trials_frame(arrays: Mapping[str, Any]) -> pd.DataFrame:
    """The per-trial arrays of a game's ``simulate`` as a DataFrame, one row per trial.

    Parameters
    ----------
    arrays : mapping of str to array_like
        What a game's ``sim.simulate`` returns: arrays of any dtype with the same length ``n`` on
        axis 0 (the trial). A 1-D array ``x`` of shape ``(n,)`` becomes column ``x``; an array of
        shape ``(n, k)`` (e.g. one value per seat or player) becomes ``k`` columns ``x_0 ... x_{k-1}``;
        an array of shape ``(n, k, m)`` becomes ``x_0_0 ... x_{k-1}_{m-1}`` (row-major order).
        Keys keep their order; dtypes are kept.

    Returns
    -------
    pandas.DataFrame
        ``n`` rows (index ``0 .. n-1``), the columns above. An empty mapping gives an empty frame.

    Raises
    ------
    ParamError
        If a key is not a non-empty string, a value is a 0-d array (no trial axis), the arrays'
        lengths on axis 0 differ, or two keys' columns would share a name (``"x_0"`` next to a
        2-D ``"x"``).
    """
    cols: dict[str, np.ndarray] = {}
    n: int | None = None
    for key, value in arrays.items():
        if not isinstance(key, str) or not key:
            raise ParamError("arrays", key, "keys that are non-empty strings (metric names)")
        a = np.asarray(value)
        if a.ndim == 0:
            raise ParamError(f"arrays[{key!r}]", value, "an array with the trial on axis 0, not a scalar")
        if n is None:
            n = a.shape[0]
        elif a.shape[0] != n:
            raise ParamError(f"arrays[{key!r}]", f"{a.shape[0]} trials",
                             f"the same number of trials as the first array ({n})")
        if a.ndim == 1:
            names = [(key, a)]
        else:
            names = [(key + "".join(f"_{i}" for i in idx), a[(slice(None), *idx)])
                     for idx in itertools.product(*(range(s) for s in a.shape[1:]))]
        for name, column in names:
            if name in cols:
                raise ParamError("arrays", name, "distinct column names (a key clashes with another's columns)")
            cols[name] = column
    return pd.DataFrame(cols, index=pd.RangeIndex(n or 0))
