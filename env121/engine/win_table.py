"""The win table: what Ù would score on each card, were it on offer now.

For a seat's five cards (free and locked) and the table (indicators, dealer,
Bội ước, a fixed Nhất Bản arrangement), :func:`win_points` gives, per card
id, the Điểm of Ù on that card, or 0 when it would not be a win. Every number
comes from the scorer (:func:`env121.rules.scoring.score_valid_hand`); this module
only decides which cards are worth asking:

* a normal hand: :func:`_sixth_card_filter`, a vectorized *necessary*
  condition (every Thế of spec §4 is one of the shapes it checks), so most
  of the 116 outside cards are never scored;
* a Nhất Bản hand: :func:`env121.rules.waits.winning_cards` of the fixed
  arrangement.

Tự thân and Kết chung are left out: they depend on how the card comes (own
flip, last card of the Nọc), not on the card. A test compares the table with
``score_hand`` on every card of many hands.
"""

from __future__ import annotations

from collections.abc import Sequence
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
from env121.rules.groups import Kind, edo3, kyoto3, pair, phe, phu, run_kind
from env121.rules.scoring import score_valid_hand
from env121.rules.thes import Table
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
_HONOR_SUITS = (int(Suit.KYOTO), int(Suit.EDO))


def _triple_with(x: int, y: int) -> np.ndarray:
    """Cards c such that (x, y, c) is a Phu or a Phe."""
    out: np.ndarray = _PHE_WITH[SUIT[x], SUIT[y]] != 0
    if FIG[x] == FIG[y]:
        out = out | _FIG_EQ[FIG[x]]
    if SUIT[x] == SUIT[y]:
        out = out | _SUIT_EQ[SUIT[x]]
    return out


def _run_cards(cards: Sequence[int]) -> np.ndarray | None:
    """Cards sharing the figure or suit all ``cards`` share, or None."""
    kind = run_kind(cards)
    same: np.ndarray | None = None
    if kind == Kind.FIGURE:
        same = _FIG_EQ[FIG[cards[0]]]
    elif kind == Kind.SUIT:
        same = _SUIT_EQ[SUIT[cards[0]]]
    return same


def _runs(h: Sequence[int], key: Sequence[int]) -> list[tuple[int, list[int]]]:
    """(value, cards) for each figure (``key=FIG``) or suit (``SUIT``) that three
    or more of the cards share."""
    values = [key[c] for c in h]
    return [(v, [c for c in h if key[c] == v]) for v in set(values) if values.count(v) >= 3]


def _two_pairs(four: Sequence[int], key: Sequence[int]) -> bool:
    a, b, c, d = four
    return (
        (key[a] == key[b] and key[c] == key[d])
        or (key[a] == key[c] and key[b] == key[d])
        or (key[a] == key[d] and key[b] == key[c])
    )


def _aligned_figure(x: int, y: int, triple: Sequence[int]) -> int:
    """The figure g with {fig x, fig y, g} = the triple's figures (multisets), or -1."""
    left = [FIG[c] for c in triple]
    for f in (FIG[x], FIG[y]):
        if f not in left:
            return -1
        left.remove(f)
    return left[0]


_FIVE = range(5)
_PAIRS_OF_FIVE = tuple(
    ((i, j), tuple(m for m in _FIVE if m not in (i, j))) for i, j in combinations(_FIVE, 2)
)


def _sixth_card_filter(h: tuple[int, ...]) -> np.ndarray:
    """For five cards, over the sixth card c: a *necessary* condition for the
    six to have a Thế in some order (every Thế of spec §4 is one of the shapes
    checked here, or six pairwise-unrelated cards)."""
    maybe = np.zeros(_C, dtype=bool)
    related_any = _RELATED[list(h)].any(axis=0)
    unrelated = ~related_any if pairwise_unrelated(h) else np.zeros(_C, dtype=bool)
    # three pairs of one kind: c pairs with h[k], the other four pair up alike
    for k in _FIVE:
        rest = h[:k] + h[k + 1 :]
        if _two_pairs(rest, FIG):
            maybe |= _FIG_EQ[FIG[h[k]]]
        if _two_pairs(rest, SUIT):
            maybe |= _SUIT_EQ[SUIT[h[k]]]
    # two triples: (c, x, y) and the other three
    for (i, j), rest in _PAIRS_OF_FIVE:
        b = (h[rest[0]], h[rest[1]], h[rest[2]])
        phe_b, phu_b = phe(*b), phu(*b)
        honor_b = kyoto3(*b) or edo3(*b)
        if not (phe_b or phu_b):
            continue
        x, y = h[i], h[j]
        phe_a = _PHE_WITH[SUIT[x], SUIT[y]]
        if phe_b:
            maybe |= phe_a == phe_b
            g = _aligned_figure(x, y, b)
            if g >= 0:
                maybe |= (phe_a != 0) & _FIG_EQ[g]
            if SUIT[x] == SUIT[y] and SUIT[x] in _HONOR_SUITS:
                maybe |= _SUIT_EQ[SUIT[x]]  # Phe + Phu Cố Đô / Giang Hộ
        if honor_b:
            maybe |= phe_a != 0
        if phu_b == Kind.FIGURE and FIG[x] == FIG[y]:
            maybe |= _FIG_EQ[FIG[x]]
        if phu_b == Kind.SUIT and SUIT[x] == SUIT[y]:
            maybe |= _SUIT_EQ[SUIT[x]]
    # Củng / Ngũ: runs of three or more cards of one figure or one suit
    for key, same_as in ((FIG, _FIG_EQ), (SUIT, _SUIT_EQ)):
        for value, members in _runs(h, key):
            same = same_as[value]
            if len(members) == 5:
                maybe |= related_any  # Ngũ of the five (Lục bộ when c joins it)
            for quad in combinations(members, 4):
                x = next(c for c in h if c not in quad)  # the tail is (x, c)
                maybe |= _RELATED[x]  # Củng + pair (x, c)
                for a4 in quad:
                    maybe |= _triple_with(a4, x)  # Củng + triple (a4, x, c)
                if any(pair(x, q) for q in quad):
                    maybe |= same  # Ngũ of the quad and c, x pairs with its a5
            for triple in combinations(members, 3):
                x, y = (c for c in h if c not in triple)  # Củng of the triple and c
                if pair(x, y) or any(phu(a4, x, y) or phe(a4, x, y) for a4 in triple):
                    maybe |= same
                else:
                    maybe |= same & _triple_with(x, y)
    possible: np.ndarray = maybe | unrelated
    return possible


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
