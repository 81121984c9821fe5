"""The one renderer: the table as a seat sees it or omniscient, and the enums
that name outcomes (the transcript's lines are checked by the golden games)."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from env121.engine.actions import NHAT_BAN
from env121.engine.game import apply, legal_actions, new_game
from env121.engine.render import format_arrangement, format_table, seat_name
from env121.engine.state import MatchEnd, Outcome, State
from env121.engine.validate import InvariantError, validate
from env121.rules.cards import format_cards, parse_cards
from env121.rules.config import RuleConfig
from env121.rules.waits import GAP


def nhat_ban_elsewhere(seed: int) -> State:
    """A state in which a seat other than the one to act has fixed a Nhất Bản
    arrangement (random play that declares Nhất Bản whenever it may)."""
    rng = np.random.default_rng(seed)
    state = new_game(seed, RuleConfig(nhat_ban_requires_wait=False))
    while not state.is_over:
        acting = state.current_player
        if any(state.nb_arrangement[s] for s in range(4) if s != acting):
            return state
        legal = legal_actions(state)
        apply(state, NHAT_BAN if NHAT_BAN in legal else legal[rng.integers(len(legal))])
    raise AssertionError(f"seed {seed}: no Nhất Bản arrangement before the match ended")


def test_the_table_shows_the_hand_and_arrangement_of_the_seat_to_act_only():
    state = nhat_ban_elsewhere(0)
    acting = state.current_player
    text = format_table(state)
    assert text.splitlines()[0].endswith(f"to act: {seat_name(acting)}")
    assert f"> {seat_name(acting)}" in text
    assert format_cards(state.hands[acting]) in text
    for seat in range(4):
        if seat != acting:
            assert format_cards(state.hands[seat]) not in text
            if state.nb_arrangement[seat]:
                assert format_arrangement(state.nb_arrangement[seat]) not in text


def test_the_omniscient_table_shows_every_hand_and_arrangement():
    state = nhat_ban_elsewhere(0)
    text = format_table(state, omniscient=True)
    for seat in range(4):
        assert format_cards(state.hands[seat]) in text
        if state.nb_arrangement[seat]:
            assert f"Nhất Bản [{format_arrangement(state.nb_arrangement[seat])}]" in text


def test_the_table_names_seats_as_asked():
    state = new_game(4)
    acting = state.current_player
    names = ("north", "east", "south", "west")
    text = format_table(state, names=names, title="a title")
    assert text.startswith("a title · ván 1/")
    assert text.splitlines()[0].endswith(f"to act: {names[acting]} ({seat_name(acting)})")
    for seat in range(4):
        assert f"{'>' if seat == acting else ' '} {names[seat]}" in text


def test_a_finished_match_shows_every_hand():
    state = new_game(5, RuleConfig(num_van=1))
    rng = np.random.default_rng(5)
    while not state.is_over:
        legal = legal_actions(state)
        apply(state, legal[rng.integers(len(legal))])
    text = format_table(state)
    assert "to act" not in text and ">" not in text
    for seat in range(4):
        assert format_cards(state.hands[seat]) in text


def test_an_arrangement_writes_its_gap_as_two_underscores():
    cards = parse_cards("GEN/KY INS/LB MER/LB GEI/LB ASA/KY")
    arrangement = (*cards[:2], GAP, *cards[2:])
    assert format_arrangement(arrangement) == "GEN/KY INS/LB __ MER/LB GEI/LB ASA/KY"


def test_a_broken_invariant_shows_the_omniscient_table():
    state = new_game(6)
    broken = dataclasses.replace(state, scores=(0, 0, 0, 1))
    with pytest.raises(InvariantError) as err:
        validate(broken)
    for seat in range(4):
        assert format_cards(state.hands[seat]) in str(err.value)


# ------------------------------------------------------------------ enums


@pytest.mark.parametrize("outcome", list(Outcome), ids=str)
def test_an_outcome_reads_as_its_string(outcome):
    assert outcome == outcome.value
    assert str(outcome) == f"{outcome}" == outcome.value
    assert json.dumps({"outcome": outcome}) == json.dumps({"outcome": outcome.value})
    assert outcome.is_win == (outcome.value in ("u", "the_trang"))


@pytest.mark.parametrize("end", list(MatchEnd), ids=str)
def test_a_match_end_reads_as_its_string(end):
    assert end == end.value
    assert f"{end}" == end.value
    assert json.dumps(end) == json.dumps(end.value)


def test_results_and_the_match_end_are_enums():
    state = new_game(7, RuleConfig(num_van=1))
    rng = np.random.default_rng(7)
    assert state.match_end is None
    while not state.is_over:
        legal = legal_actions(state)
        apply(state, legal[rng.integers(len(legal))])
    assert state.results
    assert all(isinstance(r.outcome, Outcome) for r in state.results)
    assert isinstance(state.match_end, MatchEnd)
