"""The sixth card: which cards may complete five into a win, as two bit masks.

A necessary condition, cheap to test, on the card ``c`` that makes five cards
(or a Nhất Bản arrangement with its gap) a completed hand of spec §3: the
agents that score every unseen card (:mod:`agents.batched_greedy`) score only
the cards that pass it. :func:`sixth_cards` and :func:`gap_cards` make the
masks, :func:`may_win` tests a card. Keeping every card that wins is tested
against the scorer on every five-card hand of random play
(``tests/agents/test_batched_greedy.py``).
"""

from __future__ import annotations

from itertools import combinations, permutations, product

import numpy as np
from numba import njit

from env121.rules.cards import NUM_SUITS
from env121.rules.compiled.tables import CARD_FIG, CARD_SUIT, KIND_NONE, PHE_OF_SUITS
from env121.rules.compiled.thes import is_triple, pair, pairwise_unrelated
from env121.rules.compiled.waits import GAP, NUM_SLOTS

_HAND = NUM_SLOTS - 1
"""Cards in a seat's hand, free and locked."""


def _phe_third_suits() -> np.ndarray:
    """[suit, suit]: the suits a third card may have for the three to be a Phe
    in some order, as an 11-bit mask (a Phe depends on the suits alone)."""
    phe_of = PHE_OF_SUITS.reshape(NUM_SUITS, NUM_SUITS, NUM_SUITS) != 0
    third = np.zeros((NUM_SUITS, NUM_SUITS), dtype=np.int64)
    for s1, s2, s3 in product(range(NUM_SUITS), repeat=3):
        if any(phe_of[a, b, c] for a, b, c in permutations((s1, s2, s3))):
            third[s1, s2] |= 1 << s3
    return third


PHE_THIRD_SUITS = _phe_third_suits()
TRIPLE_SPLITS_OF_FIVE = np.array(
    [(*t, *(i for i in range(_HAND) if i not in t)) for t in combinations(range(_HAND), 3)],
    dtype=np.int64,
)
"""The ten ways to split five cards (indices) into a triple and a pair: i, j, k, x, y."""
OTHERS_OF_FIVE = np.array(
    [[i for i in range(_HAND) if i != k] for k in range(_HAND)], dtype=np.int64
)
"""[k]: the indices of the five other than k."""


@njit(cache=True, nogil=True)
def _triple_with(x: int, y: int) -> tuple[int, int]:
    """The cards c with (x, y, c) a Phu or a Phe, as (figure mask, suit mask):
    a card is among them when its figure or its suit is in its mask."""
    fx, fy, sx, sy = CARD_FIG[x], CARD_FIG[y], CARD_SUIT[x], CARD_SUIT[y]
    figures = np.int64(1) << fx if fx == fy else 0
    suits = PHE_THIRD_SUITS[sx, sy] | (np.int64(1) << sx if sx == sy else 0)
    return figures, suits


@njit(cache=True, nogil=True)
def sixth_cards(five: np.ndarray) -> tuple[int, int, int, int]:
    """A necessary condition on the card c that makes the five cards a win:
    some order of the six must be a completed hand of spec §3 (every Thế is
    one). As sets, a Củng with its pair or a Ngũ with its pair holds three
    pairs, a Lục bộ too, and a Củng with its triple two triples (its first
    three cards are a Phu), so six cards complete a hand only if they split
    into three pairs, into two triples (Phu or Phe), or are pairwise unrelated:

    * two triples: a triple of the five, c a Phu or Phe with the other two;
    * three pairs: four of the five in two pairs, c paired with the fifth;
    * six unrelated cards: the five pairwise unrelated, c related to none.

    Returns ``(figures, suits, unrelated_figures, unrelated_suits)``, bit masks:
    c may win when its figure is in ``figures`` or its suit in ``suits``, or,
    where ``unrelated_figures >= 0``, when neither its figure nor its suit is in
    those two (:func:`may_win`). On the hands greedy judges it keeps about one
    unseen card in seven; the compiled win table
    (:func:`env121.rules.compiled.win_table.win_points`) scores them all."""
    figures = 0
    suits = 0
    for n in range(TRIPLE_SPLITS_OF_FIVE.shape[0]):
        split = TRIPLE_SPLITS_OF_FIVE[n]
        if is_triple(five[split[0]], five[split[1]], five[split[2]]):
            f, s = _triple_with(five[split[3]], five[split[4]])
            figures |= f
            suits |= s
    for k in range(_HAND):
        rest = OTHERS_OF_FIVE[k]
        a, b, c, d = five[rest[0]], five[rest[1]], five[rest[2]], five[rest[3]]
        if (
            (pair(a, b) != KIND_NONE and pair(c, d) != KIND_NONE)
            or (pair(a, c) != KIND_NONE and pair(b, d) != KIND_NONE)
            or (pair(a, d) != KIND_NONE and pair(b, c) != KIND_NONE)
        ):
            figures |= np.int64(1) << CARD_FIG[five[k]]
            suits |= np.int64(1) << CARD_SUIT[five[k]]
    unrelated = sixth_cards_unrelated(five)
    return figures, suits, unrelated[0], unrelated[1]


@njit(cache=True, nogil=True)
def sixth_cards_unrelated(five: np.ndarray) -> tuple[int, int]:
    """For six unrelated cards: (-1, -1) when the five are not pairwise
    unrelated, else the masks of their figures and of their suits (c may have
    neither)."""
    if not pairwise_unrelated((five[0], five[1], five[2], five[3], five[4]), _HAND):
        return -1, -1
    used_figures = 0
    used_suits = 0
    for i in range(_HAND):
        used_figures |= np.int64(1) << CARD_FIG[five[i]]
        used_suits |= np.int64(1) << CARD_SUIT[five[i]]
    return used_figures, used_suits


@njit(cache=True, nogil=True)
def _related(x: int) -> tuple[int, int]:
    """The cards sharing a figure or a suit with ``x``, as (figure mask, suit mask)."""
    return np.int64(1) << CARD_FIG[x], np.int64(1) << CARD_SUIT[x]


@njit(cache=True, nogil=True)
def gap_cards(a: np.ndarray) -> tuple[int, int, int, int]:
    """:func:`sixth_cards` for a Nhất Bản arrangement ``a`` (``GAP`` in one
    slot): a necessary condition on the card c whose arrangement with c in the
    gap is a completed hand in this order
    (:func:`env121.rules.compiled.scoring.completed_shape`). A Củng with its
    pair, a Ngũ with its pair and a Lục bộ are three pairs in the same order,
    a Củng with its triple two triples (a0-a2 are a Phu), so it is one of:
    the gap's triple completed by c and the other triple whole; the gap's pair
    completed by c and the other two pairs whole; six unrelated cards. Same
    masks as :func:`sixth_cards`, read by :func:`may_win`."""
    g = 0
    for i in range(NUM_SLOTS):
        if a[i] == GAP:
            g = i
    figures = 0
    suits = 0
    # two triples: the gap's triple completed, the other one whole
    t = 0 if g < 3 else 3
    o = 3 - t
    if is_triple(a[o], a[o + 1], a[o + 2]):
        x = a[t] if g != t else a[t + 1]
        y = a[t + 2] if g != t + 2 else a[t + 1]
        f, s = _triple_with(x, y)
        figures |= f
        suits |= s
    # three pairs: the gap's pair completed, the other two whole
    p = g - g % 2
    whole = True
    for q in range(0, NUM_SLOTS, 2):
        if q != p:
            whole = whole and pair(a[q], a[q + 1]) != KIND_NONE
    if whole:
        f, s = _related(a[p + 1 - g % 2])
        figures |= f
        suits |= s
    fixed = np.empty(_HAND, dtype=np.int64)
    n = 0
    for i in range(NUM_SLOTS):
        if i != g:
            fixed[n] = a[i]
            n += 1
    unrelated = sixth_cards_unrelated(fixed)
    return figures, suits, unrelated[0], unrelated[1]


@njit(cache=True, nogil=True)
def may_win(sixth: tuple[int, int, int, int], c: int) -> bool:
    """Whether card ``c`` passes the condition ``sixth`` (:func:`sixth_cards`)."""
    figures, suits, unrelated_figures, unrelated_suits = sixth
    f, s = CARD_FIG[c], CARD_SUIT[c]
    if figures >> f & 1 or suits >> s & 1:
        return True
    return unrelated_figures >= 0 and not (unrelated_figures >> f & 1 or unrelated_suits >> s & 1)


__all__ = [
    "OTHERS_OF_FIVE",
    "PHE_THIRD_SUITS",
    "TRIPLE_SPLITS_OF_FIVE",
    "gap_cards",
    "may_win",
    "sixth_cards",
    "sixth_cards_unrelated",
]
