"""Nhất Bản waits: which arrangements of five cards in six slots can still win.

A Nhất Bản player fixes an arrangement of their 5 cards in 6 slots, one slot
empty (:data:`GAP`). It *has a wait* when some card not in the hand, put in
the gap, makes a completed hand (spec §3; every Thế is one, so "completed
hand or Thế" is the same test). [R-8] allows the declaration only then.

Deciding this by trying all 116 outside cards on all 720 arrangements is too
slow for an environment, so :func:`arrangement_has_wait` reasons per shape:
the gap's group is *fillable* whenever its other cards could be completed by
a card of a figure or suit the hand cannot exhaust (there are 11 cards of
each figure and of each suit, and the hand holds only 5). The two places
where the gap sits in two groups at once (Củng ∩ triple at a4, Ngũ ∩ pair at
a5) try the eleven candidate cards. Tests compare every function here with a
brute force over all cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import permutations

from env121.cards import FIG, NUM_CARDS, NUM_SUITS, SUIT, card, pairwise_unrelated
from env121.groups import Kind, pair, phe, phu, run_kind
from env121.patterns import completed_shape

GAP = -1
"""Marks the empty slot of a Nhất Bản arrangement."""

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


def _kind_cards(sample: int, kind: Kind) -> range | list[int]:
    """The 11 cards sharing ``sample``'s figure (kind FIGURE) or suit (SUIT)."""
    if kind == Kind.FIGURE:
        return range(NUM_SUITS * FIG[sample], NUM_SUITS * FIG[sample] + NUM_SUITS)
    return [card(f, SUIT[sample]) for f in range(NUM_CARDS // NUM_SUITS)]


def _others(a: Arrangement, slots: Sequence[int], gap: int) -> list[int]:
    return [a[i] for i in slots if i != gap]


def arrangement_has_wait(a: Arrangement) -> bool:
    """Whether some card not in the arrangement fills its gap into a completed hand."""
    g = a.index(GAP)
    hand = set(a) - {GAP}
    return (
        _two_triples(a, g)
        or _three_pairs(a, g)
        or _cung_pair(a, g)
        or _cung_triple(a, g, hand)
        or _ngu_pair(a, g, hand)
        or _six(a, g)
    )


def _two_triples(a: Arrangement, g: int) -> bool:
    full, open_ = ((3, 4, 5), (0, 1, 2)) if g < 3 else ((0, 1, 2), (3, 4, 5))
    x, y = _others(a, open_, g)
    return _triple(*(a[i] for i in full)) and _triple_fillable(x, y)


def _three_pairs(a: Arrangement, g: int) -> bool:
    # The gap's partner pairs with ≥ 16 cards outside any 5-card hand.
    return all(bool(pair(a[i], a[i + 1])) for i in (0, 2, 4) if g not in (i, i + 1))


def _cung_pair(a: Arrangement, g: int) -> bool:
    if g < 4:
        return bool(run_kind(_others(a, range(4), g))) and bool(pair(a[4], a[5]))
    return bool(run_kind(a[0:4]))


def _cung_triple(a: Arrangement, g: int, hand: set[int]) -> bool:
    if g < 3:
        return bool(run_kind(_others(a, range(4), g))) and _triple(a[3], a[4], a[5])
    if g > 3:
        x, y = _others(a, (3, 4, 5), g)
        return bool(run_kind(a[0:4])) and _triple_fillable(x, y)
    kind = run_kind(a[0:3])  # the gap is a4: in the Củng and in the triple
    return bool(kind) and any(
        c not in hand and _triple(c, a[4], a[5]) for c in _kind_cards(a[0], kind)
    )


def _ngu_pair(a: Arrangement, g: int, hand: set[int]) -> bool:
    if g < 4:
        return bool(run_kind(_others(a, range(5), g))) and bool(pair(a[4], a[5]))
    if g == 5:
        return bool(run_kind(a[0:5]))
    kind = run_kind(a[0:4])  # the gap is a5: in the Ngũ and in the pair
    return bool(kind) and any(c not in hand and pair(c, a[5]) for c in _kind_cards(a[0], kind))


def _six(a: Arrangement, g: int) -> bool:
    others = _others(a, range(6), g)
    return bool(run_kind(others)) or pairwise_unrelated(others)


def winning_cards(a: Arrangement) -> frozenset[int]:
    """Every card not in the arrangement that fills its gap into a completed hand."""
    g = a.index(GAP)
    hand = set(a)
    return frozenset(
        c for c in range(NUM_CARDS) if c not in hand and completed_shape((*a[:g], c, *a[g + 1 :]))
    )


def all_arrangements(hand: Sequence[int]) -> frozenset[Arrangement]:
    """All 720 ways to lay five cards in six slots with one gap."""
    return frozenset(permutations((*hand, GAP)))


@lru_cache(maxsize=1 << 14)
def _waiting_arrangements(hand: tuple[int, ...]) -> frozenset[Arrangement]:
    return frozenset(a for a in all_arrangements(hand) if arrangement_has_wait(a))


def nhat_ban_arrangements(hand: Sequence[int]) -> frozenset[Arrangement]:
    """The arrangements of the five cards that have a wait ([R-8])."""
    return _waiting_arrangements(_five(hand))


def has_nhat_ban_wait(hand: Sequence[int]) -> bool:
    """Whether any arrangement of the five cards has a wait."""
    return _has_wait(_five(hand))


@lru_cache(maxsize=1 << 14)
def _has_wait(hand: tuple[int, ...]) -> bool:
    return any(arrangement_has_wait(a) for a in permutations((*hand, GAP)))


def _five(hand: Sequence[int]) -> tuple[int, ...]:
    five = tuple(sorted(hand))
    if len(five) != 5 or len(set(five)) != 5 or not all(0 <= c < NUM_CARDS for c in five):
        raise ValueError(f"a Nhất Bản hand is five distinct card ids, got {list(hand)}")
    return five
