"""Groups (bộ) of spec §2 as small predicates on card ids.

``pair``/``phu``/``cung``/``ngu``/``luc`` return the group's :class:`Kind`
(figure or suit; ``Kind.NONE`` is falsy), ``phe``/``phien`` return the
:class:`PheType` (``PheType.NONE`` is falsy). Cards are always distinct, so a
group of two or more cards can never share both figure and suit.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum

from env121.rules.cards import FIG, IS_HONOR, NUM_SUITS, SUIT, SUIT_CLAN, SUIT_COLOR, Suit


class Kind(IntEnum):
    """What the cards of a group share."""

    NONE = 0
    FIGURE = 1  # cùng hình
    SUIT = 2  # cùng chất

    @property
    def other(self) -> Kind:
        """FIGURE for SUIT and back (NONE stays NONE)."""
        return _OTHER[self]


_OTHER = {Kind.NONE: Kind.NONE, Kind.FIGURE: Kind.SUIT, Kind.SUIT: Kind.FIGURE}


class PheType(IntEnum):
    """The three kinds of Phe ("incomplete" triple over regular suits)."""

    NONE = 0
    LM = 1  # Liên minh: one clan, all three colors
    DS = 2  # Đồng sắc: three clans, one color
    PT = 3  # Phân tranh: three clans, three colors


def _phe_of_suits(s1: int, s2: int, s3: int) -> PheType:
    clans = (SUIT_CLAN[s1], SUIT_CLAN[s2], SUIT_CLAN[s3])
    colors = (SUIT_COLOR[s1], SUIT_COLOR[s2], SUIT_COLOR[s3])
    if -1 in clans:
        return PheType.NONE
    n_clans, n_colors = len(set(clans)), len(set(colors))
    if n_clans == 1 and n_colors == 3:
        return PheType.LM
    if n_clans == 3 and n_colors == 1:
        return PheType.DS
    if n_clans == 3 and n_colors == 3:
        return PheType.PT
    return PheType.NONE


_PHE_BY_SUITS: tuple[PheType, ...] = tuple(
    _phe_of_suits(s1, s2, s3)
    for s1 in range(NUM_SUITS)
    for s2 in range(NUM_SUITS)
    for s3 in range(NUM_SUITS)
)
_FIGURE, _SUIT, _NONE = Kind.FIGURE, Kind.SUIT, Kind.NONE


def pair(x: int, y: int) -> Kind:
    """Đôi: two cards sharing a figure or a suit."""
    if FIG[x] == FIG[y]:
        return _FIGURE
    if SUIT[x] == SUIT[y]:
        return _SUIT
    return _NONE


def run_kind(cards: Sequence[int]) -> Kind:
    """The kind shared by *all* the cards (figure or suit), or NONE."""
    f = FIG[cards[0]]
    if all(FIG[c] == f for c in cards):
        return _FIGURE
    s = SUIT[cards[0]]
    if all(SUIT[c] == s for c in cards):
        return _SUIT
    return _NONE


def phu(x: int, y: int, z: int) -> Kind:
    """Phu: three cards of one figure or one suit."""
    if FIG[x] == FIG[y] == FIG[z]:
        return _FIGURE
    if SUIT[x] == SUIT[y] == SUIT[z]:
        return _SUIT
    return _NONE


def phe(x: int, y: int, z: int) -> PheType:
    """Phe: three regular suits forming Liên minh, Đồng sắc or Phân tranh."""
    return _PHE_BY_SUITS[(SUIT[x] * NUM_SUITS + SUIT[y]) * NUM_SUITS + SUIT[z]]


def phien(x: int, y: int, z: int) -> PheType:
    """Phiên: a Phu that is also a Phe — one figure, suits forming a Phe."""
    if FIG[x] == FIG[y] == FIG[z]:
        return phe(x, y, z)
    return PheType.NONE


def kyoto3(x: int, y: int, z: int) -> bool:
    """Phu Cố Đô: three KYOTO cards."""
    return SUIT[x] == SUIT[y] == SUIT[z] == Suit.KYOTO


def edo3(x: int, y: int, z: int) -> bool:
    """Phu Giang Hộ: three EDO cards."""
    return SUIT[x] == SUIT[y] == SUIT[z] == Suit.EDO


def cung(a: Sequence[int]) -> Kind:
    """Củng: four cards of one figure or one suit."""
    return run_kind(a) if len(a) == 4 else _NONE


def ngu(a: Sequence[int]) -> Kind:
    """Ngũ: five cards of one figure or one suit."""
    return run_kind(a) if len(a) == 5 else _NONE


def luc(a: Sequence[int]) -> Kind:
    """Lục bộ: six cards of one figure or one suit."""
    return run_kind(a) if len(a) == 6 else _NONE


def all_honor(cards: Sequence[int]) -> bool:
    """Every card is an honor card."""
    return all(IS_HONOR[c] for c in cards)
