"""Nhất Bản waits and the Nhất Bản win check, as numba kernels.

A Nhất Bản player fixes an arrangement of their 5 cards in 6 slots, one slot
empty (:data:`GAP`). It *has a wait* when some card not in the hand, put in
the gap, makes a completed hand (spec §3; every Thế is one, so "completed
hand or Thế" is the same test). [R-8] allows the declaration only then.

Trying all 116 outside cards on all 720 arrangements is far too slow for an
environment. Instead a table, made here at import, lists for each of the 720
arrangements of hand *indices* (:data:`INDEX_ARRANGEMENTS`) the completed-hand
shapes of spec §3 as clauses over per-hand features (:data:`CLAUSES`): per
shape, the gap's group is *fillable* whenever its other cards could be
completed by a card of a figure or suit the hand cannot exhaust (there are 11
cards of each figure and of each suit, and the hand holds only 5); only where
the gap sits in two groups at once (Củng ∩ triple at a4, Ngũ ∩ pair at a5) are
the eleven candidate cards tried. The kernel works out the features of a hand
(:func:`_features`) and evaluates the clauses: :func:`waiting_mask` says which
of the 720 arrangements have a wait, and the questions of the Nhất Bản phases
read it. Hands are five card ids in any order; results list cards ascending.
Python callers ask through :mod:`env121.rules.waits`.

Tests compare every kernel here with the readable Python reading of the same
table and with a brute force over all cards (``tests/support/scorer.py``,
``tests/rules/test_waits.py``, ``tests/rules/test_compiled_waits.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

import numpy as np
from numba import njit

from env121.rules.cards import NUM_FIGURES, NUM_SUITS, card
from env121.rules.compiled.scoring import completed_shape
from env121.rules.compiled.tables import CARD_FIG, CARD_SUIT, KIND_FIGURE, KIND_NONE, KIND_SUIT
from env121.rules.compiled.thes import is_triple, pair, pairwise_unrelated
from env121.rules.groups import phe

GAP = -1
"""Marks the empty slot of a Nhất Bản arrangement."""
NUM_SLOTS = 6


def placement_order(gap: int) -> tuple[int, ...]:
    """The slots a Nhất Bản arrangement is filled in, once the gap is chosen:
    left to right, skipping ``gap``."""
    return tuple(i for i in range(NUM_SLOTS) if i != gap)


PLACEMENT_ORDER = np.array([placement_order(g) for g in range(NUM_SLOTS)])
"""[gap]: the slots filled one by one once the gap is chosen (:func:`placement_order`)."""
PHE_EXTENDABLE = np.array(
    [
        [
            any(phe(card(0, s1), card(0, s2), card(0, s3)) for s3 in range(NUM_SUITS))
            for s2 in range(NUM_SUITS)
        ]
        for s1 in range(NUM_SUITS)
    ]
)
"""[suit, suit]: a third suit can make the two a Phe."""

# ------------------------------------------------------ the clause table
# The 720 arrangements of hand *indices* 0..4 (GAP = -1) and, for each, the
# completed shapes of spec §3 as clauses over per-hand features:
# an arrangement waits iff all features of some clause hold.
_F_TRUE = 0
_F_R2 = 1  # 25: pair(i, j)
_F_T3 = _F_R2 + 25  # 125: Phu or Phe on (i, j, k)
_F_FILL = _F_T3 + 125  # 25: some outside card makes (i, j, ·) a Phu or Phe
_F_RUN = _F_FILL + 25  # 32: the cards of an index mask share a figure or a suit
_F_EX4 = _F_RUN + 32  # 32·25: a4 gap: an outside card of the run's kind triples with (x, y)
_F_EX5 = _F_EX4 + 800  # 32·5: a5 gap: an outside card of the run's kind pairs with y
_F_SIX = _F_EX5 + 160  # the five cards are pairwise unrelated
NUM_FEATURES = _F_SIX + 1
"""The per-hand features the clauses read; :func:`_features` has one more,
always false, that pads the clauses."""


def _mask(*indices: int) -> int:
    return sum(1 << i for i in indices)


def _clauses(a: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The shape clauses of index arrangement ``a`` (spec §3)."""
    g = a.index(GAP)

    def others(slots: Sequence[int]) -> list[int]:
        return [a[i] for i in slots if i != g]

    def r2(i: int, j: int) -> int:
        return _F_R2 + 5 * i + j

    def t3(i: int, j: int, k: int) -> int:
        return _F_T3 + 25 * i + 5 * j + k

    def fill(pair_: Sequence[int]) -> int:
        return _F_FILL + 5 * pair_[0] + pair_[1]

    def run(cards: Sequence[int]) -> int:
        return _F_RUN + _mask(*cards)

    full, open_ = ((3, 4, 5), (0, 1, 2)) if g < 3 else ((0, 1, 2), (3, 4, 5))
    clauses = [
        (t3(*(a[i] for i in full)), fill(others(open_))),  # two triples
        tuple(r2(a[i], a[i + 1]) for i in (0, 2, 4) if g not in (i, i + 1)),  # three pairs
        (_F_SIX,),
        (run(others(range(6))),),  # Lục bộ / Ngũ around the gap
    ]
    if g < 4:
        clauses.append((run(others(range(4))), r2(a[4], a[5])))  # Củng + pair
        clauses.append((run(others(range(5))), r2(a[4], a[5])))  # Ngũ + pair
    else:
        clauses.append((run(a[0:4]),))  # Củng + pair, gap in the pair
    if g < 3:
        clauses.append((run(others(range(4))), t3(a[3], a[4], a[5])))  # Củng + triple at a4
    elif g == 3:
        clauses.append((_F_EX4 + 25 * _mask(*a[0:3]) + 5 * a[4] + a[5],))
    else:
        clauses.append((run(a[0:4]), fill(others((3, 4, 5)))))
    if g == 4:
        clauses.append((_F_EX5 + 5 * _mask(*a[0:4]) + a[5],))
    return clauses


def _clause_table() -> tuple[np.ndarray, np.ndarray]:
    index_arrangements = sorted(set(permutations((0, 1, 2, 3, 4, GAP))))
    rows = [_clauses(a) for a in index_arrangements]
    width = max(len(r) for r in rows)
    table = np.full((len(rows), width, 3), _F_TRUE, dtype=np.int64)
    for n, row in enumerate(rows):
        for m, clause in enumerate(row):
            table[n, m, : len(clause)] = clause
        for m in range(len(row), width):
            table[n, m, 0] = _F_TRUE + NUM_FEATURES  # an always-false padding clause
    return np.array(index_arrangements, dtype=np.int64), table


INDEX_ARRANGEMENTS, CLAUSES = _clause_table()
"""``INDEX_ARRANGEMENTS[arrangement, slot]``: the index in the sorted hand of the
card in the slot, or GAP (the 720 in ascending order). ``CLAUSES[arrangement,
clause, 3]``: feature indices; an arrangement waits when all three features of
one of its clauses hold (the last feature index is always false)."""
GAP_SLOT = np.argmax(INDEX_ARRANGEMENTS == GAP, axis=1)
"""[arrangement]: its empty slot."""
NUM_ARRANGEMENTS = INDEX_ARRANGEMENTS.shape[0]

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
    """Some card outside the hand makes (x, y, ·) a Phu or a Phe."""
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
    """The per-hand features of the sorted five that the clauses read (one
    always-false entry at the end)."""
    f = np.zeros(NUM_FEATURES + 1, dtype=np.bool_)
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
    """Whether some arrangement of the five is completed by a card not in them
    ([R-8])."""
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
    """The empty slots some waiting arrangement uses, ascending, into ``out``
    (6 entries); how many."""
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
    """The cards that may fill the
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
    """The arrangement with ``card`` in its empty slot."""
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
