"""Every text view of a match, in the card notation: the one renderer.

* :func:`format_event` — one line per event; :func:`transcript` — the whole
  match so far, one line per event. A transcript is omniscient (it shows
  every seat's dealt cards and every Nhất Bản arrangement).
* :func:`format_table` — the table now: header, indicators, the card on
  offer, the dead cards, one row per seat and the last events, as the seat
  to act sees it (its hand shown, the others' hidden) or omniscient. The
  environment's ``render()`` is this table under its agent names
  (:func:`env121.envs.aec_env.render_table`); :mod:`env121.engine.validate`
  shows the omniscient table with a broken invariant.
* :func:`seat_name` (``S0`` … ``S3``) and :func:`format_arrangement` (a
  Nhất Bản arrangement, ``__`` in the empty slot), used by both.
* :func:`readable_transcript` / :class:`ReadableTranscript` — the form a
  person reads (``env121 play`` and ``replay`` print it): the same event
  lines grouped by vòng and lượt (a lượt starts with a flip), each swap
  followed by the swapper's cards after it, a win in Vietnamese names
  (:func:`describe_result`), and the empty choices (passes, declined Thế
  trắng and Nhất Bản) left out unless ``verbose``. It can be written for one
  seat (``viewer``): only the events that seat saw, only its own cards.

Ván and vòng are written from 1. Golden tests store whole transcripts (the
full form, :func:`transcript`) and compare them line by line, so a change of
wording in an event line is a change of every golden file: regenerate them
(``python -m tests.engine.test_golden --regen``) only when the change is meant.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from env121.engine.game import swap_kind
from env121.engine.state import (
    NUM_SEATS,
    VONG_PER_VAN,
    AnSiTurned,
    CardDead,
    Dealt,
    Den,
    Drawn,
    Event,
    Flipped,
    MatchEnded,
    NhatBanArranged,
    NhatBanDeclared,
    NhatBanDeclined,
    Outcome,
    Paid,
    Passed,
    Phase,
    State,
    SwapKind,
    Swapped,
    TheTrangDeclared,
    TheTrangDeclined,
    VanEnded,
    VongResult,
    VongStarted,
    Won,
    visible_to,
)
from env121.rules.bonuses import NHAT_BAN_BONUS, THUONG_BY_ID
from env121.rules.cards import format_card, format_cards
from env121.rules.thes import THE_BY_ID
from env121.rules.waits import GAP

TABLE_EVENTS = 4
"""Events of the vòng shown under the table (the last ones the viewer saw)."""


def seat_name(seat: int) -> str:
    """``S0`` … ``S3``."""
    return f"S{seat}"


SEAT_NAMES: tuple[str, ...] = tuple(seat_name(s) for s in range(NUM_SEATS))


def format_arrangement(cards: Sequence[int]) -> str:
    """A Nhất Bản arrangement in the card notation, ``__`` in the empty slot (GAP)."""
    return " ".join("__" if c == GAP else format_card(c) for c in cards)


def _signed(values: tuple[int, ...]) -> str:
    return " ".join(f"{seat_name(s)} {v:+d}" for s, v in enumerate(values))


def _win(event: Won) -> str:
    r: VongResult = event.result
    how = (
        "own flip"
        if event.flipped and event.exposer == event.seat
        else f"{'flipped' if event.flipped else 'put out'} by {seat_name(event.exposer)}"
    )
    the = f"{r.the} ({r.tier} Điểm)" if r.the else "completed hand (0 Điểm)"
    parts = [the]
    if r.bonuses:
        parts.append("+ " + " ".join(r.bonuses))
    if r.indicator_points:
        parts.append(f"+ indicators {r.indicator_points}")
    nb = " under Nhất Bản" if r.nhat_ban else ""
    return (
        f"{seat_name(event.seat)} Ù{nb} on {format_card(event.card)} ({how}): "
        f"{' '.join(parts)} = {r.points} Điểm; hand {format_cards(r.arrangement)}"
    )


def format_event(event: Event) -> str:
    """One transcript line for one event."""
    if isinstance(event, VongStarted):
        return (
            f"== Ván {event.van + 1}, vòng {event.vong + 1}/{VONG_PER_VAN}: dealer "
            f"{seat_name(event.dealer)}, Chỉ Điểm {format_card(event.chi_diem)}"
        )
    if isinstance(event, Dealt):
        return f"{seat_name(event.seat)} dealt {format_cards(event.cards)}"
    if isinstance(event, TheTrangDeclined):
        return f"{seat_name(event.seat)} declines Thế trắng"
    if isinstance(event, TheTrangDeclared):
        return (
            f"{seat_name(event.seat)} declares Thế trắng with {format_cards(event.cards)}: 1 Điểm"
        )
    if isinstance(event, Flipped):
        return (
            f"{seat_name(event.seat)} flips {format_card(event.card)} (Nọc {event.noc_left} left)"
        )
    if isinstance(event, Passed):
        return f"{seat_name(event.seat)} passes {format_card(event.card)}"
    if isinstance(event, Swapped):
        source = "" if event.kind == SwapKind.BOC else f" from {seat_name(event.exposer)}"
        lock = ", locks it" if event.kind == SwapKind.CUOP else ""
        return (
            f"{seat_name(event.seat)} {event.kind.value} {format_card(event.taken)}{source}"
            f"{lock}, puts out {format_card(event.put)}"
        )
    if isinstance(event, AnSiTurned):
        return f"Ẩn Sĩ {event.position + 1} turned: {format_card(event.card)}"
    if isinstance(event, CardDead):
        return f"{format_card(event.card)} is dead (all passed)"
    if isinstance(event, NhatBanDeclined):
        return f"{seat_name(event.seat)} declines Nhất Bản"
    if isinstance(event, NhatBanDeclared):
        return f"{seat_name(event.seat)} declares Nhất Bản"
    if isinstance(event, NhatBanArranged):
        return f"{seat_name(event.seat)} fixes {format_arrangement(event.arrangement)}"
    if isinstance(event, Won):
        return _win(event)
    if isinstance(event, Den):
        return (
            f"{seat_name(event.seat)} Ù on {format_card(event.card)} with "
            f"{format_cards(event.cards)}: not a win, Đền"
        )
    if isinstance(event, Drawn):
        return "Vòng drawn: " + (
            "action limit reached (truncated)" if event.truncated else "Nọc empty"
        )
    if isinstance(event, Paid):
        return f"Paid: {_signed(event.deltas)}; scores {' '.join(map(str, event.scores))}"
    if isinstance(event, VanEnded):
        return f"== Ván {event.van + 1} ends: scores {' '.join(map(str, event.scores))}"
    if isinstance(event, MatchEnded):
        standings = " ".join(
            f"{seat_name(s)} #{r} ({v:+d})"
            for s, (r, v) in enumerate(zip(event.ranks, event.standings, strict=True))
        )
        return f"== Match ends ({event.reason}): {standings}"
    raise TypeError(f"not an event: {event!r}")


def transcript(state: State) -> list[str]:
    """The whole match so far, one line per event."""
    return [format_event(e) for e in state.events]


def format_table(
    state: State,
    *,
    omniscient: bool = False,
    names: Sequence[str] = SEAT_NAMES,
    title: str = "121",
) -> str:
    """The table in the card notation, one line per item.

    By default as the seat to act sees it: its hand (and Nhất Bản
    arrangement) shown, the others' hands hidden but for the cards known to
    be in them, and the last :data:`TABLE_EVENTS` events of the vòng it saw.
    ``omniscient`` (and a finished match) shows every hand, arrangement and
    event. ``names`` names the seats (the environment's agents, say) and
    ``title`` heads the first line. The seat to act is marked ``>``.
    """
    acting = state.current_player
    viewer = None if omniscient or acting < 0 else acting
    header = (
        f"{title} · ván {state.van + 1}/{state.config.num_van} · vòng {state.vong + 1}/"
        f"{VONG_PER_VAN} · dealer {names[state.dealer]} · phase {state.phase.value} · "
        f"Nọc {state.noc_left}"
    )
    if acting >= 0:
        header += f" · to act: {names[acting]}"
        if names[acting] != seat_name(acting):
            header += f" ({seat_name(acting)})"
    hidden = len(state.an_si) - state.an_si_revealed
    lines = [
        header,
        f"Chỉ Điểm {format_card(state.chi_diem)} · Ẩn Sĩ "
        f"[{format_cards(state.revealed_an_si)}] ({hidden} face down)",
    ]
    if state.offer_card >= 0:
        how = "flipped" if state.offer_flipped else "put out"
        offer = f"On offer: {format_card(state.offer_card)}, {how} by {names[state.offer_exposer]}"
        if acting >= 0 and state.phase == Phase.OFFER:
            offer += f" ({swap_kind(state, acting).value} for {names[acting]})"
        lines.append(offer)
    lines.append(f"Dead ({len(state.dead)}): {format_cards(state.dead) or '-'}")
    for seat in range(NUM_SEATS):
        shown = viewer is None or seat == viewer
        if shown:
            cards = f"hand {format_cards(state.hands[seat])}"
        else:
            cards = f"{len(state.hands[seat])} cards"
            if state.known[seat]:
                cards += f" (known {format_cards(state.known[seat])})"
        extra = []
        if state.locked[seat]:
            extra.append(f"khóa {format_cards(state.locked[seat])}")
        if state.nhat_ban[seat]:
            arrangement = state.nb_arrangement[seat]
            if shown and arrangement:
                extra.append(f"Nhất Bản [{format_arrangement(arrangement)}]")
            else:
                extra.append("Nhất Bản")
        mark = ">" if seat == acting else " "
        dealer = " (cái)" if seat == state.dealer else ""
        lines.append(
            f"{mark} {names[seat]}{dealer:<6} {state.scores[seat]:>6}  {cards}"
            + ("  " + "  ".join(extra) if extra else "")
        )
    seen = [e for e in state.vong_events() if viewer is None or visible_to(e, viewer)]
    lines.extend(f"  · {format_event(e)}" for e in seen[-TABLE_EVENTS:])
    return "\n".join(lines)


# --------------------------------------------------------- readable form


EMPTY_CHOICES = (Passed, TheTrangDeclined, NhatBanDeclined)
"""The events the readable transcript leaves out unless ``verbose``."""


def describe_result(result: VongResult, names: Sequence[str] = SEAT_NAMES) -> str:
    """A finished vòng in words, the Thế and Thưởng by their Vietnamese names:
    ``"S2 Ù on GEN/FR: Phiên – Phiên (2) + Thắng cái + indicators 2 = 5 Điểm;
    hand …"``."""
    who = names[result.seat] if result.seat >= 0 else ""
    if result.outcome == Outcome.THE_TRANG:
        return f"{who} declared Thế trắng with {format_cards(result.arrangement)}: 1 Điểm"
    if result.outcome == Outcome.DEN:
        return (
            f"{who} called Ù on {format_card(result.card)}, which was not a win: Đền, "
            "1 Điểm to each other seat"
        )
    if result.outcome == Outcome.DRAW:
        return "Drawn: " + ("the action limit was reached" if result.truncated else "Nọc empty")
    the = (
        f"{THE_BY_ID[result.the].name_vi} ({result.tier})"
        if result.the
        else "a completed hand under Nhất Bản (0)"
    )
    parts = [the]
    parts.extend(
        "Nhất Bản" if b == NHAT_BAN_BONUS else THUONG_BY_ID[b].name_vi for b in result.bonuses
    )
    if result.indicator_points:
        parts.append(f"indicators {result.indicator_points}")
    return (
        f"{who} Ù on {format_card(result.card)}: {' + '.join(parts)} = {result.points} Điểm; "
        f"hand {format_cards(result.arrangement)}"
    )


class ReadableTranscript:
    """The readable transcript, written event by event (:meth:`lines`), so a
    match can be printed as it is played.

    ``viewer``: write only what that seat saw (its own cards, the public
    events); ``None``: everything. ``verbose`` keeps the empty choices.
    """

    def __init__(self, *, viewer: int | None = None, verbose: bool = False) -> None:
        self.viewer = viewer
        self.verbose = verbose
        self.written = False
        """Whether a line was written (a heading after it gets a blank line)."""
        self.luot = 0
        self.free: dict[int, tuple[int, ...]] = {}
        self.locked: dict[int, tuple[int, ...]] = {}

    def lines(self, events: Iterable[Event]) -> list[str]:
        """The lines of the next events of the match (in order)."""
        out: list[str] = []
        for event in events:
            if self.viewer is not None and not visible_to(event, self.viewer):
                continue
            if isinstance(event, EMPTY_CHOICES) and not self.verbose:
                continue
            out.extend(self._event_lines(event))
        if out and not self.written:
            self.written = True
            return out[1:] if out[0] == "" else out
        return out

    def _event_lines(self, event: Event) -> list[str]:
        if isinstance(event, VongStarted):
            self.luot = 0
            self.free, self.locked = {}, {}
            return ["", format_event(event)]
        if isinstance(event, (VanEnded, MatchEnded)):
            return ["", format_event(event)]
        if isinstance(event, Flipped):
            self.luot += 1
            return [f"-- lượt {self.luot}: {format_event(event)}"]
        if isinstance(event, Dealt):
            self.free[event.seat], self.locked[event.seat] = event.cards, ()
        line = describe_result(event.result) if isinstance(event, Won) else format_event(event)
        if isinstance(event, Swapped) and event.seat in self.free:
            line += f"  → {seat_name(event.seat)} holds {self._after_swap(event)}"
        return [f"   {line}"]

    def _after_swap(self, event: Swapped) -> str:
        """Track the swapper's cards through the swap; its cards after it."""
        seat = event.seat
        free = [c for c in self.free[seat] if c != event.put]
        if event.kind == SwapKind.CUOP:
            self.locked[seat] = (*self.locked[seat], event.taken)
        else:
            free.append(event.taken)
        self.free[seat] = tuple(sorted(free))
        held = format_cards(self.free[seat])
        if self.locked[seat]:
            held += f" + khóa {format_cards(self.locked[seat])}"
        return held


def readable_transcript(
    state: State, *, viewer: int | None = None, verbose: bool = False
) -> list[str]:
    """The whole match so far in the readable form (:class:`ReadableTranscript`)."""
    return ReadableTranscript(viewer=viewer, verbose=verbose).lines(state.events)


__all__ = [
    "EMPTY_CHOICES",
    "SEAT_NAMES",
    "TABLE_EVENTS",
    "ReadableTranscript",
    "describe_result",
    "format_arrangement",
    "format_event",
    "format_table",
    "readable_transcript",
    "seat_name",
    "transcript",
]
