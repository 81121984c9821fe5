"""The fenced code blocks and the links of a Markdown document."""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

FENCE = re.compile(r"^(?P<indent> *)```(?P<language>[\w+-]*)\s*$")
LINK = re.compile(r"!?\[[^\]]*\]\((?P<target>[^)\s]+)\)")
INLINE_CODE = re.compile(r"`[^`]*`")
PARENT_PATH = re.compile(r"(?<![\w/.])(?:\.\./)+[^\s`)\]]+")


@dataclass(frozen=True)
class CodeBlock:
    """One fenced block: where it is, its language tag and its text (dedented
    by its fence's indentation, as in a list item)."""

    document: str
    line: int
    """The line of its first text line, from 1."""
    language: str
    text: str

    @property
    def id(self) -> str:
        return f"{self.document}:{self.line}"


def code_blocks(path: Path, document: str) -> list[CodeBlock]:
    """Every fenced block of ``path``, named ``document``; an unclosed fence is an error."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks, i = [], 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if opening is None:
            i += 1
            continue
        indent = opening["indent"]
        end = next((j for j in range(i + 1, len(lines)) if lines[j] == f"{indent}```"), None)
        if end is None:
            raise ValueError(f"{document}:{i + 1}: the fence opened here is never closed")
        text = textwrap.dedent("\n".join(lines[i + 1 : end])) + "\n"
        blocks.append(CodeBlock(document, i + 2, opening["language"], text))
        i = end + 1
    return blocks


def link_targets(path: Path) -> list[tuple[int, str]]:
    """``(line, target)`` of every Markdown link and image outside code blocks, and
    of every path that starts with ``../`` in the prose (in inline code too)."""
    found, in_block = [], False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            in_block = not in_block
            continue
        if not in_block:
            links = [m["target"] for m in LINK.finditer(INLINE_CODE.sub("", line))]
            paths = [m[0] for m in PARENT_PATH.finditer(line) if m[0] not in links]
            found += [(number, target) for target in [*links, *paths]]
    return found
