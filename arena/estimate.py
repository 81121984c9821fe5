"""Means with 95% confidence intervals clustered by deal.

Every arena metric is a *ratio* — points over ván, wins over vòng, Điểm over
wins — summed over many games that share deals. Games on one deal are not
independent (the same cards are played four times over, in the duplicate
rotations, and by every line-up), so the deal is the unit of sampling: the
*cluster*. For cluster ``g`` let ``Y_g`` be the summed numerator and ``N_g``
the summed denominator. Then

* the estimate is ``R = ΣY / ΣN``;
* its cluster-robust (linearization) variance is
  ``Var = G/(G−1) · Σ (Y_g − R·N_g)² / (ΣN)²`` over the ``G`` clusters;
* the interval is ``R ± t_{0.975, G−1} · √Var`` (Student's t, ``G − 1`` degrees
  of freedom).

With equal cluster sizes this is exactly the t-interval of the cluster means.
A ratio that cannot leave a range — a share in [0, 1], a mean rank in [1, 4]
— has its interval clipped to that range (``bounds``): the linearized
interval is symmetric and, on a few deals, reaches far past the range (a
share of 0.5 ± 3.2 on two deals); clipped, it still covers the true value
whenever the unclipped one does, since the true value lies in the range.
With fewer than two clusters there is no variance to estimate: the interval is
``nan`` (and says so through :attr:`Estimate.clusters`); with ``ΣN = 0`` (an
agent that never won has no Điểm per win) the estimate itself is ``nan``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.special import stdtrit  # stats.t.ppf's t quantile, without scipy.stats's 0.7 s import

CONFIDENCE = 0.95


@dataclass(frozen=True)
class Estimate:
    """A mean and its confidence interval, from ``clusters`` independent deals."""

    mean: float
    low: float
    """Lower end of the 95% interval; ``nan`` with fewer than two clusters."""
    high: float
    """Upper end of the 95% interval; ``nan`` with fewer than two clusters."""
    clusters: int
    """How many deals (independent clusters) the estimate rests on."""

    @property
    def excludes_zero(self) -> bool:
        """Whether the whole interval lies on one side of 0 (False when it is ``nan``)."""
        return self.low > 0 or self.high < 0

    @property
    def has_interval(self) -> bool:
        """Whether the interval exists (at least two clusters and a finite mean)."""
        return not (math.isnan(self.low) or math.isnan(self.high))

    def describe(self, digits: int = 1) -> str:
        """``"+12.3 [+4.5, +20.1]"``, or the reason the interval is missing."""
        if math.isnan(self.mean):
            return "n/a (no data)"
        mean = f"{self.mean:+.{digits}f}"
        if not self.has_interval:
            return f"{mean} (no CI: {self.clusters} deal{'s' * (self.clusters != 1)}, need ≥ 2)"
        return f"{mean} [{self.low:+.{digits}f}, {self.high:+.{digits}f}]"


def clustered_ratio(
    numerators: Sequence[float] | np.ndarray,
    denominators: Sequence[float] | np.ndarray,
    confidence: float = CONFIDENCE,
    bounds: tuple[float, float] = (-math.inf, math.inf),
) -> Estimate:
    """``ΣY / ΣN`` with its cluster-robust t-interval (see the module docstring).

    ``numerators[g]`` and ``denominators[g]`` are the sums ``Y_g`` and ``N_g``
    of cluster ``g``; clusters with ``N_g = 0`` still count in ``G``. The
    interval is clipped to ``bounds``, the range the ratio cannot leave.
    """
    y = np.asarray(numerators, dtype=np.float64)
    n = np.asarray(denominators, dtype=np.float64)
    if y.shape != n.shape or y.ndim != 1:
        raise ValueError(
            f"numerators {y.shape} and denominators {n.shape} must be two 1-d arrays "
            "of the same length (one entry per cluster)"
        )
    clusters = len(y)
    total = float(n.sum())
    if clusters == 0 or total == 0:
        return Estimate(math.nan, math.nan, math.nan, clusters)
    ratio = float(y.sum()) / total
    if clusters < 2:
        return Estimate(ratio, math.nan, math.nan, clusters)
    residuals = y - ratio * n
    variance = clusters / (clusters - 1) * float(np.sum(residuals**2)) / total**2
    half_width = float(stdtrit(clusters - 1, 0.5 + confidence / 2)) * math.sqrt(variance)
    lowest, highest = bounds
    return Estimate(
        ratio, max(lowest, ratio - half_width), min(highest, ratio + half_width), clusters
    )


__all__ = ["CONFIDENCE", "Estimate", "clustered_ratio"]
