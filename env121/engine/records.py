"""Game records: a match as JSON, loaded back and replayed to the same state.

A record is::

    {
      "format_version": 2,
      "config": {...},              # RuleConfig.to_dict()
      "seed": 7,                    # the match seed (every deal comes from it)
      "rotation": 0,                # duplicate-deal rotation (optional, default 0)
      "first_deal": null,           # or an explicit first deal in the card notation
      "actions": [122, 37, ...]     # every action id, in order
    }

``first_deal`` (optional) is ``{"hands": [4 strings], "chi_diem": "...",
"an_si": "...", "noc": "..."}``. Replaying the actions from
:func:`env121.engine.game.new_game` reproduces the state exactly (the engine is
deterministic). Anything wrong with a record raises :class:`RecordError`
naming what and where: bad JSON, a missing or unknown field, a wrong
``format_version``, a bad config field, or an illegal action at index ``i``.

Format versions: **2** (current) writes every ``RuleConfig`` field. **1** was
written before ``the_trang_asks_every_seat`` existed, when only the seats
eligible for Thế trắng were asked about it; a version-1 record replays under
that rule (its config is read with ``the_trang_asks_every_seat=False``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from env121.engine.deal import Deal, DealError
from env121.engine.files import write_atomically
from env121.engine.game import IllegalActionError, apply, new_game
from env121.engine.state import State
from env121.rules.cards import CardNotationError, format_cards, parse_cards
from env121.rules.config import RuleConfig

FORMAT_VERSION = 2
READABLE_VERSIONS = (1, 2)
"""Format versions :func:`replay` accepts (see the module docstring)."""
REQUIRED_FIELDS = ("format_version", "config", "seed", "actions")
OPTIONAL_FIELDS = ("rotation", "first_deal")


class RecordError(ValueError):
    """A game record that cannot be read or replayed."""


def to_record(state: State) -> dict[str, Any]:
    """The JSON-ready record of a match (its config, seed and actions)."""
    record: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "config": state.config.to_dict(),
        "seed": state.seed,
        "rotation": state.rotation,
        "first_deal": None if state.first_deal is None else _deal_to_dict(state.first_deal),
        "actions": list(state.actions),
    }
    return record


def dumps(state: State) -> str:
    """The record as a JSON string."""
    return json.dumps(to_record(state), ensure_ascii=False)


def save(state: State, path: str | Path) -> None:
    """Write the record of ``state`` to ``path`` (UTF-8 JSON)."""
    write_atomically(path, dumps(state) + "\n")


def loads(text: str, *, source: str = "record") -> State:
    """Replay a JSON record into the state it describes."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(f"{source}: not valid JSON ({err})") from None
    except RecursionError:  # arrays or objects nested thousands deep
        raise RecordError(f"{source}: not valid JSON (nested too deeply)") from None
    return replay(data, source=source)


def load(path: str | Path) -> State:
    """Replay the record stored at ``path``."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise RecordError(f"{path}: cannot read the record ({err})") from None
    except UnicodeDecodeError as err:
        raise RecordError(f"{path}: not a UTF-8 text file ({err})") from None
    return loads(text, source=str(path))


def replay(record: Mapping[str, Any], *, source: str = "record") -> State:
    """The state a record (as a dict) describes, every action re-applied."""
    if not isinstance(record, Mapping):
        raise RecordError(f"{source}: expected a JSON object, got {type(record).__name__}")
    missing = [f for f in REQUIRED_FIELDS if f not in record]
    unknown = sorted(set(record) - set(REQUIRED_FIELDS) - set(OPTIONAL_FIELDS))
    if missing or unknown:
        raise RecordError(
            f"{source}: missing fields {missing}, unknown fields {unknown}: expected "
            f"{list(REQUIRED_FIELDS)} and optionally {list(OPTIONAL_FIELDS)}"
        )
    version = record["format_version"]
    if isinstance(version, bool) or version not in READABLE_VERSIONS:
        raise RecordError(
            f"{source}: format_version {version!r} is not supported: expected "
            f"{' or '.join(map(str, READABLE_VERSIONS))}"
        )
    if not isinstance(record["config"], Mapping):
        raise RecordError(f"{source}: config must be an object, got {record['config']!r}")
    fields = dict(record["config"])
    if version == 1:
        if "the_trang_asks_every_seat" in fields:
            raise RecordError(
                f"{source}: config field the_trang_asks_every_seat is not part of format_version 1"
            )
        fields["the_trang_asks_every_seat"] = False
    try:
        config = RuleConfig.from_dict(fields)
    except (TypeError, ValueError) as err:
        raise RecordError(f"{source}: bad config: {err}") from None
    first_deal = record.get("first_deal")
    try:
        state = new_game(
            record["seed"],
            config,
            rotation=record.get("rotation", 0),
            first_deal=None if first_deal is None else _deal_from_dict(first_deal),
        )
    except (TypeError, ValueError) as err:
        raise RecordError(f"{source}: cannot start the match: {err}") from None
    actions = record["actions"]
    if not isinstance(actions, list):
        raise RecordError(f"{source}: actions must be a list of ids, got {actions!r}")
    for i, action in enumerate(actions):
        try:
            apply(state, action)
        except IllegalActionError as err:
            raise RecordError(f"{source}: action at index {i}: {err}") from None
    return state


def _deal_to_dict(deal: Deal) -> dict[str, Any]:
    return {
        "hands": [format_cards(h) for h in deal.hands],
        "chi_diem": format_cards([deal.chi_diem]),
        "an_si": format_cards(deal.an_si),
        "noc": format_cards(deal.noc),
    }


def _deal_from_dict(data: Any) -> Deal:
    if not isinstance(data, Mapping) or set(data) != {"hands", "chi_diem", "an_si", "noc"}:
        raise ValueError(
            f"first_deal {data!r} is not valid: expected an object with hands, chi_diem, "
            "an_si and noc in the card notation"
        )
    try:
        hands = tuple(tuple(parse_cards(h)) for h in data["hands"])
        chi = parse_cards(data["chi_diem"])
        if len(chi) != 1:
            raise ValueError(f"first_deal chi_diem {data['chi_diem']!r}: expected one card")
        return Deal(hands, chi[0], parse_cards(data["an_si"]), parse_cards(data["noc"]))
    except (CardNotationError, DealError, TypeError) as err:
        raise ValueError(f"first_deal is not valid: {err}") from None


__all__ = [
    "FORMAT_VERSION",
    "READABLE_VERSIONS",
    "RecordError",
    "dumps",
    "load",
    "loads",
    "replay",
    "save",
    "to_record",
]
