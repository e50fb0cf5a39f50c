"""The test suite's own statistical helper: it must accept what is equal and reject what is not."""

import numpy as np
import pytest

from tests.conftest import assert_same_mean


def test_rare_event_with_no_success_in_the_small_sample_is_accepted():
    # P = 0.00076: a 3,000-trial sample has no success about 10% of the time
    assert_same_mean(np.r_[np.ones(76), np.zeros(99_924)], np.zeros(3000))


def test_real_differences_are_rejected():
    with pytest.raises(AssertionError):
        assert_same_mean(np.r_[np.ones(300), np.zeros(700)], np.r_[np.ones(500), np.zeros(500)])
    with pytest.raises(AssertionError):
        assert_same_mean(np.arange(1000.0), np.arange(1000.0) + 100)
    assert_same_mean(np.arange(1000.0), np.arange(1000.0) + 10)
