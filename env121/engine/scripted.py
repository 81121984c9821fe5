"""Scripted play in the notation: ``play_moves(state, "S0 PASS, S1 CARD(GEN/KY)")``.

Each move is ``S<seat> <action>``; the seat must be the one to act (a check
that keeps scripted tests and examples honest), the action is written as in
:func:`env121.engine.actions.format_action`. Moves are separated by commas, semicolons
or new lines. A wrong seat or an illegal action raises :class:`ScriptError`
naming the move, its position and the legal actions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from env121.engine.actions import ActionError, format_actions, parse_action
from env121.engine.game import IllegalActionError, apply, legal_actions
from env121.engine.state import State

_MOVE = re.compile(r"^\s*S(\d)\s+(.+?)\s*$", re.IGNORECASE)
_SPLIT = re.compile(r"[;,\n]+(?![^()]*\))")


class ScriptError(ValueError):
    """A scripted move that does not fit the state."""


def split_moves(moves: str | Iterable[str]) -> list[str]:
    """The single moves of a script string (or of a list of move strings)."""
    items = _SPLIT.split(moves) if isinstance(moves, str) else list(moves)
    return [m.strip() for m in items if m.strip()]


def play_moves(state: State, moves: str | Iterable[str]) -> State:
    """Apply the scripted moves in place; returns ``state`` for chaining."""
    for i, move in enumerate(split_moves(moves)):
        match = _MOVE.match(move)
        if match is None:
            raise ScriptError(f"move {i} {move!r}: expected 'S<seat> <action>', e.g. 'S0 PASS'")
        seat = int(match.group(1))
        if seat != state.current_player:
            raise ScriptError(
                f"move {i} {move!r}: S{state.current_player} is to act "
                f"(phase {state.phase.value}), not S{seat}"
            )
        try:
            apply(state, parse_action(match.group(2)))
        except (ActionError, IllegalActionError) as err:
            raise ScriptError(
                f"move {i} {move!r}: {err}; legal: [{format_actions(legal_actions(state))}]"
            ) from None
    return state


__all__ = ["ScriptError", "play_moves", "split_moves"]
