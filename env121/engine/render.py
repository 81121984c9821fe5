"""Human-readable transcripts: one line per event, in the card notation.

A transcript is omniscient (it shows every seat's dealt cards and every
Nhất Bản arrangement); seats are written ``S0`` … ``S3``, ván and vòng from 1.
Golden tests store whole transcripts and compare them line by line, so a
change of wording here is a change of every golden file: regenerate them
(``python -m tests.engine.test_golden --regen``).
"""

from __future__ import annotations

from env121.engine.state import (
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
    Paid,
    Passed,
    State,
    SwapKind,
    Swapped,
    TheTrangDeclared,
    TheTrangDeclined,
    VanEnded,
    VongResult,
    VongStarted,
    Won,
)
from env121.rules.cards import format_card, format_cards
from env121.rules.waits import GAP


def seat_name(seat: int) -> str:
    """``S0`` … ``S3``."""
    return f"S{seat}"


def _arrangement(cards: tuple[int, ...]) -> str:
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
        return f"{seat_name(event.seat)} fixes {_arrangement(event.arrangement)}"
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


__all__ = ["format_event", "seat_name", "transcript"]
