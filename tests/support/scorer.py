"""The readable Python scorer: the definition the compiled scorer was ported from.

A **test oracle**, kept out of production (an import contract forbids
production modules importing ``tests``): the engine, the agents and the public
faces (:func:`env121.score_hand`, :mod:`env121.rules.waits`) ask the compiled
kernels of :mod:`env121.rules.compiled` only. This module is the same search
and scoring written as plain Python over the production vocabulary (the Thế
registry and its predicates, the groups, the Thưởng records, the waits'
clause table), and the differential tests prove the kernels equal to it
(``tests/rules/test_compiled_*.py``, ``scripts/differential_rules.py``).
:mod:`tests.support.reference` is the other oracle, a brute force written from
the spec without the registry; ``tests/rules/test_search.py`` and
``test_reference_agreement.py`` hold this module to it.

* Thưởng and indicator points (:func:`thuongs_of`, :func:`indicator_points`);
* the Thế one order matches and the reported Thế (:func:`thes_matching`,
  :func:`select_best`); whether an order is a completed hand (§3) is the
  brute force's :func:`~tests.support.reference.reference_is_completed`, the
  one Python definition of the shapes;
* the Thế search over the cuts of each shape (:func:`achievable_thes`);
* the engine's old necessary-condition filter (:func:`may_have_the`);
* Nhất Bản waits read off the clause table (:func:`has_nhat_ban_wait`,
  :func:`nhat_ban_arrangements`, :func:`waiting_gaps`,
  :func:`waiting_next_cards`, :func:`arrangement_has_wait`) and per card
  (:func:`winning_cards`, :func:`completing_cards`);
* the score of a win (:func:`score_valid_hand`, :func:`score_hand`), and
  :func:`thes_of`, :func:`explain_no_win`, and Thế trắng
  (:func:`the_trang_eligible`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache, lru_cache
from itertools import combinations, permutations
from typing import NamedTuple

import numpy as np

from env121.rules.bonuses import NHAT_BAN_BONUS, THUONGS, WinSituation, card_bits
from env121.rules.cards import (
    FIG,
    IS_HONOR,
    NUM_CARDS,
    NUM_FIGURES,
    NUM_SUITS,
    SUIT,
    card,
    pairwise_unrelated,
)
from env121.rules.compiled.waits import (
    _F_EX4,
    _F_EX5,
    _F_FILL,
    _F_R2,
    _F_RUN,
    _F_SIX,
    _F_T3,
    _F_TRUE,
    CLAUSES,
    GAP,
    GAP_SLOT,
    INDEX_ARRANGEMENTS,
    NUM_FEATURES,
    placement_order,
)
from env121.rules.config import DEFAULT_CONFIG, RuleConfig
from env121.rules.groups import Kind, pair, phe, phu, run_kind
from env121.rules.scoring import HandScore, _six_cards
from env121.rules.scoring import _table as _checked_table
from env121.rules.thes import (
    QUOC_SI,
    THE_BY_ID,
    THES,
    TRIPLE_GROUPS,
    Layout,
    Predicate,
    Shape,
    Table,
    The,
    Triple,
    clean_an_si_count,
)
from tests.support.reference import reference_is_completed

Arrangement = tuple[int, ...]
THE_ORDER: dict[str, int] = {t.id: i for i, t in enumerate(THES)}
"""Each Thế's place in the registry: the last tie-break of :func:`select_best`."""
THES_BY_SHAPE: dict[Shape, tuple[The, ...]] = {
    shape: tuple(t for t in THES if t.shape is shape) for shape in Shape
}
"""The Thế of each shape, in registry order: what the search asks on each cut."""

# ---------------------------------------------------- Thưởng and indicators (§6)


def thuongs_of(cards: Sequence[int], situation: WinSituation) -> frozenset[str]:
    """Ids of every Thưởng the six cards and the situation earn."""
    bits = card_bits(situation.config)
    common = -1
    for c in cards:
        common &= bits[c]
    return frozenset(t.id for t in THUONGS if t.condition(common, situation))


def indicator_points(cards: Sequence[int], indicators: Sequence[int]) -> int:
    """Each indicator (Chỉ Điểm, revealed Ẩn Sĩ) gives +1 if any card has its
    figure and +1 if any card has its suit, however many do (§6)."""
    figures = {FIG[c] for c in cards}
    suits = {SUIT[c] for c in cards}
    return sum((FIG[i] in figures) + (SUIT[i] in suits) for i in indicators)


# --------------------------------------------- the Thế of an order, the best (§3)


def thes_matching(arrangement: Arrangement, table: Table) -> frozenset[str]:
    """Ids of every Thế this exact order of six cards matches."""
    layout = Layout(arrangement)
    return frozenset(t.id for t in THES if t.predicate(layout, table))


# ---------------------------------------------------- completed hands (§3)


def select_best(candidates: dict[str, int]) -> str:
    """The reported Thế among candidates mapped to their total points (spec §3):
    most points, then highest tier, minus the superseded, then the first listed."""
    best_points = max(candidates.values())
    kept = [i for i, p in candidates.items() if p == best_points]
    best_tier = max(THE_BY_ID[i].tier for i in kept)
    kept = [i for i in kept if THE_BY_ID[i].tier == best_tier]
    superseded = set().union(*(THE_BY_ID[i].supersedes for i in kept))
    kept = [i for i in kept if i not in superseded]
    return min(kept, key=THE_ORDER.__getitem__)


# ----------------------------------------------------------- the Thế search

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


# ------------------------------------------------ the old engine filter

_TWO_TRIPLE_HALVES: tuple[tuple[Triple, Triple], ...] = tuple(
    dict.fromkeys(
        groups
        for t in THES
        if t.halves
        for groups in ((t.halves.first, t.halves.second), (t.halves.second, t.halves.first))
    )
)
"""The groups (a1a2a3, a4a5a6) of every two-triple Thế, both ways round."""


def may_have_the(six: Sequence[int]) -> bool:
    """False only when the six cards certainly have no Thế in any order."""
    figs = [FIG[c] for c in six]
    suits = [SUIT[c] for c in six]
    if all(figs.count(f) > 1 or suits.count(s) > 1 for f, s in zip(figs, suits, strict=True)):
        return True  # every card is related to another one
    n_figs, n_suits = len(set(figs)), len(set(suits))
    if n_figs == 6 and n_suits == 6:
        return True  # six pairwise unrelated: the Quốc Sĩ family
    if (n_figs <= 3 or n_suits <= 3) and _cung_with_phe_tail(six, figs, suits):
        return True
    return any(
        first in groups_a and second in groups_b
        for _, _, groups_a, groups_b in triple_splits(six, figs, suits)
        for first, second in _TWO_TRIPLE_HALVES
    )


def _cung_with_phe_tail(six: Sequence[int], figs: list[int], suits: list[int]) -> bool:
    """Four of the cards are a Củng and the other two make a Phe with one of them."""
    for key in (figs, suits):
        for value in set(key):
            if key.count(value) < 4:
                continue
            members = [c for c, v in zip(six, key, strict=True) if v == value]
            for quad in combinations(members, 4):
                x, y = (c for c in six if c not in quad)
                if any(phe(a4, x, y) for a4 in quad):
                    return True
    return False


# ------------------------------------------------------- Nhất Bản waits

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


_INDEX_TABLE = INDEX_ARRANGEMENTS
_GAP_SLOT = GAP_SLOT
_CLAUSES = CLAUSES
_NUM_FEATURES = NUM_FEATURES
_INDEX_ARRANGEMENTS = tuple(tuple(int(i) for i in row) for row in INDEX_ARRANGEMENTS)
_ROW = {a: n for n, a in enumerate(_INDEX_ARRANGEMENTS)}


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


def _five(hand: Sequence[int]) -> tuple[int, ...]:
    five = tuple(sorted(hand))
    if len(five) != 5 or len(set(five)) != 5 or not all(0 <= c < NUM_CARDS for c in five):
        raise ValueError(f"a Nhất Bản hand is five distinct card ids, got {list(hand)}")
    return five


# ------------------------------------------------------- scoring (§3–§6)

_INDICATOR_THES = tuple(t for t in THES if t.needs_chi_diem)
_QUOC_SI_FAMILY = frozenset(t.id for t in THES if t.quoc_si_family)
_NO_INDICATORS = frozenset(t.id for t in THES if not t.counts_indicators)


def score_valid_hand(
    hand: tuple[int, ...],
    table: Table,
    situation: WinSituation,
    *,
    locked: bool = False,
    nhat_ban: bool = False,
) -> HandScore | None:
    """:func:`score_hand` without its input checks, for callers whose input is
    valid by construction (the engine, the win table): six distinct card ids,
    a table with a Chỉ Điểm and distinct revealed Ẩn Sĩ outside the hand, and
    not both ``locked`` and ``nhat_ban``."""
    if nhat_ban:
        return _score_nhat_ban(hand, table, situation)
    witness = _achievable(hand, table)
    if locked:
        witness = {i: a for i, a in witness.items() if i not in _QUOC_SI_FAMILY}
    if not witness:
        return None
    indicators = 0 if locked else indicator_points(hand, table.indicators)
    counted = {i: (0 if i in _NO_INDICATORS else indicators) for i in witness}
    best = select_best({i: THE_BY_ID[i].tier + counted[i] for i in witness})
    tier = THE_BY_ID[best].tier
    bonuses = thuongs_of(hand, situation)
    return HandScore(
        the=best,
        tier=tier,
        points=tier + len(bonuses) + counted[best],
        bonuses=bonuses,
        indicator_points=counted[best],
        arrangement=witness[best],
    )


def _achievable(hand: tuple[int, ...], table: Table) -> dict[str, tuple[int, ...]]:
    """Every Thế some order of the six allows under ``table``, with one
    arrangement each: the cached search plus the indicator-decided Quốc Sĩ
    members (they need the six pairwise unrelated, i.e. a ``quoc_si``)."""
    found = achievable_thes(tuple(sorted(hand)), table.config)
    if QUOC_SI not in found:
        return found
    witness = dict(found)
    clean = clean_an_si_count(found[QUOC_SI], table)
    for the in _INDICATOR_THES:
        if the.an_si_needed is not None and clean >= the.an_si_needed:
            witness[the.id] = found[QUOC_SI]
    return witness


def _score_nhat_ban(
    arrangement: tuple[int, ...], table: Table, situation: WinSituation
) -> HandScore | None:
    """A Nhất Bản win: only the fixed order counts, indicators never do (§5.6, §6).

    Only the Thế some order of the six allows can match this order, so only
    their positional predicates are asked."""
    candidates = _achievable(arrangement, table)
    layout = Layout(arrangement)
    thes = [i for i in candidates if THE_BY_ID[i].predicate(layout, table)]
    if thes:
        best: str | None = select_best({i: THE_BY_ID[i].tier for i in thes})
        tier = THE_BY_ID[best].tier if best else 0
    elif reference_is_completed(arrangement):
        best, tier = None, 0
    else:
        return None
    bonuses = thuongs_of(arrangement, situation) | {NHAT_BAN_BONUS}
    return HandScore(
        the=best,
        tier=tier,
        points=tier + len(bonuses),
        bonuses=bonuses,
        indicator_points=0,
        arrangement=arrangement,
    )


def score_hand(
    cards: Sequence[int],
    *,
    chi_diem: int | None,
    an_si: Iterable[int] = (),
    locked: bool = False,
    nhat_ban: bool = False,
    dealer: bool = False,
    self_drawn: bool = False,
    last_card: bool = False,
    config: RuleConfig | None = None,
) -> HandScore | None:
    """:func:`env121.score_hand` as it was before the compiled scorer: the same
    input checks (the face's own), then :func:`score_valid_hand`."""
    config = DEFAULT_CONFIG if config is None else config
    hand = _six_cards(cards, "cards")
    table = _checked_table(hand, chi_diem, an_si, config)
    situation = WinSituation(config, dealer=dealer, self_drawn=self_drawn, last_card=last_card)
    return score_valid_hand(hand, table, situation, locked=locked, nhat_ban=nhat_ban)


def thes_of(
    arrangement: Sequence[int],
    *,
    chi_diem: int | None = None,
    an_si: Iterable[int] = (),
    config: RuleConfig | None = None,
) -> frozenset[str]:
    """:func:`env121.thes_of` on valid input: the Thế this exact order matches."""
    config = DEFAULT_CONFIG if config is None else config
    table = Table(config) if chi_diem is None else Table(config, chi_diem, tuple(an_si))
    return thes_matching(tuple(arrangement), table)


def explain_no_win(
    cards: Sequence[int],
    *,
    locked: bool = False,
    nhat_ban: bool = False,
    config: RuleConfig | None = None,
) -> str:
    """:func:`env121.rules.scoring.explain_no_win` on valid input."""
    config = DEFAULT_CONFIG if config is None else config
    hand = tuple(cards)
    if nhat_ban:
        return "the fixed Nhất Bản arrangement is not a completed hand"
    found = achievable_thes(tuple(sorted(hand)), config)
    if locked and found and set(found) <= _QUOC_SI_FAMILY:
        names = ", ".join(sorted(found))
        return f"only Quốc Sĩ-family Thế ({names}), which Bội ước forbids"
    if any(reference_is_completed(order) for order in permutations(hand)):
        return "completed hand but no Thế: Cấm thủ"
    return "not a completed hand in any order"


def the_trang_eligible(hand: Sequence[int]) -> bool:
    """Thế trắng (§5.3): five cards pairwise unrelated with no honor card."""
    return not any(IS_HONOR[c] for c in hand) and pairwise_unrelated(hand)
