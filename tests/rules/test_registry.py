"""The registry's records as the search and the filters read them.

A Thế is one record of :mod:`env121.rules.thes`; the searches (compiled, and
the Python one of ``tests/support/scorer.py``) and the necessary-condition
filters use its shape and, for a two-triple Thế, its
:class:`~env121.rules.thes.Halves`. These tests pin what they rely on: a
two-triple Thế declares its halves, the halves mean what the spec's "either
order" says, the witness lays the first-named half first, the table of the
groups a half can be (``TRIPLE_GROUPS``) agrees with the groups, and the
filter ``may_have_the`` keeps every Thế's hand.
"""

from __future__ import annotations

from itertools import product

import pytest

from env121.rules.cards import NUM_FIGURES, NUM_SUITS, card, format_cards, parse_cards
from env121.rules.scoring import score_hand
from env121.rules.thes import (
    TRIPLE_GROUPS,
    Halves,
    Layout,
    Predicate,
    Shape,
    Table,
    The,
    Triple,
    ba_doi,
    triple_key,
)
from tests.rules.test_patterns import POSITIVE, Hand
from tests.support.scorer import may_have_the

PHE_KYOTO = Halves(Triple.PHE, Triple.KYOTO3)
PHE_THEN_KYOTO = "GEN/FR INS/FB MER/FP GEN/KY MUS/KY NIN/KY"
KYOTO_THEN_PHE = "GEN/KY MUS/KY NIN/KY GEN/FR INS/FB MER/FP"


@pytest.mark.parametrize(
    ("shape", "predicate"),
    [
        pytest.param(Shape.TWO_TRIPLES, ba_doi, id="two triples without Halves"),
        pytest.param(Shape.CUNG_TAIL, PHE_KYOTO, id="Halves on a Củng"),
    ],
)
def test_a_record_declares_halves_for_two_triples_only(shape: Shape, predicate: Predicate) -> None:
    with pytest.raises(ValueError, match="expected a Halves predicate exactly for"):
        The("made_up", 1, "Thế 1", "Bịa", "made up", shape, predicate)


@pytest.mark.parametrize(
    ("hand", "either_order", "in_order", "matches"),
    [
        pytest.param(PHE_THEN_KYOTO, False, True, True, id="Phe|Kyoto, named order"),
        pytest.param(KYOTO_THEN_PHE, False, False, False, id="Kyoto|Phe, named order only"),
        pytest.param(KYOTO_THEN_PHE, True, False, True, id="Kyoto|Phe, either order"),
    ],
)
def test_halves_either_order(hand: str, either_order: bool, in_order: bool, matches: bool) -> None:
    halves = Halves(Triple.PHE, Triple.KYOTO3, either_order=either_order)
    layout = Layout(parse_cards(hand))
    assert halves.in_order(layout, Table()) == in_order
    assert halves(layout, Table()) == matches


@pytest.mark.parametrize(
    ("the", "hand", "first_half"),
    [
        pytest.param("phe_co_do", KYOTO_THEN_PHE, "GEN/FR INS/FB MER/FP", id="Phe first"),
        pytest.param(
            "phu_co_do_giang_ho",
            "GEN/ED MUS/ED NIN/ED INS/KY MER/KY ASA/KY",
            "INS/KY MER/KY ASA/KY",
            id="Kyoto first",
        ),
    ],
)
def test_the_witness_lays_the_first_named_half_first(the: str, hand: str, first_half: str) -> None:
    score = score_hand(parse_cards(hand), chi_diem=parse_cards("PRI/LB")[0])
    assert score is not None
    assert score.the == the
    assert set(score.arrangement[:3]) == set(parse_cards(first_half)), str(score)


FIGURE_PATTERNS = [
    *((f, f, f) for f in range(NUM_FIGURES)),
    (1, 2, 3),
    (0, 0, 1),
    (1, 0, 0),
    (0, 5, 9),
    (3, 3, 7),
    (10, 5, 10),
]


def test_the_table_of_triple_groups_agrees_with_the_groups() -> None:
    """TRIPLE_GROUPS is built from one example per key (suits, one figure or
    not): every three cards of that key are the same groups."""
    for suits in product(range(NUM_SUITS), repeat=3):
        for figures in FIGURE_PATTERNS:
            cards = tuple(card(f, s) for f, s in zip(figures, suits, strict=True))
            if len(set(cards)) < 3:
                continue
            groups = {group for group in Triple if group.holds(*cards)}
            assert TRIPLE_GROUPS[triple_key(*cards)] == groups, format_cards(cards)


@pytest.mark.parametrize("h", POSITIVE)
def test_may_have_the_keeps_every_positive_case(h: Hand) -> None:
    assert may_have_the(h.cards), h.hand
