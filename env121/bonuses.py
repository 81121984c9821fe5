"""Thưởng (bonuses) and indicator points (Chỉ Điểm / Ẩn Sĩ) of spec §6.

Each Thưởng is one :class:`Thuong` record in :data:`THUONGS`, worth +1 Điểm
when its condition holds. Six look at the cards, three at the situation of
the win (:class:`WinSituation`). None depends on the order of the cards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from env121.cards import FIG, IS_HONOR, SUIT, SUIT_CLAN, SUIT_COLOR
from env121.config import RuleConfig


@dataclass(frozen=True)
class WinSituation:
    """How a win happened, as far as Thưởng care."""

    config: RuleConfig
    dealer: bool = False
    """The winner is the dealer (Thắng cái)."""
    self_drawn: bool = False
    """The winning card was flipped by the winner (Tự thân)."""
    last_card: bool = False
    """The winning card is the last card of the Nọc (Kết chung)."""


class HandFacts(NamedTuple):
    """What the card Thưởng look at, computed once per hand."""

    figures: frozenset[int]
    suits: frozenset[int]
    honors: int
    """How many of the cards are honor cards."""
    size: int

    @classmethod
    def of(cls, cards: Sequence[int]) -> HandFacts:
        """The facts of these cards."""
        return cls(
            frozenset(FIG[c] for c in cards),
            frozenset(SUIT[c] for c in cards),
            sum(IS_HONOR[c] for c in cards),
            len(cards),
        )


Condition = Callable[[HandFacts, WinSituation], bool]


@dataclass(frozen=True)
class Thuong:
    """One Thưởng: +1 Điểm on any valid win whose condition holds."""

    id: str
    name_vi: str
    gloss: str
    condition: Condition


def _one_regular_suit_attr(table: tuple[int, ...]) -> Condition:
    """All suits are regular and share the attribute ``table`` gives them."""

    def test(facts: HandFacts, w: WinSituation) -> bool:
        values = {table[s] for s in facts.suits}
        return len(values) == 1 and -1 not in values

    return test


def _all_facing(left: bool) -> Condition:
    def test(facts: HandFacts, w: WinSituation) -> bool:
        return facts.figures <= (w.config.left_figures if left else w.config.right_figures)

    return test


THUONGS: tuple[Thuong, ...] = (
    Thuong("toan_quan_thuong", "Toàn quân thường", "all six are regular cards",
           lambda facts, w: facts.honors == 0),
    Thuong("toan_quan_danh_du", "Toàn quân danh dự", "all six are honor cards",
           lambda facts, w: facts.honors == facts.size),
    Thuong("cung_mot_mau", "Cùng một màu", "all six suits regular and of one color",
           _one_regular_suit_attr(SUIT_COLOR)),
    Thuong("cung_gia_huy", "Cùng gia huy", "all six suits regular and of one clan [R-10]",
           _one_regular_suit_attr(SUIT_CLAN)),
    Thuong("cung_nhin_phai", "Cùng nhìn phải", "all six figures look right",
           _all_facing(left=False)),
    Thuong("cung_nhin_trai", "Cùng nhìn trái", "all six figures look left",
           _all_facing(left=True)),
    Thuong("thang_cai", "Thắng cái", "the winner is the dealer", lambda facts, w: w.dealer),
    Thuong("tu_than", "Tự thân", "won on a card the winner flipped",
           lambda facts, w: w.self_drawn),
    Thuong("ket_chung", "Kết chung", "won on the last card of the Nọc",
           lambda facts, w: w.last_card),
)  # fmt: skip

THUONG_BY_ID: dict[str, Thuong] = {t.id: t for t in THUONGS}
NHAT_BAN_BONUS = "nhat_ban"
"""Not a Thưởng but reported with them: +1 for a win under Nhất Bản (§5.6)."""


def thuongs_of(cards: Sequence[int], situation: WinSituation) -> frozenset[str]:
    """Ids of every Thưởng the six cards and the situation earn."""
    facts = HandFacts.of(cards)
    return frozenset(t.id for t in THUONGS if t.condition(facts, situation))


def indicator_points(cards: Sequence[int], indicators: Sequence[int]) -> int:
    """Each indicator (Chỉ Điểm, revealed Ẩn Sĩ) gives +1 if any card has its
    figure and +1 if any card has its suit, however many do (§6)."""
    figures = {FIG[c] for c in cards}
    suits = {SUIT[c] for c in cards}
    return sum((FIG[i] in figures) + (SUIT[i] in suits) for i in indicators)
