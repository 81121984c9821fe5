"""Fast rule questions the engine asks at every step.

* :func:`may_have_the` — a cheap *necessary* condition for six cards to have a
  Thế in some order. Most six-card hands fail it, so the engine calls
  :func:`env121.scoring.score_hand` (the authority) only on the rest.
* :func:`has_wait` — whether five cards can declare Nhất Bản under [R-8]; the
  same answer as :func:`env121.waits.has_nhat_ban_wait`, reasoned on the card
  *set* instead of the 720 arrangements (tests compare the two).
* :func:`waiting_arrangements` — the arrangements a Nhất Bản declarer may fix
  under [R-8]; the same set as :func:`env121.waits.nhat_ban_arrangements`,
  computed from per-hand features with one table lookup per arrangement
  (tests compare the two).
* :func:`nb_winning_cards` — the cards that complete a Nhất Bản arrangement
  (:func:`env121.waits.winning_cards`, memoised).
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
from functools import lru_cache
from itertools import combinations, permutations

import numpy as np

from env121.cards import FIG, IS_HONOR, NUM_SUITS, SUIT, card, pairwise_unrelated
from env121.groups import Kind, edo3, kyoto3, pair, phe, phu, run_kind
from env121.waits import GAP, winning_cards

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


# ------------------------------------------------------------ Nhất Bản waits

_FIVE = range(5)
_PHE_SUIT_PAIRS = frozenset(
    (s1, s2)
    for s1 in range(NUM_SUITS)
    for s2 in range(NUM_SUITS)
    if any(phe(card(0, s1), card(0, s2), card(0, s3)) for s3 in range(NUM_SUITS))
)
_DISJOINT_PAIRS = tuple(
    (p, q)
    for p in combinations(_FIVE, 2)
    for q in combinations(_FIVE, 2)
    if p < q and not set(p) & set(q)
)
_THREE_TWO = tuple((t, tuple(i for i in _FIVE if i not in t)) for t in combinations(_FIVE, 3))


def _triple(x: int, y: int, z: int) -> bool:
    return bool(phu(x, y, z)) or bool(phe(x, y, z))


def _fillable(x: int, y: int) -> bool:
    """Some card outside any 5-card hand makes (x, y, ·) a Phu or a Phe."""
    return FIG[x] == FIG[y] or SUIT[x] == SUIT[y] or (SUIT[x], SUIT[y]) in _PHE_SUIT_PAIRS


def _kind_cards(sample: int, kind: Kind) -> list[int]:
    """The 11 cards sharing ``sample``'s figure (FIGURE) or suit (SUIT)."""
    if kind == Kind.FIGURE:
        return [card(FIG[sample], s) for s in range(NUM_SUITS)]
    return [card(f, SUIT[sample]) for f in range(11)]


@lru_cache(maxsize=1 << 16)
def _has_wait_sorted(h: tuple[int, ...]) -> bool:
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
        if _triple(*triple) and _fillable(x, y):
            return True  # two triples
        kind = run_kind(triple)
        if not kind:
            continue
        if pair(x, y) or any(_triple(a, x, y) for a in triple):
            return True  # Củng (gap in it) + pair, or + triple sharing a4
        if any(c not in h and _triple(c, x, y) for c in _kind_cards(triple[0], kind)):
            return True  # the gap is a4, in the Củng and the triple at once
    return False


def has_wait(hand: Sequence[int]) -> bool:
    """Whether some arrangement of the five cards is completed by a card not in
    them ([R-8]); equal to :func:`env121.waits.has_nhat_ban_wait`, faster."""
    return _has_wait_sorted(tuple(sorted(hand)))


# The 720 arrangements of hand *indices* 0..4 (GAP = -1) and, for each, the
# completed shapes of :mod:`env121.waits` as clauses over per-hand features:
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
    """The shape clauses of index arrangement ``a`` (spec §3, as in waits)."""
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


def _features(h: tuple[int, ...]) -> np.ndarray:
    """The per-hand features the clauses look up (one extra False at the end)."""
    f = np.zeros(_NUM_FEATURES + 1, dtype=bool)
    f[_F_TRUE] = True
    hand = set(h)
    for i, j in combinations(_FIVE, 2):
        if pair(h[i], h[j]):
            f[_F_R2 + 5 * i + j] = f[_F_R2 + 5 * j + i] = True
        if _fillable(h[i], h[j]):
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


@lru_cache(maxsize=1 << 12)
def _waiting_sorted(h: tuple[int, ...]) -> frozenset[tuple[int, ...]]:
    ok = _features(h)[_CLAUSES].all(axis=2).any(axis=1)
    return frozenset(
        tuple(GAP if i == GAP else h[i] for i in _INDEX_ARRANGEMENTS[n]) for n in np.flatnonzero(ok)
    )


def waiting_arrangements(hand: Sequence[int]) -> frozenset[tuple[int, ...]]:
    """The arrangements of five cards (GAP in the empty slot) that have a wait:
    :func:`env121.waits.nhat_ban_arrangements`, about 30 times faster."""
    return _waiting_sorted(tuple(sorted(hand)))


@lru_cache(maxsize=1 << 14)
def nb_winning_cards(arrangement: tuple[int, ...]) -> frozenset[int]:
    """Cards that fill the gap of a Nhất Bản arrangement into a completed hand."""
    return winning_cards(arrangement)


def fill_gap(arrangement: tuple[int, ...], card_id: int) -> tuple[int, ...]:
    """The arrangement with ``card_id`` in its empty slot."""
    g = arrangement.index(GAP)
    return (*arrangement[:g], card_id, *arrangement[g + 1 :])


__all__ = [
    "fill_gap",
    "has_wait",
    "may_have_the",
    "nb_winning_cards",
    "the_trang_eligible",
    "waiting_arrangements",
]
