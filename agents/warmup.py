"""Compile every kernel ahead: ``env121 warmup``, and the arena before its clock starts.

numba compiles a kernel on its first call and caches it for the next
process (:mod:`env121.rules.compiled.cache`). A kernel's first call compiles
the kernels it calls too, so calling each entry point once compiles them
all: :func:`warm_kernels` plays a few batched games with greedy's batched
form, encodes every network input part the agents read, and lets the
reference greedy choose a few moves (the Python engine's win table is the
compiled one). With a warm cache it only loads them (a few seconds).
"""

from __future__ import annotations

import time

import numpy as np

from agents.batched_greedy import BatchedGreedy
from agents.batched_hints import (
    NB_WINS_SIZE,
    SWAP_WINS_SIZE,
    encode_nb_wins,
    encode_swap_wins,
    new_nb_memory,
)
from agents.greedy import GreedyAgent
from env121.engine.batched.engine import BatchedEngine
from env121.engine.game import apply, is_terminal, new_game
from env121.play.batched_observation import encode_seats, make_observer
from env121.play.observation import OBS_SIZE
from env121.play.turn import Turn

WARMUP_GAMES = 4
"""Games played side by side (more than one, so the engine's batch paths run)."""
WARMUP_STEPS = 400
"""Batched steps: enough for every game to finish its first vòng."""
REFERENCE_MOVES = 40
"""Moves the reference greedy chooses on the Python engine."""


_warm = False
"""Whether this process has warmed its kernels already."""


def warm_kernels() -> float:
    """Compile (or load from the cache) the engine's, the observation's, the
    input parts' and greedy's kernels; returns the seconds it took (0 when
    this process did it before)."""
    global _warm
    if _warm:
        return 0.0
    start = time.perf_counter()
    engine = BatchedEngine(WARMUP_GAMES, threads=1)
    engine.reset(np.arange(WARMUP_GAMES, dtype=np.uint64))
    greedy = BatchedGreedy(threads=1)
    observer = make_observer(WARMUP_GAMES, engine.config)
    memory = new_nb_memory(WARMUP_GAMES)
    games = np.arange(WARMUP_GAMES, dtype=np.int64)
    observations = np.empty((WARMUP_GAMES, OBS_SIZE), dtype=np.float32)
    # numba compiles a kernel per array layout: the parts alone (contiguous) and side
    # by side in one array (column slices), as agents.batched_ppo.InputEncoder writes them
    swap_part = np.empty((WARMUP_GAMES, SWAP_WINS_SIZE), dtype=np.float32)
    nb_part = np.empty((WARMUP_GAMES, NB_WINS_SIZE), dtype=np.float32)
    parts = np.empty((WARMUP_GAMES, SWAP_WINS_SIZE + NB_WINS_SIZE), dtype=np.float32)
    for _ in range(WARMUP_STEPS):
        seats = engine.games["to_act"].astype(np.int64)
        encode_seats(engine.games, games, seats, observer, observations)
        for swap, nb in (
            (swap_part, nb_part),
            (parts[:, :SWAP_WINS_SIZE], parts[:, SWAP_WINS_SIZE:]),
        ):
            encode_swap_wins(engine.games, games, engine.kernel_config, swap)
            encode_nb_wins(engine.games, games, engine.kernel_config, memory, nb)
        engine.legal_mask()
        engine.step(greedy.act(engine))
    state = new_game(seed=0)
    reference = GreedyAgent()
    for _ in range(REFERENCE_MOVES):
        if is_terminal(state):
            break
        apply(state, reference.act(Turn(state, state.current_player)))
    _warm = True
    return time.perf_counter() - start


__all__ = ["REFERENCE_MOVES", "WARMUP_GAMES", "WARMUP_STEPS", "warm_kernels"]
