"""The action layout (declared as data) and its notation."""

from __future__ import annotations

import pytest

import env121.engine.actions as actions_module
from env121.engine.actions import (
    ACTION_LAYOUT,
    CARD_BASE,
    NB_GAP_BASE,
    NHAT_BAN,
    NUM_ACTIONS,
    PASS,
    THE_TRANG,
    ActionError,
    U,
    action_card,
    action_name,
    action_slot,
    card_action,
    format_action,
    layout_table,
    nb_gap_action,
    parse_action,
)
from env121.rules.cards import parse_card


def test_layout_ids_are_the_agreed_ones():
    assert (CARD_BASE, U, PASS, THE_TRANG, NHAT_BAN, NB_GAP_BASE) == (0, 121, 122, 123, 124, 125)
    assert NUM_ACTIONS == 131 == sum(p.size for p in ACTION_LAYOUT)
    assert [p.name for p in ACTION_LAYOUT] == [
        "CARD",
        "U",
        "PASS",
        "THE_TRANG",
        "NHAT_BAN",
        "NB_GAP",
    ]


def test_docstring_table_is_generated_from_the_layout():
    table = layout_table()
    doc = actions_module.__doc__ or ""
    assert all(line in doc for line in table.splitlines())
    for piece in ACTION_LAYOUT:
        assert piece.name in table and piece.meaning in table
    assert "125..130" in table and "0..120" in table


@pytest.mark.parametrize("action", range(NUM_ACTIONS))
def test_format_parse_round_trip(action):
    assert parse_action(format_action(action)) == action


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("CARD(ASA/FR)", card_action(parse_card("ASA/FR"))),
        ("card( asa/fr )", card_action(parse_card("ASA/FR"))),
        ("U", U),
        ("pass", PASS),
        ("THE_TRANG", THE_TRANG),
        ("NHAT_BAN", NHAT_BAN),
        ("NB_GAP(3)", nb_gap_action(3)),
    ],
)
def test_parse_examples(text, action):
    assert parse_action(text) == action


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("WIN", "expected CARD"),
        ("CARD", "needs an argument"),
        ("U(1)", "takes no argument"),
        ("CARD(XXX/FR)", "bad card"),
        ("NB_GAP(6)", r"out of range: expected 0\.\.5"),
        ("NB_GAP(x)", "needs a slot"),
    ],
)
def test_parse_errors_name_the_input(text, message):
    with pytest.raises(ActionError, match=message):
        parse_action(text)


def test_helpers_and_their_errors():
    assert action_card(card_action(5)) == 5
    assert action_slot(nb_gap_action(4)) == 4
    assert action_name(U) == "U"
    with pytest.raises(ActionError, match=r"out of range: expected 0\.\.130"):
        action_name(131)
    with pytest.raises(ActionError, match="not an int"):
        action_name("U")  # type: ignore[arg-type]
    with pytest.raises(ActionError, match="not a CARD"):
        action_card(U)
    with pytest.raises(ActionError, match="not an NB_GAP"):
        action_slot(U)
    with pytest.raises(ActionError, match="card id 121"):
        card_action(121)
