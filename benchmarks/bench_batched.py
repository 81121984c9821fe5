"""The batched engine's figures of issue 15, side by side with its peers in one run.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.bench_batched [--van N] [--batch B] [--steps S] [--obs-steps K]
        [--greedy-batch B]

Rows, all measured in this run; prints numbers, asserts nothing:

* **reference engine** — uniform-random legal play on :mod:`env121.engine.game`,
  decisions/s (:func:`benchmarks.bench_engine.bench_matches`, ``N`` one-ván
  matches after a warm-up);
* **RLCard Mahjong** — its game engine under uniform-random legal play
  (:func:`benchmarks.bench_engine.bench_rlcard_mahjong`, ``12 N`` games);
  skipped with the reason when ``rlcard`` is not installed;
* **batched engine** — uniform-random legal play of ``B`` games at once in the
  compiled loop ``BatchedEngine(B).play_random(steps, seed) -> decisions`` of
  :mod:`env121.engine.batched`, after a warm-up call (its compilation);
  "not available yet" while the package has no such loop;
* **observations** — :func:`env121.play.batched_observation.encode_observations`
  of the seat to act of B = 256 and ``B`` games, one call after each compiled
  random step, observations/s (and the share of win tables computed, not
  cached), next to ``encode_observation`` along the reference's random play;
* **greedy vs greedy** — one-ván matches with all four seats played by greedy:
  ``--greedy-batch`` games of the batched engine with
  :class:`agents.batched_greedy.BatchedGreedy` choosing every action, played
  until every game has finished its first match (:func:`bench_greedy`, after
  a warm-up call); ván/s = decisions/s ÷ the mean decisions of those first
  matches. Next to :class:`agents.greedy.GreedyAgent` in every seat through
  :func:`env121.play.match.play_agents`, ``N // 5`` matches;
* **swap_wins** — the ``swap_wins`` input part
  (:func:`agents.batched_hints.encode_swap_wins`) of the seat to act in all
  ``B`` games, one call after each compiled random step (:func:`bench_swap_wins`),
  decisions/s and the share of them in OFFER (the rest are zeros); next to
  the reference Hinter's :func:`agents.hints.swap_wins` along the reference's
  random play;
* **deals** — the compiled deal (:func:`env121.engine.kernel.rng.deal_into`,
  called from a compiled loop) and :meth:`Deal.from_seed
  <env121.engine.deal.Deal.from_seed>`, deals/s;
* **vector env** — learner steps/s of the batched vector environment
  (:class:`agents.environments.VectorSingleSeat`, one learning seat in each
  of B = 64, 256 and ``B`` games) with ``random`` and ``greedy`` opponents,
  the learners playing uniformly random legal actions; observations and
  masks included;
* **MaskablePPO** — learner steps/s of sb3-contrib's ``MaskablePPO``
  (``MlpPolicy`` [128, 128], 4096 steps a rollout, batch 256, 5 epochs: the
  ``small`` preset's) learning ``--ppo-steps`` steps against ``random``
  opponents, on the batched vector environment of 64 games
  (:class:`training.sb3_vec.SB3VectorSingleSeat`) and on two ``SingleSeat``
  processes (``SubprocVecEnv``, the training presets' way), rollouts and
  updates included, torch on one thread;
* **cold start** — seconds for importing the batched engine and the encoder,
  then for a first random step, a first ``step`` and a first batch of
  observations, each in a fresh Python process: *cold* with numba's cache in
  an empty directory (``ENV121_CACHE_DIR``, so every kernel compiles), *warm*
  with the cache that the cold process filled. numba compiles on a kernel's
  first call, so the first steps are where compilation shows.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
from numba import njit
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import SubprocVecEnv, VecEnv

import env121.engine.batched
from agents.batched_greedy import BatchedGreedy
from agents.batched_hints import SWAP_WINS_SIZE, encode_swap_wins
from agents.environments import SingleSeat, VectorSingleSeat
from agents.weights import one_thread
from benchmarks.bench_engine import bench_matches, bench_rlcard_mahjong
from env121.engine.batched import BatchedEngine
from env121.engine.deal import HAND_SIZE, NOC_SIZE, NUM_AN_SI, NUM_SEATS, Deal
from env121.engine.game import apply, legal_actions, new_game
from env121.engine.kernel.record import PHASES
from env121.engine.kernel.rng import deal_into
from env121.engine.state import Phase
from env121.play.batched_observation import encode_observations, make_observer
from env121.play.match import play_agents
from env121.play.observation import OBS_SIZE
from env121.play.turn import Turn
from env121.rules.config import RuleConfig
from tests.support.greedy import GreedyAgent
from tests.support.hints import swap_wins
from tests.support.observation_oracle import encode_observation
from training.sb3_vec import SB3VectorSingleSeat

_START_PROGRAM = """
import time
start = time.perf_counter()
import numpy as np
from env121.engine.batched import BatchedEngine
from env121.play.batched_observation import encode_observations, make_observer
from env121.play.observation import OBS_SIZE
imported = time.perf_counter()
engine = BatchedEngine(8)
engine.play_random(1, 0)
engine.step(engine.games["legal"][:, 0])
out = np.empty((8, OBS_SIZE), dtype=np.float32)
encode_observations(engine.games, engine.to_act, out, make_observer(8))
print(imported - start, time.perf_counter() - imported)
"""
"""Prints the seconds of the import and of the first steps and observations
that follow it (every kernel of the engine and the encoder compiled or loaded)."""


def bench_batched_random(batch: int, steps: int, seed: int) -> float | None:
    """Decisions/s of the batched engine's compiled random play, or ``None``
    while :mod:`env121.engine.batched` has no ``BatchedEngine.play_random``."""
    engine_type = getattr(env121.engine.batched, "BatchedEngine", None)
    if engine_type is None or not hasattr(engine_type, "play_random"):
        return None
    engine = engine_type(batch)
    engine.play_random(1, seed)  # warm-up: compiles or loads the kernels
    start = time.perf_counter()
    decisions = engine.play_random(steps, seed)
    return float(decisions) / (time.perf_counter() - start)


def bench_observations(batch: int, steps: int, seed: int) -> tuple[float, float]:
    """(observations/s of :func:`~env121.play.batched_observation.encode_observations`
    for the seat to act of ``batch`` games, one call after each of ``steps``
    compiled random steps; the share of them whose ``win_points`` was
    computed, not cached)."""
    engine = BatchedEngine(batch)
    observer = make_observer(batch)
    out = np.empty((batch, OBS_SIZE), dtype=np.float32)
    engine.play_random(1, seed)  # warm-up: compiles or loads the kernels
    encode_observations(engine.games, engine.to_act, out, observer)
    elapsed, computed = 0.0, 0
    for k in range(steps):
        engine.play_random(1, seed + k)
        keys = observer.win_keys.copy()
        start = time.perf_counter()
        encode_observations(engine.games, engine.to_act, out, observer)
        elapsed += time.perf_counter() - start
        computed += int(np.count_nonzero((observer.win_keys != keys).any(axis=2)))
    return batch * steps / elapsed, computed / (batch * steps)


def bench_reference_observations(count: int, seed: int) -> float:
    """``encode_observation``/s of the seat to act along the reference's random
    play (``count`` decisions, after as many to warm its win-table cache)."""
    state, rng, elapsed = new_game(seed), np.random.default_rng(seed), 0.0
    for n in range(2 * count):
        if n == count:
            elapsed = 0.0  # the first half warmed the cache
        start = time.perf_counter()
        encode_observation(state, state.current_player)
        elapsed += time.perf_counter() - start
        apply(state, int(rng.choice(legal_actions(state))))
        if state.is_over:
            state = new_game(seed + n)
    return count / elapsed


def bench_greedy(batch: int, van: int, seed: int) -> tuple[float, float, float]:
    """(batched ván/s, batched decisions/s, reference ván/s) of greedy against
    greedy in one-ván matches (see the module docstring)."""
    engine = env121.engine.batched.BatchedEngine(batch)
    engine.reset(seed + np.arange(batch))
    greedy = BatchedGreedy()
    greedy.act(engine)  # warm-up: compiles or loads the kernels
    lengths = np.zeros(batch, dtype=np.int64)
    steps = 0
    start = time.perf_counter()
    while not lengths.all():
        ended = engine.step(greedy.act(engine)).terminated
        steps += 1
        lengths[ended & (lengths == 0)] = steps
    decisions = steps * batch / (time.perf_counter() - start)
    start = time.perf_counter()
    for s in range(seed, seed + van):
        play_agents(new_game(s), [GreedyAgent() for _ in range(NUM_SEATS)])
    reference = van / (time.perf_counter() - start)
    return decisions / lengths.mean(), decisions, reference


SWAP_WINS_PLAY = 40
"""Random steps played before :func:`bench_swap_wins` times its calls."""


def bench_swap_wins(batch: int, steps: int, seed: int) -> tuple[float, float]:
    """(decisions/s of :func:`~agents.batched_hints.encode_swap_wins` for the
    seat to act of ``batch`` games, one call after each of ``steps`` compiled
    random steps that follow :data:`SWAP_WINS_PLAY` others; the share of
    those decisions in OFFER)."""
    engine = BatchedEngine(batch)
    everyone = np.arange(batch, dtype=np.int64)
    out = np.empty((batch, SWAP_WINS_SIZE), dtype=np.float32)
    engine.play_random(SWAP_WINS_PLAY, seed)  # into the vòng, past the first asks
    encode_swap_wins(engine.games, everyone, engine.kernel_config, out)  # compiles or loads
    elapsed, offers = 0.0, 0
    for k in range(steps):
        engine.play_random(1, seed + k)
        offers += int(np.count_nonzero(engine.games["phase"] == PHASES.index(Phase.OFFER)))
        start = time.perf_counter()
        encode_swap_wins(engine.games, everyone, engine.kernel_config, out)
        elapsed += time.perf_counter() - start
    return batch * steps / elapsed, offers / (batch * steps)


def bench_reference_swap_wins(count: int, seed: int) -> tuple[float, float]:
    """(:func:`agents.hints.swap_wins`/s of the seat to act along the reference's
    random play, ``count`` decisions after as many to warm its win-table
    cache; the share of those decisions in OFFER)."""
    state, rng, elapsed, offers = new_game(seed), np.random.default_rng(seed), 0.0, 0
    for n in range(2 * count):
        if n == count:
            elapsed, offers = 0.0, 0  # the first half warmed the cache
        offers += state.phase == Phase.OFFER
        start = time.perf_counter()
        swap_wins(Turn(state, state.current_player))
        elapsed += time.perf_counter() - start
        apply(state, int(rng.choice(legal_actions(state))))
        if state.is_over:
            state = new_game(seed + n)
    return count / elapsed, offers / count


@njit(cache=True, nogil=True)
def _deal_many(first_seed: int, count: int) -> int:
    """Deal ``count`` vòng of consecutive seeds; the sum of their Chỉ Điểm
    (so that no deal can be left out)."""
    hands = np.empty((NUM_SEATS, HAND_SIZE), dtype=np.int8)
    an_si = np.empty(NUM_AN_SI, dtype=np.int8)
    noc = np.empty(NOC_SIZE, dtype=np.int8)
    total = 0
    for k in range(count):
        seed = np.uint64(first_seed + k)
        total += deal_into(seed, np.uint64(k % 3), np.uint64(k % 12), k % 4, 0, hands, an_si, noc)
    return total


def bench_deals(count: int, seed: int) -> tuple[float, float]:
    """(compiled deals/s, ``Deal.from_seed`` deals/s)."""
    _deal_many(seed, 1)  # warm-up: compiles or loads the kernel
    start = time.perf_counter()
    _deal_many(seed, count)
    compiled = count / (time.perf_counter() - start)
    reference_count = max(count // 100, 1)
    start = time.perf_counter()
    for k in range(reference_count):
        Deal.from_seed(seed + k, k % 3, k % 12, k % 4)
    reference = reference_count / (time.perf_counter() - start)
    return compiled, reference


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row of ``masks`` (bool ``[B, 131]``)."""
    picks: np.ndarray = np.argmax(masks * rng.random(masks.shape), axis=1)
    return picks


def bench_vector_env(batch: int, steps: int, opponents: str, seed: int) -> float:
    """Learner steps/s of ``VectorSingleSeat(batch, opponents)`` with random
    learners, over ``steps`` steps after a warm-up step."""
    envs = VectorSingleSeat(batch, opponents)
    envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    envs.step(random_legal(envs.action_masks(), rng))  # warm-up: loads the kernels
    start = time.perf_counter()
    for _ in range(steps):
        envs.step(random_legal(envs.action_masks(), rng))
    return batch * steps / (time.perf_counter() - start)


def bench_maskable_ppo(env: VecEnv, timesteps: int, seed: int) -> float:
    """Learner steps/s of ``MaskablePPO`` learning ``timesteps`` steps on ``env``
    (4096 steps a rollout, the ``small`` preset's network and update)."""
    env.reset()  # warm-up: starts the processes or loads the kernels
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=4096 // env.num_envs,
        batch_size=256,
        n_epochs=5,
        policy_kwargs={"net_arch": [128, 128]},
        seed=seed,
        device="cpu",
    )
    start = time.perf_counter()
    with one_thread():  # as the trainer's processes: two cores oversubscribed run torch slowly
        model.learn(timesteps)
    return timesteps / (time.perf_counter() - start)


def bench_maskable_ppo_envs(timesteps: int, seed: int) -> tuple[float, float]:
    """Learner steps/s of :func:`bench_maskable_ppo` against ``random`` on the
    batched vector env of 64 games and on two ``SingleSeat`` processes."""
    vector = bench_maskable_ppo(
        SB3VectorSingleSeat(VectorSingleSeat(64, "random")), timesteps, seed
    )
    processes = SubprocVecEnv([lambda: SingleSeat("random") for _ in range(2)])
    try:
        return vector, bench_maskable_ppo(processes, timesteps, seed)
    finally:
        processes.close()


def start_seconds(cache_dir: str) -> tuple[float, float]:
    """(import seconds, first-steps seconds) of a fresh process whose numba
    cache is ``cache_dir``."""
    env = dict(os.environ, ENV121_CACHE_DIR=cache_dir)
    out = subprocess.run(
        [sys.executable, "-c", _START_PROGRAM], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    return float(out[0]), float(out[1])


def main() -> None:
    """Run every row and print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--van", type=int, default=10, help="one-ván matches of the reference")
    parser.add_argument("--batch", type=int, default=1024, help="games of the batched engine")
    parser.add_argument("--steps", type=int, default=200, help="steps of the batched engine")
    parser.add_argument("--obs-steps", type=int, default=20, help="steps between observations")
    parser.add_argument("--greedy-batch", type=int, default=1024, help="games of batched greedy")
    parser.add_argument("--deals", type=int, default=200_000, help="compiled deals to time")
    parser.add_argument("--vector-steps", type=int, default=50, help="vector env steps to time")
    parser.add_argument("--ppo-steps", type=int, default=8192, help="MaskablePPO steps to time")
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()

    bench_matches(2, args.seed - 2, RuleConfig())  # warm-up
    per_s, _, n = bench_matches(args.van, args.seed, RuleConfig())
    print(f"{'reference engine, random':<30} {per_s:>12,.0f} decisions/s  ({n} decisions)")

    if importlib.util.find_spec("rlcard") is None:
        print(f"{'peer: RLCard Mahjong, random':<30} skipped: rlcard is not installed")
    else:
        per_s, _ = bench_rlcard_mahjong(args.van * 12, args.seed)
        print(f"{'peer: RLCard Mahjong, random':<30} {per_s:>12,.0f} decisions/s")

    batched = bench_batched_random(args.batch, args.steps, args.seed)
    name = f"batched engine, random, B={args.batch}"
    if batched is None:
        print(f"{name:<30} not available yet (env121.engine.batched has no BatchedEngine)")
    else:
        print(f"{name:<30} {batched:>12,.0f} decisions/s")

    reference = bench_reference_observations(2000, args.seed)
    print(f"{'observations: reference':<30} {reference:>12,.0f} obs/s  (encode_observation)")
    for batch in sorted({256, args.batch}):
        per_s, computed = bench_observations(batch, args.obs_steps, args.seed)
        print(
            f"{f'observations, B={batch}':<30} {per_s:>12,.0f} obs/s  ({per_s / reference:.0f}x; "
            f"win tables computed for {computed:.0%}, the rest cached)"
        )

    name = f"batched greedy, B={args.greedy_batch}"
    van_s, decisions_s, reference = bench_greedy(
        args.greedy_batch, max(args.van // 5, 1), args.seed
    )
    print(
        f"{name:<30} {van_s:>12,.1f} ván/s  ({decisions_s:,.0f} decisions/s); "
        f"GreedyAgent {reference:,.2f} ván/s ({van_s / reference:,.0f}x)"
    )

    per_s, offers = bench_swap_wins(args.batch, args.obs_steps, args.seed)
    reference, reference_offers = bench_reference_swap_wins(1000, args.seed)
    print(
        f"{f'swap_wins, B={args.batch}':<30} {per_s:>12,.0f} decisions/s  ({offers:.0%} in "
        f"OFFER); reference Hinter {reference:,.0f} decisions/s ({reference_offers:.0%} in "
        f"OFFER; {per_s / reference:.0f}x)"
    )

    compiled, reference = bench_deals(args.deals, args.seed)
    print(
        f"{'deals: compiled / reference':<30} {compiled:>12,.0f} deals/s  "
        f"Deal.from_seed {reference:,.0f} deals/s ({compiled / reference:.0f}x)"
    )

    for opponents in ("random", "greedy"):
        for batch in sorted({64, 256, args.batch}):
            per_s = bench_vector_env(batch, args.vector_steps, opponents, args.seed)
            name = f"vector env, {opponents}, B={batch}"
            print(f"{name:<30} {per_s:>12,.0f} learner steps/s")

    per_s, reference = bench_maskable_ppo_envs(args.ppo_steps, args.seed)
    print(f"{'MaskablePPO, vector env B=64':<30} {per_s:>12,.0f} learner steps/s")
    print(
        f"{'MaskablePPO, 2 SingleSeat procs':<30} {reference:>12,.0f} learner steps/s  "
        f"(vector env {per_s / reference:.1f}x)"
    )

    with tempfile.TemporaryDirectory() as cache_dir:
        cold = start_seconds(cache_dir)
        warm = start_seconds(cache_dir)
    for label, (imported, first_steps) in (("cold (empty cache)", cold), ("warm", warm)):
        print(
            f"{'start, ' + label:<30} {imported + first_steps:>12.2f} s  "
            f"(import {imported:.2f} s, first steps and observations {first_steps:.2f} s)"
        )


if __name__ == "__main__":
    main()
