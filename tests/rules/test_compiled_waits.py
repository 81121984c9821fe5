"""The compiled Nhất Bản waits and win check against :mod:`env121.rules.waits`.

On seeded five-card hands (uniform and from small pools, where waits are
common): the waiting arrangements, ``has_nhat_ban_wait``, ``waiting_gaps``,
``waiting_next_cards`` along every placement path, and the win check on a fixed
arrangement (``nhat_ban_wins`` is ``reference_is_completed(fill_gap(...))``).
"""

from __future__ import annotations

import numpy as np

from env121.rules.cards import NUM_CARDS, format_cards
from env121.rules.compiled import waits as compiled
from env121.rules.waits import GAP, fill_gap
from tests.support.compiled import pool_hand
from tests.support.reference import reference_is_completed
from tests.support.scorer import (
    has_nhat_ban_wait,
    nhat_ban_arrangements,
    waiting_gaps,
    waiting_next_cards,
)


def _hands(seed: int, n: int) -> list[tuple[int, ...]]:
    rng = np.random.default_rng(seed)
    uniform = [tuple(int(c) for c in rng.choice(NUM_CARDS, 5, replace=False)) for _ in range(n)]
    return uniform + [pool_hand(rng, 5) for _ in range(n)]


def _arrangements(hand: tuple[int, ...]) -> frozenset[tuple[int, ...]]:
    """The waiting arrangements read off the compiled mask."""
    mask = np.zeros(compiled.NUM_ARRANGEMENTS, dtype=np.bool_)
    compiled.waiting_mask(np.array(hand, dtype=np.int64), mask)
    h = sorted(hand)
    return frozenset(
        tuple(GAP if i == GAP else h[i] for i in compiled.INDEX_ARRANGEMENTS[n])
        for n in np.flatnonzero(mask)
    )


def test_waiting_arrangements_and_gaps() -> None:
    waiting = 0
    for hand in _hands(seed=8, n=400):
        five = np.array(hand, dtype=np.int64)
        expected = nhat_ban_arrangements(hand)
        assert _arrangements(hand) == expected, format_cards(hand)
        assert compiled.has_nhat_ban_wait(five) == has_nhat_ban_wait(hand), format_cards(hand)
        gaps = np.zeros(6, dtype=np.int64)
        n = compiled.waiting_gaps(five, gaps)
        assert gaps[:n].tolist() == waiting_gaps(hand), format_cards(hand)
        waiting += bool(expected)
    assert 100 < waiting < 800


def test_waiting_next_cards_along_every_path() -> None:
    steps = 0
    for hand in _hands(seed=9, n=40):
        five = np.array(hand, dtype=np.int64)
        out = np.zeros(5, dtype=np.int64)
        for gap in waiting_gaps(hand):
            paths: list[tuple[int, ...]] = [()]
            while paths:
                placed = paths.pop()
                if len(placed) == 5:
                    continue
                expected = waiting_next_cards(hand, gap, placed)
                given = np.zeros(5, dtype=np.int64)
                given[: len(placed)] = placed
                n = compiled.waiting_next_cards(five, gap, given, len(placed), out)
                assert out[:n].tolist() == expected, f"{format_cards(hand)} gap {gap} {placed}"
                paths.extend((*placed, c) for c in expected)
                steps += 1
    assert steps > 500


def test_nhat_ban_win_check_on_fixed_arrangements() -> None:
    rng = np.random.default_rng(10)
    wins = 0
    for hand in _hands(seed=11, n=150):
        for arrangement in list(nhat_ban_arrangements(hand))[:4] or [(*hand, GAP)]:
            fixed = np.array(arrangement, dtype=np.int64)
            for card in rng.choice([c for c in range(NUM_CARDS) if c not in hand], 40):
                expected = reference_is_completed(fill_gap(arrangement, int(card)))
                got = compiled.nhat_ban_wins(fixed, int(card))
                assert got == expected, f"{format_cards(c for c in arrangement if c != GAP)}"
                wins += expected
    assert wins > 100
