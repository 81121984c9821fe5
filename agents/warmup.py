"""Compile the kernels a command uses ahead: ``env121 warmup``, the arena before its clock.

numba compiles a kernel on its first call, with every kernel it calls, and
caches them for the next process (:mod:`env121.rules.compiled.cache`). The
kernels fall in independent families (:data:`FAMILIES`), each compiled by one
call of its entry points: the batched engine (``engine``), greedy's batched
form (``greedy``), the observation encoder (``observation``), the network's
hint inputs (``hints``), the Python engine with a turn's seat record,
through greedy's single-game moves and a record written from a state's fields
(``reference``), and mc's search (``mc``).
A command warms only the families it uses (:func:`families_for`: a tournament
of greedy and random compiles neither the trainer's inputs nor the Python
engine's); ``env121 warmup`` compiles them
all, with ``--jobs J`` in J processes (:func:`warm_in_parallel`; the families
share the rule kernels, which each process compiles again: on the 2-core
machine two processes took 40% more CPU and longer than one,
``docs/first-run.md``). With a warm cache a family only loads (well under a
second).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from agents.registry import parse_spec
from env121.play.protocol import Agent

WARMUP_GAMES = 2
"""Games played side by side (more than one, so the engine's batch paths run)."""
WARMUP_STEPS = 8
"""Batched steps each warm-up takes (one call of an entry point compiles it whole)."""
REFERENCE_MOVES = 8
"""Moves greedy chooses, one game at a time, on the Python engine."""
MC_MOVES = 40
"""Moves mc chooses (enough for some with a real choice, which its search decides)."""


def _engine() -> None:
    """The batched engine: reset, legal actions, steps (each game's first legal action)."""
    from env121.engine.batched.engine import BatchedEngine

    engine = BatchedEngine(WARMUP_GAMES, threads=1)
    engine.reset(np.arange(WARMUP_GAMES, dtype=np.uint64))
    for _ in range(WARMUP_STEPS):
        engine.legal_mask()
        engine.step(engine.games["legal"][:, 0].astype(np.int64))


def _greedy() -> None:
    """Greedy's batched form (:class:`agents.batched_greedy.BatchedGreedy`)."""
    from agents.batched_greedy import BatchedGreedy
    from env121.engine.batched.engine import BatchedEngine

    engine = BatchedEngine(WARMUP_GAMES, threads=1)
    engine.reset(np.arange(WARMUP_GAMES, dtype=np.uint64))
    greedy = BatchedGreedy(threads=1)
    for _ in range(WARMUP_STEPS):
        engine.step(greedy.act(engine))


def _observation() -> None:
    """The observation encoder the networks read
    (:func:`env121.play.batched_observation.encode_seats`)."""
    from env121.engine.batched.engine import BatchedEngine
    from env121.play.batched_observation import encode_seats, make_observer
    from env121.play.observation import OBS_SIZE

    engine = BatchedEngine(WARMUP_GAMES, threads=1)
    engine.reset(np.arange(WARMUP_GAMES, dtype=np.uint64))
    observer = make_observer(WARMUP_GAMES, engine.config)
    observations = np.empty((WARMUP_GAMES, OBS_SIZE), dtype=np.float32)
    games = np.arange(WARMUP_GAMES, dtype=np.int64)
    seats = engine.games["to_act"].astype(np.int64)
    encode_seats(engine.games, games, seats, observer, observations)


def _hints() -> None:
    """The networks' hint inputs (:mod:`agents.batched_hints`), in both layouts the
    trainer writes them: each part alone (contiguous), and side by side in one array
    (column slices, as :class:`agents.batched_ppo.InputEncoder` writes them)."""
    from agents.batched_hints import (
        NB_WINS_SIZE,
        SWAP_WINS_SIZE,
        encode_nb_wins,
        encode_swap_wins,
        new_nb_memory,
    )
    from env121.engine.batched.engine import BatchedEngine

    engine = BatchedEngine(WARMUP_GAMES, threads=1)
    engine.reset(np.arange(WARMUP_GAMES, dtype=np.uint64))
    games = np.arange(WARMUP_GAMES, dtype=np.int64)
    memory = new_nb_memory(WARMUP_GAMES)
    swap_part = np.empty((WARMUP_GAMES, SWAP_WINS_SIZE), dtype=np.float32)
    nb_part = np.empty((WARMUP_GAMES, NB_WINS_SIZE), dtype=np.float32)
    parts = np.empty((WARMUP_GAMES, SWAP_WINS_SIZE + NB_WINS_SIZE), dtype=np.float32)
    for swap, nb in ((swap_part, nb_part), (parts[:, :SWAP_WINS_SIZE], parts[:, SWAP_WINS_SIZE:])):
        encode_swap_wins(engine.games, games, engine.kernel_config, swap)
        encode_nb_wins(engine.games, games, engine.kernel_config, memory, nb)


def _play_alone(agent: Agent, moves: int, *, search_allowed: bool = False) -> None:
    """Up to ``moves`` moves of ``agent`` in every seat of one game on the Python engine."""
    from env121.engine.game import apply, is_terminal, new_game
    from env121.play.turn import Turn

    state = new_game(seed=0)
    for _ in range(moves):
        if is_terminal(state):
            break
        turn = Turn(state, state.current_player, search_allowed=search_allowed)
        apply(state, agent.act(turn))


def _mc() -> None:
    """mc's search kernels (:mod:`agents.batched_mc`), with the smallest budget, and
    greedy's valuation of the swaps it keeps on a Cướp (the first offer with swaps)."""
    from agents.batched_greedy import swap_values
    from agents.greedy import GreedyAgent
    from agents.mc import MCAgent
    from env121.engine.actions import is_card_action
    from env121.engine.game import apply, kernel_config_of, new_game
    from env121.engine.state import Phase
    from env121.play.turn import Turn

    mc = MCAgent(budget=2)
    mc.reset(0)
    _play_alone(mc, MC_MOVES, search_allowed=True)
    state, greedy = new_game(seed=0), GreedyAgent()
    while True:
        turn = Turn(state, state.current_player)
        swaps = [a for a in turn.legal_actions if is_card_action(a)]
        if state.phase == Phase.OFFER and swaps:
            break
        apply(state, greedy.act(turn))
    swap_values(
        turn.seat_record(), kernel_config_of(state.config), np.array(swaps, dtype=np.int64), True
    )


def _reference() -> None:
    """The Python engine and a turn's seat record, through greedy's single-game moves,
    and a record written from a state's fields (a determinization's legal actions:
    the path of :mod:`agents.beliefs`, which judges decisions in drawn worlds)."""
    from agents.greedy import GreedyAgent
    from env121.engine.game import legal_actions, new_game
    from env121.engine.view import sample_determinization

    _play_alone(GreedyAgent(), REFERENCE_MOVES)
    legal_actions(sample_determinization(new_game(seed=0), 0, np.random.default_rng(0)))


FAMILIES: dict[str, Callable[[], None]] = {
    "engine": _engine,
    "greedy": _greedy,
    "observation": _observation,
    "hints": _hints,
    "reference": _reference,
    "mc": _mc,
}
"""The kernel families, each with what compiles it (one call of its entry points)."""
SPEC_FAMILIES: dict[str, tuple[str, ...]] = {
    "random": (),
    "greedy": ("greedy",),
    "ppo": ("observation", "hints"),
    "mc": ("reference", "mc"),
    "search": ("reference", "mc"),
    "oracle": ("reference", "mc"),
}
"""The families an agent of a batched form uses beside the engine (by agent name);
every other agent plays on the Python engine (``reference``)."""

_warmed: set[str] = set()
"""The families this process has warmed already."""


def families_for(specs: Iterable[str]) -> tuple[str, ...]:
    """The families a game between the agents of ``specs`` uses: the engine's,
    and each agent's (:data:`SPEC_FAMILIES`; ``reference`` for the others)."""
    chosen = {"engine"}
    for spec in specs:
        chosen.update(SPEC_FAMILIES.get(parse_spec(spec)[0], ("reference",)))
    return tuple(name for name in FAMILIES if name in chosen)


def warm_kernels(families: Sequence[str] = tuple(FAMILIES)) -> float:
    """Compile (or load from the cache) the kernels of ``families`` (all of them
    by default) not warmed in this process yet; returns the seconds it took."""
    unknown = sorted(set(families) - set(FAMILIES))
    if unknown:
        raise ValueError(f"no kernel family {unknown}: expected some of {list(FAMILIES)}")
    start = time.perf_counter()
    for name in families:
        if name not in _warmed:
            FAMILIES[name]()
            _warmed.add(name)
    return time.perf_counter() - start


def warm_in_parallel(families: Sequence[str] = tuple(FAMILIES), jobs: int = 1) -> float:
    """:func:`warm_kernels` of ``families``, one process per family, ``jobs`` at a
    time (one: all in this process), then loaded here; returns
    the seconds it took. The families share the rule kernels (the scorer, the
    Thế search): each process compiles those it reaches first, and numba's
    cache writes are atomic, so two processes writing one kernel is harmless."""
    start = time.perf_counter()
    todo = [name for name in families if name not in _warmed]
    jobs = min(len(todo), jobs)
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            list(pool.map(warm_kernels, [(name,) for name in todo]))
    warm_kernels(todo)
    return time.perf_counter() - start


__all__ = [
    "FAMILIES",
    "MC_MOVES",
    "REFERENCE_MOVES",
    "SPEC_FAMILIES",
    "WARMUP_GAMES",
    "WARMUP_STEPS",
    "families_for",
    "warm_in_parallel",
    "warm_kernels",
]
