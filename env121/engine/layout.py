"""Layouts declared as data: named pieces of a given size, laid end to end.

The action layout (:mod:`env121.engine.actions`) and the observation layout
(:mod:`env121.play.observation`) are both lists of such pieces; their offsets,
sizes and documentation tables are made from the lists.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol


class Piece(Protocol):
    """A named block of a layout."""

    @property
    def name(self) -> str: ...

    @property
    def size(self) -> int: ...


def offsets(layout: Iterable[Piece]) -> dict[str, int]:
    """Where each piece starts when the pieces are laid end to end."""
    starts, start = {}, 0
    for piece in layout:
        starts[piece.name] = start
        start += piece.size
    return starts
