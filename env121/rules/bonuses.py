"""Thưởng (bonuses) and indicator points (Chỉ Điểm / Ẩn Sĩ) of spec §6.

Each Thưởng is one :class:`Thuong` record in :data:`THUONGS`, worth +1 Điểm
when its condition holds. Six look at the cards, three at the situation of
the win (:class:`WinSituation`). None depends on the order of the cards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from env121.rules.cards import (
    FIG,
    FIGURE_NAMES_VI,
    IS_HONOR,
    NUM_CARDS,
    SUIT,
    SUIT_CLAN,
    SUIT_COLOR,
    SUIT_NAMES_VI,
)
from env121.rules.config import RuleConfig


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


# Card Thưởng as bits: a card carries the bit of each "all six are …" group it
# belongs to, and six cards earn the Thưởng whose bits survive the AND of theirs.
_REGULAR, _HONOR, _LEFT, _RIGHT = 1, 2, 4, 8
_COLORS = tuple(16 << i for i in range(3))  # RED, BLUE, PURPLE
_CLANS = tuple(128 << i for i in range(3))  # FLOWER, BUTTERFLY, LEAF
_ANY_COLOR, _ANY_CLAN = sum(_COLORS), sum(_CLANS)


@lru_cache(maxsize=16)
def card_bits(config: RuleConfig) -> tuple[int, ...]:
    """Per card id, the bits of the card-Thưởng groups it belongs to."""
    bits = []
    for c in range(NUM_CARDS):
        b = _HONOR if IS_HONOR[c] else _REGULAR
        b |= _LEFT if FIG[c] in config.left_figures else 0
        b |= _RIGHT if FIG[c] in config.right_figures else 0
        color, clan = SUIT_COLOR[SUIT[c]], SUIT_CLAN[SUIT[c]]
        b |= 0 if color < 0 else _COLORS[color]
        b |= 0 if clan < 0 else _CLANS[clan]
        bits.append(b)
    return tuple(bits)


Condition = Callable[[int, WinSituation], bool]
"""(the AND of the six cards' bits, the situation) -> earned."""


@dataclass(frozen=True)
class Thuong:
    """One Thưởng: +1 Điểm on any valid win whose condition holds."""

    id: str
    name_vi: str
    gloss: str
    condition: Condition


def _all_six(bits: int) -> Condition:
    """All six cards share one of the groups in ``bits``."""
    return lambda common, w: bool(common & bits)


THUONGS: tuple[Thuong, ...] = (
    Thuong("toan_quan_thuong", "Toàn quân thường", "all six are regular cards",
           _all_six(_REGULAR)),
    Thuong("toan_quan_danh_du", "Toàn quân danh dự", "all six are honor cards",
           _all_six(_HONOR)),
    Thuong("cung_mot_mau", "Cùng một màu", "all six suits regular and of one color",
           _all_six(_ANY_COLOR)),
    Thuong("cung_gia_huy", "Cùng gia huy", "all six suits regular and of one clan [R-10]",
           _all_six(_ANY_CLAN)),
    Thuong("cung_nhin_phai", "Cùng nhìn phải", "all six figures look right", _all_six(_RIGHT)),
    Thuong("cung_nhin_trai", "Cùng nhìn trái", "all six figures look left", _all_six(_LEFT)),
    Thuong("thang_cai", "Thắng cái", "the winner is the dealer", lambda common, w: w.dealer),
    Thuong("tu_than", "Tự thân", "won on a card the winner flipped",
           lambda common, w: w.self_drawn),
    Thuong("ket_chung", "Kết chung", "won on the last card of the Nọc",
           lambda common, w: w.last_card),
)  # fmt: skip

THUONG_BY_ID: dict[str, Thuong] = {t.id: t for t in THUONGS}
NHAT_BAN_BONUS = "nhat_ban"
"""Not a Thưởng but reported with them: +1 for a win under Nhất Bản (§5.6)."""


def indicator_hits(cards: Sequence[int], indicator: int) -> list[str]:
    """What ``indicator`` scores on ``cards``, by Vietnamese name: its figure if
    a card has it, then its suit if a card has it (each +1, §6)."""
    hits = [FIGURE_NAMES_VI[FIG[indicator]]] if any(FIG[c] == FIG[indicator] for c in cards) else []
    if any(SUIT[c] == SUIT[indicator] for c in cards):
        hits.append(SUIT_NAMES_VI[SUIT[indicator]])
    return hits
