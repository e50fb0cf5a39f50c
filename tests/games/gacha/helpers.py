"""Statistical checks shared by the gacha tests: 4.5 standard errors, so they pass for any seed."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from tests.conftest import assert_proportion, assert_same_mean

Z = 4.5


def _assert_mean(x: np.ndarray, exact_mean: float, exact_var: float) -> None:
    se = math.sqrt(exact_var / x.size)
    assert abs(x.mean() - exact_mean) <= Z * se + 1e-12, (x.mean(), exact_mean, se)


def _assert_prop(x: np.ndarray, p: float) -> None:
    assert_proportion(x, p, z=Z)


def _two_sample(a: pd.Series, b: pd.Series) -> None:
    assert_same_mean(a, b, z=Z, label=str(a.name))
