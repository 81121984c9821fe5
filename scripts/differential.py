"""The compiled engine (both faces) against the oracle, in lock-step, on many seeds.

Usage::

    .venv/bin/python scripts/differential.py [--vong 100000] [--jobs 2] [--games 32] [--seed 0]

Plays the cases of ``tests/engine/test_batched_differential.py``
(:data:`tests.support.batched.CASES`: every rule variant under policies that
reach the rare paths, and the scripted deals) round-robin, each run on
``--games`` new seeds, in ``--jobs`` processes, until ``--vong`` vòng have been
compared. Every step compares the seat to act, the legal actions and mask, the
events, results, rewards and the whole state; every finished match its ranks
and its record replayed on the reference (:func:`tests.support.batched.lockstep`).

Prints a progress line, then the count of vòng, steps, matches, records
replayed and differences, and how often each rare path was taken. Exits 1 when
any difference was found (the first ones are printed, each with its game,
seed and step).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Iterator
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.support, from anywhere

from tests.support.batched import CASES, POLICIES, RARE_PATHS, Tally, lockstep

Unit = tuple[int, str, int]
"""(run number, case name, games): run ``n`` plays seeds ``seed + n * games`` on."""


def run_unit(unit: Unit, seed: int) -> Tally:
    """One lock-step run of a case on its own seeds."""
    number, name, games = unit
    case = CASES[name]
    first = seed + number * games
    return lockstep(
        case.config,
        range(first, first + games),
        case.steps,
        POLICIES[case.policy],
        rng_seed=seed + number,
        scenario=case.scenario,
    )


def _units(games: int) -> Iterator[Unit]:
    for number, name in enumerate(itertools.cycle(CASES)):
        yield number, name, games


def _run(args: tuple[Unit, int]) -> Tally:
    return run_unit(*args)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vong", type=int, default=100_000, help="vòng to compare at least")
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    parser.add_argument("--games", type=int, default=32, help="games per lock-step run")
    parser.add_argument("--seed", type=int, default=0, help="first match seed")
    args = parser.parse_args()
    if args.vong < 1 or args.jobs < 1 or args.games < 1 or args.seed < 0:
        parser.error("--vong, --jobs and --games must be positive, --seed non-negative")
    total = Tally()
    start = time.perf_counter()
    work = ((unit, args.seed) for unit in _units(args.games))
    with Pool(args.jobs) as pool:
        for tally in pool.imap_unordered(_run, work):
            total.add(tally)
            elapsed = time.perf_counter() - start
            print(
                f"\r{total.vong:,} vòng, {total.steps:,} steps, {total.matches:,} matches, "
                f"{len(total.differences)} differences, {elapsed:,.0f} s",
                end="",
                file=sys.stderr,
                flush=True,
            )
            if total.vong >= args.vong:
                pool.terminate()
                break
    print(file=sys.stderr)
    elapsed = time.perf_counter() - start
    print(
        f"differential: {total.vong:,} vòng, {total.steps:,} steps, {total.matches:,} matches, "
        f"{total.records_replayed:,} records replayed, {len(total.differences)} differences "
        f"({elapsed:,.0f} s, {args.jobs} processes)"
    )
    print("rare paths: " + ", ".join(f"{p} {total.paths[p]:,}" for p in RARE_PATHS))
    for difference in total.differences[:10]:
        print(f"  {difference}")
    return 1 if total.differences else 0


if __name__ == "__main__":
    sys.exit(main())
