"""Benchmark ``score_hand``: calls per second on random six-card hands.

Prints, measured in the same run on one core:

* ``env121.score_hand``, the public face over the compiled scorer, one Python
  call per hand (kernels loaded before timing), cold (empty cache) and warm
  (the same hands again: the face remembers its answers);
* the readable Python scorer it replaced (``tests/support/scorer.py``), cold
  (every hand scored for the first time, empty cache) and warm (the same hands
  again: its Thế search is cached);
* the 720-order brute force of ``tests/support/reference.py`` on a sample, as
  the peer figure: what a plain implementation of the spec costs;
* the compiled kernels of :mod:`env121.rules.compiled` next to the Python
  question they answer, each called in a numba loop over the same hands (as
  the batched engine calls them): the win check (``is_win`` against the
  Python ``may_have_the`` + ``score_valid_hand``), the score (``score_win``),
  and a seat's win table (``win_points``, on the first five cards of each hand,
  against its definition: the Python scorer on every card, cold cache).

Run: ``.venv/bin/python -m benchmarks.bench_scoring [--hands 20000]``
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence

import numpy as np
from numba import njit

from env121.rules.bonuses import WinSituation
from env121.rules.compiled.config import KernelConfig, kernel_config
from env121.rules.compiled.public_cards import PublicCards
from env121.rules.compiled.scoring import score_win
from env121.rules.compiled.win_table import win_points as compiled_win_points
from env121.rules.compiled.wins import is_win
from env121.rules.config import DEFAULT_CONFIG
from env121.rules.scoring import clear_score_cache, score_hand
from env121.rules.thes import Table
from tests.support.reference import reference_score
from tests.support.scorer import achievable_thes, may_have_the, score_valid_hand
from tests.support.scorer import score_hand as python_score_hand

Case = tuple[tuple[int, ...], int]


def random_cases(n: int, seed: int) -> list[Case]:
    """``n`` uniform random six-card hands, each with a Chỉ Điểm outside it."""
    rng = np.random.default_rng(seed)
    cases = []
    for _ in range(n):
        cards = rng.choice(121, size=7, replace=False)
        cases.append((tuple(int(c) for c in cards[:6]), int(cards[6])))
    return cases


def calls_per_second(cases: Sequence[Case], scorer: Callable[..., object]) -> float:
    """Calls per second of ``scorer(cards, chi_diem=...)`` over the cases."""
    start = time.perf_counter()
    for cards, chi in cases:
        scorer(cards, chi_diem=chi)
    return len(cases) / (time.perf_counter() - start)


def reference_is_win(cases: Sequence[Case]) -> float:
    """Calls per second of the reference engine's win check (``game.win_score``),
    cold cache."""
    situation = WinSituation(DEFAULT_CONFIG)
    achievable_thes.cache_clear()
    start = time.perf_counter()
    for cards, chi in cases:
        if may_have_the(cards):
            score_valid_hand(cards, Table(DEFAULT_CONFIG, chi), situation)
    return len(cases) / (time.perf_counter() - start)


def reference_win_tables(cases: Sequence[Case]) -> float:
    """Win tables per second of the table's definition, the Python scorer on each
    card outside the five and the Chỉ Điểm, cold cache."""
    situation = WinSituation(DEFAULT_CONFIG)
    achievable_thes.cache_clear()
    start = time.perf_counter()
    for cards, chi in cases:
        five = cards[:5]
        table = Table(DEFAULT_CONFIG, chi)
        for c in range(121):
            if c != chi and c not in five:
                score_valid_hand((*five, c), table, situation)
    return len(cases) / (time.perf_counter() - start)


@njit(cache=True, nogil=True)
def _is_win_loop(hands: np.ndarray, chi: np.ndarray, kc: KernelConfig) -> int:
    wins = 0
    for i in range(hands.shape[0]):
        wins += is_win(hands[i], False, kc)
    return wins


@njit(cache=True, nogil=True)
def _score_win_loop(hands: np.ndarray, chi: np.ndarray, kc: KernelConfig) -> int:
    an_si = np.zeros(4, dtype=np.int64)
    arrangement = np.zeros(6, dtype=np.int64)
    points = 0
    for i in range(hands.shape[0]):
        public = PublicCards(chi[i], an_si, 0)
        result = score_win(hands[i], False, False, public, False, False, False, kc, arrangement)
        points += result[3]
    return points


@njit(cache=True, nogil=True)
def _win_points_loop(hands: np.ndarray, chi: np.ndarray, kc: KernelConfig) -> int:
    an_si = np.zeros(4, dtype=np.int64)
    none = np.zeros(6, dtype=np.int64)
    out = np.zeros(121, dtype=np.int16)
    total = 0
    for i in range(hands.shape[0]):
        public = PublicCards(chi[i], an_si, 0)
        compiled_win_points(hands[i, :5], 5, none, 0, False, none, public, False, kc, out)
        total += out.sum()
    return total


def compiled_rates(cases: Sequence[Case]) -> dict[str, float]:
    """Hands per second of each compiled kernel (best of three runs, compiled first)."""
    hands = np.array([cards for cards, _ in cases], dtype=np.int64)
    chi = np.array([c for _, c in cases], dtype=np.int64)
    kc = kernel_config(DEFAULT_CONFIG)
    loops: dict[str, Callable[[np.ndarray, np.ndarray, KernelConfig], int]] = {
        "is_win": _is_win_loop,
        "score_win": _score_win_loop,
        "win_points": _win_points_loop,
    }
    rates = {}
    for name, loop in loops.items():
        loop(hands[:2], chi[:2], kc)  # compile, or load from the cache
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            loop(hands, chi, kc)
            best = min(best, time.perf_counter() - start)
        rates[name] = len(cases) / best
    return rates


def main() -> None:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--reference-hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    cases = random_cases(args.hands, args.seed)
    for scorer in (score_hand, python_score_hand):  # load the kernels, warm both up
        calls_per_second(random_cases(2_000, args.seed + 1), scorer)
    clear_score_cache()
    achievable_thes.cache_clear()
    rows = [
        ("env121.score_hand (compiled), cold cache", calls_per_second(cases, score_hand)),
        ("env121.score_hand (compiled), warm cache", calls_per_second(cases, score_hand)),
        ("Python scorer score_hand, cold cache", calls_per_second(cases, python_score_hand)),
        ("Python scorer score_hand, warm cache", calls_per_second(cases, python_score_hand)),
        (
            "brute force, 720 orders (tests/support/reference.py)",
            calls_per_second(cases[: args.reference_hands], reference_score),
        ),
    ]

    start = time.perf_counter()
    compiled = compiled_rates(cases)
    load = time.perf_counter() - start
    rows += [
        ("win check, Python (may_have_the + score, cold)", reference_is_win(cases)),
        ("win check, compiled is_win", compiled["is_win"]),
        ("score, compiled score_win", compiled["score_win"]),
        ("win table, Python scorer card by card (cold)", reference_win_tables(cases[:300])),
        ("win table, compiled win_points", compiled["win_points"]),
    ]

    wins = sum(score_hand(c, chi_diem=chi) is not None for c, chi in cases)
    print(f"{len(cases)} uniform random hands, {wins} of them wins (seed {args.seed})")
    for name, rate in rows:
        print(f"{name:<48} {rate:>12,.0f} calls/s")
    print(f"(compiled kernels: loaded or compiled, and timed, in {load:.1f} s)")


if __name__ == "__main__":
    main()
