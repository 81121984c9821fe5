"""The one action layout of the game engine, declared once as data.

Every decision a seat takes in a match is one integer action id. The layout
below is the list :data:`ACTION_LAYOUT` of ``(name, size, meaning)`` pieces;
the ids, the constants and the table in this docstring are all made from it.
What an id means depends on the phase the engine is in (see
:mod:`env121.engine.game`); the engine decides which ids are legal.

Actions are written in the card notation: ``CARD(ASA/FR)``, ``U``, ``PASS``,
``THE_TRANG``, ``NHAT_BAN``, ``NB_GAP(3)``. :func:`format_action` and
:func:`parse_action` convert.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from env121.engine.layout import offsets
from env121.rules.cards import NUM_CARDS, CardNotationError, format_card, parse_card

NUM_SLOTS = 6
"""Slots of a Nhất Bản arrangement: five cards and one gap."""


class ActionPiece(NamedTuple):
    """One contiguous block of action ids."""

    name: str
    size: int
    meaning: str


ACTION_LAYOUT: tuple[ActionPiece, ...] = (
    ActionPiece(
        "CARD",
        NUM_CARDS,
        "CARD(c): Đổi (swap) putting free card c face up; in Nhất Bản placement: "
        "put card c in the next open slot",
    ),
    ActionPiece("U", 1, "Ù: win with the card on offer"),
    ActionPiece("PASS", 1, "Bỏ: pass on the card on offer; also declines Nhất Bản / Thế trắng"),
    ActionPiece("THE_TRANG", 1, "declare Thế trắng (five dealt cards unrelated, no honor)"),
    ActionPiece("NHAT_BAN", 1, "declare Nhất Bản right after a Bốc or Lấy"),
    ActionPiece("NB_GAP", NUM_SLOTS, "NB_GAP(slot): the empty slot 0..5 of the Nhất Bản order"),
)


ACTION_OFFSETS: dict[str, int] = offsets(ACTION_LAYOUT)
NUM_ACTIONS: int = sum(p.size for p in ACTION_LAYOUT)

CARD_BASE: int = ACTION_OFFSETS["CARD"]
U: int = ACTION_OFFSETS["U"]
PASS: int = ACTION_OFFSETS["PASS"]
THE_TRANG: int = ACTION_OFFSETS["THE_TRANG"]
NHAT_BAN: int = ACTION_OFFSETS["NHAT_BAN"]
NB_GAP_BASE: int = ACTION_OFFSETS["NB_GAP"]

_PIECE_BY_NAME = {p.name: p for p in ACTION_LAYOUT}


def layout_table() -> str:
    """The action layout as a reStructuredText-style table (made from the data)."""
    rows = [("ids", "name", "meaning")]
    for piece in ACTION_LAYOUT:
        start = ACTION_OFFSETS[piece.name]
        ids = str(start) if piece.size == 1 else f"{start}..{start + piece.size - 1}"
        rows.append((ids, piece.name, piece.meaning))
    widths = [max(len(r[i]) for r in rows) for i in range(2)]
    rule = f"{'=' * widths[0]} {'=' * widths[1]} {'=' * 20}"
    lines = [rule]
    for i, (ids, name, meaning) in enumerate(rows):
        lines.append(f"{ids:<{widths[0]}} {name:<{widths[1]}} {meaning}")
        if i == 0:
            lines.append(rule)
    lines.append(rule)
    return "\n".join(lines)


__doc__ = f"{__doc__}\nAction layout ({NUM_ACTIONS} ids)::\n\n" + "\n".join(
    "    " + line for line in layout_table().splitlines()
)


class ActionError(ValueError):
    """An action id or action string that is not in the layout."""


def card_action(card_id: int) -> int:
    """The action ``CARD(card_id)``."""
    if not 0 <= card_id < NUM_CARDS:
        raise ActionError(f"card id {card_id!r} is out of range: expected 0..{NUM_CARDS - 1}")
    return CARD_BASE + card_id


def nb_gap_action(slot: int) -> int:
    """The action ``NB_GAP(slot)``: leave slot 0..5 empty."""
    if not 0 <= slot < NUM_SLOTS:
        raise ActionError(f"Nhất Bản slot {slot!r} is out of range: expected 0..{NUM_SLOTS - 1}")
    return NB_GAP_BASE + slot


def is_card_action(action: int) -> bool:
    """Whether the id is one of the ``CARD(c)`` actions."""
    return CARD_BASE <= action < CARD_BASE + NUM_CARDS


def action_card(action: int) -> int:
    """The card of a ``CARD(c)`` action."""
    if not is_card_action(action):
        raise ActionError(f"action {action!r} is not a CARD(c) action: expected 0..{NUM_CARDS - 1}")
    return action - CARD_BASE


def action_slot(action: int) -> int:
    """The slot of an ``NB_GAP(slot)`` action."""
    if not NB_GAP_BASE <= action < NB_GAP_BASE + NUM_SLOTS:
        raise ActionError(
            f"action {action!r} is not an NB_GAP(slot) action: "
            f"expected {NB_GAP_BASE}..{NB_GAP_BASE + NUM_SLOTS - 1}"
        )
    return action - NB_GAP_BASE


def action_name(action: int) -> str:
    """The layout piece an id belongs to: ``"CARD"``, ``"U"``, ``"PASS"``, …"""
    if isinstance(action, bool) or not isinstance(action, int):
        raise ActionError(f"action {action!r} is not an int: expected an id 0..{NUM_ACTIONS - 1}")
    for piece in ACTION_LAYOUT:
        start = ACTION_OFFSETS[piece.name]
        if start <= action < start + piece.size:
            return piece.name
    raise ActionError(f"action id {action} is out of range: expected 0..{NUM_ACTIONS - 1}")


def format_action(action: int) -> str:
    """The action in the card notation, e.g. ``CARD(ASA/FR)``, ``U``, ``NB_GAP(3)``."""
    name = action_name(action)
    if name == "CARD":
        return f"CARD({format_card(action - CARD_BASE)})"
    if name == "NB_GAP":
        return f"NB_GAP({action - NB_GAP_BASE})"
    return name


def format_actions(actions: Iterable[int]) -> str:
    """Several actions in the notation, separated by spaces."""
    return " ".join(format_action(a) for a in actions)


_ACTION_RE = re.compile(r"^\s*([A-Z_]+)\s*(?:\(\s*([^)]*?)\s*\))?\s*$")
_ACCEPTED = "CARD(FIG/SU), U, PASS, THE_TRANG, NHAT_BAN or NB_GAP(0..5)"


def parse_action(text: str) -> int:
    """The id of an action string such as ``"CARD(ASA/FR)"`` or ``"pass"``."""
    match = _ACTION_RE.match(text.upper())
    if match is None or match.group(1) not in _PIECE_BY_NAME:
        raise ActionError(f"bad action {text!r}: expected {_ACCEPTED}")
    name, arg = match.group(1), match.group(2)
    piece = _PIECE_BY_NAME[name]
    if piece.size == 1:
        if arg is not None:
            raise ActionError(f"bad action {text!r}: {name} takes no argument")
        return ACTION_OFFSETS[name]
    if arg is None:
        raise ActionError(f"bad action {text!r}: {name} needs an argument, e.g. {_ACCEPTED}")
    if name == "CARD":
        try:
            return card_action(parse_card(arg))
        except CardNotationError as err:
            raise ActionError(f"bad action {text!r}: {err}") from None
    if not arg.isdigit():
        raise ActionError(f"bad action {text!r}: NB_GAP needs a slot 0..{NUM_SLOTS - 1}")
    return nb_gap_action(int(arg))


__all__ = [
    "ACTION_LAYOUT",
    "ACTION_OFFSETS",
    "CARD_BASE",
    "NB_GAP_BASE",
    "NHAT_BAN",
    "NUM_ACTIONS",
    "NUM_SLOTS",
    "PASS",
    "THE_TRANG",
    "ActionError",
    "ActionPiece",
    "U",
    "action_card",
    "action_name",
    "action_slot",
    "card_action",
    "format_action",
    "format_actions",
    "is_card_action",
    "layout_table",
    "nb_gap_action",
    "parse_action",
]
