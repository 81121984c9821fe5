"""Nhất Bản waits: which arrangements of five cards in six slots can still win.

A Nhất Bản player fixes an arrangement of their 5 cards in 6 slots, one slot
empty (:data:`GAP`). It *has a wait* when some card not in the hand, put in
the gap, makes a completed hand (spec §3; every Thế is one, so "completed
hand or Thế" is the same test). [R-8] allows the declaration only then.

Trying all 116 outside cards on all 720 arrangements is far too slow for an
environment. Instead, per completed-hand shape, the gap's group is *fillable*
whenever its other cards could be completed by a card of a figure or suit the
hand cannot exhaust (there are 11 cards of each figure and of each suit, and
the hand holds only 5); only where the gap sits in two groups at once (Củng ∩
triple at a4, Ngũ ∩ pair at a5) are the eleven candidate cards tried.

* :func:`has_nhat_ban_wait` applies that reasoning to the card *set*;
* :func:`nhat_ban_arrangements`, :func:`arrangement_has_wait` and the
  placement masks (:func:`waiting_gaps`, :func:`waiting_next_cards`) read one
  table: for each of the 720 arrangements of hand *indices*, the shapes as
  clauses over per-hand features, evaluated for a hand in one lookup.

Tests compare every function here with a brute force over all cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations, permutations

import numpy as np

from env121.rules.cards import (
    FIG,
    NUM_CARDS,
    NUM_FIGURES,
    NUM_SUITS,
    SUIT,
    card,
    pairwise_unrelated,
)
from env121.rules.groups import Kind, pair, phe, phu, run_kind

GAP = -1
"""Marks the empty slot of a Nhất Bản arrangement."""

# Per-card tables for completing_cards, built once at import.
_CARD_IDS = np.arange(NUM_CARDS)
_FIG_CARDS = np.array([[FIG[c] == f for c in range(NUM_CARDS)] for f in range(NUM_FIGURES)])
_SUIT_CARDS = np.array([[SUIT[c] == s for c in range(NUM_CARDS)] for s in range(NUM_SUITS)])
_CARD_SUITS = np.array(SUIT)
_PHE_SUITS = np.array(
    [
        [
            [bool(phe(card(1, x), card(1, y), card(1, z))) for z in range(NUM_SUITS)]
            for y in range(NUM_SUITS)
        ]
        for x in range(NUM_SUITS)
    ]
)  # [suit, suit, suit]: the three suits form a Phe
_RELATED = np.array(
    [_FIG_CARDS[FIG[x]] | _SUIT_CARDS[SUIT[x]] for x in range(NUM_CARDS)]
)  # [x, card]: same figure or suit

Arrangement = tuple[int, ...]

# Regular suit pairs (s1, s2) that a third suit can turn into a Phe.
_PHE_EXTENDABLE = frozenset(
    (s1, s2)
    for s1 in range(NUM_SUITS)
    for s2 in range(NUM_SUITS)
    if any(phe(card(0, s1), card(0, s2), card(0, s3)) for s3 in range(NUM_SUITS))
)


def _triple(x: int, y: int, z: int) -> bool:
    return bool(phu(x, y, z)) or bool(phe(x, y, z))


def _triple_fillable(x: int, y: int) -> bool:
    """Some card outside the hand makes (x, y, ·) a Phu or a Phe."""
    return FIG[x] == FIG[y] or SUIT[x] == SUIT[y] or (SUIT[x], SUIT[y]) in _PHE_EXTENDABLE


def _kind_cards(sample: int, kind: Kind) -> list[int]:
    """The 11 cards sharing ``sample``'s figure (kind FIGURE) or suit (SUIT)."""
    if kind == Kind.FIGURE:
        return [card(FIG[sample], s) for s in range(NUM_SUITS)]
    return [card(f, SUIT[sample]) for f in range(NUM_FIGURES)]


# ------------------------------------------------ the card-set test

_FIVE = range(5)
_DISJOINT_PAIRS = tuple(
    (p, q)
    for p in combinations(_FIVE, 2)
    for q in combinations(_FIVE, 2)
    if p < q and not set(p) & set(q)
)
_THREE_TWO = tuple((t, tuple(i for i in _FIVE if i not in t)) for t in combinations(_FIVE, 3))


@lru_cache(maxsize=1 << 16)
def _has_wait(h: tuple[int, ...]) -> bool:
    if pairwise_unrelated(h) or run_kind(h):
        return True  # a sixth unrelated card, or a Ngũ / Lục bộ
    for q in combinations(h, 4):
        if run_kind(q):
            return True  # a Củng: any fifth card pairs with some outside card
    for (i, j), (k, m) in _DISJOINT_PAIRS:
        if pair(h[i], h[j]) and pair(h[k], h[m]):
            return True  # three pairs, the gap pairing with the fifth card
    for t, (ix, iy) in _THREE_TWO:
        triple = (h[t[0]], h[t[1]], h[t[2]])
        x, y = h[ix], h[iy]
        if _triple(*triple) and _triple_fillable(x, y):
            return True  # two triples
        kind = run_kind(triple)
        if not kind:
            continue
        if pair(x, y) or any(_triple(a, x, y) for a in triple):
            return True  # Củng (gap in it) + pair, or + triple sharing a4
        if any(c not in h and _triple(c, x, y) for c in _kind_cards(triple[0], kind)):
            return True  # the gap is a4, in the Củng and the triple at once
    return False


def has_nhat_ban_wait(hand: Sequence[int]) -> bool:
    """Whether some arrangement of the five cards is completed by a card not in
    them ([R-8]), reasoned on the card set shape by shape."""
    return _has_wait(_five(hand))


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
_NUM_FEATURES = _F_SIX + 1


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


def _clause_table() -> tuple[tuple[tuple[int, ...], ...], np.ndarray]:
    index_arrangements = sorted(set(permutations((0, 1, 2, 3, 4, GAP))))
    rows = [_clauses(a) for a in index_arrangements]
    width = max(len(r) for r in rows)
    table = np.full((len(rows), width, 3), _F_TRUE, dtype=np.intp)
    for n, row in enumerate(rows):
        for m, clause in enumerate(row):
            table[n, m, : len(clause)] = clause
        for m in range(len(row), width):
            table[n, m, 0] = _F_TRUE + _NUM_FEATURES  # an always-false padding clause
    return tuple(index_arrangements), table


_INDEX_ARRANGEMENTS, _CLAUSES = _clause_table()
_ROW = {a: n for n, a in enumerate(_INDEX_ARRANGEMENTS)}


def _features(h: tuple[int, ...]) -> np.ndarray:
    """The per-hand features the clauses look up (one extra False at the end)."""
    f = np.zeros(_NUM_FEATURES + 1, dtype=bool)
    f[_F_TRUE] = True
    hand = set(h)
    for i, j in combinations(_FIVE, 2):
        if pair(h[i], h[j]):
            f[_F_R2 + 5 * i + j] = f[_F_R2 + 5 * j + i] = True
        if _triple_fillable(h[i], h[j]):
            f[_F_FILL + 5 * i + j] = f[_F_FILL + 5 * j + i] = True
    for t in combinations(_FIVE, 3):
        if _triple(*(h[i] for i in t)):
            for i, j, k in permutations(t):
                f[_F_T3 + 25 * i + 5 * j + k] = True
    for m in range(1, 32):
        members = [i for i in _FIVE if m >> i & 1]
        if len(members) < 3:
            continue
        kind = run_kind([h[i] for i in members])
        if not kind:
            continue
        f[_F_RUN + m] = True
        rest = [i for i in _FIVE if not m >> i & 1]
        outside = [c for c in _kind_cards(h[members[0]], kind) if c not in hand]
        if len(rest) == 2:
            x, y = rest
            if any(_triple(c, h[x], h[y]) for c in outside):
                f[_F_EX4 + 25 * m + 5 * x + y] = f[_F_EX4 + 25 * m + 5 * y + x] = True
        elif len(rest) == 1:
            (y,) = rest
            if any(pair(c, h[y]) for c in outside):
                f[_F_EX5 + 5 * m + y] = True
    f[_F_SIX] = pairwise_unrelated(h)
    return f


_INDEX_TABLE = np.array(_INDEX_ARRANGEMENTS, dtype=np.intp)
_GAP_SLOT = np.argmax(_INDEX_TABLE == GAP, axis=1)


@lru_cache(maxsize=1 << 12)
def _waiting_mask(h: tuple[int, ...]) -> np.ndarray:
    """Which of the 720 index arrangements of sorted hand ``h`` have a wait."""
    mask: np.ndarray = np.any(np.all(_features(h)[_CLAUSES], axis=2), axis=1)
    mask.flags.writeable = False
    return mask


def nhat_ban_arrangements(hand: Sequence[int]) -> frozenset[Arrangement]:
    """The arrangements of the five cards (GAP in the empty slot) that have a
    wait: the legal Nhất Bản arrangements under [R-8]."""
    h = _five(hand)
    return frozenset(
        tuple(GAP if i == GAP else h[i] for i in _INDEX_ARRANGEMENTS[n])
        for n in np.flatnonzero(_waiting_mask(h))
    )


def waiting_gaps(hand: Sequence[int]) -> list[int]:
    """The empty slots some waiting arrangement of the hand uses (ascending)."""
    mask = _waiting_mask(_five(hand))
    return [int(g) for g in np.unique(_GAP_SLOT[mask])]


def waiting_next_cards(hand: Sequence[int], gap: int, placed: Sequence[int]) -> list[int]:
    """Cards that may fill the next open slot (left to right, skipping ``gap``)
    after ``placed``, so that a waiting arrangement can still be finished."""
    h = _five(hand)
    order = placement_order(gap)
    mask = _waiting_mask(h) & np.equal(_GAP_SLOT, gap)
    for slot, c in zip(order, placed, strict=False):
        mask &= _INDEX_TABLE[:, slot] == h.index(c)
    return sorted(h[int(i)] for i in np.unique(_INDEX_TABLE[mask, order[len(placed)]]))


def arrangement_has_wait(a: Arrangement) -> bool:
    """Whether some card not in the arrangement fills its gap into a completed hand."""
    h = _five([c for c in a if c != GAP])
    index_arrangement = tuple(GAP if c == GAP else h.index(c) for c in a)
    return bool(_waiting_mask(h)[_ROW[index_arrangement]])


def fill_gap(arrangement: Arrangement, card_id: int) -> Arrangement:
    """The arrangement with ``card_id`` in its empty slot."""
    g = arrangement.index(GAP)
    return (*arrangement[:g], card_id, *arrangement[g + 1 :])


@lru_cache(maxsize=1 << 12)
def winning_cards(a: Arrangement) -> frozenset[int]:
    """Every card not in the arrangement that fills its gap into a completed hand."""
    wins = np.flatnonzero(completing_cards(a) & ~np.isin(_CARD_IDS, a))
    return frozenset(int(c) for c in wins)


@lru_cache(maxsize=1 << 14)
def _triple_with(x: int, y: int) -> np.ndarray:
    """Per card id c, whether (x, y, c) is a Phu or a Phe."""
    with_xy: np.ndarray = _PHE_SUITS[SUIT[x], SUIT[y], _CARD_SUITS].astype(bool)
    if FIG[x] == FIG[y]:
        with_xy = with_xy | _FIG_CARDS[FIG[x]]
    if SUIT[x] == SUIT[y]:
        with_xy = with_xy | _SUIT_CARDS[SUIT[x]]
    return with_xy


def completing_cards(a: Arrangement) -> np.ndarray:
    """Per card id, whether it would complete arrangement ``a`` in its gap (spec
    §3's six shapes, each evaluated for all 121 cards at once; the arrangement's
    own cards are not excluded)."""
    gap = a.index(GAP)

    def pair_ok(i: int, j: int) -> np.ndarray | bool:
        if gap in (i, j):
            related: np.ndarray = _RELATED[a[j if gap == i else i]]
            return related
        return bool(pair(a[i], a[j]))

    def triple_ok(i: int) -> np.ndarray | bool:
        slots = (i, i + 1, i + 2)
        if gap in slots:
            x, y = (a[k] for k in slots if k != gap)
            return _triple_with(x, y)
        return _triple(a[i], a[i + 1], a[i + 2])

    def run_ok(n: int) -> np.ndarray | bool:
        """The first ``n`` slots share a figure or a suit (Củng, Ngũ, Lục bộ)."""
        if gap >= n:
            return bool(run_kind(a[:n]))
        fixed = [a[k] for k in range(n) if k != gap]
        kind = run_kind(fixed)
        if kind == Kind.NONE:
            return False
        same: np.ndarray = (
            _FIG_CARDS[FIG[fixed[0]]] if kind == Kind.FIGURE else _SUIT_CARDS[SUIT[fixed[0]]]
        )
        return same

    fixed = [c for c in a if c != GAP]
    unrelated: np.ndarray | bool = False
    if pairwise_unrelated(fixed):
        unrelated = ~np.any(_RELATED[fixed], axis=0)
    shapes = (
        np.logical_and(triple_ok(0), triple_ok(3)),
        np.logical_and(np.logical_and(pair_ok(0, 1), pair_ok(2, 3)), pair_ok(4, 5)),
        np.logical_and(run_ok(4), pair_ok(4, 5)),
        np.logical_and(run_ok(4), triple_ok(3)),
        np.logical_and(run_ok(5), pair_ok(4, 5)),
        np.logical_or(run_ok(6), unrelated),
    )
    return np.asarray(np.logical_or.reduce(np.broadcast_arrays(*shapes)), dtype=bool)


@lru_cache(maxsize=1 << 10)
def all_arrangements(hand: tuple[int, ...]) -> frozenset[Arrangement]:
    """All 720 ways to lay five cards in six slots with one gap."""
    return frozenset(permutations((*hand, GAP)))


def placement_order(gap: int) -> tuple[int, ...]:
    """The slots a Nhất Bản arrangement is filled in, once the gap is chosen:
    left to right, skipping ``gap``."""
    return tuple(i for i in range(6) if i != gap)


def _five(hand: Sequence[int]) -> tuple[int, ...]:
    five = tuple(sorted(hand))
    if len(five) != 5 or len(set(five)) != 5 or not all(0 <= c < NUM_CARDS for c in five):
        raise ValueError(f"a Nhất Bản hand is five distinct card ids, got {list(hand)}")
    return five
