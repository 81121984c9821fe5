"""Fuzzing the rules' two text-and-data inputs: card strings and ``RuleConfig.from_dict``.

Every card string ends in a card id whose notation is the token (upper-cased),
or in :class:`CardNotationError` naming the token and the accepted form. Every
dict given to ``RuleConfig.from_dict`` ends in a config holding exactly its
values, or in ``ValueError`` naming the unknown keys or the bad field — never
``TypeError`` or ``KeyError``.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from env121.rules.cards import (
    FIGURE_CODES,
    NUM_CARDS,
    REGULAR_FIGURES,
    SUIT_CODES,
    CardNotationError,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
)
from env121.rules.config import NUM_VAN_CHOICES, PAYMENT_ROUNDINGS, RuleConfig
from tests.support.fuzz import json_values

FIELDS = tuple(f.name for f in dataclasses.fields(RuleConfig))
SEPARATORS = re.compile(r"[\s,]+")

# Pieces that make near-misses more often than random text does: codes in any
# case, slashes and separators, letters that str.upper() turns into ASCII
# ("ı" → "I", "ſ" → "S", "ﬀ" → "FF"), and whitespace outside ASCII.
PIECES = (*FIGURE_CODES, *SUIT_CODES, "/", "/", " ", ",", "\t", "x", "ı", "ſ", "ﬀ", "\xa0", "é")
card_texts = st.text() | st.lists(
    st.sampled_from(PIECES).flatmap(lambda p: st.sampled_from((p, p.lower(), p.title()))),
    max_size=14,
).map("".join)


@settings(max_examples=400)
@given(card_texts | st.integers() | st.none())
def test_a_card_token_is_a_card_or_a_notation_error(token: Any) -> None:
    try:
        card_id = parse_card(token)
    except CardNotationError as error:
        assert str(error).startswith(f"bad card {token!r}: a card is FIG/SU")
        return
    stripped = token.strip()
    assert 0 <= card_id < NUM_CARDS
    assert stripped.isascii() and format_card(card_id) == stripped.upper()


@settings(max_examples=300)
@given(card_texts)
def test_a_hand_string_is_distinct_cards_or_a_notation_error(text: str) -> None:
    tokens = [t for t in SEPARATORS.split(text) if t]
    try:
        ids = parse_cards(text)
    except CardNotationError as error:
        message = str(error)
        bad = [t for t in tokens if f"bad card {t!r}: a card is FIG/SU" in message]
        twice = [t for t in tokens if f"card {t!r} appears twice in {text!r}" in message]
        assert bad or twice, message
        return
    assert len(set(ids)) == len(ids) == len(tokens)
    assert format_cards(ids) == " ".join(t.upper() for t in tokens)


@settings(max_examples=150)
@given(st.lists(card_texts | st.integers() | st.none() | st.lists(st.text()), max_size=6))
def test_a_hand_as_a_json_list_is_cards_or_a_notation_error(tokens: list[Any]) -> None:
    try:
        ids = parse_cards(tokens)
    except CardNotationError:
        return
    assert format_cards(ids) == " ".join(t.strip().upper() for t in tokens)


# ------------------------------------------------------------------ RuleConfig

VALID_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "left_figures": st.sets(st.sampled_from(REGULAR_FIGURES), min_size=5, max_size=5).map(sorted),
    "phe_phe_same_suits": st.booleans(),
    "nhat_ban_requires_wait": st.booleans(),
    "mask_invalid_win": st.booleans(),
    "payment_rounding": st.sampled_from(PAYMENT_ROUNDINGS),
    "num_van": st.sampled_from(NUM_VAN_CHOICES),
    "starting_points": st.integers(1, 10**9),
    "carry_scores": st.booleans(),
    "max_actions_per_vong": st.none() | st.integers(1, 10**9),
    "the_trang_asks_every_seat": st.booleans(),
}
"""Per RuleConfig field, values ``from_dict`` must accept (as a record stores them)."""


def test_every_field_has_valid_values_to_fuzz_with() -> None:
    assert sorted(VALID_VALUES) == sorted(FIELDS)


@st.composite
def config_dicts(draw: st.DrawFn) -> dict[Any, Any]:
    """A dict of some fields, each value valid or any JSON value, perhaps with
    unknown keys (strings, and the odd non-string a Python caller could pass)."""
    names = draw(st.lists(st.sampled_from(FIELDS), unique=True, max_size=len(FIELDS)))
    data: dict[Any, Any] = {
        name: draw(VALID_VALUES[name] | json_values | st.sampled_from([[[1]], {}, 2.0, "1"]))
        for name in names
    }
    if draw(st.integers(0, 4)) == 0:
        data.update(draw(st.dictionaries(st.text(max_size=6) | st.integers(), json_values)))
    return data


def _as_stored(name: str, value: Any) -> Any:
    return frozenset(value) if name == "left_figures" else value


@settings(max_examples=200)
@given(config_dicts())
def test_from_dict_builds_exactly_the_dict_or_names_what_is_wrong(data: dict[Any, Any]) -> None:
    try:
        config = RuleConfig.from_dict(data)
    except ValueError as error:
        message = str(error)
        unknown = [key for key in data if key not in FIELDS]
        if unknown:
            assert message.startswith("unknown RuleConfig field(s)")
            assert all(repr(key) in message for key in unknown)
        else:
            assert any(message.startswith(f"RuleConfig.{name}=") for name in data), message
            assert "is not valid: expected" in message
        return
    for name, value in data.items():
        assert getattr(config, name) == _as_stored(name, value)
    assert RuleConfig.from_dict(config.to_dict()) == config


@settings(max_examples=100)
@given(st.fixed_dictionaries(VALID_VALUES))
def test_every_valid_dict_round_trips(data: dict[str, Any]) -> None:
    config = RuleConfig.from_dict(data)
    assert config.to_dict() == data
