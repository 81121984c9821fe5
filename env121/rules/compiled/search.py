"""The search for every Thế a set of six cards allows in *some* order, as a numba kernel.

The registry (:mod:`env121.rules.thes`) defines each Thế by a positional
predicate on a1…a6, but trying every predicate on all 720 orders is far too
slow for an environment that asks "can I win with this card?" on every offer.
Each Thế also names its :class:`~env121.rules.thes.Shape`, the cut of the six
cards it lives on, and there are few cuts. So :func:`search` walks the cuts of
each shape, lays the cards out in the few orders that cut allows, and asks the
Thế of that shape; the first layout a Thế matches is its witness. The layouts
of each shape:

* ``QUOC_SI`` and ``LUC_BO`` — the cards as given, when they are pairwise
  unrelated / a Lục bộ;
* ``TWO_TRIPLES`` — each of the 10 splits into two triples (Phu or Phe), in
  both orders of the halves, the second half as it comes, lined up with the
  first by figure, and lined up by suit. A two-triple Thế is asked only where
  its halves' groups are the cut's, and in the order its halves are named;
* ``THREE_PAIRS`` — each of the 15 splits into three pairs of one kind, each
  pair laid lower card first;
* ``CUNG_TAIL`` — each Củng, times its 4 choices of the card a4 the tail
  a4a5a6 shares;
* ``NGU_TAIL`` — each Ngũ, times its 5 choices of the card a5 next to a6.

That these layouts are enough (no Thế asks anything else of the order) is
checked, not assumed: tests compare the search with a brute force over all
720 orders and with the readable Python search it was ported from
(``tests/support/scorer.py``), witnesses included. Indicator-dependent members
of the Quốc Sĩ family (Thất Sĩ and above) are not searched: they are
``quoc_si`` plus a condition on the table (:func:`~env121.rules.compiled.scoring.achievable`).

:func:`search` can stop as soon as it finds one of a set of Thế:
:func:`env121.rules.compiled.wins.is_win` stops at the first allowed one, and
the scorer finds the witness of its best Thế by stopping at that Thế.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from env121.rules.compiled.tables import (
    CARD_FIG,
    CARD_SUIT,
    FIVES,
    HALVES_ASKED,
    KIND_NONE,
    PAIRINGS,
    QUADS,
    SHAPE_CUNG_TAIL,
    SHAPE_LUC_BO,
    SHAPE_NGU_TAIL,
    SHAPE_QUOC_SI,
    SHAPE_SEARCHED,
    SHAPE_THREE_PAIRS,
    SUIT_IN_A_PHE,
    TRIPLE_GROUP_BITS,
    TRIPLE_GROUP_SET,
    TRIPLE_SPLITS,
    ZERO,
)
from env121.rules.compiled.thes import pair, searched_predicate, triple_key

Six = tuple[int, int, int, int, int, int]


@njit(cache=True, nogil=True)
def sort_six(six: np.ndarray | Six) -> Six:
    """The six card ids of ``six`` (an array or a tuple) in ascending order (a sorting
    network)."""
    c0, c1, c2, c3, c4, c5 = six[0], six[1], six[2], six[3], six[4], six[5]
    if c0 > c5:
        c0, c5 = c5, c0
    if c1 > c3:
        c1, c3 = c3, c1
    if c2 > c4:
        c2, c4 = c4, c2
    if c1 > c2:
        c1, c2 = c2, c1
    if c3 > c4:
        c3, c4 = c4, c3
    if c0 > c3:
        c0, c3 = c3, c0
    if c2 > c5:
        c2, c5 = c5, c2
    if c0 > c1:
        c0, c1 = c1, c0
    if c2 > c3:
        c2, c3 = c3, c2
    if c4 > c5:
        c4, c5 = c5, c4
    if c1 > c2:
        c1, c2 = c2, c1
    if c3 > c4:
        c3, c4 = c4, c3
    return (c0, c1, c2, c3, c4, c5)


@njit(cache=True, nogil=True)
def _ask(asked: int, a: Six, found: int, left_figures: np.ndarray, phe_phe_same_suits: bool) -> int:
    """``found`` plus the Thế of ``asked`` not found yet that layout ``a`` matches."""
    todo = asked & ~found
    t = ZERO
    while todo:
        if todo & 1 and searched_predicate(t, a, left_figures, phe_phe_same_suits):
            found |= 1 << t
        todo >>= 1
        t += 1
    return found


@njit(cache=True, nogil=True)
def _first_with(b: tuple[int, int, int], key: np.ndarray, value: int, taken: int) -> int:
    """The first position of ``b`` not in ``taken`` whose key is ``value``, or -1."""
    for m in range(3):
        if not taken >> m & 1 and key[b[m]] == value:
            return m
    return -1


@njit(cache=True, nogil=True)
def _line_up(
    a: tuple[int, int, int], b: tuple[int, int, int], key: np.ndarray
) -> tuple[tuple[int, int, int], bool]:
    """``search._line_up``: ``b`` reordered so that key[b'_i] == key[a_i], each
    a_i taking the first card left that fits; (``b``, False) when none does."""
    m0 = _first_with(b, key, key[a[0]], ZERO)
    if m0 < 0:
        return b, False
    m1 = _first_with(b, key, key[a[1]], 1 << m0)
    if m1 < 0:
        return b, False
    m2 = _first_with(b, key, key[a[2]], 1 << m0 | 1 << m1)
    if m2 < 0:
        return b, False
    return (b[m0], b[m1], b[m2]), True


@njit(cache=True, nogil=True)
def _counts(h: Six) -> tuple[int, bool, bool]:
    """What the shapes look at first: the most cards sharing one figure or one
    suit; whether every card shares a figure or a suit with another; and the
    prefilter, whether the hand passes the necessary conditions below (counts
    packed four bits a figure or suit)."""
    by_figure = 0
    by_suit = 0
    for i in range(6):
        by_figure += 1 << 4 * CARD_FIG[h[i]]
        by_suit += 1 << 4 * CARD_SUIT[h[i]]
    largest = 0
    figures = 0
    suits = 0
    for v in range(11):
        f = by_figure >> 4 * v & 15
        s = by_suit >> 4 * v & 15
        largest = max(largest, f, s)
        figures += f > 0
        suits += s > 0
    partnered = True
    alone_in_a_phe = True  # every card sharing nothing has a suit some Phe has
    all_in_a_phe = True
    for i in range(6):
        s = CARD_SUIT[h[i]]
        all_in_a_phe = all_in_a_phe and SUIT_IN_A_PHE[s]
        if by_figure >> 4 * CARD_FIG[h[i]] & 15 == 1 and by_suit >> 4 * s & 15 == 1:
            partnered = False
            alone_in_a_phe = alone_in_a_phe and SUIT_IN_A_PHE[s]
    # A card sharing neither figure nor suit with another can only be among six
    # unrelated cards (largest 1) or in a Phe (a half of two triples, a Củng's
    # tail). With at most two cards of a kind (largest 2) there is no Phu, Củng,
    # Ngũ or Lục bộ: only three pairs of one kind (three figures or three suits,
    # two cards each) or two Phe, which need every suit to be in a Phe.
    passes = largest == 1 or alone_in_a_phe
    if largest == 2 and figures != 3 and suits != 3:
        passes = passes and all_in_a_phe
    return largest, partnered, passes


@njit(cache=True, nogil=True)
def search(
    h: Six, left_figures: np.ndarray, phe_phe_same_suits: bool, stop: int
) -> tuple[int, Six]:
    """The mask of the searched Thế some order of the ascending six ``h`` matches.

    Stops as soon as it finds a Thế of the mask ``stop`` (0: never), and then
    also returns the layout it stopped on, that Thế's witness (otherwise ``h``).
    """
    largest, partnered, passes = _counts(h)
    if not passes:  # the prefilter (compiled.wins says why): most hands stop here
        return 0, h
    found = ZERO
    if largest == 1:
        found = _ask(SHAPE_SEARCHED[SHAPE_QUOC_SI], h, found, left_figures, phe_phe_same_suits)
        if found & stop:
            return found, h

    for n in range(TRIPLE_SPLITS.shape[0]):
        i, j, k, p, q, r = TRIPLE_SPLITS[n]
        key_a = triple_key(h[i], h[j], h[k])
        if TRIPLE_GROUP_BITS[key_a] == 0:
            continue
        key_b = triple_key(h[p], h[q], h[r])
        if TRIPLE_GROUP_BITS[key_b] == 0:
            continue
        set_a, set_b = TRIPLE_GROUP_SET[key_a], TRIPLE_GROUP_SET[key_b]
        a3 = (h[i], h[j], h[k])
        b3 = (h[p], h[q], h[r])
        for swap in range(2):
            first, second = (b3, a3) if swap else (a3, b3)
            asked = HALVES_ASKED[set_b, set_a] if swap else HALVES_ASKED[set_a, set_b]
            if asked == 0:
                continue
            layout = (first[0], first[1], first[2], second[0], second[1], second[2])
            found = _ask(asked, layout, found, left_figures, phe_phe_same_suits)
            if found & stop:
                return found, layout
            for by_suit_key in range(2):
                key = CARD_SUIT if by_suit_key else CARD_FIG
                lined, ok = _line_up(first, second, key)
                if not ok or (
                    lined[0] == second[0] and lined[1] == second[1] and lined[2] == second[2]
                ):
                    continue
                layout = (first[0], first[1], first[2], lined[0], lined[1], lined[2])
                found = _ask(asked, layout, found, left_figures, phe_phe_same_suits)
                if found & stop:
                    return found, layout

    if partnered:
        asked = SHAPE_SEARCHED[SHAPE_THREE_PAIRS]
        for n in range(PAIRINGS.shape[0]):
            i, j, k, m, x, y = PAIRINGS[n]
            if CARD_FIG[h[i]] == CARD_FIG[h[j]]:
                if not (CARD_FIG[h[k]] == CARD_FIG[h[m]] and CARD_FIG[h[x]] == CARD_FIG[h[y]]):
                    continue
            elif not (
                CARD_SUIT[h[i]] == CARD_SUIT[h[j]]
                and CARD_SUIT[h[k]] == CARD_SUIT[h[m]]
                and CARD_SUIT[h[x]] == CARD_SUIT[h[y]]
            ):
                continue
            layout = (h[i], h[j], h[k], h[m], h[x], h[y])
            found = _ask(asked, layout, found, left_figures, phe_phe_same_suits)
            if found & stop:
                return found, layout

    if largest >= 4:
        asked = SHAPE_SEARCHED[SHAPE_CUNG_TAIL]
        for n in range(QUADS.shape[0]):
            i, j, k, m, x, y = QUADS[n]
            c0, c1, c2, c3 = h[i], h[j], h[k], h[m]
            kind = pair(c0, c1)
            if kind == KIND_NONE or pair(c0, c2) != kind or pair(c0, c3) != kind:
                continue
            for a4 in range(4):
                if a4 == 0:
                    layout = (c1, c2, c3, c0, h[x], h[y])
                elif a4 == 1:
                    layout = (c0, c2, c3, c1, h[x], h[y])
                elif a4 == 2:
                    layout = (c0, c1, c3, c2, h[x], h[y])
                else:
                    layout = (c0, c1, c2, c3, h[x], h[y])
                found = _ask(asked, layout, found, left_figures, phe_phe_same_suits)
                if found & stop:
                    return found, layout

    if largest >= 5:
        asked = SHAPE_SEARCHED[SHAPE_NGU_TAIL]
        for n in range(FIVES.shape[0]):
            i, j, k, m, x, y = FIVES[n]
            c0, c1, c2, c3, c4 = h[i], h[j], h[k], h[m], h[x]
            kind = pair(c0, c1)
            if kind == KIND_NONE or pair(c0, c2) != kind or pair(c0, c3) != kind:
                continue
            if pair(c0, c4) != kind:
                continue
            for a5 in range(5):
                if a5 == 0:
                    layout = (c1, c2, c3, c4, c0, h[y])
                elif a5 == 1:
                    layout = (c0, c2, c3, c4, c1, h[y])
                elif a5 == 2:
                    layout = (c0, c1, c3, c4, c2, h[y])
                elif a5 == 3:
                    layout = (c0, c1, c2, c4, c3, h[y])
                else:
                    layout = (c0, c1, c2, c3, c4, h[y])
                found = _ask(asked, layout, found, left_figures, phe_phe_same_suits)
                if found & stop:
                    return found, layout

    if largest == 6:
        found = _ask(SHAPE_SEARCHED[SHAPE_LUC_BO], h, found, left_figures, phe_phe_same_suits)
    return found, h


SEARCHED_MASK = int(np.bitwise_or.reduce(SHAPE_SEARCHED))
"""Every searched Thế (all but the indicator-decided Quốc Sĩ members)."""
