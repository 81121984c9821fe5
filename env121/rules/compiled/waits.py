"""Nhất Bản waits and the Nhất Bản win check, as numba kernels.

The port of :mod:`env121.rules.waits`. It reads the reference's table of the
720 arrangements of hand *indices* (one empty slot, :data:`GAP`), each with
the completed-hand shapes of spec §3 as clauses over per-hand features; the
kernel works out the features of a hand (:func:`_features`, at the
reference's offsets) and evaluates the clauses: :func:`waiting_mask` says which
of the 720 arrangements have a wait, and the questions of the Nhất Bản phases
read it. Hands are five card ids in any order; results list cards ascending.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from env121.rules import waits as reference
from env121.rules.cards import NUM_FIGURES, NUM_SUITS
from env121.rules.compiled.scoring import completed_shape
from env121.rules.compiled.tables import CARD_FIG, CARD_SUIT, KIND_FIGURE, KIND_NONE, KIND_SUIT
from env121.rules.compiled.thes import is_triple, pair, pairwise_unrelated

GAP = reference.GAP
"""The empty slot of a Nhất Bản arrangement."""
NUM_SLOTS = 6
CLAUSES = reference._CLAUSES.astype(np.int64)
"""[arrangement, clause, 3]: feature indices; an arrangement waits when all three
features of one of its clauses hold (the last feature index is always false)."""
INDEX_ARRANGEMENTS = reference._INDEX_TABLE.astype(np.int64)
"""[arrangement, slot]: the index in the sorted hand of the card in the slot, or GAP."""
GAP_SLOT = reference._GAP_SLOT.astype(np.int64)
"""[arrangement]: its empty slot."""
NUM_ARRANGEMENTS = INDEX_ARRANGEMENTS.shape[0]
PLACEMENT_ORDER = np.array([reference.placement_order(g) for g in range(NUM_SLOTS)])
"""[gap]: the slots filled one by one once the gap is chosen (``waits.placement_order``)."""
PHE_EXTENDABLE = np.array(
    [[(s1, s2) in reference._PHE_EXTENDABLE for s2 in range(NUM_SUITS)] for s1 in range(NUM_SUITS)]
)
"""[suit, suit]: a third suit can make the two a Phe."""
_F_TRUE, _F_R2, _F_T3, _F_FILL = (
    reference._F_TRUE,
    reference._F_R2,
    reference._F_T3,
    reference._F_FILL,
)
_F_RUN, _F_EX4, _F_EX5, _F_SIX = (
    reference._F_RUN,
    reference._F_EX4,
    reference._F_EX5,
    reference._F_SIX,
)
_NUM_FEATURES = reference._NUM_FEATURES

Five = tuple[int, int, int, int, int]


@njit(cache=True, nogil=True)
def sort_five(hand5: np.ndarray) -> Five:
    """The five card ids in ascending order (a sorting network)."""
    c0, c1, c2, c3, c4 = hand5[0], hand5[1], hand5[2], hand5[3], hand5[4]
    if c0 > c1:
        c0, c1 = c1, c0
    if c3 > c4:
        c3, c4 = c4, c3
    if c2 > c4:
        c2, c4 = c4, c2
    if c2 > c3:
        c2, c3 = c3, c2
    if c0 > c3:
        c0, c3 = c3, c0
    if c0 > c2:
        c0, c2 = c2, c0
    if c1 > c4:
        c1, c4 = c4, c1
    if c1 > c3:
        c1, c3 = c3, c1
    if c1 > c2:
        c1, c2 = c2, c1
    return (c0, c1, c2, c3, c4)


@njit(cache=True, nogil=True)
def _triple_fillable(x: int, y: int) -> bool:
    """``waits._triple_fillable``: some card outside makes (x, y, ·) a Phu or a Phe."""
    return bool(
        CARD_FIG[x] == CARD_FIG[y]
        or CARD_SUIT[x] == CARD_SUIT[y]
        or PHE_EXTENDABLE[CARD_SUIT[x], CARD_SUIT[y]]
    )


@njit(cache=True, nogil=True)
def _kind_card(sample: int, kind: int, n: int) -> int:
    """The ``n``-th of the 11 cards sharing ``sample``'s figure (kind FIGURE) or suit."""
    if kind == KIND_FIGURE:
        return int(NUM_SUITS * CARD_FIG[sample] + n)
    return int(NUM_SUITS * n + CARD_SUIT[sample])


@njit(cache=True, nogil=True)
def _in_hand(c: int, h: Five) -> bool:
    return c == h[0] or c == h[1] or c == h[2] or c == h[3] or c == h[4]


@njit(cache=True, nogil=True)
def _features(h: Five) -> np.ndarray:
    """``waits._features`` of the sorted five: the per-hand features the clauses
    read, at the reference's offsets (one always-false entry at the end)."""
    f = np.zeros(_NUM_FEATURES + 1, dtype=np.bool_)
    f[_F_TRUE] = True
    for i in range(5):
        for j in range(i + 1, 5):
            if pair(h[i], h[j]) != KIND_NONE:
                f[_F_R2 + 5 * i + j] = True
                f[_F_R2 + 5 * j + i] = True
            if _triple_fillable(h[i], h[j]):
                f[_F_FILL + 5 * i + j] = True
                f[_F_FILL + 5 * j + i] = True
            for k in range(j + 1, 5):
                if is_triple(h[i], h[j], h[k]):
                    for x, y, z in (
                        (i, j, k),
                        (i, k, j),
                        (j, i, k),
                        (j, k, i),
                        (k, i, j),
                        (k, j, i),
                    ):
                        f[_F_T3 + 25 * x + 5 * y + z] = True
    for m in range(1, 32):
        first = -1
        size = 0
        same_fig = True
        same_suit = True
        for i in range(5):
            if m >> i & 1:
                size += 1
                if first < 0:
                    first = i
                same_fig = same_fig and CARD_FIG[h[i]] == CARD_FIG[h[first]]
                same_suit = same_suit and CARD_SUIT[h[i]] == CARD_SUIT[h[first]]
        if size < 3 or not (same_fig or same_suit):
            continue
        kind = KIND_FIGURE if same_fig else KIND_SUIT
        f[_F_RUN + m] = True
        x = -1
        y = -1
        for i in range(5):
            if not m >> i & 1:
                if x < 0:
                    x = i
                else:
                    y = i
        n_outside = NUM_SUITS if kind == KIND_FIGURE else NUM_FIGURES
        if size == 3:
            for n in range(n_outside):
                c = _kind_card(h[first], kind, n)
                if not _in_hand(c, h) and is_triple(c, h[x], h[y]):
                    f[_F_EX4 + 25 * m + 5 * x + y] = True
                    f[_F_EX4 + 25 * m + 5 * y + x] = True
                    break
        elif size == 4:
            for n in range(n_outside):
                c = _kind_card(h[first], kind, n)
                if not _in_hand(c, h) and pair(c, h[x]) != KIND_NONE:
                    f[_F_EX5 + 5 * m + x] = True
                    break
    f[_F_SIX] = pairwise_unrelated(h, 5)
    return f


@njit(cache=True, nogil=True)
def waiting_mask(hand5: np.ndarray, out: np.ndarray) -> bool:
    """Which of the 720 index arrangements (``INDEX_ARRANGEMENTS``) of the sorted
    hand have a wait, into ``out`` (bool[720]); whether any does."""
    f = _features(sort_five(hand5))
    width = CLAUSES.shape[1]
    any_wait = False
    for n in range(NUM_ARRANGEMENTS):
        waits = False
        for m in range(width):
            if f[CLAUSES[n, m, 0]] and f[CLAUSES[n, m, 1]] and f[CLAUSES[n, m, 2]]:
                waits = True
                break
        out[n] = waits
        any_wait = any_wait or waits
    return any_wait


@njit(cache=True, nogil=True)
def has_nhat_ban_wait(hand5: np.ndarray) -> bool:
    """:func:`env121.rules.waits.has_nhat_ban_wait`: some arrangement of the five
    is completed by a card not in them ([R-8])."""
    return waiting_mask(hand5, np.empty(NUM_ARRANGEMENTS, dtype=np.bool_))


@njit(cache=True, nogil=True)
def gap_bits(mask: np.ndarray) -> int:
    """Bit ``g`` set for each empty slot ``g`` some arrangement of ``mask``
    (a :func:`waiting_mask`) uses."""
    gaps = 0
    for n in range(NUM_ARRANGEMENTS):
        if mask[n]:
            gaps |= 1 << GAP_SLOT[n]
    return gaps


@njit(cache=True, nogil=True)
def waiting_gaps(hand5: np.ndarray, out: np.ndarray) -> int:
    """:func:`env121.rules.waits.waiting_gaps`: the empty slots some waiting
    arrangement uses, ascending, into ``out`` (6 entries); how many."""
    mask = np.empty(NUM_ARRANGEMENTS, dtype=np.bool_)
    waiting_mask(hand5, mask)
    gaps = gap_bits(mask)
    count = 0
    for g in range(NUM_SLOTS):
        if gaps >> g & 1:
            out[count] = g
            count += 1
    return count


@njit(cache=True, nogil=True)
def next_card_bits(
    h: np.ndarray | tuple[int, ...], mask: np.ndarray, gap: int, placed: np.ndarray, n_placed: int
) -> int:
    """Bit ``i`` set for each card ``h[i]`` of the sorted five ``h`` that may
    fill the next open slot after the first ``n_placed`` of ``placed``, so that
    an arrangement of ``mask`` (a :func:`waiting_mask` of ``h``) with this gap
    can still be finished."""
    placed_index = np.full(NUM_SLOTS - 1, -1, dtype=np.int64)
    for k in range(n_placed):
        for i in range(5):
            if h[i] == placed[k]:
                placed_index[k] = i
    next_slot = PLACEMENT_ORDER[gap, n_placed]
    indices = 0
    for n in range(NUM_ARRANGEMENTS):
        if not mask[n] or GAP_SLOT[n] != gap:
            continue
        fits = True
        for k in range(n_placed):
            fits = fits and INDEX_ARRANGEMENTS[n, PLACEMENT_ORDER[gap, k]] == placed_index[k]
        if fits:
            indices |= 1 << INDEX_ARRANGEMENTS[n, next_slot]
    return indices


@njit(cache=True, nogil=True)
def waiting_next_cards(
    hand5: np.ndarray, gap: int, placed: np.ndarray, n_placed: int, out: np.ndarray
) -> int:
    """:func:`env121.rules.waits.waiting_next_cards`: the cards that may fill the
    next open slot after the first ``n_placed`` of ``placed``, so that a waiting
    arrangement with this gap can still be finished; ascending into ``out`` (5
    entries); how many."""
    h = sort_five(hand5)
    mask = np.empty(NUM_ARRANGEMENTS, dtype=np.bool_)
    waiting_mask(hand5, mask)
    indices = next_card_bits(h, mask, gap, placed, n_placed)
    count = 0
    for i in range(5):
        if indices >> i & 1:
            out[count] = h[i]
            count += 1
    return count


@njit(cache=True, nogil=True)
def fill_gap(arrangement: np.ndarray, card: int) -> tuple[int, int, int, int, int, int]:
    """:func:`env121.rules.waits.fill_gap`: the arrangement with ``card`` in its empty slot."""
    a0, a1, a2, a3, a4, a5 = (
        arrangement[0],
        arrangement[1],
        arrangement[2],
        arrangement[3],
        arrangement[4],
        arrangement[5],
    )
    return (
        card if a0 == GAP else a0,
        card if a1 == GAP else a1,
        card if a2 == GAP else a2,
        card if a3 == GAP else a3,
        card if a4 == GAP else a4,
        card if a5 == GAP else a5,
    )


@njit(cache=True, nogil=True)
def nhat_ban_wins(arrangement: np.ndarray, card: int) -> bool:
    """Whether ``card`` in the gap of a fixed Nhất Bản arrangement is a valid Ù:
    the six, in that order, are a completed hand (every Thế is one), as the
    engine's ``is_completed(fill_gap(...))``."""
    return completed_shape(fill_gap(arrangement, card)) > 0
