"""The arena's two ways of playing a tournament, side by side in one run.
Prints numbers; asserts only that both ways gave every game the same record.

Usage::

    .venv/bin/python benchmarks/bench_arena.py [--deals N] [--vs CHALLENGER REFERENCE]...

For each matchup (default: ``greedy`` vs 3× ``random`` and ``ppo:scratch``
vs 3× ``greedy``, full matches of the default rules), the same planned
tournament is played

* **one game at a time**: each game by the readable definition of an arena
  game (``tests/support/arena_reference.py``: the one-match engine, every
  agent asked ``act(turn)``) — how the arena played every game before it had
  the compiled path;
* **by the arena**: the games on the compiled engine, each agent deciding for
  all its games in one batched call (:mod:`arena.batched`),

in this process (``jobs=1``). The games/s of both and their ratio are
printed, with each agent's mean ms per decision; the batched policies' first
calls (numba's compilation, torch's first pass) are made before the timing,
as the arena makes them.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import time

from arena.play import GameRecord
from arena.tournament import TournamentResult, plan_tournament, play_tournament
from tests.support.arena_reference import play_game

MATCHUPS = [("greedy", "random"), ("ppo:scratch", "greedy")]


def without_time(game: GameRecord) -> GameRecord:
    """``game`` with its wall-clock fields zeroed."""
    seats = tuple(dataclasses.replace(seat, think_seconds=0.0) for seat in game.seats)
    return dataclasses.replace(game, seats=seats)


def decision_ms(result: TournamentResult) -> str:
    """Each agent's mean ms per decision, ``greedy 0.013, random 0.002``."""
    (_, agents) = result.tables[0]
    return ", ".join(
        f"{result.shown(label)} {stats.metrics['decision_ms'].mean:.3f}"
        for label, stats in agents.items()
    )


def bench(matchup: tuple[str, str], deals: int) -> None:
    warm = plan_tournament(matchups=[matchup], deals=1, seed=1)
    play_tournament(warm)  # compile and load outside the timing (the arena warms per process)
    plan = plan_tournament(matchups=[matchup], deals=deals, seed=0)
    start = time.perf_counter()
    alone = [play_game(task, plan.cache) for task in plan.tasks]
    alone_seconds = time.perf_counter() - start
    start = time.perf_counter()
    together = play_tournament(plan_tournament(matchups=[matchup], deals=deals, seed=0))
    together = dataclasses.replace(together, seconds=time.perf_counter() - start)
    same = [without_time(g) for g in alone] == [without_time(g) for g in together.games]
    assert same, "the two ways gave a game different records"
    games = len(together.games)
    print(f"{matchup[0]} vs 3× {matchup[1]}: {games} games ({deals} deals), records equal")
    alone_rate = games / alone_seconds
    print(f"  {'one game at a time':20} {alone_rate:8.2f} games/s  ({alone_seconds:6.1f} s)")
    print(
        f"  {'by the arena':20} {games / together.seconds:8.2f} games/s  "
        f"({together.seconds:6.1f} s)  ms/decision: {decision_ms(together)}"
    )
    print(f"  speed-up            {alone_seconds / together.seconds:8.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=16)
    parser.add_argument("--vs", nargs=2, action="append", metavar=("CHALLENGER", "REFERENCE"))
    args = parser.parse_args()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{os.cpu_count()} CPUs, load average {load} (1, 5, 15 min)")
    for matchup in [tuple(pair) for pair in args.vs] if args.vs else MATCHUPS:
        bench((matchup[0], matchup[1]), args.deals)


if __name__ == "__main__":
    main()
