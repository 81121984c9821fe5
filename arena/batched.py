"""Play many arena games together on the compiled engine.

:func:`play_batch` plays a list of :class:`~arena.play.GameTask` at once on
one :class:`~env121.engine.batched.BatchedEngine`: game ``g`` of the engine is
task ``g``'s match (its deal seed, the engine's rotation 0, as
:func:`arena.play.play_game` deals it). At every step each agent acts for all
the games whose seat to act it holds, in one call, and the engine steps them
all; a finished game sits the later steps out. The :class:`~arena.play.GameRecord`
of each game is made from the kernel's arrays as it ends: the vòng results
(``res_*``), the Cướp and Nhất Bản events and the final standings and ranks.

Only agents with a batched form play here (:func:`batched_player`), each the
same player as its agent, game for game:

* ``random``: one :class:`~env121.play.random_agent.RandomAgent` per seat of
  each game, reset with the seat's seed, choosing from the game's legal list;
  the same draws as the agent's;
* ``greedy`` and ``ppo`` (argmax): one batched policy
  (:class:`agents.batched_greedy.BatchedGreedy`,
  :class:`agents.batched_ppo.BatchedPPO`) for all their seats; they draw
  nothing, and play the agent's action on every decision;
* ``ppo:…,deterministic=false``: the network once for all its games, then each
  seat samples the masked softmax from its own generator, as the agent does
  (:func:`agents.ppo.sample_legal`).

So a game's record is the one :func:`arena.play.play_game` makes (thinking
time aside), whichever games share its batch. Other agents (``mc``, a user's
own, a ``ppo`` network that reads the Python search hints) have only
``act(turn)``; :mod:`arena.execute` plays their games one by one with
:func:`arena.play.play_game`.

Thinking time: a call that decides ``n`` games in ``t`` seconds counts
``t / n`` for each of those decisions. Each batched policy is called once on
a one-game engine before its first batch in a process
(:meth:`BatchedPlayer.warm`), so numba's compilation and torch's first call
are never timed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, cast
from weakref import WeakSet

import numpy as np

from agents.registry import parse_spec
from arena.play import AgentCache, GameRecord, GameTask, SeatRecord
from env121.engine.batched import BatchedEngine
from env121.engine.kernel.convert import decode_events
from env121.engine.kernel.record import MATCH_ENDS, MAX_EVENTS, OUTCOMES, SWAP_KINDS
from env121.engine.kernel.transitions import EVENT_CLASSES, SIT_OUT
from env121.engine.state import (
    NUM_SEATS,
    Dealt,
    NhatBanDeclared,
    Outcome,
    SwapKind,
    Swapped,
)
from env121.play.batched_policy import BatchedPolicy
from env121.play.random_agent import RandomAgent
from env121.rules.config import RuleConfig

if TYPE_CHECKING:
    from agents.batched_ppo import BatchedPPO

_SWAPPED = EVENT_CLASSES.index(Swapped)
_NHAT_BAN_DECLARED = EVENT_CLASSES.index(NhatBanDeclared)
_CUOP = SWAP_KINDS.index(SwapKind.CUOP)
_SWAP_SEAT = 1 + Swapped._fields.index("seat")
"""Where in an event row (its code, then the event's fields in order) a field is."""
_SWAP_KIND = 1 + Swapped._fields.index("kind")
_DECLARER = 1 + NhatBanDeclared._fields.index("seat")
_WINS = np.array([outcome.is_win for outcome in OUTCOMES])
_DEN = OUTCOMES.index(Outcome.DEN)
_DRAW = OUTCOMES.index(Outcome.DRAW)
_WARM: WeakSet[object] = WeakSet()
"""The batched policies of this process that have made their first call."""


class BatchedPlayer(Protocol):
    """One agent spec's seats in the games of one batch."""

    def warm(self, config: RuleConfig) -> None:
        """Compile and load whatever its first call would (untimed)."""

    def sit(self, game: int, seat: int, seed: int) -> None:
        """Seat the agent in ``seat`` of ``game`` with its ``reset`` seed."""

    def act(self, engine: BatchedEngine, games: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """The actions (``int64``) of ``seats[k]``, to act in ``games[k]``."""
        ...


class SharedPolicy:
    """A batched policy that draws nothing: one object for all its seats."""

    def __init__(self, policy: BatchedPolicy) -> None:
        self.policy = policy

    def warm(self, config: RuleConfig) -> None:
        """The policy's first call, on a one-game engine (once per policy object)."""
        if self.policy not in _WARM:
            self.policy.act(BatchedEngine(1, config, threads=1), np.zeros(1, dtype=np.int64))
            _WARM.add(self.policy)

    def sit(self, game: int, seat: int, seed: int) -> None:
        """Nothing to seed."""

    def act(self, engine: BatchedEngine, games: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """The policy's actions in ``games``."""
        return self.policy.act(engine, games)


class RandomSeats:
    """``random``: a :class:`RandomAgent` per seat of each game."""

    def __init__(self) -> None:
        self.agents: dict[tuple[int, int], RandomAgent] = {}

    def warm(self, config: RuleConfig) -> None:
        """Nothing to compile."""

    def sit(self, game: int, seat: int, seed: int) -> None:
        """A new agent for the seat, reset with ``seed``."""
        agent = self.agents[(game, seat)] = RandomAgent()
        agent.reset(seed)

    def act(self, engine: BatchedEngine, games: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """Each seat's agent's choice among its game's legal actions."""
        legal = engine.games["legal"][games].tolist()
        counts = engine.games["n_legal"][games].tolist()
        return np.array(
            [
                self.agents[(g, s)].choose(legal[k][: counts[k]])
                for k, (g, s) in enumerate(zip(games.tolist(), seats.tolist(), strict=True))
            ],
            dtype=np.int64,
        )


class SamplingSeats:
    """``ppo:…,deterministic=false``: one forward pass for all its games, then a
    sample per seat from the seat's own generator (``default_rng(seed)``, as
    :meth:`agents.ppo.PolicyAgent.reset`)."""

    def __init__(self, policy: BatchedPPO) -> None:
        self.policy = policy
        self.rngs: dict[tuple[int, int], np.random.Generator] = {}

    def warm(self, config: RuleConfig) -> None:
        """The network's first call, on a one-game engine (once per policy object)."""
        if self.policy not in _WARM:
            self.policy.logits(BatchedEngine(1, config, threads=1), np.zeros(1, dtype=np.int64))
            _WARM.add(self.policy)

    def sit(self, game: int, seat: int, seed: int) -> None:
        """The seat's generator, seeded."""
        self.rngs[(game, seat)] = np.random.default_rng(seed)

    def act(self, engine: BatchedEngine, games: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """Each seat's sample of its game's masked softmax."""
        from agents.ppo import sample_legal  # torch: a ppo policy has loaded it

        logits = self.policy.logits(engine, games)
        actions = np.empty(len(games), dtype=np.int64)
        for k, (g, s) in enumerate(zip(games.tolist(), seats.tolist(), strict=True)):
            legal = np.flatnonzero(np.isfinite(logits[k]))
            actions[k] = sample_legal(legal, logits[k, legal], self.rngs[(g, s)])
        return actions


def batched_player(spec: str, cache: AgentCache) -> Callable[[], BatchedPlayer] | None:
    """What makes ``spec``'s :class:`BatchedPlayer` for a batch (its batched
    policy kept in ``cache``), or None if its agent has no batched form."""
    name, params = parse_spec(spec)
    if name == "random":
        return RandomSeats
    policy = cache.batched_policy(spec)
    if policy is None:
        return None
    if name == "ppo" and params.get("deterministic") is False:
        sampled = cast("BatchedPPO", policy)
        return lambda: SamplingSeats(sampled)
    return lambda: SharedPolicy(policy)


def play_batch(
    tasks: Sequence[GameTask],
    players: Callable[[str], BatchedPlayer],
    on_game: Callable[[GameRecord], None] | None = None,
) -> list[GameRecord]:
    """Every task's record, in task order, the games played together;
    ``players(spec)`` makes a fresh :class:`BatchedPlayer` of a spec for this
    batch, and ``on_game(record)`` is called as each game ends. The tasks must
    share one rule configuration."""
    if not tasks:
        return []
    config = tasks[0].config
    if any(task.config != config for task in tasks):
        raise ValueError("the tasks of one batch must share one RuleConfig")
    n = len(tasks)
    engine = BatchedEngine(n, config)
    engine.reset([task.deal_seed for task in tasks])
    seated: dict[str, int] = {}
    chosen: list[BatchedPlayer] = []
    owner = np.empty((n, NUM_SEATS), dtype=np.int64)
    for g, task in enumerate(tasks):
        for seat, (spec, seed) in enumerate(zip(task.specs, task.agent_seeds, strict=True)):
            if spec not in seated:
                seated[spec] = len(chosen)
                chosen.append(players(spec))
                chosen[-1].warm(config)
            owner[g, seat] = seated[spec]
            chosen[owner[g, seat]].sit(g, seat, seed)
    tally = _Tally(engine, tasks)
    records: list[GameRecord | None] = [None] * n
    actions = np.full(n, SIT_OUT, dtype=np.int64)
    active = np.arange(n)
    while active.size:
        seats = engine.to_act[active]
        who = owner[active, seats]
        for p in np.unique(who):
            mine = who == p
            games, their_seats = active[mine], seats[mine]
            start = time.perf_counter()
            actions[games] = chosen[p].act(engine, games, their_seats)
            tally.think[games, their_seats] += (time.perf_counter() - start) / len(games)
            tally.decisions[games, their_seats] += 1
        engine.step(actions)
        tally.count(active)
        ended = engine.games["terminated"][active]
        for g in active[ended].tolist():
            actions[g] = SIT_OUT
            record = records[g] = tally.record(g)
            if on_game is not None:
                on_game(record)
        active = active[~ended]
    return [record for record in records if record is not None]


class _Tally:
    """What each game of a batch did so far, counted from the kernel's arrays."""

    def __init__(self, engine: BatchedEngine, tasks: Sequence[GameTask]) -> None:
        n = len(tasks)
        self.engine = engine
        self.tasks = tasks
        self.decisions = np.zeros((n, NUM_SEATS), dtype=np.int64)
        self.think = np.zeros((n, NUM_SEATS))
        self.wins = np.zeros((n, NUM_SEATS), dtype=np.int64)
        self.win_points = np.zeros((n, NUM_SEATS), dtype=np.int64)
        self.den = np.zeros((n, NUM_SEATS), dtype=np.int64)
        self.cuop = np.zeros((n, NUM_SEATS), dtype=np.int64)
        self.nhat_ban = np.zeros((n, NUM_SEATS), dtype=np.int64)
        self.vong = np.zeros(n, dtype=np.int64)
        self.draws = np.zeros(n, dtype=np.int64)
        self.first_hands = [_first_hands(engine, g) for g in range(n)]

    def count(self, active: np.ndarray) -> None:
        """Add the last step's vòng results and events of the games ``active``."""
        games = self.engine.games
        ended = active[games["vong_ended"][active]]
        if ended.size:
            outcome = games["res_outcome"][ended]
            seat = games["res_seat"][ended]
            self.vong[ended] += 1
            won = _WINS[outcome]
            self.wins[ended[won], seat[won]] += 1
            self.win_points[ended[won], seat[won]] += games["res_points"][ended[won]]
            den = outcome == _DEN
            self.den[ended[den], seat[den]] += 1
            self.draws[ended[outcome == _DRAW]] += 1
        rows = games["events"][active]
        listed = np.arange(MAX_EVENTS) < games["n_events"][active][:, None]
        code = rows[:, :, 0]
        k, e = np.nonzero(listed & (code == _SWAPPED) & (rows[:, :, _SWAP_KIND] == _CUOP))
        np.add.at(self.cuop, (active[k], rows[k, e, _SWAP_SEAT]), 1)
        k, e = np.nonzero(listed & (code == _NHAT_BAN_DECLARED))
        np.add.at(self.nhat_ban, (active[k], rows[k, e, _DECLARER]), 1)

    def record(self, g: int) -> GameRecord:
        """Game ``g``'s record, its match just ended."""
        r = self.engine.games[g]
        task = self.tasks[g]
        seats = tuple(
            SeatRecord(
                standing=int(r["final_standings"][s]),
                rank=int(r["final_ranks"][s]),
                wins=int(self.wins[g, s]),
                win_points=int(self.win_points[g, s]),
                cuop=int(self.cuop[g, s]),
                nhat_ban=int(self.nhat_ban[g, s]),
                den=int(self.den[g, s]),
                decisions=int(self.decisions[g, s]),
                think_seconds=float(self.think[g, s]),
            )
            for s in range(NUM_SEATS)
        )
        return GameRecord(
            deal=task.deal,
            lineup=task.lineup,
            rotation=task.rotation,
            van=task.config.num_van,
            vong=int(self.vong[g]),
            draws=int(self.draws[g]),
            end=MATCH_ENDS[r["final_match_end"]],
            seats=seats,
            first_hands=self.first_hands[g],
        )


def _first_hands(engine: BatchedEngine, g: int) -> tuple[tuple[int, ...], ...]:
    """The five cards each seat of game ``g`` was dealt (its opening events)."""
    hands = {e.seat: e.cards for e in decode_events(engine.games[g]) if isinstance(e, Dealt)}
    return tuple(tuple(int(c) for c in hands[s]) for s in range(NUM_SEATS))


__all__ = [
    "BatchedPlayer",
    "RandomSeats",
    "SamplingSeats",
    "SharedPolicy",
    "batched_player",
    "play_batch",
]
