"""Layouts declared as data: named pieces of a given size, laid end to end.

The action layout (:mod:`env121.engine.actions`) and the network's input
layouts (:mod:`env121.play.observation`) are lists of such pieces; their
offsets, sizes and documentation tables are made from the lists.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
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


def text_table(rows: Sequence[Sequence[str]]) -> str:
    """``rows`` (the first one the header) as a reStructuredText simple table;
    the last column is left unpadded, its rule 20 wide."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    rule = " ".join(["=" * w for w in widths] + ["=" * 20])
    lines = [rule]
    for i, row in enumerate(rows):
        cells = [f"{cell:<{w}}" for cell, w in zip(row, widths, strict=False)]
        lines.append(" ".join([*cells, row[-1]]).rstrip())
        if i == 0:
            lines.append(rule)
    lines.append(rule)
    return "\n".join(lines)


def literal_block(title: str, text: str) -> str:
    """``text`` as a reStructuredText literal block headed by ``title``."""
    return f"{title}::\n\n" + "\n".join(f"    {line}".rstrip() for line in text.splitlines())
