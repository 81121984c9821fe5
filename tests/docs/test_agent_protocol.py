"""``docs/agent-protocol.md`` says what the code does: its generated parts are
made again and compared, and its hand-written tables name exactly the fields
and phases the code has."""

from __future__ import annotations

import dataclasses

import pytest

from agents.protocol_doc import PAGE, sections, shown
from env121.engine.state import Phase, VongResult
from env121.engine.view import SeatView

TEXT = PAGE.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", list(sections()))
def test_each_generated_part_is_what_the_code_makes(name: str) -> None:
    assert shown(TEXT, name) == sections()[name], (
        f"{PAGE}: its part {name!r} differs from the code: run `python -m agents.protocol_doc`"
    )


def _first_column(heading: str) -> set[str]:
    """The backticked names in the first column of the first table after ``heading``."""
    lines = TEXT.split(heading, 1)[1].split("\n|---", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
    names: set[str] = set()
    for line in lines:
        cell = line.split("|")[1]
        names.update(part.strip().strip("`") for part in cell.split(","))
    return names


def test_the_view_table_names_every_field_of_the_view() -> None:
    assert _first_column("## The view") == {f.name for f in dataclasses.fields(SeatView)}


def test_the_result_table_names_every_field_of_a_vong_result() -> None:
    expected = {f.name for f in dataclasses.fields(VongResult)}
    assert _first_column("A **vòng result**") == expected


def test_the_phase_table_names_every_phase() -> None:
    assert _first_column("## Phases") == {p.name.lower() for p in Phase}
