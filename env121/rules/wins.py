"""Fast rule questions the engine asks at every step (Nhất Bản waits: :mod:`env121.rules.waits`).

* :func:`may_have_the` — a cheap *necessary* condition for six cards to have a
  Thế in some order. Most six-card hands fail it, so the engine calls
  :func:`env121.rules.scoring.score_hand` (the authority) only on the rest.
* :func:`the_trang_eligible` — five dealt cards pairwise unrelated, no honor.

Why :func:`may_have_the` is necessary: every Thế lives on the cut its shape
names (:class:`env121.rules.thes.Shape`), a completed hand of spec §3. On
three pairs, on a Ngũ and its sixth card, in a Lục bộ, and in a Củng with a
pair or a Phu for tail, each card shares a figure or a suit with another
card. A card related to no other card can only sit in a Phe (suits only) —
a half of a two-triple Thế, or a Củng's tail (§3 shape 4) — or among six
pairwise-unrelated cards. So a hand with such a card is kept only when it is
pairwise unrelated, holds a Củng with a Phe tail, or splits into the two halves of a
two-triple Thế of the registry (:attr:`env121.rules.thes.The.halves`, either
half first). No Thế is named here: a new one of an existing shape keeps
this true by itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from env121.rules.cards import FIG, IS_HONOR, SUIT, pairwise_unrelated
from env121.rules.groups import phe
from env121.rules.search import triple_splits
from env121.rules.thes import THES, Triple

_HALVES: tuple[tuple[Triple, Triple], ...] = tuple(
    dict.fromkeys(
        groups
        for t in THES
        if t.halves
        for groups in ((t.halves.first, t.halves.second), (t.halves.second, t.halves.first))
    )
)
"""The groups (a1a2a3, a4a5a6) of every two-triple Thế, both ways round."""


def may_have_the(six: Sequence[int]) -> bool:
    """False only when the six cards certainly have no Thế in any order."""
    figs = [FIG[c] for c in six]
    suits = [SUIT[c] for c in six]
    if all(figs.count(f) > 1 or suits.count(s) > 1 for f, s in zip(figs, suits, strict=True)):
        return True  # every card is related to another one
    n_figs, n_suits = len(set(figs)), len(set(suits))
    if n_figs == 6 and n_suits == 6:
        return True  # six pairwise unrelated: the Quốc Sĩ family
    if (n_figs <= 3 or n_suits <= 3) and _cung_with_phe_tail(six, figs, suits):
        return True
    return any(
        first in groups_a and second in groups_b
        for _, _, groups_a, groups_b in triple_splits(six, figs, suits)
        for first, second in _HALVES
    )


def _cung_with_phe_tail(six: Sequence[int], figs: list[int], suits: list[int]) -> bool:
    """Four of the cards are a Củng and the other two make a Phe with one of them."""
    for key in (figs, suits):
        for value in set(key):
            if key.count(value) < 4:
                continue
            members = [c for c, v in zip(six, key, strict=True) if v == value]
            for quad in combinations(members, 4):
                x, y = (c for c in six if c not in quad)
                if any(phe(a4, x, y) for a4 in quad):
                    return True
    return False


def the_trang_eligible(hand: Sequence[int]) -> bool:
    """Thế trắng (§5.3): five cards pairwise unrelated with no honor card."""
    return not any(IS_HONOR[c] for c in hand) and pairwise_unrelated(hand)


__all__ = ["may_have_the", "the_trang_eligible"]
