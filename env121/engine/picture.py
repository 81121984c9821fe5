"""A picture of the table: any state as SVG, from one seat's view or the god view.

:func:`table_svg` ``(state, seat, options)`` is a pure function from a match
state to an SVG string. ``seat=None`` draws the god view (every hand face up);
``seat=s`` draws what seat ``s`` sees and nothing more: that picture is made
from :func:`env121.engine.view.observe` alone, so a hidden card cannot leak
into it (a test re-deals everything hidden and compares the SVG). Drawn:

* each seat's cards in order (its free cards sorted, then its locked cards
  with a red frame and "khóa"; a Nhất Bản declarer whose arrangement is
  shown, in its six slots with the gap), face down where hidden (cards a seat
  is known to hold, taken face up, stay face up); beside each seat its name,
  points, the dealer's chip (cái), a Nhất Bản badge and "to act";
* the middle: the Chỉ Điểm and the four Ẩn Sĩ (face down until turned), the
  Nọc with the cards left, the card on offer (who exposed it, how, and what
  taking it is for the seat to act: Bốc / Lấy / Cướp), the last dead cards;
* the header (ván, vòng, the phase in words), the last vòng's result (Thế,
  Thưởng, indicators, payments) and the last events the viewer saw.

A card shows its figure code with a glyph (⚜ Gia huy, ⚔ Tướng quân, ⚲ Thanh
tra, ⚖ Thương nhân, ☂ Kĩ nữ, ∿ Vũ nữ, ☸ Tăng lữ, ♫ Nhạc sư, ✦ Nhẫn giả,
☠ Ám giả, ✝ Linh mục) and its Vietnamese name, the suit by its code, its clan
symbol (flower, butterfly, leaf; a torii for Cố Đô, a wave for Giang Hộ) and
its colour (red, blue, purple; gold and slate for the honour suits), ◀ or ▶
for the way the figure looks [R-1], and a gold frame and ★ on an honour card.

The picture has a fixed size (:data:`WIDTH` × :data:`HEIGHT`), so frames of a
match make a video. Every card is a ``<g class="card" data-card="GEN/FR">``
(face-down ones ``class="card back"``) tagged with ``data-zone`` and
``data-seat``, for pages that make cards clickable. :func:`card_svg` draws one
card alone. :class:`Picture` wraps an SVG for Jupyter (``_repr_svg_``) and
rasterizes it (:meth:`Picture.to_rgb`, :meth:`Picture.to_png`, with resvg
and the DejaVu fonts matplotlib ships, so every machine draws the same
pixels); the environments' ``render_mode="rgb_array"`` is :func:`table_rgb`.
"""

from __future__ import annotations

import importlib.util
import io
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

from env121.engine.files import write_atomically
from env121.engine.game import swap_kind_between
from env121.engine.render import SEAT_NAMES, describe_result, format_event
from env121.engine.state import (
    NUM_SEATS,
    VONG_PER_VAN,
    Event,
    NhatBanDeclined,
    Phase,
    State,
    TheTrangDeclined,
    Won,
)
from env121.engine.view import SeatView, observe
from env121.rules.cards import (
    FIG,
    FIGURE_CODES,
    FIGURE_NAMES_VI,
    IS_HONOR,
    SUIT,
    SUIT_CODES,
    SUIT_NAMES_VI,
    Figure,
    Suit,
    format_card,
)
from env121.rules.config import RuleConfig
from env121.rules.waits import GAP

if TYPE_CHECKING:
    import numpy as np

WIDTH = 1360
HEIGHT = 800
CARD_W = 66
CARD_H = 96
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

FIGURE_GLYPHS: tuple[str, ...] = ("⚜", "⚔", "⚲", "⚖", "☂", "∿", "☸", "♫", "✦", "☠", "✝")
"""Per figure 0..10, the glyph drawn on its cards (all in DejaVu Sans)."""

SUIT_COLORS: tuple[str, ...] = (
    "#9a6b00",  # KY Cố Đô: gold
    "#37474f",  # ED Giang Hộ: slate
    *(["#c62828", "#1565c0", "#7b1fa2"] * 3),  # red, blue, purple in each clan
)
"""Per suit 0..10, the colour its cards are drawn in."""

SUIT_SYMBOLS: tuple[str, ...] = (
    "ky",
    "ed",
    *(["flower"] * 3),
    *(["butterfly"] * 3),
    *(["leaf"] * 3),
)
"""Per suit 0..10, the symbol (an SVG ``<symbol>`` id without the prefix)."""

_ID = "e121-"  # prefix of every id, so pictures sit in any page
_HONOUR_GOLD = "#c9a227"
_LOCK_RED = "#d32f2f"
_ACT_YELLOW = "#ffe082"
_INK = "#212121"
_SOFT_INK = "#555555"
_FELT = "#1f5e3a"
_PANEL = "#f4f1e8"


@dataclass(frozen=True)
class PictureOptions:
    """How :func:`table_svg` draws (the defaults suit a person reading a match)."""

    names: tuple[str, ...] = SEAT_NAMES
    """The seats' names, seat 0..3 (the environment's agents, "you", …)."""
    title: str = "121"
    """The first word of the header."""
    events: int = 8
    """The last events of the vòng shown (those the viewer saw; declined
    Thế trắng and Nhất Bản left out)."""
    dead: int = 6
    """The last dead cards shown in the middle."""


DEFAULT_OPTIONS = PictureOptions()


# ------------------------------------------------------------------ scene


@dataclass(frozen=True)
class SeatShown:
    """What the picture shows of one seat."""

    cards: tuple[int | None, ...]
    """Its free cards in order, ``None`` for one face down."""
    arrangement: tuple[int, ...] = ()
    """Its Nhất Bản arrangement when shown (GAP in the empty slot), else ()."""


@dataclass(frozen=True)
class Scene:
    """Everything one picture shows, gathered from :class:`SeatView` objects only."""

    public: SeatView
    """A view whose public fields (scores, the table, the offer, results) are drawn."""
    viewer: int | None
    """The seat whose view it is; None for the god view."""
    seats: tuple[SeatShown, ...]
    """What is shown of each seat's free cards, seat 0..3."""
    history: tuple[Event, ...]
    """The events of the vòng the picture may list."""
    num_van: int
    """Ván in the match (public: the rules)."""
    left_figures: frozenset[int]
    """The figures that look left [R-1] (public: the rules)."""


def seat_scene(view: SeatView, config: RuleConfig) -> Scene:
    """The scene of one seat's view: its own cards face up, the others' face
    down but for the cards they are known to hold."""
    seats = []
    for s in range(NUM_SEATS):
        if s == view.seat:
            seats.append(SeatShown(view.hand, view.nb_arrangement))
        else:
            hidden = view.hand_sizes[s] - len(view.known[s])
            seats.append(SeatShown((*view.known[s], *([None] * hidden))))
    return Scene(view, view.seat, tuple(seats), view.history, config.num_van, config.left_figures)


def god_scene(state: State) -> Scene:
    """The scene of the god view: every seat's view joined, every event."""
    views = [observe(state, s) for s in range(NUM_SEATS)]
    seats = tuple(SeatShown(v.hand, v.nb_arrangement) for v in views)
    return Scene(
        views[0],  # the public fields are the same in every view
        None,
        seats,
        tuple(state.vong_events()),
        state.config.num_van,
        state.config.left_figures,
    )


def table_svg(state: State, seat: int | None = None, options: PictureOptions | None = None) -> str:
    """The table as an SVG document: the god view (``seat=None``) or what
    ``seat`` sees (made from :func:`~env121.engine.view.observe` only)."""
    scene = god_scene(state) if seat is None else seat_scene(observe(state, seat), state.config)
    return scene_svg(scene, options or DEFAULT_OPTIONS)


def table_picture(
    state: State, seat: int | None = None, options: PictureOptions | None = None
) -> Picture:
    """:func:`table_svg` as a :class:`Picture` (shown inline by Jupyter)."""
    return Picture(table_svg(state, seat, options))


def table_rgb(
    state: State, seat: int | None = None, options: PictureOptions | None = None
) -> np.ndarray:
    """:func:`table_svg` rasterized: a ``HEIGHT × WIDTH × 3`` ``uint8`` array."""
    return table_picture(state, seat, options).to_rgb()


# ----------------------------------------------------------------- drawing


class _Svg:
    """An SVG document being written: a list of element strings, and the
    figures that look left under the match's rules (drawn on every card)."""

    def __init__(self, left_figures: frozenset[int]) -> None:
        self.parts: list[str] = []
        self.left_figures = left_figures

    def add(self, element: str) -> None:
        self.parts.append(element)

    def text(
        self,
        x: float,
        y: float,
        content: str,
        *,
        size: float = 13,
        fill: str = _INK,
        anchor: str = "start",
        weight: str = "normal",
    ) -> None:
        extra = f' font-weight="{weight}"' if weight != "normal" else ""
        extra += f' text-anchor="{anchor}"' if anchor != "start" else ""
        self.add(
            f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" fill="{fill}"{extra}>'
            f"{escape(content)}</text>"
        )

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        *,
        fill: str = "none",
        stroke: str = "none",
        width: float = 1,
        rx: float = 0,
        dash: str = "",
    ) -> None:
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(
            f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="{rx:g}" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="{width:g}"{extra}/>'
        )


def _defs() -> str:
    """The clan and honour-suit symbols, the padlock and the card back pattern."""
    return f"""<defs>
<symbol id="{_ID}flower" viewBox="-10 -10 20 20">
<circle cx="0" cy="-5" r="3.6"/><circle cx="4.76" cy="-1.55" r="3.6"/>
<circle cx="2.94" cy="4.05" r="3.6"/><circle cx="-2.94" cy="4.05" r="3.6"/>
<circle cx="-4.76" cy="-1.55" r="3.6"/><circle cx="0" cy="0" r="2.2" fill="#fff3b0"/>
</symbol>
<symbol id="{_ID}butterfly" viewBox="-10 -10 20 20">
<ellipse cx="-4.6" cy="-3.2" rx="4.6" ry="4.2"/><ellipse cx="4.6" cy="-3.2" rx="4.6" ry="4.2"/>
<ellipse cx="-3.6" cy="4.2" rx="3.3" ry="3"/><ellipse cx="3.6" cy="4.2" rx="3.3" ry="3"/>
<rect x="-0.9" y="-6.5" width="1.8" height="13.5" rx="0.9" fill="#222"/>
</symbol>
<symbol id="{_ID}leaf" viewBox="-10 -10 20 20">
<path d="M-8,8 C-9,-2 -2,-9 8.5,-8.5 C9,2 2,9 -8,8 Z"/>
<path d="M-8,8 L5,-5" stroke="#fff" stroke-width="1.2" fill="none"/>
</symbol>
<symbol id="{_ID}ky" viewBox="-10 -10 20 20">
<path d="M-10,-8.5 Q0,-6 10,-8.5 L9.4,-5.6 Q0,-3.6 -9.4,-5.6 Z"/>
<rect x="-7.5" y="-2.6" width="15" height="2"/>
<rect x="-6.4" y="-5" width="2.4" height="14"/><rect x="4" y="-5" width="2.4" height="14"/>
</symbol>
<symbol id="{_ID}ed" viewBox="-10 -10 20 20">
<path d="M-6,-5 L6,-5 L2.5,-9.5 L-2.5,-9.5 Z"/><rect x="-3.5" y="-5" width="7" height="3.4"/>
<path d="M-9.5,0.5 L9.5,0.5 L5,-2.8 L-5,-2.8 Z"/><rect x="-6" y="0.5" width="12" height="4.5"/>
<rect x="-9.5" y="5" width="19" height="4.5" rx="1"/>
</symbol>
<symbol id="{_ID}lock" viewBox="-10 -10 20 20">
<path d="M-4.5,-1 V-4 A4.5,4.5 0 0 1 4.5,-4 V-1" fill="none" stroke="#fff" stroke-width="2"/>
<rect x="-6.5" y="-1" width="13" height="9" rx="1.5" fill="#fff"/>
</symbol>
<pattern id="{_ID}back" width="10" height="10" patternUnits="userSpaceOnUse">
<rect width="10" height="10" fill="#27447a"/><path d="M0,5 L5,0 L10,5 L5,10 Z" fill="#3a5d9c"/>
</pattern>
</defs>"""


def _facing(figure: int, left_figures: frozenset[int]) -> str:
    """◀ for a figure that looks left, ▶ right, nothing for the CREST [R-1]."""
    if figure == Figure.CREST:
        return ""
    return "◀" if figure in left_figures else "▶"


def _card(
    svg: _Svg,
    x: float,
    y: float,
    card: int | None,
    *,
    scale: float = 1.0,
    zone: str,
    seat: int | None = None,
    locked: bool = False,
    glow: str = "",
) -> None:
    """One card (``None``: face down) with its top-left corner at (x, y)."""
    tags = f' data-zone="{zone}"' + (f' data-seat="{seat}"' if seat is not None else "")
    head = f'<g transform="translate({x:g} {y:g}) scale({scale:g})"'
    if glow:
        svg.rect(x - 4, y - 4, CARD_W * scale + 8, CARD_H * scale + 8, fill=glow, rx=9)
    if card is None:
        svg.add(f'{head} class="card back"{tags}>')
        svg.rect(0, 0, CARD_W, CARD_H, fill=f"url(#{_ID}back)", stroke="#e8e8e8", width=2, rx=6)
        svg.rect(6, 6, CARD_W - 12, CARD_H - 12, stroke="#9fb6e0", width=1.2, rx=4)
        svg.add("</g>")
        return
    figure, suit = FIG[card], SUIT[card]
    colour = SUIT_COLORS[suit]
    honour = IS_HONOR[card]
    name = format_card(card)
    svg.add(f'{head} class="card" data-card={quoteattr(name)}{tags}>')
    title = f"{FIGURE_NAMES_VI[figure]} {SUIT_NAMES_VI[suit]} ({name})"
    if honour:
        title += ", honour card"
    svg.add(f"<title>{escape(title)}</title>")
    svg.rect(
        0,
        0,
        CARD_W,
        CARD_H,
        fill="#fff6d6" if honour else "#fffdf7",
        stroke=_HONOUR_GOLD if honour else colour,
        width=3.5 if honour else 2,
        rx=6,
    )
    if honour:
        svg.rect(4, 4, CARD_W - 8, CARD_H - 8, stroke=_HONOUR_GOLD, width=1, rx=4)
    svg.text(7, 17, FIGURE_CODES[figure], size=13, weight="bold")
    svg.text(
        CARD_W - 6, 16, _facing(figure, svg.left_figures), size=11, fill=_SOFT_INK, anchor="end"
    )
    svg.text(CARD_W / 2, 51, FIGURE_GLYPHS[figure], size=29, fill=colour, anchor="middle")
    svg.text(CARD_W / 2, 66, FIGURE_NAMES_VI[figure], size=8.5, fill=_SOFT_INK, anchor="middle")
    svg.add(
        f'<use href="#{_ID}{SUIT_SYMBOLS[suit]}" x="5" y="72" width="19" height="19" '
        f'fill="{colour}"/>'
    )
    svg.text(CARD_W - 6, 88, SUIT_CODES[suit], size=13, fill=colour, anchor="end", weight="bold")
    if honour:
        svg.text(CARD_W - 6, 31, "★", size=12, fill=_HONOUR_GOLD, anchor="end")
    svg.add("</g>")
    if locked:
        w, h = CARD_W * scale, CARD_H * scale
        svg.rect(x - 2, y - 2, w + 4, h + 4, stroke=_LOCK_RED, width=3, rx=7)
        svg.rect(x + w / 2 - 22, y + h - 8, 44, 16, fill=_LOCK_RED, rx=4)
        svg.add(
            f'<use href="#{_ID}lock" x="{x + w / 2 - 20:g}" y="{y + h - 7:g}" width="13" '
            'height="13"/>'
        )
        svg.text(x + w / 2 + 7, y + h + 4, "khóa", size=10, fill="#fff", anchor="middle")


def card_svg(card: int | None, config: RuleConfig | None = None) -> str:
    """One card alone as an SVG document (``None``: its back)."""
    svg = _Svg((config or RuleConfig()).left_figures)
    _card(svg, 2, 2, card, zone="alone")
    return _document(svg, CARD_W + 4, CARD_H + 4)


def _document(svg: _Svg, width: float, height: float) -> str:
    body = "\n".join(svg.parts)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}" font-family="{FONT}">\n{_defs()}\n{body}\n</svg>\n'
    )


# ----------------------------------------------------------------- layout

_SEAT_GAP = 8
_ROW_W = 6 * (CARD_W + _SEAT_GAP)
# Where each seat's block sits, by its place relative to the viewer: the viewer
# at the bottom, the next seat (who plays after it) on its right, the
# opposite seat at the top, the previous seat on its left.
_PLACES: dict[int, tuple[float, float]] = {
    0: ((WIDTH - _ROW_W) / 2, HEIGHT - 158),
    1: (WIDTH - _ROW_W - 20, 318),
    2: ((WIDTH - _ROW_W) / 2, 44),
    3: (24, 318),
}


def scene_svg(scene: Scene, options: PictureOptions) -> str:
    """The SVG of a scene (see :func:`table_svg`)."""
    svg = _Svg(scene.left_figures)
    svg.rect(0, 0, WIDTH, HEIGHT, fill=_FELT)
    svg.rect(8, 8, WIDTH - 16, HEIGHT - 16, stroke="#2f7a4f", width=2, rx=14)
    bottom = 0 if scene.viewer is None else scene.viewer
    for seat in range(NUM_SEATS):
        x, y = _PLACES[(seat - bottom) % NUM_SEATS]
        _seat(svg, scene, seat, x, y, options)
    _middle(svg, scene, options)
    _header(svg, scene, options)
    _last_result(svg, scene, options)
    _events(svg, scene, options)
    _legend(svg)
    return _document(svg, WIDTH, HEIGHT)


def _seat(svg: _Svg, scene: Scene, seat: int, x: float, y: float, options: PictureOptions) -> None:
    view, shown = scene.public, scene.seats[seat]
    acting = view.current_player == seat
    name = options.names[seat]
    if seat == scene.viewer:
        name += " (you)"
    label_w = _ROW_W - _SEAT_GAP
    svg.rect(x, y, label_w, 26, fill=_ACT_YELLOW if acting else _PANEL, rx=6)
    label = f"{'▶ ' if acting else ''}{name}   {view.scores[seat]:,} points"
    svg.text(x + 8, y + 18, label, size=14, weight="bold")
    badges = []
    if seat == view.dealer:
        badges.append(("cái (dealer)", _HONOUR_GOLD))
    if view.nhat_ban[seat]:
        badges.append(("Nhất Bản", "#6a1b9a"))
    if view.locked[seat]:
        badges.append((f"{len(view.locked[seat])} Cướp", _LOCK_RED))
    right = x + label_w - 6
    for text, colour in reversed(badges):
        width = 8 + 7.2 * len(text)
        svg.rect(right - width, y + 4, width, 18, fill=colour, rx=9)
        svg.text(right - width / 2, y + 17, text, size=11, fill="#fff", anchor="middle")
        right -= width + 5
    cards_y = y + 34
    step = CARD_W + _SEAT_GAP
    if shown.arrangement:
        for slot, card in enumerate(shown.arrangement):
            cx = x + slot * step
            if card == GAP:
                svg.rect(cx, cards_y, CARD_W, CARD_H, stroke="#e0e0e0", width=2, rx=6, dash="6 4")
                svg.text(
                    cx + CARD_W / 2, cards_y + 52, "gap", size=12, fill="#e0e0e0", anchor="middle"
                )
            else:
                _card(svg, cx, cards_y, card, zone="arrangement", seat=seat)
        return
    for i, free in enumerate(shown.cards):
        _card(svg, x + i * step, cards_y, free, zone="hand", seat=seat)
    for j, lock in enumerate(view.locked[seat]):
        cx = x + (len(shown.cards) + j) * step
        _card(svg, cx, cards_y, lock, zone="locked", seat=seat, locked=True)


def _middle(svg: _Svg, scene: Scene, options: PictureOptions) -> None:
    view = scene.public
    x0, x1 = _PLACES[3][0] + _ROW_W + 12, _PLACES[1][0] - 12
    mid = (x0 + x1) / 2
    small = 0.72
    sw, sh = CARD_W * small, CARD_H * small
    # Chỉ Điểm and the Ẩn Sĩ
    top = 196
    row_w = sw + 26 + 4 * sw + 3 * 6
    cx = mid - row_w / 2
    svg.text(cx + sw / 2, top, "Chỉ Điểm", size=12, fill="#fff", anchor="middle")
    _card(svg, cx, top + 6, view.chi_diem, scale=small, zone="chi_diem")
    ax = cx + sw + 26
    turned = len(view.an_si_revealed)
    svg.text(
        ax + (4 * sw + 18) / 2,
        top,
        f"Ẩn Sĩ ({turned} of 4 turned)",
        size=12,
        fill="#fff",
        anchor="middle",
    )
    for i in range(4):
        card = view.an_si_revealed[i] if i < turned else None
        _card(svg, ax + i * (sw + 6), top + 6, card, scale=small, zone="an_si")
    # the Nọc and the card on offer
    row = top + sh + 40
    nx = x0 + 8
    for k in range(3):
        if view.noc_left > k:
            _card(svg, nx + 2 * k, row + 20 - 2 * k, None, scale=small, zone="noc")
    svg.text(
        nx + sw / 2 + 2,
        row + 20 + sh + 16,
        f"Nọc: {view.noc_left} left",
        size=12,
        fill="#fff",
        anchor="middle",
    )
    big = 1.2
    ox = mid - CARD_W * big / 2 + 20
    if view.offer_card >= 0:
        last = view.results[-1] if view.results else None
        won = view.match_end is not None and last is not None and last.card == view.offer_card
        caption = "the last card" if won else "on offer"
        svg.text(
            ox + CARD_W * big / 2,
            row + 4,
            caption,
            size=13,
            fill="#fff",
            anchor="middle",
            weight="bold",
        )
        _card(svg, ox, row + 12, view.offer_card, scale=big, zone="offer", glow=_ACT_YELLOW)
        how = "flipped" if view.offer_flipped else "put out"
        lines = [f"{how} by {options.names[view.offer_exposer]}"]
        acting = view.current_player
        if won and last is not None:
            lines.append(f"{options.names[last.seat]} won on it")
        if view.phase == Phase.OFFER and acting >= 0:
            kind = swap_kind_between(view.offer_exposer, acting).value
            lines.append(f"{options.names[acting]} is asked ({kind})")
        for i, line in enumerate(lines):
            svg.text(ox + CARD_W * big + 14, row + 50 + 18 * i, line, size=12, fill="#fff")
    else:
        svg.rect(
            ox, row + 12, CARD_W * big, CARD_H * big, stroke="#9ccfb0", width=2, rx=7, dash="6 4"
        )
        svg.text(
            ox + CARD_W * big / 2,
            row + 12 + CARD_H * big / 2,
            "no card",
            size=12,
            fill="#9ccfb0",
            anchor="middle",
        )
    # dead cards
    dead_y = row + 12 + CARD_H * big + 26
    dead = view.dead[-options.dead :] if options.dead else ()
    svg.text(mid, dead_y, f"dead cards: {len(view.dead)}", size=12, fill="#fff", anchor="middle")
    tiny = 0.6
    dx = mid - len(dead) * (CARD_W * tiny + 4) / 2
    for i, card in enumerate(dead):
        _card(svg, dx + i * (CARD_W * tiny + 4), dead_y + 6, card, scale=tiny, zone="dead")


def _phase_text(view: SeatView, names: Sequence[str]) -> str:
    """What is being decided, in words."""
    acting = view.current_player
    if acting < 0:
        end = f" ({view.match_end})" if view.match_end else ""
        return f"The match is over{end}."
    who = names[acting]
    if view.phase == Phase.THE_TRANG:
        return f"{who} may declare Thế trắng."
    if view.phase == Phase.NB_CHOICE:
        return f"{who} decides whether to declare Nhất Bản."
    if view.phase in (Phase.NB_GAP, Phase.NB_PLACE):
        return f"{who} arranges the Nhất Bản cards."
    card = format_card(view.offer_card)
    return f"{who}: Ù, swap or pass on {card}?"


def _header(svg: _Svg, scene: Scene, options: PictureOptions) -> None:
    view = scene.public
    svg.rect(20, 18, 420, 150, fill=_PANEL, rx=8)
    svg.text(32, 44, options.title, size=20, weight="bold")
    whose = "god view" if scene.viewer is None else f"seen by {options.names[scene.viewer]}"
    svg.text(32 + 12 * len(options.title) + 14, 44, whose, size=13, fill=_SOFT_INK)
    svg.text(
        32,
        68,
        f"ván {view.van + 1}/{scene.num_van} · vòng {view.vong + 1}/{VONG_PER_VAN} "
        f"· dealer (cái) {options.names[view.dealer]}",
        size=13,
    )
    for i, line in enumerate(textwrap.wrap(_phase_text(view, options.names), 52)[:2]):
        svg.text(32, 92 + 18 * i, line, size=13, weight="bold")
    # the seats by code (S0…): their names stand beside them, and would not fit here
    scores = " · ".join(f"{SEAT_NAMES[s]} {view.scores[s]:,}" for s in range(NUM_SEATS))
    svg.text(32, 136, "points: " + scores, size=12, fill=_SOFT_INK)
    if scene.num_van > 1 or view.van > 0:
        standings = " · ".join(f"{SEAT_NAMES[s]} {view.standings[s]:+,}" for s in range(NUM_SEATS))
        svg.text(32, 154, "match: " + standings, size=12, fill=_SOFT_INK)


def _legend(svg: _Svg) -> None:
    """How to read a card: the suit symbols and colours, facing, honours, locks."""
    x, y, w = WIDTH - 380, HEIGHT - 250, 360
    svg.rect(x, y, w, 232, fill=_PANEL, rx=8)
    svg.text(x + 12, y + 22, "How to read a card", size=13, weight="bold")
    svg.text(x + 12, y + 44, "top: the figure (hình); bottom: the suit (chất)", size=11.5)
    clans = [("flower", "Hoa", "F"), ("butterfly", "Bướm", "B"), ("leaf", "Lá", "L")]
    for i, (symbol, name, code) in enumerate(clans):
        cx = x + 12 + i * 112
        svg.add(
            f'<use href="#{_ID}{symbol}" x="{cx:g}" y="{y + 54:g}" width="18" height="18" '
            f'fill="{_SOFT_INK}"/>'
        )
        svg.text(cx + 22, y + 68, f"{name} ({code}·)", size=11.5)
    colours = [
        (SUIT_COLORS[Suit.FLOWER_RED], "đỏ", "R"),
        (SUIT_COLORS[Suit.FLOWER_BLUE], "xanh", "B"),
        (SUIT_COLORS[Suit.FLOWER_PURPLE], "tím", "P"),
    ]
    for i, (colour, name, code) in enumerate(colours):
        cx = x + 12 + i * 112
        svg.rect(cx + 2, y + 80, 14, 14, fill=colour, rx=3)
        svg.text(cx + 22, y + 92, f"{name} (·{code})", size=11.5, fill=colour, weight="bold")
    honours = [("ky", Suit.KYOTO, "Cố Đô (KY)"), ("ed", Suit.EDO, "Giang Hộ (ED)")]
    for i, (symbol, suit, name) in enumerate(honours):
        cx = x + 12 + i * 168
        svg.add(
            f'<use href="#{_ID}{symbol}" x="{cx:g}" y="{y + 102:g}" width="18" height="18" '
            f'fill="{SUIT_COLORS[suit]}"/>'
        )
        svg.text(cx + 22, y + 116, name, size=11.5, fill=SUIT_COLORS[suit], weight="bold")
    notes = [
        "★ and a gold frame: an honour card (danh dự),",
        "the Gia huy (CRE) or a Cố Đô / Giang Hộ card",
        "◀ / ▶: the figure looks left / right",
        "red frame, khóa: locked by a Cướp (steal)",
        "blue back: hidden · others' face-up cards: seen taken",
    ]
    for i, note in enumerate(notes):
        svg.text(x + 12, y + 142 + 17 * i, note, size=11.5)


def _last_result(svg: _Svg, scene: Scene, options: PictureOptions) -> None:
    view = scene.public
    x, w = WIDTH - 440, 420
    svg.rect(x, 18, w, 150, fill=_PANEL, rx=8)
    if not view.results:
        svg.text(x + 12, 44, "No vòng finished yet.", size=13, fill=_SOFT_INK)
        return
    result = view.results[-1]
    svg.text(
        x + 12,
        44,
        f"Last vòng (ván {result.van + 1}, vòng {result.vong + 1})",
        size=13,
        weight="bold",
    )
    lines = textwrap.wrap(describe_result(result, options.names), 58)[:5]
    if any(result.payments):
        paid = ", ".join(f"{SEAT_NAMES[s]} {p:+,}" for s, p in enumerate(result.payments))
        lines.append(f"paid: {paid}")
    for i, line in enumerate(lines):
        svg.text(x + 12, 66 + 18 * i, line, size=12)


def _events(svg: _Svg, scene: Scene, options: PictureOptions) -> None:
    x, y, w = 20, HEIGHT - 250, 340
    svg.rect(x, y, w, 232, fill=_PANEL, rx=8)
    svg.text(x + 12, y + 22, "Last events", size=13, weight="bold")
    shown = [e for e in scene.history if not isinstance(e, _EMPTY_PRIVATE)]
    lines: list[tuple[int, str]] = []
    for event in shown[-options.events :] if options.events else ():
        # a win by its Thế's and Thưởng's names (as the readable transcript has it)
        line = describe_result(event.result) if isinstance(event, Won) else format_event(event)
        wrapped = textwrap.wrap(_named(line, options.names), 46)
        lines.extend([(0, wrapped[0]), *((16, more) for more in wrapped[1:])])
    for i, (indent, line) in enumerate(lines[-11:]):
        svg.text(x + 12 + indent, y + 44 + 17 * i, line, size=11.5)


_EMPTY_PRIVATE = (TheTrangDeclined, NhatBanDeclined)


def _named(line: str, names: Sequence[str]) -> str:
    """An event line with ``S0``… replaced by the seats' names (when renamed)."""
    if tuple(names) == SEAT_NAMES:
        return line
    for seat in range(NUM_SEATS):
        line = line.replace(SEAT_NAMES[seat], f"\0{seat}")
    for seat in range(NUM_SEATS):
        line = line.replace(f"\0{seat}", names[seat])
    return line


# ------------------------------------------------------------- rasterizing


class Picture:
    """An SVG picture: shown inline by Jupyter, rasterized on demand."""

    def __init__(self, svg: str) -> None:
        self.svg = svg

    def _repr_svg_(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        return f"<Picture: {len(self.svg):,} characters of SVG>"

    def __str__(self) -> str:
        return self.svg

    def to_png(self, width: int | None = None) -> bytes:
        """The picture as PNG bytes (``width`` in pixels; default: its own size)."""
        import resvg_py  # the rasterizer loads only when a raster is asked for

        png: bytes = resvg_py.svg_to_bytes(
            svg_string=self.svg,
            width=width,
            font_dirs=[str(_font_dir())],
            skip_system_fonts=True,
            font_family="DejaVu Sans",
            sans_serif_family="DejaVu Sans",
        )
        return bytes(png)

    def to_rgb(self, width: int | None = None) -> np.ndarray:
        """The picture as an ``H × W × 3`` ``uint8`` array (PettingZoo's ``rgb_array``)."""
        import numpy as np
        from PIL import Image

        with Image.open(io.BytesIO(self.to_png(width))) as image:
            return np.asarray(image.convert("RGB"), dtype=np.uint8)

    def save(self, path: str | Path, width: int | None = None) -> None:
        """Write the picture to ``path``: PNG if it ends in ``.png``, else SVG."""
        path = Path(path)
        write_atomically(path, self.to_png(width) if path.suffix.lower() == ".png" else self.svg)


def _font_dir() -> Path:
    """The DejaVu fonts matplotlib ships (a dependency), so every machine
    rasterizes with the same fonts, system fonts or none."""
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("matplotlib is not installed: its DejaVu fonts draw the pictures")
    return Path(next(iter(spec.submodule_search_locations))) / "mpl-data" / "fonts" / "ttf"


__all__ = [
    "CARD_H",
    "CARD_W",
    "FIGURE_GLYPHS",
    "HEIGHT",
    "SUIT_COLORS",
    "SUIT_SYMBOLS",
    "WIDTH",
    "Picture",
    "PictureOptions",
    "Scene",
    "SeatShown",
    "card_svg",
    "god_scene",
    "scene_svg",
    "seat_scene",
    "table_picture",
    "table_rgb",
    "table_svg",
]
