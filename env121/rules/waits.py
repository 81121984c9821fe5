"""Nhất Bản arrangements: the empty slot, filling it, and which arrangements wait.

A Nhất Bản player fixes an arrangement of their 5 cards in 6 slots, one slot
empty (:data:`GAP`). It *has a wait* when some card not in the hand, put in
the gap, makes a completed hand (spec §3); [R-8] allows the declaration only
then. :func:`has_nhat_ban_wait` and :func:`nhat_ban_arrangements` are thin
faces over the compiled kernels of :mod:`env121.rules.compiled.waits`, which
answer them for the engine's batched games too.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import permutations

import numpy as np

from env121.rules.cards import NUM_CARDS
from env121.rules.compiled.waits import (
    GAP,
    INDEX_ARRANGEMENTS,
    NUM_ARRANGEMENTS,
    placement_order,
    waiting_mask,
)

Arrangement = tuple[int, ...]


def has_nhat_ban_wait(hand: Sequence[int]) -> bool:
    """Whether some arrangement of the five cards is completed by a card not in
    them ([R-8])."""
    return bool(waiting_mask(np.asarray(_five(hand)), np.empty(NUM_ARRANGEMENTS, dtype=np.bool_)))


def nhat_ban_arrangements(hand: Sequence[int]) -> frozenset[Arrangement]:
    """The arrangements of the five cards (GAP in the empty slot) that have a
    wait: the legal Nhất Bản arrangements under [R-8]."""
    return _waiting_arrangements(_five(hand))


@lru_cache(maxsize=1 << 12)
def _waiting_arrangements(five: tuple[int, ...]) -> frozenset[Arrangement]:
    mask = np.empty(NUM_ARRANGEMENTS, dtype=np.bool_)
    waiting_mask(np.asarray(five), mask)
    return frozenset(
        tuple(GAP if i == GAP else five[i] for i in INDEX_ARRANGEMENTS[n].tolist())
        for n in np.flatnonzero(mask)
    )


def fill_gap(arrangement: Arrangement, card_id: int) -> Arrangement:
    """The arrangement with ``card_id`` in its empty slot."""
    g = arrangement.index(GAP)
    return (*arrangement[:g], card_id, *arrangement[g + 1 :])


@lru_cache(maxsize=1 << 10)
def all_arrangements(hand: tuple[int, ...]) -> frozenset[Arrangement]:
    """All 720 ways to lay five cards in six slots with one gap."""
    return frozenset(permutations((*hand, GAP)))


def _five(hand: Sequence[int]) -> tuple[int, ...]:
    five = tuple(sorted(hand))
    if len(five) != 5 or len(set(five)) != 5 or not all(0 <= c < NUM_CARDS for c in five):
        raise ValueError(f"a Nhất Bản hand is five distinct card ids, got {list(hand)}")
    return five


__all__ = [
    "GAP",
    "Arrangement",
    "all_arrangements",
    "fill_gap",
    "has_nhat_ban_wait",
    "nhat_ban_arrangements",
    "placement_order",
]
