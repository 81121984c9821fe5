"""Thế trắng eligibility (§5.3), the rule question the engine asks at each deal.

A thin face over :func:`env121.rules.compiled.wins.the_trang_eligible`, the
kernel the batched engine asks; the win check itself is
:func:`env121.rules.scoring.score_hand` (and the kernel's ``is_win``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from env121.rules.compiled.wins import the_trang_eligible as _the_trang_eligible


def the_trang_eligible(hand: Sequence[int]) -> bool:
    """Thế trắng (§5.3): five cards pairwise unrelated with no honor card."""
    return bool(_the_trang_eligible(np.asarray(hand, dtype=np.int64)))


__all__ = ["the_trang_eligible"]
