"""Cards (spec §1) and the card notation."""

from __future__ import annotations

import pytest

from env121.rules.cards import (
    FIG,
    IS_HONOR,
    NUM_CARDS,
    SUIT,
    CardNotationError,
    Clan,
    Color,
    Figure,
    Suit,
    card,
    clan_of_suit,
    color_of_suit,
    describe_card,
    format_card,
    format_cards,
    pairwise_unrelated,
    parse_card,
    parse_cards,
    related,
)


def test_ids_are_11_figure_plus_suit() -> None:
    for c in range(NUM_CARDS):
        assert card(FIG[c], SUIT[c]) == c == 11 * FIG[c] + SUIT[c]


def test_31_honor_cards_and_90_regular() -> None:
    honors = [c for c in range(NUM_CARDS) if IS_HONOR[c]]
    assert len(honors) == 31
    assert all(FIG[c] == Figure.CREST or SUIT[c] in (Suit.KYOTO, Suit.EDO) for c in honors)


@pytest.mark.parametrize(
    ("suit", "clan", "color"),
    [
        (Suit.FLOWER_RED, Clan.FLOWER, Color.RED),
        (Suit.FLOWER_PURPLE, Clan.FLOWER, Color.PURPLE),
        (Suit.BUTTERFLY_BLUE, Clan.BUTTERFLY, Color.BLUE),
        (Suit.LEAF_RED, Clan.LEAF, Color.RED),
        (Suit.LEAF_PURPLE, Clan.LEAF, Color.PURPLE),
        (Suit.KYOTO, None, None),
        (Suit.EDO, None, None),
    ],
)
def test_clan_and_color_of_suits(suit: Suit, clan: Clan | None, color: Color | None) -> None:
    assert clan_of_suit(suit) == clan
    assert color_of_suit(suit) == color


def test_related_means_shared_figure_or_suit_not_clan() -> None:
    assert related(parse_card("ASA/FR"), parse_card("ASA/LP"))
    assert related(parse_card("ASA/FR"), parse_card("GEN/FR"))
    assert not related(parse_card("ASA/FR"), parse_card("GEN/FB"))  # same clan only
    assert not related(parse_card("ASA/FR"), parse_card("GEN/BR"))  # same color only
    assert pairwise_unrelated(parse_cards("CRE/KY GEN/ED INS/FR MER/FB GEI/FP DAN/BR"))
    assert not pairwise_unrelated(parse_cards("CRE/KY GEN/ED INS/FR MER/FB GEI/FP DAN/FR"))


def test_notation_round_trips_every_card() -> None:
    for c in range(NUM_CARDS):
        assert parse_card(format_card(c)) == c
    assert parse_cards(format_cards(range(NUM_CARDS))) == tuple(range(NUM_CARDS))


def test_notation_examples() -> None:
    assert format_card(card(Figure.ASSASSIN, Suit.FLOWER_RED)) == "ASA/FR"
    assert parse_card("cre/ky") == card(Figure.CREST, Suit.KYOTO)
    assert parse_cards("GEN/KY, asa/fr  PRI/LP") == (11, 101, 120)
    assert describe_card(101) == "Ám giả Hoa đỏ (ASA/FR)"


@pytest.mark.parametrize(
    "token", ["", "ASA", "ASA/", "/FR", "ASA/FX", "XYZ/FR", "ASA-FR", "ASA/FR/KY"]
)
def test_malformed_card_names_token_and_form(token: str) -> None:
    with pytest.raises(CardNotationError) as error:
        parse_card(token)
    message = str(error.value)
    assert repr(token) in message
    assert "FIG/SU" in message and "ASA/FR" in message


@pytest.mark.parametrize("token", [1, None, ["ASA/FR"], "ınſ/FR", "ASA/FŔ", "aſa/fr"])
def test_a_token_not_in_the_ascii_notation_is_a_notation_error(token: object) -> None:
    # Found by fuzzing: a number (as a JSON record may hold) raised AttributeError,
    # and str.upper() turned "ı" into I and "ſ" into S, so "ınſ/FR" read as INS/FR.
    with pytest.raises(CardNotationError, match="FIG/SU"):
        parse_card(token)  # type: ignore[arg-type]
    with pytest.raises(CardNotationError, match="FIG/SU"):
        parse_cards([token])  # type: ignore[list-item]


def test_duplicate_card_in_hand_is_an_error() -> None:
    with pytest.raises(CardNotationError, match="appears twice"):
        parse_cards("ASA/FR GEN/KY asa/fr")


def test_format_rejects_out_of_range_ids() -> None:
    with pytest.raises(ValueError, match=r"0\.\.120"):
        format_card(121)
