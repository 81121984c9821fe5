"""Fast rule questions the engine asks at every step (Nhất Bản waits: :mod:`env121.rules.waits`).

* :func:`may_have_the` — a cheap *necessary* condition for six cards to have a
  Thế in some order. Most six-card hands fail it, so the engine calls
  :func:`env121.rules.scoring.score_hand` (the authority) only on the rest.
* :func:`the_trang_eligible` — five dealt cards pairwise unrelated, no honor.

Why :func:`may_have_the` is necessary: every Thế is a completed hand (spec §3),
and in every completed shape each card shares a figure or a suit with another
card, except in a Phe (suits only) and in six pairwise-unrelated cards. The
only Thế holding a Phe whose cards need not be related to the rest are the
two-triple ones: Phe–Phe (any types) and Phe + Phu Cố Đô / Giang Hộ. So a hand
with a card related to no other card is a Thế only if it is pairwise unrelated
or splits into a Phe and a (Phe | Phu Cố Đô | Phu Giang Hộ).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from env121.rules.cards import FIG, IS_HONOR, SUIT, pairwise_unrelated
from env121.rules.groups import edo3, kyoto3, phe

_SIX = range(6)
_TRIPLE_SPLITS: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = tuple(
    (a, tuple(i for i in _SIX if i not in a)) for a in combinations(_SIX, 3) if 0 in a
)


def may_have_the(six: Sequence[int]) -> bool:
    """False only when the six cards certainly have no Thế in any order."""
    figs = [FIG[c] for c in six]
    suits = [SUIT[c] for c in six]
    if len(set(figs)) == 6 and len(set(suits)) == 6:
        return True  # Quốc Sĩ family, or two Phe
    if all(figs.count(f) > 1 or suits.count(s) > 1 for f, s in zip(figs, suits, strict=True)):
        return True  # every card is related to another one
    for ia, ib in _TRIPLE_SPLITS:
        a = (six[ia[0]], six[ia[1]], six[ia[2]])
        b = (six[ib[0]], six[ib[1]], six[ib[2]])
        phe_a, phe_b = phe(*a), phe(*b)
        if phe_a and (phe_b or kyoto3(*b) or edo3(*b)):
            return True
        if phe_b and (kyoto3(*a) or edo3(*a)):
            return True
    return False


def the_trang_eligible(hand: Sequence[int]) -> bool:
    """Thế trắng (§5.3): five cards pairwise unrelated with no honor card."""
    return not any(IS_HONOR[c] for c in hand) and pairwise_unrelated(hand)


__all__ = ["may_have_the", "the_trang_eligible"]
