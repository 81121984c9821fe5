"""Fast search for every Thế a set of six cards allows in *some* order.

The registry (:mod:`env121.rules.thes`) defines each Thế by a positional
predicate on a1…a6, but trying every predicate on all 720 orders is far too
slow for an environment that asks "can I win with this card?" on every offer.
Each Thế also names its :class:`~env121.rules.thes.Shape`, the cut of the six
cards it lives on, and there are few cuts. So the search walks the cuts of
each shape, lays the cards out in the few orders that cut allows, and asks
the Thế of that shape their own predicates; the first layout a Thế matches is
its witness. It never names a Thế. The layouts of each shape:

* ``QUOC_SI`` and ``LUC_BO`` — the cards as given, when they are pairwise
  unrelated / a Lục bộ;
* ``TWO_TRIPLES`` — each of the 10 splits into two triples (Phu or Phe), in
  both orders of the halves, the second half as it comes, lined up with the
  first by figure, and lined up by suit. A two-triple Thế is asked only where
  its halves' groups are the cut's (:data:`~env121.rules.thes.TRIPLE_GROUPS`),
  and in the order its halves are named
  (:meth:`~env121.rules.thes.Halves.in_order`): both orders are laid out
  anyway, and the witness lays the first-named half first;
* ``THREE_PAIRS`` — each of the 15 splits into three pairs of one kind, each
  pair laid lower card first (the cards come in ascending order, figure-major,
  so the pairs of one figure all lay their suits the same way round);
* ``CUNG_TAIL`` — each Củng, times its 4 choices of the card a4 the tail
  a4a5a6 shares;
* ``NGU_TAIL`` — each Ngũ, times its 5 choices of the card a5 next to a6.

That these layouts are enough (no Thế asks anything else of the order) is
checked, not assumed: tests compare the search with a brute force over all
720 orders, and check every witness against its Thế's predicate.

Indicator-dependent members of the Quốc Sĩ family (Thất Sĩ and above) are
not searched here: they are ``quoc_si`` plus a condition on the table, added
by :mod:`env121.rules.scoring`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from itertools import combinations
from typing import NamedTuple

from env121.rules.cards import FIG, NUM_SUITS, SUIT
from env121.rules.config import RuleConfig
from env121.rules.groups import pair
from env121.rules.thes import (
    THES_BY_SHAPE,
    TRIPLE_GROUPS,
    Layout,
    Predicate,
    Shape,
    Table,
    Triple,
)

Cards = tuple[int, ...]
Found = dict[str, Cards]
_Asked = tuple[tuple[str, Predicate], ...]
"""The (id, test) of the Thế asked on a layout."""


class _Hand(NamedTuple):
    """The six cards and what the layouts of every shape look at first."""

    cards: Cards
    """Ascending."""
    figures: list[int]
    suits: list[int]
    largest: int
    """The most cards sharing one figure or one suit."""
    partnered: bool
    """Every card shares a figure or a suit with another."""


_Layouts = Callable[[_Hand, _Asked], list[tuple[Layout, _Asked]]]
"""(the hand, the shape's searched Thế) → the orders of the cards that the
shape's Thế are asked on, each with those of them that can match it."""

_IDX = range(6)
_TRIPLE_SPLITS = [
    (a, tuple(i for i in _IDX if i not in a)) for a in combinations(_IDX, 3) if 0 in a
]
_QUADS = [(q, tuple(i for i in _IDX if i not in q)) for q in combinations(_IDX, 4)]
_FIVES = [(f, next(i for i in _IDX if i not in f)) for f in combinations(_IDX, 5)]


def _pairings(idx: tuple[int, ...]) -> list[list[tuple[int, int]]]:
    """Every way to split the positions ``idx`` into pairs."""
    if not idx:
        return [[]]
    first, rest = idx[0], idx[1:]
    return [
        [(first, p), *more] for p in rest for more in _pairings(tuple(i for i in rest if i != p))
    ]


_PAIRINGS = [tuple(pairing) for pairing in _pairings(tuple(_IDX))]


def _line_up(a: Cards, b: Cards, key: tuple[int, ...]) -> Cards | None:
    """``b`` reordered so that key[b'_i] == key[a_i] for every i, or None."""
    left = list(b)
    out = []
    for x in a:
        match = next((y for y in left if key[y] == key[x]), None)
        if match is None:
            return None
        left.remove(match)
        out.append(match)
    return tuple(out)


def _quoc_si(hand: _Hand, asked: _Asked) -> list[tuple[Layout, _Asked]]:
    return [(Layout(hand.cards), asked)] if hand.largest == 1 else []  # nothing shared


def _luc_bo(hand: _Hand, asked: _Asked) -> list[tuple[Layout, _Asked]]:
    return [(Layout(hand.cards), asked)] if hand.largest == 6 else []


Split = tuple[Cards, Cards, frozenset[Triple], frozenset[Triple]]
"""Two triples of the six cards and the groups (:class:`Triple`) each is."""


def triple_splits(
    cards: Sequence[int], figures: Sequence[int], suits: Sequence[int]
) -> list[Split]:
    """The splits of six cards into two triples, each a Phu or a Phe (spec §3
    shape 1), with their groups: the cuts of ``Shape.TWO_TRIPLES``.
    ``figures`` and ``suits`` are those of the cards, in order."""
    splits: list[Split] = []
    for (i, j, k), (p, q, r) in _TRIPLE_SPLITS:
        # TRIPLE_GROUPS[triple_key(...)], inlined: most splits stop here
        first = TRIPLE_GROUPS[
            ((suits[i] * NUM_SUITS + suits[j]) * NUM_SUITS + suits[k]) * 2
            + (figures[i] == figures[j] == figures[k])
        ]
        if not first:
            continue
        second = TRIPLE_GROUPS[
            ((suits[p] * NUM_SUITS + suits[q]) * NUM_SUITS + suits[r]) * 2
            + (figures[p] == figures[q] == figures[r])
        ]
        if second:
            a, b = (cards[i], cards[j], cards[k]), (cards[p], cards[q], cards[r])
            splits.append((a, b, first, second))
    return splits


_HALVES = tuple(
    (t.id, t.halves) for t in THES_BY_SHAPE[Shape.TWO_TRIPLES] if t.halves and not t.needs_chi_diem
)


@cache
def _asked_on_halves(first: frozenset[Triple], second: frozenset[Triple]) -> _Asked:
    """The two-triple Thế whose halves, in the order named, can be halves of
    these groups (the others cannot match)."""
    return tuple(
        (the_id, halves.in_order)
        for the_id, halves in _HALVES
        if halves.first in first and halves.second in second
    )


def _two_triples(hand: _Hand, asked: _Asked) -> list[tuple[Layout, _Asked]]:
    layouts = []
    for a, b, groups_a, groups_b in triple_splits(*hand[:3]):
        for first, second, on_it in (
            (a, b, _asked_on_halves(groups_a, groups_b)),
            (b, a, _asked_on_halves(groups_b, groups_a)),
        ):
            if not on_it:
                continue
            layouts.append((Layout(first + second), on_it))
            for key in (FIG, SUIT):
                lined = _line_up(first, second, key)
                if lined is not None and lined != second:
                    layouts.append((Layout(first + lined), on_it))
    return layouts


def _three_pairs(hand: _Hand, asked: _Asked) -> list[tuple[Layout, _Asked]]:
    if not hand.partnered:
        return []
    cards, figures, suits = hand[:3]
    layouts = []
    for (i, j), (k, m), (n, p) in _PAIRINGS:
        if figures[i] == figures[j]:
            if figures[k] == figures[m] and figures[n] == figures[p]:
                layouts.append((Layout(cards[x] for x in (i, j, k, m, n, p)), asked))
        elif suits[i] == suits[j] and suits[k] == suits[m] and suits[n] == suits[p]:
            layouts.append((Layout(cards[x] for x in (i, j, k, m, n, p)), asked))
    return layouts


def _cung_tails(hand: _Hand, asked: _Asked) -> list[tuple[Layout, _Asked]]:
    if hand.largest < 4:
        return []
    cards = hand.cards
    layouts = []
    for iq, (ix, iy) in _QUADS:
        quad = tuple(cards[i] for i in iq)
        kind = pair(quad[0], quad[1])
        if not kind or any(pair(quad[0], c) != kind for c in quad[2:]):
            continue
        for k in range(4):
            layout = Layout((*quad[:k], *quad[k + 1 :], quad[k], cards[ix], cards[iy]))
            layouts.append((layout, asked))
    return layouts


def _ngu_tails(hand: _Hand, asked: _Asked) -> list[tuple[Layout, _Asked]]:
    if hand.largest < 5:
        return []
    cards = hand.cards
    layouts = []
    for i5, i6 in _FIVES:
        five = tuple(cards[i] for i in i5)
        kind = pair(five[0], five[1])
        if not kind or any(pair(five[0], c) != kind for c in five[2:]):
            continue
        for k in range(5):
            layouts.append((Layout((*five[:k], *five[k + 1 :], five[k], cards[i6])), asked))
    return layouts


_LAYOUTS: dict[Shape, _Layouts] = {
    Shape.QUOC_SI: _quoc_si,
    Shape.TWO_TRIPLES: _two_triples,
    Shape.THREE_PAIRS: _three_pairs,
    Shape.CUNG_TAIL: _cung_tails,
    Shape.NGU_TAIL: _ngu_tails,
    Shape.LUC_BO: _luc_bo,
}
_SHAPES: tuple[tuple[_Layouts, _Asked], ...] = tuple(
    (_LAYOUTS[shape], tuple((t.id, t.predicate) for t in thes if not t.needs_chi_diem))
    for shape, thes in THES_BY_SHAPE.items()
    if thes
)
"""Per shape with Thế: its layouts and the (id, predicate) of its searched Thế."""


@lru_cache(maxsize=16)
def _table(config: RuleConfig) -> Table:
    """The table the search asks under: the rule config, no indicators."""
    return Table(config)


@lru_cache(maxsize=1 << 17)
def achievable_thes(cards: Cards, config: RuleConfig) -> dict[str, Cards]:
    """Every table-independent Thế that *some* order of the six cards matches,
    each with one arrangement realising it.

    ``cards`` must be six distinct card ids in ascending order (the cache key);
    the caller must not mutate the returned dict.
    """
    figures = [FIG[c] for c in cards]
    suits = [SUIT[c] for c in cards]
    by_figure, by_suit = list(map(figures.count, figures)), list(map(suits.count, suits))
    largest = max(max(by_figure), max(by_suit))
    partnered = all(f > 1 or s > 1 for f, s in zip(by_figure, by_suit, strict=True))
    hand = _Hand(cards, figures, suits, largest, partnered)
    found: Found = {}
    table = None
    for layouts, asked in _SHAPES:
        laid = layouts(hand, asked)
        if not laid:
            continue  # most hands: no cut of this shape
        table = table or _table(config)
        for layout, on_it in laid:
            for the_id, test in on_it:
                if the_id not in found and test(layout, table):
                    found[the_id] = tuple(layout)
    return found
