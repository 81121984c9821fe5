"""``docs/web.md`` lists every limit of the web table, with its TOML key and
default, as the code declares them (the table is generated)."""

from __future__ import annotations

from pathlib import Path

from apps.web.config import limits_table

DOC = Path(__file__).resolve().parents[2] / "docs" / "web.md"


def test_the_web_page_lists_every_limit_as_the_code_declares_it():
    text = DOC.read_text(encoding="utf-8")
    start = text.index("<!-- limits table:")
    table = text[text.index("\n", start) + 1 : text.index("<!-- end of the limits table -->")]
    assert table == limits_table(), "regenerate the table with apps.web.config.limits_table()"
