"""Nhất Bản waits agree with a brute force over every card and every shape: the
public faces (the compiled kernels) and the Python reading of the clause table."""

from __future__ import annotations

from itertools import permutations

import numpy as np
import pytest

from env121.rules.cards import NUM_CARDS, format_cards, parse_cards
from env121.rules.waits import GAP, all_arrangements, has_nhat_ban_wait, nhat_ban_arrangements
from tests.support.compiled import seeded_hands
from tests.support.reference import reference_is_completed
from tests.support.scorer import arrangement_has_wait, winning_cards


def brute_winning_cards(arrangement: tuple[int, ...]) -> set[int]:
    g = arrangement.index(GAP)
    return {
        c
        for c in range(NUM_CARDS)
        if c not in arrangement
        and reference_is_completed((*arrangement[:g], c, *arrangement[g + 1 :]))
    }


def test_arrangement_has_wait_matches_brute_force() -> None:
    rng = np.random.default_rng(7)
    for hand in seeded_hands(seed=1, n=100, size=5):
        arrangements = sorted(all_arrangements(hand))
        for index in rng.choice(len(arrangements), 30, replace=False):
            a = arrangements[index]
            expected = bool(brute_winning_cards(a))
            assert arrangement_has_wait(a) == expected, format_cards(c for c in a if c != GAP)


def test_winning_cards_matches_brute_force() -> None:
    for hand in seeded_hands(seed=2, n=20, size=5):
        for a in sorted(all_arrangements(hand))[::37]:
            assert winning_cards(a) == brute_winning_cards(a)


def test_waiting_arrangements_and_has_wait_agree() -> None:
    for hand in seeded_hands(seed=3, n=6, size=5):
        waiting = nhat_ban_arrangements(hand)
        assert waiting == {a for a in permutations((*hand, GAP)) if brute_winning_cards(a)}
        assert has_nhat_ban_wait(hand) == bool(waiting)


def test_known_waits() -> None:
    # Two pairs and a single: the single waits for a partner (three pairs).
    hand = parse_cards("ASA/FR ASA/BR GEN/KY GEN/ED MON/LP")
    assert has_nhat_ban_wait(hand)
    a = (*hand, GAP)
    assert parse_cards("MON/KY")[0] in winning_cards(a)
    # One pair and three unrelated singles with no Phe among their suits: no wait.
    hand = parse_cards("ASA/KY ASA/ED GEN/FR MON/FB PRI/BR")
    assert not has_nhat_ban_wait(hand)


@pytest.mark.parametrize("bad", [[1, 2, 3, 4], [1, 1, 2, 3, 4], [1, 2, 3, 4, 121]])
def test_bad_hand_is_an_error(bad: list[int]) -> None:
    with pytest.raises(ValueError, match="five distinct card ids"):
        nhat_ban_arrangements(bad)
