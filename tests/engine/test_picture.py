"""The picture of the table: every element there for scripted states (a lock,
Ẩn Sĩ turned, Nhất Bản, a win), valid SVG, a seat's view that leaks nothing,
and the rasterized array."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from env121.engine.game import apply, new_game
from env121.engine.picture import (
    HEIGHT,
    WIDTH,
    Picture,
    PictureOptions,
    card_svg,
    table_picture,
    table_rgb,
    table_svg,
)
from env121.engine.records import load
from env121.engine.render import describe_result, format_event
from env121.engine.state import NhatBanDeclined, State, TheTrangDeclined
from env121.engine.view import sample_determinization
from env121.rules.cards import format_card, parse_card
from env121.rules.thes import THE_BY_ID
from env121.rules.waits import GAP
from tests.support.play import random_play_states

SVG = "{http://www.w3.org/2000/svg}"
GOLDEN = Path(__file__).parent / "golden" / "seed_1_default.json"


def first_state(keep: Callable[[State], bool]) -> State:
    """The first state of the golden game ``seed_1_default`` that ``keep`` accepts."""
    record = load(GOLDEN)
    state = new_game(record.seed, record.config)
    for action in record.actions:
        apply(state, action)
        if keep(state):
            return state
    raise AssertionError("no such state in the golden game")


def cards(svg: str, zone: str, seat: int | None = None) -> list[str | None]:
    """The cards drawn in a zone (and seat), in order; None for a face-down card."""
    found: list[str | None] = []
    for g in ET.fromstring(svg).iter(f"{SVG}g"):
        if g.get("data-zone") != zone or (seat is not None and g.get("data-seat") != str(seat)):
            continue
        found.append(None if "back" in (g.get("class") or "").split() else g.get("data-card"))
    return found


def texts(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter(f"{SVG}text")]


def names(card_ids: tuple[int, ...]) -> list[str | None]:
    return [format_card(c) for c in card_ids]


def own_cards(svg: str, state: State, seat: int) -> tuple[list[str | None], list[str | None]]:
    """What the picture shows of a seat whose cards it shows, and what it should."""
    arrangement = state.nb_arrangement[seat]
    if arrangement:
        return cards(svg, "arrangement", seat), [format_card(c) for c in arrangement if c != GAP]
    return cards(svg, "hand", seat), names(state.hands[seat])


LOCKED = first_state(lambda s: sum(map(len, s.locked)) >= 2)
NHAT_BAN = first_state(lambda s: any(s.nb_arrangement))
WON = first_state(lambda s: bool(s.results) and s.results[-1].the is not None)


@pytest.mark.parametrize("state", [LOCKED, NHAT_BAN, WON], ids=["locked", "nhat_ban", "won"])
@pytest.mark.parametrize("seat", [None, 0, 1, 2, 3], ids=lambda s: f"seat{s}")
def test_the_picture_is_valid_svg_of_a_fixed_size(state, seat):
    root = ET.fromstring(table_svg(state, seat))
    assert root.tag == f"{SVG}svg"
    assert (root.get("width"), root.get("height")) == (str(WIDTH), str(HEIGHT))


def test_the_god_view_shows_every_hand_in_order_and_the_table():
    state = LOCKED
    svg = table_svg(state)
    shown = texts(svg)
    for seat in range(4):
        drawn, expected = own_cards(svg, state, seat)
        assert drawn == expected
        assert f"S{seat}   {state.scores[seat]:,} points" in [t.lstrip("▶ ") for t in shown]
    assert cards(svg, "chi_diem") == [format_card(state.chi_diem)]
    assert cards(svg, "offer") == [format_card(state.offer_card)]
    assert f"Nọc: {state.noc_left} left" in shown
    assert "cái (dealer)" in shown
    assert "god view" in shown


def test_locks_and_turned_an_si_are_drawn():
    state = LOCKED
    svg = table_svg(state)
    turned = state.an_si_revealed
    assert turned >= 2
    assert cards(svg, "an_si") == [*names(state.revealed_an_si), *[None] * (4 - turned)]
    assert f"Ẩn Sĩ ({turned} of 4 turned)" in texts(svg)
    for seat in range(4):
        assert cards(svg, "locked", seat) == names(state.locked[seat])
        if state.locked[seat]:
            assert f"{len(state.locked[seat])} Cướp" in texts(svg)
    assert texts(svg).count("khóa") == sum(map(len, state.locked))


def test_nhat_ban_shows_the_arrangement_to_its_declarer_and_the_badge_to_all():
    state = NHAT_BAN
    declarer = next(s for s in range(4) if state.nb_arrangement[s])
    arrangement = state.nb_arrangement[declarer]
    placed = [format_card(c) for c in arrangement if c != GAP]
    for seat in (None, declarer):
        svg = table_svg(state, seat)
        assert cards(svg, "arrangement", declarer) == placed
        assert "gap" in texts(svg)
    other = (declarer + 1) % 4
    svg = table_svg(state, other)
    assert cards(svg, "arrangement", declarer) == []
    assert "Nhất Bản" in texts(svg)


def test_a_win_is_explained_in_the_last_result():
    state = WON
    result = state.results[-1]
    assert result.the is not None
    text = " ".join(texts(table_svg(state)))
    assert THE_BY_ID[result.the].name_vi in text
    assert f"= {result.points} Điểm" in text
    assert describe_result(result).split(":")[0] in text
    assert "paid:" in text


def test_the_last_events_are_listed():
    state = LOCKED
    svg = table_svg(state)
    seen = [e for e in state.vong_events() if not isinstance(e, TheTrangDeclined | NhatBanDeclined)]
    assert format_event(seen[-1])[:40] in " ".join(texts(svg))


def test_names_and_title_are_drawn_as_asked():
    options = PictureOptions(names=("north", "east", "south", "west"), title="my table")
    shown = texts(table_svg(LOCKED, 2, options))
    assert "my table" in shown
    assert "seen by south" in shown
    assert any(t.startswith("south (you)") or "south (you)" in t for t in shown)


# ---------------------------------------------------------------- no leak


def test_a_seat_sees_its_hand_the_known_cards_and_backs_for_the_rest():
    state = LOCKED
    for seat in range(4):
        svg = table_svg(state, seat)
        drawn, expected = own_cards(svg, state, seat)
        assert drawn == expected
        for other in range(4):
            if other != seat:
                hidden = len(state.hands[other]) - len(state.known[other])
                assert cards(svg, "hand", other) == [*names(state.known[other]), *[None] * hidden]


def test_a_seats_picture_does_not_change_when_hidden_cards_are_redealt():
    """Re-deal everything a seat cannot see: its picture is the same SVG."""
    rng = np.random.default_rng(0)
    differs = 0
    for state in random_play_states(range(2), limit=40, every=7):
        for seat in range(4):
            svg = table_svg(state, seat)
            other = sample_determinization(state, seat, rng)
            differs += other.hands != state.hands
            assert table_svg(other, seat) == svg
    assert differs > 0


# ------------------------------------------------------------- rasterized


def test_the_rgb_array_is_height_by_width_by_three_bytes():
    array = table_rgb(WON, 1)
    assert array.shape == (HEIGHT, WIDTH, 3)
    assert array.dtype == np.uint8
    assert len(np.unique(array[::8, ::8].reshape(-1, 3), axis=0)) > 20


def test_text_is_drawn_with_the_shipped_fonts():
    """The fonts come with matplotlib: without its text a card rasterizes differently."""
    svg = card_svg(parse_card("GEN/FR"))
    bare = re.sub(r"<text[^>]*>[^<]*</text>", "", svg)
    assert not np.array_equal(Picture(svg).to_rgb(), Picture(bare).to_rgb())


def test_a_picture_shows_in_jupyter_and_saves_as_svg_or_png(tmp_path):
    picture = table_picture(NHAT_BAN)
    assert picture._repr_svg_() == str(picture) == table_svg(NHAT_BAN)
    picture.save(tmp_path / "t.svg")
    picture.save(tmp_path / "t.png", width=680)
    assert (tmp_path / "t.svg").read_text(encoding="utf-8") == picture.svg
    assert (tmp_path / "t.png").read_bytes().startswith(b"\x89PNG")


def test_a_card_alone_is_valid_svg_with_its_name():
    root = ET.fromstring(card_svg(parse_card("CRE/KY")))
    titles = [t.text for t in root.iter(f"{SVG}title")]
    assert titles == ["Gia huy Cố Đô (CRE/KY), honour card"]
    back = ET.fromstring(card_svg(None))
    assert [g.get("class") for g in back.iter(f"{SVG}g")] == ["card back"]
