"""The generated parts of ``docs/agent-protocol.md``, made from the code they describe.

The page holds, each between a ``<!-- generated: NAME … -->`` line and an
``<!-- end generated: NAME -->`` line, the tables and samples this module
makes (:func:`sections`): the action ids (:data:`env121.engine.actions.ACTION_LAYOUT`),
the card ids (:mod:`env121.rules.cards`), the events (:data:`env121.engine.state.Event`),
the faults (:data:`agents.program.FAULT_KINDS`) and one sample of every message,
built by :mod:`agents.program`'s own message functions from a seeded game.
``python -m agents.protocol_doc`` rewrites those parts of the page in place;
``tests/docs/test_agent_protocol.py`` regenerates them and fails when the page
and the code drift apart.
"""

from __future__ import annotations

import json
import os
import sys
import typing
from pathlib import Path

from agents.program import (
    FAULT_KINDS,
    decision_message,
    end_message,
    hello_message,
    start_message,
)
from env121.engine.actions import ACTION_LAYOUT, ACTION_OFFSETS, NUM_ACTIONS
from env121.engine.game import apply, new_game
from env121.engine.state import PRIVATE_EVENTS, Event
from env121.play.random_agent import RandomAgent
from env121.play.turn import EventCursor, MatchOver, Turn
from env121.rules.cards import (
    FIGURE_CODES,
    FIGURE_NAMES_VI,
    NUM_CARDS,
    NUM_FIGURES,
    NUM_SUITS,
    SUIT_CODES,
    SUIT_NAMES_VI,
    card,
)
from env121.rules.config import RuleConfig

PAGE = Path(__file__).resolve().parents[1] / "docs" / "agent-protocol.md"
"""The page whose generated parts this module writes."""
SAMPLE_SEED = 7
"""The seed of the game the sample messages come from."""
SAMPLE_SEAT = 0
"""The seat whose messages are shown."""


def begin_marker(name: str) -> str:
    """The line before the generated part ``name``."""
    return f"<!-- generated: {name} (python -m agents.protocol_doc) -->"


def end_marker(name: str) -> str:
    """The line after it."""
    return f"<!-- end generated: {name} -->"


def action_table() -> str:
    """The action ids, one row per block of the layout."""
    rows = ["| ids | name | meaning |", "|---|---|---|"]
    for piece in ACTION_LAYOUT:
        start = ACTION_OFFSETS[piece.name]
        ids = str(start) if piece.size == 1 else f"{start}..{start + piece.size - 1}"
        rows.append(f"| {ids} | `{piece.name}` | {piece.meaning} |")
    rows.append("")
    rows.append(f"{NUM_ACTIONS} ids in all.")
    return "\n".join(rows)


def card_table() -> str:
    """The card ids as a grid: id = 11 · figure + suit, the notation ``FIG/SU``."""
    header = "| figure \\ suit | " + " | ".join(f"{s} `{SUIT_CODES[s]}`" for s in range(NUM_SUITS))
    rows = [header + " |", "|---" * (NUM_SUITS + 1) + "|"]
    for f in range(NUM_FIGURES):
        cells = " | ".join(str(card(f, s)) for s in range(NUM_SUITS))
        rows.append(f"| {f} `{FIGURE_CODES[f]}` {FIGURE_NAMES_VI[f]} | {cells} |")
    rows.append("")
    rows.append(
        f"{NUM_CARDS} cards, ids 0..{NUM_CARDS - 1}: card id = 11 × figure + suit; "
        f"its notation is `FIGURE/SUIT`, e.g. card {card(9, 2)} is "
        f"`{FIGURE_CODES[9]}/{SUIT_CODES[2]}`. Suits: "
        + ", ".join(f"`{SUIT_CODES[s]}` {SUIT_NAMES_VI[s]}" for s in range(NUM_SUITS))
        + ". Honor cards: figure `CRE` or suit `KY`/`ED`."
    )
    return "\n".join(rows)


def event_table() -> str:
    """Every event type: its fields, who sees it, what it says."""
    rows = ["| `type` | fields | seen by | meaning |", "|---|---|---|---|"]
    for kind in typing.get_args(Event):
        fields = ", ".join(f"`{name}`" for name in kind._fields)
        seen = "its `seat` only" if kind in PRIVATE_EVENTS else "every seat"
        meaning = " ".join((kind.__doc__ or "").split())
        rows.append(f"| `{kind.__name__}` | {fields} | {seen} | {meaning} |")
    return "\n".join(rows)


def fault_table() -> str:
    """Every fault: when it happens and what it costs."""
    rows = ["| fault | when | what it costs |", "|---|---|---|"]
    rows += [f"| `{f.kind}` | {f.when} | {f.cost} |" for f in FAULT_KINDS]
    return "\n".join(rows)


def sample_messages() -> dict[str, str]:
    """One message of each type, as the protocol functions make them, from a seeded
    1-ván game of four random players seen by seat :data:`SAMPLE_SEAT`: the
    ``hello``, the ``start``, its first decision (with the view), its second
    (events only) and the ``end``."""
    state = new_game(SAMPLE_SEED, RuleConfig(num_van=1))
    players = [RandomAgent() for _ in range(4)]
    for seat, player in enumerate(players):
        player.reset(SAMPLE_SEED + seat)
    cursor = EventCursor()
    samples = {"hello": hello_message(1.0), "start": start_message(SAMPLE_SEED)}
    decisions = 0
    while not state.is_over:
        turn = Turn(state, state.current_player)
        if turn.seat == SAMPLE_SEAT:
            decisions += 1
            events = turn.events_since(cursor)
            if decisions <= 2:
                view = turn.view if decisions == 1 else None
                samples[f"decision {decisions}"] = decision_message(decisions, turn, events, view)
        apply(state, players[turn.seat].act(turn))
    over = MatchOver(state, SAMPLE_SEAT)
    samples["end"] = end_message(over, over.events_since(cursor))
    return {name: _pretty(message) for name, message in samples.items()}


def _compact(value: object) -> str:
    return json.dumps(value, separators=(", ", ": "))


def _pretty(value: object, depth: int = 0) -> str:
    """JSON with an object's members (to depth 1) and a list's objects one a line,
    anything deeper on one line: readable, and still the message's exact content."""
    pad = " " * (depth + 1)
    if isinstance(value, dict) and depth <= 1:
        members = [f"{pad}{json.dumps(k)}: {_pretty(v, depth + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(members) + "\n" + " " * depth + "}"
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        items = [f"{pad}{_compact(v)}" for v in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * depth + "]"
    return _compact(value)


def samples_section() -> str:
    """The samples as fenced JSON blocks, each under the name of its message."""
    parts = []
    for name, text in sample_messages().items():
        parts.append(f"`{name}`:\n\n```json\n{text}\n```")
    return "\n\n".join(parts)


def sections() -> dict[str, str]:
    """Every generated part of the page, by name."""
    return {
        "action ids": action_table(),
        "card ids": card_table(),
        "events": event_table(),
        "faults": fault_table(),
        "samples": samples_section(),
    }


def _part(page: str, name: str) -> tuple[int, int]:
    """Where the text between the markers of part ``name`` starts and ends in ``page``."""
    begin, end = begin_marker(name) + "\n", end_marker(name)
    if page.count(begin) != 1 or page.count(end) != 1 or page.index(begin) > page.index(end):
        raise ValueError(f"{PAGE}: expected one generated part {name!r} between its markers")
    return page.index(begin) + len(begin), page.index(end)


def shown(page: str, name: str) -> str:
    """What ``page`` holds between the markers of part ``name``."""
    start, stop = _part(page, name)
    return page[start:stop].removesuffix("\n")


def rewrite(page: str) -> str:
    """``page`` with every generated part made again."""
    for name, text in sections().items():
        start, stop = _part(page, name)
        page = page[:start] + text + "\n" + page[stop:]
    return page


def main() -> None:
    """Rewrite the generated parts of ``docs/agent-protocol.md`` (atomically)."""
    try:
        text = rewrite(PAGE.read_text(encoding="utf-8"))
    except ValueError as error:
        sys.exit(f"env121: {error}")
    temporary = PAGE.with_suffix(".md.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, PAGE)
    print(f"wrote {PAGE}")


if __name__ == "__main__":
    main()
