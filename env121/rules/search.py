"""Fast search for every Thế a set of six cards allows in *some* order.

The registry (:mod:`env121.rules.thes`) defines each Thế by a positional
predicate on a1…a6, but trying every predicate on all 720 orders is far too
slow for an environment that asks "can I win with this card?" on every offer.
Each Thế also names its :class:`~env121.rules.thes.Shape`, the cut of the six
cards it lives on, and there are few cuts. So the search walks the cuts of
each shape, lays the cards out in the few orders that cut allows, and asks
the Thế of that shape their own predicates; the first layout a Thế matches is
its witness. It never names a Thế. The layouts of each shape:

* ``WHOLE`` — the cards as given, when they are a Lục bộ or pairwise
  unrelated;
* ``TWO_TRIPLES`` — each of the 10 splits into two triples (Phu or Phe), in
  both orders of the halves, the second half as it comes, lined up with the
  first by figure, and lined up by suit. A two-triple Thế is asked in the order
  its halves are named (:meth:`~env121.rules.thes.Halves.in_order`): both
  orders are laid out anyway, and the witness lays the first-named half first;
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
from functools import lru_cache
from itertools import combinations

from env121.rules.cards import FIG, NUM_SUITS, SUIT, card
from env121.rules.config import RuleConfig
from env121.rules.groups import pair, phe
from env121.rules.thes import THES_BY_SHAPE, Predicate, Shape, Table

Cards = tuple[int, ...]
Found = dict[str, Cards]
Layouts = Callable[[Cards, list[int], list[int], int], Sequence[Cards]]
"""(cards, their figures, their suits, the largest run of one figure or suit)
→ the orders of the cards that a shape's Thế are asked on."""

_IDX = range(6)
_TRIPLE_SPLITS = [
    (a, tuple(i for i in _IDX if i not in a)) for a in combinations(_IDX, 3) if 0 in a
]
_QUADS = [(q, tuple(i for i in _IDX if i not in q)) for q in combinations(_IDX, 4)]
_FIVES = [(f, next(i for i in _IDX if i not in f)) for f in combinations(_IDX, 5)]
_TRIPLE_SUITS = tuple(
    s1 == s2 == s3 or bool(phe(card(0, s1), card(0, s2), card(0, s3)))
    for s1 in range(NUM_SUITS)
    for s2 in range(NUM_SUITS)
    for s3 in range(NUM_SUITS)
)
"""By (s1 · 11 + s2) · 11 + s3: three cards of these suits are a Phu of one
suit or a Phe; with one figure they are a Phu whatever the suits."""


def _pairings(idx: tuple[int, ...]) -> list[list[tuple[int, int]]]:
    if not idx:
        return [[]]
    first, rest = idx[0], idx[1:]
    return [
        [(first, p), *more] for p in rest for more in _pairings(tuple(i for i in rest if i != p))
    ]


_PAIRINGS = _pairings(tuple(_IDX))


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


def _whole(cards: Cards, figures: list[int], suits: list[int], largest: int) -> Sequence[Cards]:
    unrelated = len(set(figures)) == 6 and len(set(suits)) == 6
    return (cards,) if largest == 6 or unrelated else ()


def triple_splits(
    cards: Sequence[int], figures: Sequence[int], suits: Sequence[int]
) -> list[tuple[Cards, Cards]]:
    """The splits of six cards into two triples, each a Phu or a Phe (spec §3
    shape 1): the cuts of ``Shape.TWO_TRIPLES``. ``figures`` and ``suits`` are
    those of the cards, in order."""
    splits: list[tuple[Cards, Cards]] = []
    for (i, j, k), (p, q, r) in _TRIPLE_SPLITS:
        if (
            _TRIPLE_SUITS[(suits[i] * NUM_SUITS + suits[j]) * NUM_SUITS + suits[k]]
            or figures[i] == figures[j] == figures[k]
        ) and (
            _TRIPLE_SUITS[(suits[p] * NUM_SUITS + suits[q]) * NUM_SUITS + suits[r]]
            or figures[p] == figures[q] == figures[r]
        ):
            splits.append(((cards[i], cards[j], cards[k]), (cards[p], cards[q], cards[r])))
    return splits


def _two_triples(
    cards: Cards, figures: list[int], suits: list[int], largest: int
) -> Sequence[Cards]:
    layouts: list[Cards] = []
    for a, b in triple_splits(cards, figures, suits):
        for first, second in ((a, b), (b, a)):
            layouts.append(first + second)
            for key in (FIG, SUIT):
                lined = _line_up(first, second, key)
                if lined is not None and lined != second:
                    layouts.append(first + lined)
    return layouts


def _three_pairs(
    cards: Cards, figures: list[int], suits: list[int], largest: int
) -> Sequence[Cards]:
    if not all(
        figures.count(f) > 1 or suits.count(s) > 1 for f, s in zip(figures, suits, strict=True)
    ):
        return ()  # some card has no partner
    layouts = []
    for pairing in _PAIRINGS:
        pairs = [(cards[i], cards[j]) for i, j in pairing]
        kind = pair(*pairs[0])
        if kind and all(pair(x, y) == kind for x, y in pairs[1:]):
            layouts.append(tuple(c for p in pairs for c in p))
    return layouts


def _cung_tails(
    cards: Cards, figures: list[int], suits: list[int], largest: int
) -> Sequence[Cards]:
    if largest < 4:
        return ()
    layouts = []
    for iq, (ix, iy) in _QUADS:
        quad = tuple(cards[i] for i in iq)
        kind = pair(quad[0], quad[1])
        if not kind or any(pair(quad[0], c) != kind for c in quad[2:]):
            continue
        for k in range(4):
            layouts.append((*quad[:k], *quad[k + 1 :], quad[k], cards[ix], cards[iy]))
    return layouts


def _ngu_tails(cards: Cards, figures: list[int], suits: list[int], largest: int) -> Sequence[Cards]:
    if largest < 5:
        return ()
    layouts = []
    for i5, i6 in _FIVES:
        five = tuple(cards[i] for i in i5)
        kind = pair(five[0], five[1])
        if not kind or any(pair(five[0], c) != kind for c in five[2:]):
            continue
        for k in range(5):
            layouts.append((*five[:k], *five[k + 1 :], five[k], cards[i6]))
    return layouts


_LAYOUTS: dict[Shape, Layouts] = {
    Shape.WHOLE: _whole,
    Shape.TWO_TRIPLES: _two_triples,
    Shape.THREE_PAIRS: _three_pairs,
    Shape.CUNG_TAIL: _cung_tails,
    Shape.NGU_TAIL: _ngu_tails,
}
_ASKED: tuple[tuple[Layouts, tuple[tuple[str, Predicate], ...]], ...] = tuple(
    (
        _LAYOUTS[shape],
        tuple(
            (t.id, t.halves.in_order if t.halves else t.predicate)
            for t in thes
            if not t.needs_chi_diem
        ),
    )
    for shape, thes in THES_BY_SHAPE.items()
    if thes
)
"""Per shape with Thế: its layouts and the (id, test) of its searched Thế."""


@lru_cache(maxsize=1 << 17)
def achievable_thes(cards: Cards, config: RuleConfig) -> dict[str, Cards]:
    """Every table-independent Thế that *some* order of the six cards matches,
    each with one arrangement realising it.

    ``cards`` must be six distinct card ids in ascending order (the cache key);
    the caller must not mutate the returned dict.
    """
    figures = [FIG[c] for c in cards]
    suits = [SUIT[c] for c in cards]
    largest = max(max(map(figures.count, figures)), max(map(suits.count, suits)))
    found: Found = {}
    for layouts, asked in _ASKED:
        laid = layouts(cards, figures, suits, largest)
        if not laid:
            continue  # most hands: no cut of this shape
        table = Table(config)
        for layout in laid:
            for the_id, test in asked:
                if the_id not in found and test(layout, table):
                    found[the_id] = layout
    return found
