"""Speed of the PettingZoo environment beside two PettingZoo classic peers.

Usage::

    .venv/bin/python benchmarks/bench_env.py [--seconds S] [--profile]

Each environment is played for about S seconds (default 10) by uniform-random
legal agents through the full AEC API, exactly the same loop for all three::

    env.reset(seed=episode)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else policy(obs, obs["action_mask"])

where ``policy`` is a :class:`~env121.play.random_agent.RandomAgent` (a
uniformly random legal id of the mask).
        env.step(action)

``steps/s`` counts every ``env.step`` call (the final ``None`` steps of
finished agents included, for every environment alike). ``env121_v1`` plays
one-ván matches (the default ``RuleConfig``), so its episodes/s are its
ván/s. Peers: ``texas_holdem_v4`` and ``connect_four_v3`` from
``pettingzoo[classic]``, in the same run. A warm-up episode of each runs
first. ``--profile`` then runs ``env121_v1`` under cProfile and prints where
the time goes. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import io
import pstats
import time
from collections.abc import Callable
from typing import Any

import env121
from env121.play.random_agent import RandomAgent


def play(
    make_env: Callable[[], Any], seconds: float, seed: int, min_episodes: int = 0
) -> tuple[int, int, float]:
    """(steps, episodes, elapsed seconds) of random legal play for ``seconds``
    (and at least ``min_episodes`` episodes)."""
    env = make_env()
    policy = RandomAgent()
    policy.reset(seed)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or episodes < min_episodes:
        env.reset(seed=seed + episodes)
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            action = None if terminated or truncated else policy(obs, obs["action_mask"])
            env.step(action)
            steps += 1
        episodes += 1
    elapsed = time.perf_counter() - start
    env.close()
    return steps, episodes, elapsed


def peers() -> list[tuple[str, Callable[[], Any]]]:
    """The environments to time, ours first; peers missing from the venv are skipped."""
    found: list[tuple[str, Callable[[], Any]]] = [("env121_v1", env121.env)]
    for name in ("texas_holdem_v4", "connect_four_v3"):
        try:
            module = importlib.import_module(f"pettingzoo.classic.{name}")
        except ImportError as err:  # pragma: no cover - depends on the venv
            print(f"{name:<16} skipped: {err}")
            continue
        found.append((name, module.env))
    return found


def profile(seconds: float, seed: int, top: int) -> str:
    """cProfile of ``env121_v1`` random play, the ``top`` functions by own time
    and by cumulative time."""
    profiler = cProfile.Profile()
    profiler.enable()
    play(env121.env, seconds, seed)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs()
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def main() -> None:
    """Time every environment and print one line each, then the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds per environment")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--profile", action="store_true", help="then profile env121_v1")
    parser.add_argument("--top", type=int, default=25, help="rows of the profile")
    args = parser.parse_args()
    rates: dict[str, float] = {}
    for name, make_env in peers():
        play(make_env, 0.0, args.seed, min_episodes=1)  # warm-up
        steps, episodes, elapsed = play(make_env, args.seconds, args.seed)
        rates[name] = steps / elapsed
        unit = "ván/s" if name == "env121_v1" else "episodes/s"
        print(
            f"{name:<16} {steps / elapsed:>9,.0f} steps/s  {episodes / elapsed:>8.2f} {unit:<10}"
            f"  ({steps} steps, {episodes} episodes, {steps / max(episodes, 1):.0f} steps each)"
        )
    if "texas_holdem_v4" in rates:
        ratio = rates["env121_v1"] / rates["texas_holdem_v4"]
        print(f"env121_v1 / texas_holdem_v4 steps/s: {ratio:.2f}x (goal of issue 26: >= 3x)")
    if args.profile:
        print(profile(args.seconds, args.seed, args.top))


if __name__ == "__main__":
    main()
