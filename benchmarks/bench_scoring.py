"""Benchmark ``score_hand``: calls per second on random six-card hands.

Prints, measured in the same run on one core:

* cold — every hand scored for the first time (empty cache),
* warm — the same hands scored again (the Thế search is cached),
* the 720-order brute force of ``tests/reference.py`` on a sample, as the
  peer figure: what a plain implementation of the spec costs.

Run: ``.venv/bin/python -m benchmarks.bench_scoring [--hands 20000]``
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence

import numpy as np

from env121.rules.scoring import score_hand
from env121.rules.search import achievable_thes

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


def main() -> None:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--reference-hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    cases = random_cases(args.hands, args.seed)
    achievable_thes.cache_clear()
    cold = calls_per_second(cases, score_hand)
    warm = calls_per_second(cases, score_hand)
    wins = sum(score_hand(c, chi_diem=chi) is not None for c, chi in cases)
    rows = [("env121.score_hand, cold cache", cold), ("env121.score_hand, warm cache", warm)]
    try:
        from tests.support.reference import reference_score
    except ImportError:  # run from an installed package without the tests
        pass
    else:
        sample = cases[: args.reference_hands]
        rows.append(
            (
                "brute force, 720 orders (tests/reference.py)",
                calls_per_second(sample, reference_score),
            )
        )

    print(f"{len(cases)} uniform random hands, {wins} of them wins (seed {args.seed})")
    for name, rate in rows:
        print(f"{name:<48} {rate:>12,.0f} calls/s")


if __name__ == "__main__":
    main()
