"""The fast Thế search agrees with the registry's positional predicates.

Brute force: every order of the six cards that is a completed hand (every Thế
implies one, spec §3) checked against every Thế predicate. The search must
find exactly the same Thế, and each arrangement it reports must satisfy the
predicate of its Thế.
"""

from __future__ import annotations

from itertools import permutations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from env121.rules.cards import format_cards
from env121.rules.config import RuleConfig
from env121.rules.thes import THE_BY_ID, Table
from tests.support.compiled import seeded_hands
from tests.support.reference import reference_is_completed
from tests.support.scorer import achievable_thes, thes_matching
from tests.support.strategies import pattern_hands

CONFIGS = {
    "default": RuleConfig(),
    "same-suits": RuleConfig(phe_phe_same_suits=True),
    "left-even": RuleConfig(left_figures=frozenset({2, 4, 6, 8, 10})),
}


def brute_force(cards: tuple[int, ...], config: RuleConfig) -> set[str]:
    table = Table(config)
    found: set[str] = set()
    for order in permutations(cards):
        if reference_is_completed(order):
            found |= thes_matching(order, table)
    return found


@pytest.mark.parametrize("name", CONFIGS)
def test_search_finds_exactly_what_brute_force_finds(name: str) -> None:
    config = CONFIGS[name]
    table = Table(config)
    for cards in seeded_hands(seed=len(name), n=150):
        hand = tuple(sorted(cards))
        found = achievable_thes(hand, config)
        expected = brute_force(hand, config)
        assert set(found) == expected, (
            f"{format_cards(hand)}: search {set(found)} vs brute {expected}"
        )
        for the_id, arrangement in found.items():
            assert sorted(arrangement) == list(hand)
            assert THE_BY_ID[the_id].matches(arrangement, table), (
                the_id,
                format_cards(arrangement),
            )


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_search_agrees_on_hands_built_for_each_pattern_family(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(CONFIGS)))
    config = CONFIGS[name]
    hand = tuple(sorted(data.draw(pattern_hands(config.left_figures))))
    found = achievable_thes(hand, config)
    expected = brute_force(hand, config)
    assert set(found) == expected, f"{name} {format_cards(hand)}: {set(found)} vs {expected}"
