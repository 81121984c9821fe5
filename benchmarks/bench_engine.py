"""Engine speed with uniform-random legal play. Prints numbers; asserts nothing.

Run from the repository root (``python -m benchmarks.bench_engine``): the
oracle row imports the tests' ``tests.support.oracle``.

Usage::

    .venv/bin/python benchmarks/bench_engine.py [--van N] [--seed S]

Measures, over N seeded one-ván matches (12 vòng each):

* decisions/s — on the kernel's one-match face (:mod:`env121.engine.game`),
  and on the oracle (the Python transitions of the tests) in the same run:
  ``legal_actions`` + the random player's choice
  (:meth:`~env121.play.random_agent.RandomAgent.choose`) + ``apply``, per
  action: the engine alone, timed as the peer is;
* ván/s — whole matches from ``new_game`` to the end;
* clone/s — :meth:`State.clone` of a mid-vòng state (search agents' cost);
* determinizations/s — :func:`env121.engine.view.sample_determinization`;
* the peer: RLCard's four-player Mahjong *game* object (its rules engine, no
  feature encoding) under uniform-random legal play, in the same run.

The first matches warm the scorer's caches; the numbers are for the rest.
"""

from __future__ import annotations

import argparse
import time
from types import ModuleType

import numpy as np

from env121.engine import game
from env121.engine.game import new_game
from env121.engine.view import sample_determinization
from env121.play.match import play_agents
from env121.play.random_agent import random_players
from env121.rules.config import RuleConfig
from tests.support import oracle


def bench_matches(
    van: int, seed: int, config: RuleConfig, engine: ModuleType = game
) -> tuple[float, float, int]:
    """(decisions/s, ván/s, decisions) over ``van`` random one-ván matches: the
    random players of ``env121 play`` on the bare engine (``engine``: the
    kernel's one-match face :mod:`env121.engine.game`, or the oracle of the
    tests, which has the same API), timed as RLCard's game is
    (:func:`env121.play.match.play_agents` would add its ``Turn`` per
    decision and the legality check, the same actions)."""
    decisions = 0
    start = time.perf_counter()
    for s in range(seed, seed + van):
        state = engine.new_game(s, config)
        player = random_players(s)[0]
        while not state.is_over:
            engine.apply(state, player.choose(engine.legal_actions(state)))
        decisions += len(state.actions)
    elapsed = time.perf_counter() - start
    return decisions / elapsed, van / elapsed, decisions


def bench_rlcard_mahjong(games: int, seed: int) -> tuple[float, float]:
    """(decisions/s, games/s) of RLCard's Mahjong game engine, random legal play."""
    from rlcard.games.mahjong.game import MahjongGame

    rng = np.random.default_rng(seed)
    game = MahjongGame()
    game.np_random = rng
    decisions = 0
    start = time.perf_counter()
    for _ in range(games):
        state, _ = game.init_game()
        while not game.is_over():
            legal = game.get_legal_actions(state)
            state, _ = game.step(legal[int(rng.integers(len(legal)))])
            decisions += 1
    elapsed = time.perf_counter() - start
    return decisions / elapsed, games / elapsed


def bench_clone_and_determinize(seed: int, repeats: int) -> tuple[float, float]:
    """(clones/s, determinizations/s) on a state 60 actions into a match."""
    rng = np.random.default_rng(seed)
    state = new_game(seed)
    play_agents(state, random_players(seed), until=lambda st: len(st.actions) >= 60)
    start = time.perf_counter()
    for _ in range(repeats):
        state.clone()
    clones = repeats / (time.perf_counter() - start)
    start = time.perf_counter()
    for _ in range(repeats // 10):
        sample_determinization(state, state.current_player, rng)
    determinizations = (repeats // 10) / (time.perf_counter() - start)
    return clones, determinizations


def main() -> None:
    """Run the benchmark and print one line per measure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--van", type=int, default=40, help="matches (one ván each) to time")
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    bench_matches(5, args.seed - 5, RuleConfig())  # warm-up
    for name, config in (
        ("default rules", RuleConfig()),
        ("nhat_ban_requires_wait=False", RuleConfig(nhat_ban_requires_wait=False)),
        ("mask_invalid_win=False", RuleConfig(mask_invalid_win=False)),
    ):
        per_s, van_s, n = bench_matches(args.van, args.seed, config)
        print(
            f"{name:<30} {per_s:>9,.0f} decisions/s  {van_s:>6.2f} ván/s  "
            f"({n} decisions in {args.van} ván)"
        )
    per_s, van_s, n = bench_matches(args.van, args.seed, RuleConfig(), oracle)
    print(
        f"{'the oracle (Python), default':<30} {per_s:>9,.0f} decisions/s  {van_s:>6.2f} ván/s  "
        f"({n} decisions in {args.van} ván)"
    )
    per_s, games_s = bench_rlcard_mahjong(args.van * 12, args.seed)
    print(f"{'peer: RLCard Mahjong game':<30} {per_s:>9,.0f} decisions/s  {games_s:>6.2f} games/s")
    clones, dets = bench_clone_and_determinize(args.seed, 20_000)
    print(f"{'State.clone':<30} {clones:>9,.0f} /s")
    print(f"{'sample_determinization':<30} {dets:>9,.0f} /s")


if __name__ == "__main__":
    main()
