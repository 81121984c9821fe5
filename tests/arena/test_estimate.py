"""The clustered ratio estimator of :mod:`arena.estimate` on synthetic data."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from arena.estimate import Estimate, clustered_ratio


@pytest.mark.parametrize("size", [1, 4, 16])
def test_equal_cluster_sizes_give_the_t_interval_of_the_cluster_means(size):
    rng = np.random.default_rng(7)
    means = rng.normal(3.0, 2.0, size=12)
    estimate = clustered_ratio(means * size, np.full(12, size))
    low, high = stats.t.interval(0.95, 11, loc=means.mean(), scale=stats.sem(means))
    assert estimate.mean == pytest.approx(means.mean())
    assert estimate.low == pytest.approx(low)
    assert estimate.high == pytest.approx(high)
    assert estimate.clusters == 12


def test_unequal_cluster_sizes_by_hand():
    # Y = (2, 0, 7), N = (1, 2, 3): R = 9/6 = 1.5; residuals Y − R·N = (0.5, −3, 2.5),
    # squares sum to 0.25 + 9 + 6.25 = 15.5; Var = 3/2 · 15.5 / 6² = 0.6458…;
    # t(0.975, 2) = 4.302653; half-width = 4.302653 · 0.803638 = 3.457773.
    estimate = clustered_ratio([2, 0, 7], [1, 2, 3])
    assert estimate.mean == 1.5
    assert estimate.high - estimate.mean == pytest.approx(3.457773, abs=1e-6)
    assert estimate.mean - estimate.low == pytest.approx(3.457773, abs=1e-6)
    assert estimate.excludes_zero is False


def test_one_cluster_has_no_interval():
    estimate = clustered_ratio([5.0], [2.0])
    assert estimate.mean == 2.5
    assert math.isnan(estimate.low) and math.isnan(estimate.high)
    assert estimate.clusters == 1
    assert not estimate.has_interval and not estimate.excludes_zero
    assert "need ≥ 2" in estimate.describe()


def test_zero_denominator_has_no_mean():
    estimate = clustered_ratio([0, 0, 0], [0, 0, 0])
    assert math.isnan(estimate.mean) and estimate.clusters == 3
    assert estimate.describe() == "n/a (no data)"


def test_excludes_zero():
    assert Estimate(2.0, 1.0, 3.0, 5).excludes_zero
    assert Estimate(-2.0, -3.0, -1.0, 5).excludes_zero
    assert not Estimate(0.5, -1.0, 2.0, 5).excludes_zero


def test_mismatched_lengths_are_refused():
    with pytest.raises(ValueError, match="same length"):
        clustered_ratio([1, 2], [1])


def test_an_interval_is_clipped_to_the_range_of_its_ratio():
    # A share of 1/2 on two deals: 0.5 ± 12.7·0.5 unclipped, [0, 1] clipped.
    unclipped = clustered_ratio([1, 0], [1, 1])
    assert unclipped.low < -5 and unclipped.high > 6
    share = clustered_ratio([1, 0], [1, 1], bounds=(0.0, 1.0))
    assert (share.mean, share.low, share.high) == (0.5, 0.0, 1.0)
    inside = clustered_ratio([3, 5, 4, 4], [10, 10, 10, 10], bounds=(0.0, 1.0))
    assert inside.high - inside.mean == pytest.approx(inside.mean - inside.low)  # untouched
