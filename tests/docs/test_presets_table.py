"""The presets table of ``training/README.md`` is the one the presets make
(:mod:`training.presets_table`): change a preset and the page must follow."""

from __future__ import annotations

from pathlib import Path

from training.presets_table import BEGIN, END, presets_table

README = Path(__file__).resolve().parents[2] / "training" / "README.md"


def test_the_readme_shows_the_presets_as_they_are():
    text = README.read_text(encoding="utf-8")
    assert text.count(BEGIN) == 1 and text.count(END) == 1, f"{README}: one {BEGIN} … {END}"
    shown = text.split(BEGIN)[1].split(END)[0].strip("\n")
    assert shown == presets_table(), (
        f"{README}'s presets table differs from the presets: paste "
        "`python -m training.presets_table` between its markers"
    )
