"""The compiled scorer against the readable Python one (``tests/support/scorer.py``).

Every field of the answer is compared, through the public face
:func:`env121.score_hand` (which asks ``score_win`` and turns the kernel's
tuple into a :class:`HandScore`): the Thế, tier, points, the
bonuses (a mask over ``BONUS_IDS``), the indicator points and the arrangement,
the witness order the reference reports. Cases: the table-driven hands of every
Thế (``test_patterns.py``) with their tables and every flag, seeded random
cases (uniform and small-pool hands, 0-4 revealed Ẩn Sĩ, locked, Nhất Bản,
dealer, self_drawn, last_card), and hypothesis hands built per pattern family,
under every rule variant that changes a score.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from env121.rules import scoring
from env121.rules.cards import format_card, format_cards
from env121.rules.config import RuleConfig
from env121.rules.thes import THES
from tests.rules.test_patterns import NEGATIVE, POSITIVE
from tests.support import scorer
from tests.support.compiled import SCORING_CONFIGS, compiled_achievable_thes, seeded_hands
from tests.support.strategies import FAMILY_NAMES, random_cases, scoring_cases

HYPOTHESIS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
FLAGS = ("locked", "nhat_ban", "dealer", "self_drawn", "last_card")


def _describe(case: dict[str, Any], config: RuleConfig) -> str:
    chi = case["chi_diem"]
    flags = [k for k in FLAGS if case.get(k)]
    return (
        f"[{format_cards(case['cards'])}] chi_diem {format_card(chi) if chi is not None else None}"
        f" an_si [{format_cards(case.get('an_si', ()))}] {' '.join(flags)} {config}"
    )


def _compare(case: dict[str, Any], config: RuleConfig) -> bool:
    """Assert the compiled and the reference score agree; whether it is a win."""
    expected = scorer.score_hand(config=config, **case)
    got = scoring.score_hand(config=config, **case)
    assert got == expected, f"{_describe(case, config)}:\n  compiled  {got}\n  reference {expected}"
    return expected is not None


@pytest.mark.parametrize("name", SCORING_CONFIGS)
def test_random_cases(name: str) -> None:
    wins = sum(_compare(case, SCORING_CONFIGS[name]) for case in random_cases(seed=1521, n=2_000))
    assert wins > 300


def _pattern_cases() -> list[tuple[dict[str, Any], RuleConfig]]:
    """Each table-driven hand with its table, as a normal win, in Bội ước, and under
    Nhất Bản in its a1…a6 order, with the situation flags on and off."""
    cases = []
    for p in (*POSITIVE, *NEGATIVE):
        h = p.values[0]
        table = {"chi_diem": h.chi_diem, "an_si": h.revealed}
        for n, mode in enumerate(("plain", "locked", "nhat_ban")):
            flags = {"dealer": n == 0, "self_drawn": n == 1, "last_card": n != 1}
            case = {"cards": h.cards, **table, **flags, "locked": mode == "locked"}
            cases.append(({**case, "nhat_ban": mode == "nhat_ban"}, h.config))
        cases.append(({"cards": h.cards, "chi_diem": None}, h.config))
    return cases


def test_the_hands_of_every_the() -> None:
    found: set[str] = set()
    for case, config in _pattern_cases():
        _compare(case, config)
        cards = case["cards"]
        witnesses = compiled_achievable_thes(cards, config)
        expected = scorer.achievable_thes(tuple(sorted(cards)), config)
        assert witnesses == expected, format_cards(cards)
        found |= set(witnesses)
    assert found == {t.id for t in THES if not t.needs_chi_diem}  # every searched Thế met


@pytest.mark.parametrize("name", SCORING_CONFIGS)
def test_search_and_witnesses_on_random_hands(name: str) -> None:
    """Every Thế the search finds, with its witness, not only the best one."""
    config = SCORING_CONFIGS[name]
    for cards in seeded_hands(seed=77, n=2_000):
        expected = scorer.achievable_thes(tuple(sorted(cards)), config)
        assert compiled_achievable_thes(cards, config) == expected, format_cards(cards)


@pytest.mark.parametrize("name", SCORING_CONFIGS)
def test_the_hands_of_every_the_under_each_variant(name: str) -> None:
    for case, _ in _pattern_cases():
        _compare(case, SCORING_CONFIGS[name])


@pytest.mark.parametrize("family", FAMILY_NAMES)
@settings(HYPOTHESIS, max_examples=25)
@given(data=st.data())
def test_built_hands_of_each_family(family: str, data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(SCORING_CONFIGS)), label="config")
    config = SCORING_CONFIGS[name]
    case = data.draw(scoring_cases(config.left_figures, family=family), label="case")
    _compare(case, config)


def test_thes_of_and_explain_no_win() -> None:
    """The faces :func:`env121.thes_of` and :func:`explain_no_win` give the Python
    scorer's answers on the table-driven hands (every Thế, and its near misses),
    under every variant: every Thế met, every reason for no win given."""
    matched: set[str] = set()
    reasons: set[str] = set()
    for case, _ in _pattern_cases():
        cards = case["cards"]
        table = {"chi_diem": case["chi_diem"], "an_si": case.get("an_si", ())}
        for config in SCORING_CONFIGS.values():
            got = scoring.thes_of(cards, config=config, **table)
            assert got == scorer.thes_of(cards, config=config, **table), format_cards(cards)
            matched |= got
            flags = {"locked": case.get("locked", False), "nhat_ban": case.get("nhat_ban", False)}
            reason = scoring.explain_no_win(cards, config=config, **flags)
            assert reason == scorer.explain_no_win(cards, config=config, **flags)
            reasons.add(reason.split(" (")[0])
    assert matched == {t.id for t in THES}
    assert len(reasons) == 4, reasons
