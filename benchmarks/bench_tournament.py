"""Whole tournament commands, timed beside ``texas_holdem_v4`` in the same run.

Usage::

    .venv/bin/python -m benchmarks.bench_tournament [--seconds S] [--vs A B --deals N]...

Each matchup (default: ``mc`` vs 3× ``greedy`` on 16 deals, ``greedy`` vs 3×
``random`` on 64) is played by the command a user types,
``env121 tournament --vs A B --deals N --seed 1``, in a fresh process: its
wall clock includes starting Python, the imports, loading the kernels (warm
cache: one warm-up run of each command comes first) and writing the results,
``results.png`` included. Its ván (every game is one match of
``RuleConfig().num_van`` ván) per second is printed beside the random-play
steps per second of PettingZoo's ``texas_holdem_v4`` (the AEC loop of
:mod:`benchmarks.bench_env`), measured before and after the commands, as
**ván per 1,000 texas steps** — a figure that machine load moves less than
either rate alone. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bench_env import play
from env121.rules.config import RuleConfig

MATCHUPS = ((("mc", "greedy"), 16), (("greedy", "random"), 64))
"""The matchups timed by default, with their deals."""


def texas_rate(seconds: float) -> float:
    """Random-play steps per second of ``texas_holdem_v4`` (after a warm-up episode)."""
    texas = importlib.import_module("pettingzoo.classic.texas_holdem_v4").env
    play(texas, 0.0, 1000, min_episodes=1)
    steps, _, elapsed = play(texas, seconds, 1000)
    return steps / elapsed


def tournament_seconds(challenger: str, reference: str, deals: int, out: Path) -> float:
    """Wall seconds of ``env121 tournament --vs challenger reference --deals N`` in a
    fresh process."""
    command = [
        *(sys.executable, "-m", "apps.cli", "tournament", "--vs", challenger, reference),
        *("--deals", str(deals), "--seed", "1", "--quiet", "--out", str(out)),
    ]
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds of texas each time")
    parser.add_argument("--vs", nargs=2, action="append", metavar=("CHALLENGER", "REFERENCE"))
    parser.add_argument("--deals", type=int, help="deals of each --vs matchup")
    args = parser.parse_args()
    matchups = [((a, b), args.deals or 16) for a, b in args.vs] if args.vs else [*MATCHUPS]
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{os.cpu_count()} CPUs, load average {load} (1, 5, 15 min)")
    texas = [texas_rate(args.seconds)]
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for n, ((challenger, reference), deals) in enumerate(matchups):
            tournament_seconds(challenger, reference, 1, Path(folder, f"warm-{n}"))
            seconds = tournament_seconds(challenger, reference, deals, Path(folder, str(n)))
            van = deals * 4 * RuleConfig().num_van
            rows.append((f"{challenger} vs 3× {reference}", deals, van, seconds))
    texas.append(texas_rate(args.seconds))
    rate = sum(texas) / len(texas)
    print(f"texas_holdem_v4: {texas[0]:,.0f} and {texas[1]:,.0f} steps/s (before, after)")
    for name, deals, van, seconds in rows:
        print(
            f"{name:<24} {deals:>4} deals  {van:>5} ván in {seconds:7.1f} s  "
            f"{van / seconds:8.2f} ván/s  {1000 * van / seconds / rate:7.2f} ván per 1,000 "
            "texas steps"
        )


if __name__ == "__main__":
    main()
