"""The win table: what Ù would score on each card, were it on offer now.

For a seat's five cards (free and locked) and the table (indicators, dealer,
Bội ước, a fixed Nhất Bản arrangement), :func:`win_points` gives, per card
id, the Điểm of Ù on that card, or 0 when it would not be a win. Every number
comes from the scorer (:func:`env121.rules.scoring.score_valid_hand`); this module
only decides which cards are worth asking:

* a normal hand: :func:`_sixth_card_filter`, a vectorized *necessary*
  condition asked per shape of the Thế registry (the cut each Thế lives on;
  the two-triple cuts narrowed to the halves the Thế declare), so most of
  the 116 outside cards are never scored;
* a Nhất Bản hand: :func:`env121.rules.waits.winning_cards` of the fixed
  arrangement.

Tự thân and Kết chung are left out: they depend on how the card comes (own
flip, last card of the Nọc), not on the card. A test compares the table with
``score_hand`` on every card of many hands.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import combinations

import numpy as np

from env121.engine.state import State
from env121.rules.bonuses import WinSituation
from env121.rules.cards import (
    FIG,
    NUM_CARDS,
    NUM_FIGURES,
    NUM_SUITS,
    SUIT,
    Suit,
    card,
    pairwise_unrelated,
)
from env121.rules.config import RuleConfig
from env121.rules.groups import Kind, PheType, pair, phe, phu
from env121.rules.scoring import score_valid_hand
from env121.rules.thes import THES_BY_SHAPE, TRIPLE_GROUPS, Shape, Table, Triple, triple_key
from env121.rules.waits import fill_gap, winning_cards

_C = NUM_CARDS

# Per-card tables over the sixth card, built once at import.

_FIG_A = np.array(FIG, dtype=np.intp)
_SUIT_A = np.array(SUIT, dtype=np.intp)
_FIG_EQ = _FIG_A[None, :] == np.arange(NUM_FIGURES)[:, None]  # [figure, card]
_SUIT_EQ = _SUIT_A[None, :] == np.arange(NUM_SUITS)[:, None]  # [suit, card]
_RELATED = _FIG_EQ[_FIG_A] | _SUIT_EQ[_SUIT_A]  # [card, card]: same figure or suit
_PHE_SUITS = np.array(
    [
        [
            [int(phe(card(1, a), card(1, b), card(1, c))) for c in range(NUM_SUITS)]
            for b in range(NUM_SUITS)
        ]
        for a in range(NUM_SUITS)
    ],
    dtype=np.int8,
)
_PHE_WITH = _PHE_SUITS[:, :, _SUIT_A]  # [suit x, suit y, card]: Phe type of (x, y, card)


def _triple_with(x: int, y: int) -> np.ndarray:
    """Cards c such that (x, y, c) is a Phu or a Phe."""
    out: np.ndarray = _PHE_WITH[SUIT[x], SUIT[y]] != 0
    if FIG[x] == FIG[y]:
        out = out | _FIG_EQ[FIG[x]]
    if SUIT[x] == SUIT[y]:
        out = out | _SUIT_EQ[SUIT[x]]
    return out


Run = tuple[np.ndarray, list[int]]
"""A figure or suit three or more of the five cards share: (the cards of that
figure or suit, over all cards; the five's cards of it)."""


def _runs(h: Sequence[int]) -> list[Run]:
    """Every figure and every suit that three or more of the cards share."""
    runs = []
    for key, same_as in ((FIG, _FIG_EQ), (SUIT, _SUIT_EQ)):
        values = [key[c] for c in h]
        for v in set(values):
            if values.count(v) >= 3:
                runs.append((same_as[v], [c for c in h if key[c] == v]))
    return runs


def _two_pairs(four: Sequence[int], key: Sequence[int]) -> bool:
    a, b, c, d = four
    return (
        (key[a] == key[b] and key[c] == key[d])
        or (key[a] == key[c] and key[b] == key[d])
        or (key[a] == key[d] and key[b] == key[c])
    )


def _lined_up_value(x: int, y: int, triple: Sequence[int], key: Sequence[int]) -> int:
    """The value v with {key x, key y, v} = the triple's values (multisets), or -1:
    the figure (``key=FIG``) or suit (``SUIT``) a third card needs for (x, y, c)
    to line up with ``triple`` position by position."""
    left = [key[c] for c in triple]
    for v in (key[x], key[y]):
        if v not in left:
            return -1
        left.remove(v)
    return left[0]


_FIVE = range(5)
_PAIRS_OF_FIVE = tuple(
    ((i, j), tuple(m for m in _FIVE if m not in (i, j))) for i, j in combinations(_FIVE, 2)
)


def _shared(x: int, y: int, key: Sequence[int], same_as: np.ndarray) -> np.ndarray | None:
    """The cards of the figure (``key=FIG``) or suit (``SUIT``) x and y share,
    or None when they share none."""
    out: np.ndarray | None = same_as[key[x]] if key[x] == key[y] else None
    return out


def _phe_with(x: int, y: int, phe_type: PheType | None = None) -> np.ndarray:
    """The cards c with (x, y, c) a Phe (of ``phe_type`` when given)."""
    types = _PHE_WITH[SUIT[x], SUIT[y]]
    out: np.ndarray = types != 0 if phe_type is None else types == phe_type
    return out


def _phu_with(x: int, y: int) -> np.ndarray | None:
    """The cards c with (x, y, c) a Phu, or None."""
    figure, suit = _shared(x, y, FIG, _FIG_EQ), _shared(x, y, SUIT, _SUIT_EQ)
    return suit if figure is None else figure  # distinct cards share at most one


def _honor_phu_with(x: int, y: int, suit: Suit) -> np.ndarray | None:
    """The cards c with (x, y, c) a Phu of the honor ``suit``, or None."""
    return _SUIT_EQ[suit] if SUIT[x] == SUIT[y] == suit else None


def _phien_with(x: int, y: int) -> np.ndarray | None:
    """The cards c with (x, y, c) a Phiên, or None."""
    figure = _shared(x, y, FIG, _FIG_EQ)
    return None if figure is None else figure & _phe_with(x, y)


Completing = Callable[[int, int], np.ndarray | None]
"""(x, y) → the cards c that make (x, y, c) one group, or None for no card."""
_COMPLETING: dict[Triple, Completing] = {
    Triple.PHU: _phu_with,
    Triple.PHE: _phe_with,
    Triple.PHE_LM: lambda x, y: _phe_with(x, y, PheType.LM),
    Triple.PHE_DS: lambda x, y: _phe_with(x, y, PheType.DS),
    Triple.PHE_PT: lambda x, y: _phe_with(x, y, PheType.PT),
    Triple.PHIEN: _phien_with,
    Triple.KYOTO3: lambda x, y: _honor_phu_with(x, y, Suit.KYOTO),
    Triple.EDO3: lambda x, y: _honor_phu_with(x, y, Suit.EDO),
}
"""Per group of spec §2 a half of a two-triple Thế can be."""
Partner = tuple[Completing, Kind, bool]
"""How a card c completes (x, y, c) into the other half of a two-triple Thế:
that half's group, and the line-up and same-kind conditions of the Thế's
:class:`~env121.rules.thes.Halves`."""


def _partners_by_triple_key() -> list[tuple[Partner, ...]]:
    """For each :func:`~env121.rules.thes.triple_key` of a half b: how c can
    complete (x, y, c) into the other half of a two-triple Thế that has one of
    b's groups for a half. A completion with a line-up or same-kind condition
    is left out where the same completion without one is there (a subset)."""
    by_group: dict[Triple, dict[Partner, None]] = {group: {} for group in Triple}
    for halves in (t.halves for t in THES_BY_SHAPE[Shape.TWO_TRIPLES] if t.halves):
        for b, c in ((halves.first, halves.second), (halves.second, halves.first)):
            by_group[b][(_COMPLETING[c], halves.aligned, halves.same_kind)] = None
    by_groups: dict[frozenset[Triple], tuple[Partner, ...]] = {}
    for groups in set(TRIPLE_GROUPS):
        partners = dict.fromkeys(p for g in groups for p in by_group[g])
        plain = {p[0] for p in partners if not (p[1] or p[2])}
        by_groups[groups] = tuple(p for p in partners if not (p[1] or p[2]) or p[0] not in plain)
    return [by_groups[groups] for groups in TRIPLE_GROUPS]


_PARTNERS = _partners_by_triple_key()


def _two_triples(h: tuple[int, ...], runs: list[Run], maybe: np.ndarray) -> None:
    """Two triples, three of the five and (x, y, c), as the halves of some
    two-triple Thế declare them (:attr:`env121.rules.thes.The.halves`)."""
    for (i, j), (p, q, r) in _PAIRS_OF_FIVE:
        b = (h[p], h[q], h[r])
        partners = _PARTNERS[triple_key(*b)]
        if not partners:
            continue
        x, y = h[i], h[j]
        for completing, aligned, same_kind in partners:
            cards = completing(x, y)
            if cards is not None and same_kind:  # (x, y, c) a Phu of b's kind
                key, same_as = (FIG, _FIG_EQ) if phu(*b) == Kind.FIGURE else (SUIT, _SUIT_EQ)
                shared = _shared(x, y, key, same_as)
                cards = None if shared is None else cards & shared
            if cards is not None and aligned:
                key, same_as = (FIG, _FIG_EQ) if aligned == Kind.FIGURE else (SUIT, _SUIT_EQ)
                value = _lined_up_value(x, y, b, key)
                cards = cards & same_as[value] if value >= 0 else None
            if cards is not None:
                maybe |= cards


def _three_pairs(h: tuple[int, ...], runs: list[Run], maybe: np.ndarray) -> None:
    """Three pairs of one kind: c pairs with h[k], the other four pair up alike."""
    for k in _FIVE:
        rest = h[:k] + h[k + 1 :]
        if _two_pairs(rest, FIG):
            maybe |= _FIG_EQ[FIG[h[k]]]
        if _two_pairs(rest, SUIT):
            maybe |= _SUIT_EQ[SUIT[h[k]]]


def _cung_tails(h: tuple[int, ...], runs: list[Run], maybe: np.ndarray) -> None:
    """A Củng (four of the five, or three and c) with a pair (a5, a6) or a
    triple (a4, a5, a6) for tail (spec §3 shapes 3 and 4)."""
    for same, members in runs:
        for quad in combinations(members, 4):
            x = next(c for c in h if c not in quad)  # the tail is (x, c)
            maybe |= _RELATED[x]  # Củng + pair (x, c)
            for a4 in quad:
                maybe |= _triple_with(a4, x)  # Củng + triple (a4, x, c)
        for triple in combinations(members, 3):
            x, y = (c for c in h if c not in triple)  # Củng of the triple and c
            if pair(x, y) or any(phu(a4, x, y) or phe(a4, x, y) for a4 in triple):
                maybe |= same
            else:
                maybe |= same & _triple_with(x, y)  # c is a4: tail (c, x, y)


def _ngu_tails(h: tuple[int, ...], runs: list[Run], maybe: np.ndarray) -> None:
    """A Ngũ (the five, or four and c) and a sixth card pairing with its a5
    (spec §3 shape 5)."""
    for same, members in runs:
        if len(members) == 5:
            maybe |= _RELATED[members].any(axis=0)  # c pairs with the five's a5
        for quad in combinations(members, 4):
            x = next(c for c in h if c not in quad)  # a6 of the Ngũ of the quad and c
            if any(pair(x, q) for q in quad):
                maybe |= same
            else:
                maybe |= same & _RELATED[x]  # c is a5, pairing with x


def _quoc_si(h: tuple[int, ...], runs: list[Run], maybe: np.ndarray) -> None:
    """Six pairwise-unrelated cards: c unrelated to five such cards (spec §3 shape 6)."""
    if pairwise_unrelated(h):
        maybe |= ~_RELATED[list(h)].any(axis=0)


def _luc_bo(h: tuple[int, ...], runs: list[Run], maybe: np.ndarray) -> None:
    """A Lục bộ: c joins five of one figure or suit (spec §3 shape 6)."""
    for same, members in runs:
        if len(members) == 5:
            maybe |= same


_SIXTH_CARDS: dict[Shape, Callable[[tuple[int, ...], list[Run], np.ndarray], None]] = {
    Shape.QUOC_SI: _quoc_si,
    Shape.TWO_TRIPLES: _two_triples,
    Shape.THREE_PAIRS: _three_pairs,
    Shape.CUNG_TAIL: _cung_tails,
    Shape.NGU_TAIL: _ngu_tails,
    Shape.LUC_BO: _luc_bo,
}
_FILTERS = tuple(_SIXTH_CARDS[shape] for shape, thes in THES_BY_SHAPE.items() if thes)


def _sixth_card_filter(h: tuple[int, ...]) -> np.ndarray:
    """For five cards, over the sixth card c: a *necessary* condition for the
    six to have a Thế in some order. Each Thế lives on its shape's cut, a
    completed hand of spec §3, so the filter asks each shape with Thế which c
    can complete the five into that cut; the two-triple cuts are narrowed to
    the halves the registry declares."""
    maybe = np.zeros(_C, dtype=bool)
    runs = _runs(h)
    for shape_filter in _FILTERS:
        shape_filter(h, runs, maybe)
    return maybe


@lru_cache(maxsize=1 << 12)
def win_points(
    cards: tuple[int, ...],
    *,
    locked: bool,
    chi_diem: int,
    an_si: tuple[int, ...],
    dealer: bool,
    nb_arrangement: tuple[int, ...],
    config: RuleConfig,
) -> np.ndarray:
    """Điểm of Ù on each card id, were it on offer now (0: no win); read-only.

    ``cards`` are the seat's five (free and locked, sorted); ``locked`` says it
    is in Bội ước; ``an_si`` are the revealed Ẩn Sĩ; ``nb_arrangement`` is its
    fixed Nhất Bản arrangement or ``()``. Card by card equal to
    ``score_hand(six, …, self_drawn=False, last_card=False).points``; the five
    cards and the indicators, which cannot be on offer, get 0.
    """
    points = np.zeros(_C, dtype=np.int16)
    blocked = {*cards, chi_diem, *an_si}
    if nb_arrangement:
        candidates = sorted(winning_cards(nb_arrangement) - blocked)
        hands = [fill_gap(nb_arrangement, c) for c in candidates]
    else:
        maybe = _sixth_card_filter(cards)
        maybe[list(blocked)] = False
        candidates = np.flatnonzero(maybe).tolist()
        hands = [(*cards, c) for c in candidates]
    table = Table(config, chi_diem, an_si)
    situation = WinSituation(config, dealer=dealer)
    for c, six in zip(candidates, hands, strict=True):
        score = score_valid_hand(
            six, table, situation, locked=locked, nhat_ban=bool(nb_arrangement)
        )
        if score is not None:
            points[c] = score.points
    points.flags.writeable = False
    return points


def seat_win_points(state: State, seat: int) -> np.ndarray:
    """:func:`win_points` of ``seat`` in ``state``: its five cards (free and
    locked), Bội ước, its Nhất Bản arrangement, the table's indicators, dealer."""
    return win_points(
        tuple(sorted((*state.hands[seat], *state.locked[seat]))),
        locked=bool(state.locked[seat]),
        chi_diem=state.chi_diem,
        an_si=state.revealed_an_si,
        dealer=state.dealer == seat,
        nb_arrangement=state.nb_arrangement[seat],
        config=state.config,
    )
