"""The compiled win check and Thế trắng against the reference rules.

``is_win`` must be ``score_valid_hand(...) is not None`` for every normal hand,
in and out of Bội ước, under every rule variant that changes a score; the
table-driven hands of every Thế (``test_patterns.py``) and seeded random hands
are asked. ``the_trang_eligible`` must equal :func:`env121.rules.wins.the_trang_eligible`.
"""

from __future__ import annotations

import numpy as np
import pytest

from env121.rules.bonuses import WinSituation
from env121.rules.cards import format_cards
from env121.rules.compiled.config import kernel_config
from env121.rules.compiled.wins import is_win, the_trang_eligible
from env121.rules.config import RuleConfig
from env121.rules.thes import Table
from tests.rules.test_patterns import NEGATIVE, POSITIVE
from tests.support.compiled import SCORING_CONFIGS, pool_hand, seeded_hands
from tests.support.scorer import score_valid_hand
from tests.support.scorer import the_trang_eligible as reference_the_trang_eligible


def _reference_is_win(hand: tuple[int, ...], locked: bool, config: RuleConfig) -> bool:
    chi_diem = next(c for c in range(121) if c not in hand)
    table = Table(config, chi_diem, ())
    return score_valid_hand(hand, table, WinSituation(config), locked=locked) is not None


def _check(hands: list[tuple[int, ...]], config: RuleConfig) -> int:
    """Compare every hand, in and out of Bội ước; the number of wins."""
    kc = kernel_config(config)
    wins = 0
    for hand in hands:
        for locked in (False, True):
            expected = _reference_is_win(hand, locked, config)
            got = is_win(np.array(hand, dtype=np.int64), locked, kc)
            assert got == expected, f"{format_cards(hand)} locked={locked}: {got}, not {expected}"
            wins += expected
    return wins


@pytest.mark.parametrize("name", SCORING_CONFIGS)
def test_is_win_on_random_hands(name: str) -> None:
    config = SCORING_CONFIGS[name]
    hands = list(seeded_hands(seed=15, n=4_000))
    wins = _check(hands, config)
    assert wins > 700  # the pools make wins common enough to test both answers


@pytest.mark.parametrize("name", SCORING_CONFIGS)
def test_is_win_on_the_hands_of_every_the(name: str) -> None:
    hands = [p.values[0].cards for p in (*POSITIVE, *NEGATIVE)]
    assert _check(hands, SCORING_CONFIGS[name]) > 0


def test_is_win_on_the_hands_of_every_the_under_their_config() -> None:
    for p in (*POSITIVE, *NEGATIVE):
        _check([p.values[0].cards], p.values[0].config)


def test_the_trang_eligible() -> None:
    rng = np.random.default_rng(19)
    hands = [tuple(int(c) for c in rng.choice(121, 5, replace=False)) for _ in range(3_000)]
    hands += [pool_hand(rng, 5) for _ in range(1_000)]
    # five regular cards of distinct figures and suits: eligible unless the draw adds an honor
    for _ in range(1_000):
        figures = rng.choice(np.arange(11), 5, replace=False)
        suits = rng.choice(np.arange(11), 5, replace=False)
        hands.append(tuple(int(11 * f + s) for f, s in zip(figures, suits, strict=True)))
    eligible = 0
    for hand in hands:
        expected = reference_the_trang_eligible(hand)
        assert the_trang_eligible(np.array(hand, dtype=np.int64)) == expected, format_cards(hand)
        eligible += expected
    assert 50 < eligible < len(hands)
