"""The one renderer: the table as a seat sees it or omniscient, the enums
that name outcomes, and the readable transcript (the full transcript's lines
are checked by the golden games)."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import numpy as np
import pytest

from env121.engine.actions import NHAT_BAN
from env121.engine.game import apply, legal_actions, new_game
from env121.engine.records import load
from env121.engine.render import (
    EMPTY_CHOICES,
    ReadableTranscript,
    describe_result,
    format_arrangement,
    format_event,
    format_table,
    readable_transcript,
    seat_name,
)
from env121.engine.state import MatchEnd, Outcome, State, Swapped, VongResult, Won
from env121.engine.validate import InvariantError, validate
from env121.engine.view import sample_determinization
from env121.rules.cards import format_cards, parse_cards
from env121.rules.config import RuleConfig
from env121.rules.waits import GAP
from tests.support.play import random_play_states


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


# --------------------------------------------------------- readable form

GOLDEN_DIR = Path(__file__).parent / "golden"
GOLDEN_NAMES = sorted(p.stem for p in GOLDEN_DIR.glob("*.json"))
_LUOT = re.compile(r"^-- lượt \d+: ")
_HOLDS = re.compile(r"  → S\d holds .*$")


def event_line(line: str) -> str:
    """A readable line without its indentation, lượt heading and cards after a swap."""
    return _HOLDS.sub("", _LUOT.sub("", line.strip()))


@pytest.mark.parametrize("name", GOLDEN_NAMES)
def test_the_verbose_readable_form_has_every_event_in_order(name):
    state = load(GOLDEN_DIR / f"{name}.json")
    lines = [event_line(line) for line in readable_transcript(state, verbose=True) if line]
    assert len(lines) == len(state.events)
    for line, event in zip(lines, state.events, strict=True):
        expected = describe_result(event.result) if isinstance(event, Won) else format_event(event)
        assert line == expected


@pytest.mark.parametrize("name", GOLDEN_NAMES)
def test_the_readable_form_drops_only_the_empty_choices(name):
    state = load(GOLDEN_DIR / f"{name}.json")
    verbose = readable_transcript(state, verbose=True)
    empty = {format_event(e) for e in state.events if isinstance(e, EMPTY_CHOICES)}
    assert empty
    assert readable_transcript(state) == [line for line in verbose if line.strip() not in empty]


def test_the_readable_form_groups_by_vong_and_luot():
    state = load(GOLDEN_DIR / "seed_1_default.json")
    lines = readable_transcript(state)
    assert lines[0].startswith("== Ván 1, vòng 1/12")
    assert lines[-1].startswith("== Match ends")
    starts = [i for i, line in enumerate(lines) if line.startswith("== Ván 1, vòng")]
    assert len(starts) == 12
    assert all(lines[i - 1] == "" for i in starts[1:])
    assert lines[starts[0] + 5].startswith("-- lượt 1: S0 flips")


@pytest.mark.parametrize("name", GOLDEN_NAMES)
def test_after_each_swap_the_swappers_cards_are_its_hand_and_locks(name):
    record = load(GOLDEN_DIR / f"{name}.json")
    state = new_game(record.seed, record.config)
    writer = ReadableTranscript()
    writer.lines(state.events)
    checked = 0
    for action in record.actions:
        before = len(state.events)
        apply(state, action)
        holds = [line for line in writer.lines(state.events[before:]) if " holds " in line]
        swaps = [e for e in state.events[before:] if isinstance(e, Swapped)]
        assert len(holds) == len(swaps) <= 1
        for line, swap in zip(holds, swaps, strict=True):
            held = format_cards(state.hands[swap.seat])
            if state.locked[swap.seat]:
                held += f" + khóa {format_cards(state.locked[swap.seat])}"
            assert line.endswith(f"  → S{swap.seat} holds {held}")
            checked += 1
    assert checked > 20


def test_one_seats_readable_form_shows_only_what_it_saw():
    state = load(GOLDEN_DIR / "seed_1_default.json")
    lines = readable_transcript(state, viewer=1)
    assert any(line.strip().startswith("S1 dealt") for line in lines)
    assert not any(re.match(r"\s*S[023] (dealt|fixes|declines)", line) for line in lines)
    assert all("→ S1 holds" in line for line in lines if "holds" in line)
    rng = np.random.default_rng(1)
    for state in random_play_states(3, limit=6, every=40):
        for seat in range(4):
            other = sample_determinization(state, seat, rng)
            assert readable_transcript(other, viewer=seat) == readable_transcript(
                state, viewer=seat
            )


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        (
            VongResult(0, 0, 0, Outcome.THE_TRANG, seat=2, points=1,
                       arrangement=parse_cards("GEN/FR INS/BB MER/LP GEI/BR DAN/FB")),
            "S2 declared Thế trắng with GEN/FR INS/BB MER/LP GEI/BR DAN/FB: 1 Điểm",
        ),
        (
            VongResult(0, 0, 0, Outcome.DEN, seat=3, card=parse_cards("GEN/FR")[0]),
            "S3 called Ù on GEN/FR, which was not a win: Đền, 1 Điểm to each other seat",
        ),
        (VongResult(0, 0, 0, Outcome.DRAW), "Drawn: Nọc empty"),
        (VongResult(0, 0, 0, Outcome.DRAW, truncated=True), "Drawn: the action limit was reached"),
        (
            VongResult(0, 0, 1, Outcome.U, seat=1, card=parse_cards("INS/FP")[0],
                       the="phien_phien_ba_doi", tier=6, points=9,
                       bonuses=("thang_cai", "toan_quan_thuong"), indicator_points=1,
                       arrangement=parse_cards("GEN/FR GEN/FB GEN/FP INS/FR INS/FB INS/FP")),
            "S1 Ù on INS/FP: Phiên – Phiên Ba Đôi (6) + Thắng cái + Toàn quân thường + "
            "indicators 1 = 9 Điểm; hand GEN/FR GEN/FB GEN/FP INS/FR INS/FB INS/FP",
        ),
        (
            VongResult(0, 0, 1, Outcome.U, seat=0, card=parse_cards("INS/FP")[0], points=1,
                       bonuses=("nhat_ban",), nhat_ban=True,
                       arrangement=parse_cards("GEN/FR GEN/FB GEN/FP INS/FR INS/FB INS/FP")),
            "S0 Ù on INS/FP: a completed hand under Nhất Bản (0) + Nhất Bản = 1 Điểm; "
            "hand GEN/FR GEN/FB GEN/FP INS/FR INS/FB INS/FP",
        ),
    ],
    ids=["the_trang", "den", "draw", "truncated", "u", "nhat_ban"],
)  # fmt: skip
def test_a_result_is_described_in_words(result, expected):
    assert describe_result(result) == expected
