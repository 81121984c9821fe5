"""The compiled rules against the readable Python scorer (``tests/support/scorer.py``)
on millions of hands: zero differences.

For every hand, under each rule variant that changes a score ([R-1] facing,
[R-2] literal Phe – Phe, both): the compiled ``score_win`` against
``score_valid_hand`` (valid, Thế, tier, points, bonuses, indicator points,
arrangement), the compiled ``is_win`` against ``score_valid_hand(...) is not
None``, and the Thế the compiled search finds against
``achievable_thes``. Hands come in four kinds (:func:`deal`): uniform,
from a small pool of figures and suits (wins are common), eleven pairwise
unrelated cards dealt as hand, Chỉ Điểm and Ẩn Sĩ (the Quốc Sĩ family and its
indicator members), and images of the table-driven cases of every Thế under
the symmetries of the rules (rare Thế, and near misses). Tables and
flags are random: 0-4 revealed Ẩn Sĩ, locked, Nhất Bản (half of those in a
winning order), dealer, self_drawn, last_card.

Prints the number of hands, wins and differences, and per Thế how many hands
the search found it in and how many reported it (the best Thế). Exits 1 on any difference.

Run: ``.venv/bin/python scripts/differential_rules.py [--hands 1000000] [--seed 0]``
(about 40 s per 100,000 hands on one core of the 2-core machine: the reference is
the slow side).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

import numpy as np
from numba import njit

from env121.rules.bonuses import WinSituation
from env121.rules.cards import NUM_CARDS, NUM_FIGURES, NUM_SUITS, format_card, format_cards
from env121.rules.compiled.config import KernelConfig, kernel_config
from env121.rules.compiled.public_cards import PublicCards
from env121.rules.compiled.scoring import score_win
from env121.rules.compiled.search import search, sort_six
from env121.rules.compiled.tables import BONUS_IDS, THE_IDS
from env121.rules.compiled.wins import is_win
from env121.rules.config import RuleConfig
from env121.rules.thes import THES, Table
from tests.support.scorer import achievable_thes, score_valid_hand

VARIANTS = {
    "default": RuleConfig(),
    "left_figures=1,3,5,7,9": RuleConfig(left_figures=frozenset({1, 3, 5, 7, 9})),
    "phe_phe_same_suits": RuleConfig(phe_phe_same_suits=True),
    "both": RuleConfig(left_figures=frozenset({2, 4, 6, 8, 10}), phe_phe_same_suits=True),
}
CHUNK = 10_000


def _table_cases() -> list[tuple[tuple[int, ...], tuple[int, ...], frozenset[int]]]:
    """The hand-built cases of ``tests/rules/test_patterns.py`` (a positive and a
    negative case of every Thế): (six cards, Chỉ Điểm and Ẩn Sĩ, the left figures
    the case is built for)."""
    from tests.rules.test_patterns import NEGATIVE, POSITIVE

    return [
        (h.cards, (h.chi_diem, *h.revealed), h.config.left_figures)
        for h in (p.values[0] for p in (*POSITIVE, *NEGATIVE))
    ]


TABLE_CASES = _table_cases()


def image(
    rng: np.random.Generator, cards: tuple[int, ...], left: frozenset[int], config: RuleConfig
) -> list[int]:
    """``cards`` under a random symmetry of the rules: the figures looking left
    (``left``) onto ``config``'s left figures in any order, the right ones onto
    its right ones; Kyoto and Edo kept or swapped; the regular suits by a
    permutation of the clans and one of the colors, clans and colors maybe
    exchanged. Groups and Thế stay groups and Thế (a Kyoto one may become its
    Edo twin, a Liên minh Phe a Đồng sắc one)."""
    figure = list(range(NUM_FIGURES))  # CREST stays CREST
    to_left = rng.permutation(sorted(config.left_figures))
    to_right = rng.permutation(sorted(config.right_figures))
    for f, g in zip(sorted(left), to_left, strict=True):
        figure[f] = int(g)
    for f, g in zip(sorted(set(range(1, NUM_FIGURES)) - left), to_right, strict=True):
        figure[f] = int(g)
    suit = [1, 0] if rng.random() < 0.5 else [0, 1]
    clans, colors, exchange = rng.permutation(3), rng.permutation(3), rng.random() < 0.5
    for s in range(2, NUM_SUITS):
        clan, color = divmod(s - 2, 3)
        if exchange:
            clan, color = color, clan
        suit.append(2 + 3 * int(clans[clan]) + int(colors[color]))
    return [NUM_SUITS * figure[c // NUM_SUITS] + suit[c % NUM_SUITS] for c in cards]


def deal(rng: np.random.Generator, n: int, config: RuleConfig) -> tuple[np.ndarray, np.ndarray]:
    """``n`` rows of 11 distinct cards (six for the hand, the Chỉ Điểm, four Ẩn
    Sĩ) and how many Ẩn Sĩ are revealed. A quarter each: uniform; from a small
    pool of figures and suits; eleven pairwise unrelated cards (one Ẩn Sĩ
    sometimes random); an image of a table case of ``test_patterns.py`` with its
    indicators (:func:`image`), one card sometimes replaced (a near miss)."""
    kind = np.arange(n) % 4
    n_an_si = rng.integers(0, 5, n)
    keys = rng.random((n, NUM_CARDS))
    fig = np.arange(NUM_CARDS) // NUM_SUITS
    suit = np.arange(NUM_CARDS) % NUM_SUITS
    figures = rng.random((n, NUM_FIGURES)) < rng.uniform(0.2, 0.4, (n, 1))
    suits = rng.random((n, NUM_SUITS)) < rng.uniform(0.3, 0.5, (n, 1))
    in_pool = figures[:, fig] & suits[:, suit]
    keys[kind == 1] += 2.0 * ~in_pool[kind == 1]  # pool cards first
    cards = np.argsort(keys, axis=1)[:, :11]
    for row in np.flatnonzero(kind >= 2):
        if kind[row] == 2:  # the figures matched to a permutation of the suits
            order = rng.permutation(NUM_FIGURES)
            dealt = list(NUM_SUITS * order + rng.permutation(NUM_SUITS)[order])
            replaced = 7 + int(rng.integers(4)) if rng.random() < 0.3 else -1
        else:
            hand, indicators, left = TABLE_CASES[rng.integers(len(TABLE_CASES))]
            dealt = image(rng, (*hand, *indicators), left, config)
            n_an_si[row] = len(indicators) - 1
            replaced = int(rng.integers(6)) if rng.random() < 0.2 else -1
            dealt[6:] = (
                dealt[6:]
                + [c for c in rng.permutation(NUM_CARDS) if c not in dealt][: 11 - len(dealt)]
            )
        if replaced >= 0:
            spare = [c for c in range(NUM_CARDS) if c not in dealt]
            dealt[replaced] = spare[rng.integers(len(spare))]
        cards[row] = dealt
        if kind[row] == 3:
            cards[row, :6] = rng.permutation(cards[row, :6])
    return cards, n_an_si


@njit(cache=True, nogil=True)
def _compiled(
    cards: np.ndarray,
    n_an_si: np.ndarray,
    flags: np.ndarray,
    kc: KernelConfig,
    results: np.ndarray,
    arrangements: np.ndarray,
) -> None:
    """Per row: score_win (6 numbers), is_win, and the search's mask, into ``results``."""
    for r in range(cards.shape[0]):
        six = cards[r, :6]
        locked, nhat_ban = flags[r, 0], flags[r, 1]
        valid, the, tier, points, bonuses, indicators = score_win(
            six,
            locked,
            nhat_ban,
            PublicCards(cards[r, 6], cards[r, 7:], n_an_si[r]),
            flags[r, 2],
            flags[r, 3],
            flags[r, 4],
            kc,
            arrangements[r],
        )
        results[r, 0] = valid
        results[r, 1] = the
        results[r, 2] = tier
        results[r, 3] = points
        results[r, 4] = bonuses
        results[r, 5] = indicators
        results[r, 6] = is_win(six, locked, kc)
        found, _ = search(sort_six(six), kc.left_figures, kc.phe_phe_same_suits, 0)
        results[r, 7] = found


def run_chunk(
    rng: np.random.Generator, n: int, config: RuleConfig, tally: Counter[str]
) -> list[str]:
    """Compare ``n`` hands under ``config``; the differences, in words."""
    cards, n_an_si = deal(rng, n, config)
    flags = rng.random((n, 5)) < np.array([0.2, 0.2, 0.3, 0.3, 0.3])
    flags[flags[:, 0], 1] = False  # never locked and Nhất Bản at once
    for r in np.flatnonzero(flags[:, 1] & (rng.random(n) < 0.5)):
        hand = tuple(int(c) for c in cards[r, :6])
        table = Table(config, int(cards[r, 6]), tuple(int(c) for c in cards[r, 7 : 7 + n_an_si[r]]))
        won = score_valid_hand(hand, table, WinSituation(config))
        if won is not None:
            cards[r, :6] = won.arrangement  # an order that has its Thế
    results = np.zeros((n, 8), dtype=np.int64)
    arrangements = np.zeros((n, 6), dtype=np.int64)
    _compiled(cards, n_an_si, flags, kernel_config(config), results, arrangements)
    problems = []
    for r in range(n):
        hand = tuple(int(c) for c in cards[r, :6])
        an_si = tuple(int(c) for c in cards[r, 7 : 7 + n_an_si[r]])
        locked, nhat_ban, dealer, self_drawn, last_card = (bool(f) for f in flags[r])
        table = Table(config, int(cards[r, 6]), an_si)
        situation = WinSituation(config, dealer=dealer, self_drawn=self_drawn, last_card=last_card)
        score = score_valid_hand(hand, table, situation, locked=locked, nhat_ban=nhat_ban)
        valid, the, tier, points, bonuses, indicators, won, found = results[r].tolist()
        got = (
            (
                THE_IDS[the] if the >= 0 else None,
                tier,
                points,
                frozenset(b for i, b in enumerate(BONUS_IDS) if bonuses >> i & 1),
                indicators,
                tuple(arrangements[r].tolist()),
            )
            if valid
            else None
        )
        expected = (
            None
            if score is None
            else (
                score.the,
                score.tier,
                score.points,
                score.bonuses,
                score.indicator_points,
                score.arrangement,
            )
        )
        thes = set(achievable_thes(tuple(sorted(hand)), config))
        found_ids = {i for t, i in enumerate(THE_IDS) if found >> t & 1}
        tally["hands"] += 1
        tally["wins"] += score is not None
        for the_id in thes:
            tally["found " + the_id] += 1
        if score is not None:
            tally["reported " + str(score.the)] += 1
        if not nhat_ban and bool(won) != (score is not None):
            problems.append(f"[{format_cards(hand)}] is_win {bool(won)}, not {score is not None}")
        if got != expected or found_ids != thes:
            problems.append(
                f"[{format_cards(hand)}] chi {format_card(int(cards[r, 6]))} an_si "
                f"[{format_cards(an_si)}] flags {flags[r].tolist()} {config}: "
                f"compiled {got} {sorted(found_ids)}, reference {expected} {sorted(thes)}"
            )
    return problems


def main() -> None:
    """Run the comparison and print the tally."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    tally: Counter[str] = Counter()
    problems: list[str] = []
    start = time.perf_counter()
    done = 0
    while done < args.hands:
        for config in VARIANTS.values():
            n = min(CHUNK, args.hands - done)
            if n <= 0:
                break
            problems += run_chunk(rng, n, config, tally)
            done += n
    elapsed = time.perf_counter() - start
    print(
        f"{tally['hands']:,} hands ({len(VARIANTS)} rule variants, seed {args.seed}), "
        f"{tally['wins']:,} wins, {len(problems)} differences, {elapsed:.0f} s"
    )
    print(f"{'Thế':<34} {'found':>10} {'reported':>10}   (found: by the search; - : decided")
    print(f"{'':<58}by the indicators)")
    for the in THES:
        found = "-" if the.needs_chi_diem else f"{tally['found ' + the.id]:,}"
        print(f"{the.id:<34} {found:>10} {tally['reported ' + the.id]:>10,}")
    print(f"{'(Nhất Bản, no Thế)':<34} {'':>10} {tally['reported None']:>10,}")
    for problem in problems[:20]:
        print(problem)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
