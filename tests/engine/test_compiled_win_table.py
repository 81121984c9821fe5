"""The compiled win table against its definition, the Python scorer card by card.

Seeded seats: five cards (uniform or from a small pool, 0-2 of them locked:
Bội ước), a Chỉ Điểm, 0-4 revealed Ẩn Sĩ, dealer or not, and a third of them
in Nhất Bản with a waiting arrangement (or any arrangement), under every rule
variant that changes a score. Every card's Điểm must be equal.
"""

from __future__ import annotations

import numpy as np
import pytest

from env121.engine.win_table import win_points
from env121.rules.cards import NUM_CARDS, format_cards
from env121.rules.compiled.config import kernel_config
from env121.rules.compiled.public_cards import public_cards
from env121.rules.compiled.win_table import win_points as compiled_win_points
from env121.rules.config import RuleConfig
from env121.rules.waits import GAP, fill_gap
from tests.support.compiled import SCORING_CONFIGS, pool_hand
from tests.support.scorer import nhat_ban_arrangements, score_hand


@pytest.mark.parametrize("name", SCORING_CONFIGS)
def test_win_points(name: str) -> None:
    config = SCORING_CONFIGS[name]
    kc = kernel_config(config)
    rng = np.random.default_rng(sorted(SCORING_CONFIGS).index(name))
    out = np.zeros(NUM_CARDS, dtype=np.int16)
    winning = 0
    for n in range(150):
        five = (
            pool_hand(rng, 5) if n % 2 else tuple(int(c) for c in rng.choice(NUM_CARDS, 5, False))
        )
        rest = [c for c in range(NUM_CARDS) if c not in five]
        others = [int(c) for c in rng.choice(rest, 1 + int(rng.integers(0, 5)), replace=False)]
        chi_diem, an_si = others[0], tuple(others[1:])
        dealer = bool(rng.integers(2))
        arrangement: tuple[int, ...] = ()
        n_locked = 0
        if n % 3 == 0:
            waiting = sorted(nhat_ban_arrangements(five))
            arrangement = (
                waiting[int(rng.integers(len(waiting)))]
                if waiting
                else tuple(int(c) for c in rng.permutation([*five, GAP]))
            )
        else:
            n_locked = int(rng.choice([0, 0, 1, 2]))
        free, locked = five[n_locked:], five[:n_locked]
        expected = scored_by_card(five, bool(locked), chi_diem, an_si, dealer, arrangement, config)
        compiled_win_points(
            np.array(free, dtype=np.int64),
            len(free),
            np.array([*locked, 0, 0], dtype=np.int64),
            len(locked),
            bool(arrangement),
            np.array(arrangement or (GAP,) * 6, dtype=np.int64),
            public_cards(chi_diem, an_si),
            dealer,
            kc,
            out,
        )
        differ = np.flatnonzero(out != expected)
        assert differ.size == 0, (
            f"{format_cards(five)} locked {format_cards(locked)} nb {arrangement}: cards "
            f"{format_cards(differ.tolist())} compiled {out[differ]} reference {expected[differ]}"
        )
        winning += int(np.count_nonzero(expected))
        table = win_points(
            tuple(sorted(five)),
            locked=bool(locked),
            chi_diem=chi_diem,
            an_si=an_si,
            dealer=dealer,
            nb_arrangement=arrangement,
            config=config,
        )
        np.testing.assert_array_equal(table, expected)  # the engine's face of the kernel
    assert winning > 300


def scored_by_card(
    five: tuple[int, ...],
    locked: bool,
    chi_diem: int,
    an_si: tuple[int, ...],
    dealer: bool,
    arrangement: tuple[int, ...],
    config: RuleConfig,
) -> np.ndarray:
    """The win table's definition: ``score_hand`` of the five and each card."""
    points = np.zeros(NUM_CARDS, dtype=np.int16)
    for c in sorted(set(range(NUM_CARDS)) - {*five, chi_diem, *an_si}):
        score = score_hand(
            fill_gap(arrangement, c) if arrangement else (*five, c),
            chi_diem=chi_diem,
            an_si=an_si,
            locked=locked,
            nhat_ban=bool(arrangement),
            dealer=dealer,
            config=config,
        )
        points[c] = 0 if score is None else score.points
    return points
