"""A person at the table, in a terminal: :class:`HumanAgent`.

It is an :class:`~env121.play.protocol.Agent` like any other, so it sits in
any seat of :func:`env121.play.match.play_agents` (``env121 play --human S0
--agents …`` seats one). At each of its turns it draws the table with rich —
as the seat sees it, from the turn's :class:`~env121.engine.view.SeatView`
only — lists the legal moves by name (:func:`env121.play.moves.named_moves`)
and reads the choice: the move's number, a card in the notation (``GEN/FR``:
the swap putting it out, or the card to place), ``u`` / ``pass`` / ``nb``,
or an action in the notation (``CARD(GEN/FR)``, ``NB_GAP(2)``). Anything
else is answered with what it accepts, and asked again. ``q`` (or the end of
the input) leaves the table: :class:`LeftTheTable`; Ctrl-C raises
``KeyboardInterrupt`` as usual. Its input and output streams are injectable,
so tests drive it with strings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from env121.engine.actions import (
    NHAT_BAN,
    PASS,
    THE_TRANG,
    ActionError,
    U,
    card_action,
    parse_action,
)
from env121.engine.game import swap_kind_between
from env121.engine.picture import seat_scene
from env121.engine.render import SEAT_NAMES, describe_result, format_event
from env121.engine.state import VONG_PER_VAN, NhatBanDeclined, Phase, TheTrangDeclined
from env121.engine.view import SeatView
from env121.play.moves import named_moves
from env121.play.turn import Turn
from env121.rules.cards import IS_HONOR, SUIT, CardNotationError, format_card, parse_card
from env121.rules.config import RuleConfig
from env121.rules.waits import GAP

SUIT_STYLES: tuple[str, ...] = (
    "yellow",  # KY Cố Đô
    "cyan",  # ED Giang Hộ
    *(["red", "blue", "magenta"] * 3),  # đỏ, xanh, tím in each clan
)
"""Per suit 0..10, the terminal colour of its cards (as in the SVG picture)."""

EVENTS_SHOWN = 6
"""The last events of the vòng the table lists."""

_WORDS = {"ù": U, "win": U, "p": PASS, "bỏ": PASS, "nb": NHAT_BAN, "tt": THE_TRANG}
"""Short answers besides the notation (``u``, ``pass``, ``nhat_ban``, ``the_trang``)."""
_LEAVE = {"q", "quit", "exit"}


class LeftTheTable(Exception):
    """The person left the table (``q``, or the end of the input)."""


def card_text(card: int | None) -> Text:
    """A card in the notation, coloured by its suit, honours in bold; ``None``:
    a face-down card."""
    if card is None:
        return Text("▒▒▒▒▒▒", style="dim")
    style = SUIT_STYLES[SUIT[card]] + (" bold" if IS_HONOR[card] else "")
    return Text(format_card(card), style=style)


def cards_text(cards: Sequence[int | None], separator: str = " ") -> Text:
    """Several cards, each coloured (:func:`card_text`)."""
    return Text(separator).join(card_text(c) for c in cards)


def table_panel(view: SeatView, config: RuleConfig, names: Sequence[str] = SEAT_NAMES) -> Panel:
    """The table as the viewing seat sees it, as a rich panel."""
    scene = seat_scene(view, config)
    head = (
        f"ván {view.van + 1}/{config.num_van} · vòng {view.vong + 1}/{VONG_PER_VAN} · "
        f"dealer (cái) {names[view.dealer]} · Nọc {view.noc_left} left"
    )
    hidden = len(view.an_si_revealed)
    indicators = Text.assemble(
        "Chỉ Điểm ",
        card_text(view.chi_diem),
        "   Ẩn Sĩ ",
        cards_text([*view.an_si_revealed, *([None] * (4 - hidden))]),
    )
    lines: list[Text | Table] = []
    if view.results:
        last = view.results[-1]
        lines.append(Text(f"Last vòng ({last.vong + 1}): {describe_result(last, names)}", "dim"))
    lines.append(indicators)
    if view.offer_card >= 0:
        how = "flipped" if view.offer_flipped else "put out"
        offer = Text.assemble(
            "On offer ", card_text(view.offer_card), f", {how} by {names[view.offer_exposer]}"
        )
        if view.phase == Phase.OFFER and view.current_player == view.seat:
            kind = swap_kind_between(view.offer_exposer, view.seat).value
            offer.append(f" — you are asked ({kind})", style="bold")
        lines.append(offer)
    if view.dead:
        lines.append(Text.assemble(f"Dead ({len(view.dead)}): ", cards_text(view.dead[-8:])))
    seats = Table(box=None, show_header=False, pad_edge=False, padding=(0, 1))
    for seat, shown in enumerate(scene.seats):
        mark = "▶" if view.current_player == seat else " "
        name = names[seat] + (" (you)" if seat == view.seat else "")
        if shown.arrangement:
            slots = [Text("__") if c == GAP else card_text(c) for c in shown.arrangement]
            cards = Text.assemble("Nhất Bản [", Text(" ").join(slots), "]")
        else:
            cards = cards_text(shown.cards)
        if view.locked[seat]:
            cards.append(" + khóa ")
            cards.append_text(cards_text(view.locked[seat]))
        notes = " ".join(
            note
            for note, shown_note in (
                ("cái", seat == view.dealer),
                ("Nhất Bản", view.nhat_ban[seat] and not shown.arrangement),
            )
            if shown_note
        )
        seats.add_row(mark, name, f"{view.scores[seat]:>6,}", notes, cards)
    lines.append(seats)
    events = [e for e in view.history if not isinstance(e, (TheTrangDeclined, NhatBanDeclined))]
    for event in events[-EVENTS_SHOWN:]:
        lines.append(Text(f"· {format_event(event)}", style="dim"))
    return Panel(Group(*lines), title=head, title_align="left")


def parse_choice(answer: str, moves: Sequence[tuple[int, str]]) -> int:
    """The action a typed answer chooses among ``moves``; raises ``ValueError``
    saying what is accepted. ``q`` raises :class:`LeftTheTable`."""
    text = answer.strip()
    key = text.lower()
    legal = [action for action, _ in moves]
    accepted = (
        f"type a number 1–{len(moves)}, a card such as GEN/FR, u, pass, nb or tt (as listed), "
        "or q to leave"
    )
    if key in _LEAVE:
        raise LeftTheTable("left the table")
    if key.isdigit():
        if 1 <= int(key) <= len(moves):
            return legal[int(key) - 1]
        raise ValueError(f"there is no move {key}: {accepted}")
    chosen = _WORDS.get(key)
    if chosen is None:
        chosen = _notation(text)
    if chosen is None:
        raise ValueError(f"{text!r} is not a move: {accepted}")
    if chosen not in legal:
        raise ValueError(f"{text} is not one of your moves now: {accepted}")
    return chosen


def _notation(text: str) -> int | None:
    """A card (the action that swaps it out or places it) or an action in the
    notation; None if the text is neither."""
    try:
        return card_action(parse_card(text))
    except CardNotationError:
        pass
    try:
        return parse_action(text)
    except ActionError:
        return None


class HumanAgent:
    """A person choosing each move in a terminal (see the module docstring).

    ``stdin``: where answers are read (default: the terminal, with line
    editing); ``stdout``: where the table and the moves are written;
    ``names``: the seats' names.
    """

    spec = "human"
    uses_search = False

    def __init__(
        self,
        *,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        names: Sequence[str] = SEAT_NAMES,
    ) -> None:
        self.stdin = stdin
        self.console = Console(file=stdout, highlight=False)
        self.names = tuple(names)

    def reset(self, seed: int) -> None:
        """Nothing to seed: the person decides."""

    def act(self, turn: Turn) -> int:
        """Draw the table, list the moves, read answers until one is a move."""
        self.console.print(table_panel(turn.view, turn.config, self.names))
        moves = named_moves(turn)
        for number, (_, description) in enumerate(moves, start=1):
            self.console.print(f"  {number:>2}  {description}")
        while True:
            prompt = f"your move (1–{len(moves)}, q to leave)> "
            try:
                answer = self.console.input(prompt, stream=self.stdin)
            except EOFError as end:  # input() at the end of standard input
                raise LeftTheTable("the input ended") from end
            if self.stdin is not None and not answer:  # readline() at the end of a stream
                raise LeftTheTable("the input ended")
            try:
                return parse_choice(answer, moves)
            except ValueError as err:
                self.console.print(str(err), style="red", markup=False)


__all__ = [
    "EVENTS_SHOWN",
    "SUIT_STYLES",
    "HumanAgent",
    "LeftTheTable",
    "card_text",
    "cards_text",
    "parse_choice",
    "table_panel",
]
