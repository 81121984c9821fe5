"""The 121 cards: figures, suits, their properties, and the card notation.

A card is an ``int`` id ``11 * figure + suit`` (spec §1). Every property the
rules use is a table indexed by card id, built once at import.

Card notation
-------------
A card is written ``FIG/SU``: a three-letter figure code, a slash, a two-letter
suit code, case-insensitive on input::

    CRE GEN INS MER GEI DAN MON MUS NIN ASA PRI      figures 0..10
    KY  ED  FR  FB  FP  BR  BB  BP  LR  LB  LP       suits   0..10

Regular suits are a clan letter (Flower, Butterfly, Leaf) and a color letter
(Red, Blue, Purple): ``FR`` is Hoa đỏ, ``BP`` is Bướm tím. So ``ASA/FR`` is the
Ám giả of Hoa đỏ and ``CRE/KY`` the Gia huy of Cố Đô. A hand is cards separated
by spaces or commas: ``"GEN/KY GEN/ED GEN/FR INS/LB MON/LB PRI/LB"``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from enum import IntEnum

NUM_FIGURES = 11
NUM_SUITS = 11
NUM_CARDS = NUM_FIGURES * NUM_SUITS


class Figure(IntEnum):
    """The 11 figures (hình). CREST (Gia huy) is the honor figure."""

    CREST = 0  # Gia huy
    GENERAL = 1  # Tướng quân
    INSPECTOR = 2  # Thanh tra
    MERCHANT = 3  # Thương nhân
    GEISHA = 4  # Kĩ nữ
    DANCER = 5  # Vũ nữ
    MONK = 6  # Tăng lữ
    MUSICIAN = 7  # Nhạc sư
    NINJA = 8  # Nhẫn giả
    ASSASSIN = 9  # Ám giả
    PRIEST = 10  # Linh mục


class Suit(IntEnum):
    """The 11 suits (chất). KYOTO (Cố Đô) and EDO (Giang Hộ) are the honor suits."""

    KYOTO = 0  # Cố Đô
    EDO = 1  # Giang Hộ
    FLOWER_RED = 2  # Hoa đỏ
    FLOWER_BLUE = 3  # Hoa xanh
    FLOWER_PURPLE = 4  # Hoa tím
    BUTTERFLY_RED = 5  # Bướm đỏ
    BUTTERFLY_BLUE = 6  # Bướm xanh
    BUTTERFLY_PURPLE = 7  # Bướm tím
    LEAF_RED = 8  # Lá đỏ
    LEAF_BLUE = 9  # Lá xanh
    LEAF_PURPLE = 10  # Lá tím


class Clan(IntEnum):
    """The three clans (thị tộc / nhà) of the regular suits."""

    FLOWER = 0
    BUTTERFLY = 1
    LEAF = 2


class Color(IntEnum):
    """The three colors (màu) of the regular suits."""

    RED = 0
    BLUE = 1
    PURPLE = 2


FIGURE_NAMES_VI: tuple[str, ...] = (
    "Gia huy",
    "Tướng quân",
    "Thanh tra",
    "Thương nhân",
    "Kĩ nữ",
    "Vũ nữ",
    "Tăng lữ",
    "Nhạc sư",
    "Nhẫn giả",
    "Ám giả",
    "Linh mục",
)
SUIT_NAMES_VI: tuple[str, ...] = (
    "Cố Đô",
    "Giang Hộ",
    "Hoa đỏ",
    "Hoa xanh",
    "Hoa tím",
    "Bướm đỏ",
    "Bướm xanh",
    "Bướm tím",
    "Lá đỏ",
    "Lá xanh",
    "Lá tím",
)
FIGURE_CODES: tuple[str, ...] = (
    "CRE",
    "GEN",
    "INS",
    "MER",
    "GEI",
    "DAN",
    "MON",
    "MUS",
    "NIN",
    "ASA",
    "PRI",
)
SUIT_CODES: tuple[str, ...] = ("KY", "ED", "FR", "FB", "FP", "BR", "BB", "BP", "LR", "LB", "LP")

HONOR_SUITS = frozenset({Suit.KYOTO, Suit.EDO})
REGULAR_FIGURES: tuple[int, ...] = tuple(range(1, NUM_FIGURES))


def card(figure: int, suit: int) -> int:
    """The id of the card with this figure and suit."""
    return NUM_SUITS * figure + suit


def figure_of(card_id: int) -> int:
    """The figure (0..10) of a card id."""
    return card_id // NUM_SUITS


def suit_of(card_id: int) -> int:
    """The suit (0..10) of a card id."""
    return card_id % NUM_SUITS


def clan_of_suit(suit: int) -> Clan | None:
    """The clan of a regular suit; ``None`` for KYOTO and EDO."""
    return None if suit in HONOR_SUITS else Clan((suit - 2) // 3)


def color_of_suit(suit: int) -> Color | None:
    """The color of a regular suit; ``None`` for KYOTO and EDO."""
    return None if suit in HONOR_SUITS else Color((suit - 2) % 3)


# Per-suit and per-card tables. ``-1`` stands for "no clan / no color".
SUIT_CLAN: tuple[int, ...] = tuple(
    -1 if (k := clan_of_suit(s)) is None else int(k) for s in range(NUM_SUITS)
)
SUIT_COLOR: tuple[int, ...] = tuple(
    -1 if (r := color_of_suit(s)) is None else int(r) for s in range(NUM_SUITS)
)
FIG: tuple[int, ...] = tuple(figure_of(c) for c in range(NUM_CARDS))
SUIT: tuple[int, ...] = tuple(suit_of(c) for c in range(NUM_CARDS))
CLAN: tuple[int, ...] = tuple(SUIT_CLAN[s] for s in SUIT)
COLOR: tuple[int, ...] = tuple(SUIT_COLOR[s] for s in SUIT)
IS_HONOR: tuple[bool, ...] = tuple(
    FIG[c] == Figure.CREST or SUIT[c] in HONOR_SUITS for c in range(NUM_CARDS)
)
"""Per card id: an honor card (quân danh dự), figure CREST or suit KYOTO/EDO. 31 of them."""


def related(a: int, b: int) -> bool:
    """Two cards are related (liên quan) iff they share a figure or a suit."""
    return FIG[a] == FIG[b] or SUIT[a] == SUIT[b]


def pairwise_unrelated(cards: Iterable[int]) -> bool:
    """True when no two of the cards share a figure or a suit."""
    cs = list(cards)
    return len({FIG[c] for c in cs}) == len(cs) == len({SUIT[c] for c in cs})


# ----------------------------------------------------------------- notation


class CardNotationError(ValueError):
    """A card string that is not in the card notation."""


_FIGURE_BY_CODE = {code: f for f, code in enumerate(FIGURE_CODES)}
_SUIT_BY_CODE = {code: s for s, code in enumerate(SUIT_CODES)}
_ACCEPTED = (
    "a card is FIG/SU with FIG one of "
    + " ".join(FIGURE_CODES)
    + " and SU one of "
    + " ".join(SUIT_CODES)
    + " (case-insensitive), e.g. ASA/FR"
)
_SEPARATORS = re.compile(r"[\s,]+")


def format_card(card_id: int) -> str:
    """The notation of one card, e.g. ``format_card(101) == "ASA/FR"``."""
    if not 0 <= card_id < NUM_CARDS:
        raise ValueError(f"card id {card_id!r} is out of range: expected 0..{NUM_CARDS - 1}")
    return f"{FIGURE_CODES[FIG[card_id]]}/{SUIT_CODES[SUIT[card_id]]}"


def format_cards(cards: Iterable[int]) -> str:
    """Cards in notation, separated by single spaces, in the given order."""
    return " ".join(format_card(c) for c in cards)


def parse_card(token: str) -> int:
    """The card id of one token such as ``"ASA/FR"``.

    Raises :class:`CardNotationError` naming the token and the accepted form
    (for anything else too: a token that is not a string, e.g. a number in a
    JSON record, or one outside ASCII, whose letters ``str.upper`` could turn
    into codes: ``"ınſ/FR"`` is not ``INS/FR``).
    """
    text = token.strip() if isinstance(token, str) else ""
    fig_code, slash, suit_code = text.upper().partition("/") if text.isascii() else ("", "", "")
    figure = _FIGURE_BY_CODE.get(fig_code)
    suit = _SUIT_BY_CODE.get(suit_code)
    if not slash or figure is None or suit is None:
        raise CardNotationError(f"bad card {token!r}: {_ACCEPTED}")
    return card(figure, suit)


def parse_cards(text: str | Sequence[str]) -> tuple[int, ...]:
    """Card ids of a hand string (``"GEN/KY, ASA/FR"``) or of a sequence of tokens.

    Order is kept. Duplicate cards are an error: the 121 cards are unique.
    """
    tokens = [t for t in _SEPARATORS.split(text) if t] if isinstance(text, str) else list(text)
    ids = tuple(parse_card(t) for t in tokens)
    seen: set[int] = set()
    for token, c in zip(tokens, ids, strict=True):
        if c in seen:
            raise CardNotationError(
                f"card {token!r} appears twice in {text!r}: every card of 121 is unique"
            )
        seen.add(c)
    return ids


def describe_card(card_id: int) -> str:
    """A long Vietnamese description, e.g. ``"Ám giả Hoa đỏ (ASA/FR)"``."""
    fig, suit = FIG[card_id], SUIT[card_id]
    return f"{FIGURE_NAMES_VI[fig]} {SUIT_NAMES_VI[suit]} ({format_card(card_id)})"
