"""What a client may send the web table, checked before anything is done.

Every request body and WebSocket message goes through :func:`parse_json`
and then one of the models below, so a malformed one is refused with one
line saying what was expected (the app answers it with status 400, or an
``error`` message on a WebSocket that stays open) and nothing is created or
changed:

* :func:`parse_json` — UTF-8 JSON nested at most ``limits.json_depth`` deep,
  no integer or float literal longer than ``limits.number_digits``
  characters, no ``NaN`` or ``Infinity``. The size of the text is bounded
  before (``limits.body_bytes``), so the parse itself is bounded.
* :class:`NewGame` — ``POST /api/games``: ``{"name": str, "seat": int,
  "agents": [str, str, str], "practice_seed"?: int}``;
* :class:`Move` — a move, over HTTP or the WebSocket: ``{"action": int,
  "step": int}``.

The models are strict (pydantic's strict mode): ``1.0``, ``true`` or
``"1"`` is not an integer, an unknown field is refused. They check types and
shapes only; what the values mean (a seat 0..3, an offered agent, a legal
action) is checked by :mod:`apps.web.tables`, the one place for the game's
own rules. Only pydantic here (FastAPI's own dependency), no web framework.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError


class BadMessage(ValueError):
    """A request or message refused before anything is done; the text says why."""


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class NewGame(_Strict):
    """A new game: the person's ``name`` and ``seat``, the ``agents`` of the
    other three seats in order, and a ``practice_seed`` for a practice game."""

    name: str
    seat: int
    agents: list[str]
    practice_seed: int | None = None


class Move(_Strict):
    """A move: the ``action`` id and the ``step`` (actions played) it is for."""

    action: int
    step: int


EXPECTED = {
    NewGame: 'a new game takes {"name": str, "seat": 0..3, "agents": [three specs], '
    '"practice_seed"?: int}',
    Move: 'malformed move: expected {"action": <action id>, "step": <steps played>} (integers)',
}
"""What each model expects, in the words its refusals start with."""

Model = TypeVar("Model", NewGame, Move)


def checked(model: type[Model], data: Any) -> Model:
    """``data`` (parsed JSON) as ``model``, or :class:`BadMessage` naming the
    first field that is wrong and what was expected."""
    try:
        return model.model_validate(data)
    except ValidationError as err:
        first = err.errors(include_url=False)[0]
        where = ".".join(str(part) for part in first["loc"]) or "the body"
        got = repr(first.get("input"))[:60]
        raise BadMessage(f"{EXPECTED[model]}; {where}: {first['msg']} (got {got})") from None


def parse_json(raw: bytes | str, *, depth: int, digits: int) -> Any:
    """``raw`` as JSON within the limits (see the module docstring), or
    :class:`BadMessage` saying what is wrong."""

    def number(kind: str, make: type[int] | type[float]) -> Any:
        def parse(text: str) -> int | float:
            if len(text) > digits:
                raise BadMessage(
                    f"the {kind} {text[:20]}… has {len(text):,} characters: at most {digits} "
                    "are accepted"
                )
            value = make(text)
            if value in (float("inf"), float("-inf")):
                raise BadMessage(f"the number {text} is out of range")
            return value

        return parse

    def constant(text: str) -> Any:
        raise BadMessage(f"{text} is not a JSON number: expected finite numbers only")

    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        data = json.loads(
            text,
            parse_int=number("integer", int),
            parse_float=number("number", float),
            parse_constant=constant,
        )
    except UnicodeDecodeError:
        raise BadMessage("the body is not UTF-8 text: expected JSON") from None
    except RecursionError:
        raise BadMessage(f"the JSON is nested deeper than {depth} levels") from None
    except json.JSONDecodeError as err:
        raise BadMessage(f"the body is not JSON ({err})") from None
    if nesting(data) > depth:
        raise BadMessage(f"the JSON is nested deeper than {depth} levels")
    return data


def nesting(data: Any) -> int:
    """How deep lists and objects are nested in ``data`` (a scalar: 0), without recursion."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, level = stack.pop()
        children = (
            value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
        )
        if isinstance(value, dict | list):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in children)
    return deepest


__all__ = ["EXPECTED", "BadMessage", "Move", "NewGame", "checked", "nesting", "parse_json"]
