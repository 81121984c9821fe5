"""Play arena games on the compiled engine: the arena's one way to play.

:func:`play_batch` plays a list of :class:`~arena.play.GameTask` at once on
one :class:`~env121.engine.batched.BatchedEngine`: game ``g`` of the engine is
task ``g``'s match (its deal seed, the engine's rotation 0). At every step
each agent acts for all the games whose seat to act it holds, in one call, and
the engine steps them all; a finished game sits the later steps out. The
:class:`~arena.play.GameRecord` of each game is made here, and only here, from
the kernel's arrays as it ends: the vòng results (``res_*``), the Cướp and
Nhất Bản events and the final standings and ranks.

Each agent spec sits as one :class:`BatchedPlayer` (:func:`batched_player`):

* an agent with a batched policy (its registry entry's:
  :func:`agents.environments.make_batched_policy` — ``random``, ``greedy``,
  ``ppo``, a deterministic ``sb3:``, an ``import:`` batched policy) as
  :class:`PolicySeats`: one policy object for all its seats, each seat taken
  with its seed where the policy draws (``random`` as a
  :class:`~env121.play.random_agent.RandomAgent` reset with it, a sampling
  ``ppo`` network from ``default_rng(seed)``), so a game's draws are its own
  whichever games share its batch;
* every other agent — one that decides a turn at a time with ``act(turn)``
  (``mc``, ``search``, ``oracle``, a ``ppo`` network that reads the Python
  search hints, a user's ``import:`` agent, a sampling ``sb3:`` model, a
  ``program:``) — as :class:`FollowedSeats`, through the one adapter of such
  agents (:class:`~env121.play.batched_policy.WholeMatches`): its own agent
  object per seat, reset with the seat's seed and shown every decision on a
  :class:`~env121.play.turn.Turn` of the game's whole match (played beside the
  engine on the one-match engine), as :func:`env121.play.match.play_agents`
  shows it. Such an agent keeps a match's state, so its games are batches of
  one (:func:`arena.execute.work_units`).

Every game's record is the one the readable definition of an arena game
gives — the match played by :func:`~env121.play.match.play_agents` on the
one-match engine, counted from its events (``tests/support/arena_reference.py``;
``tests/arena/test_batched.py`` checks them equal, thinking time aside).

Thinking time: a call that decides ``n`` games in ``t`` seconds counts
``t / n`` for each of those decisions. Each batched policy is called once on
a one-game engine before its first batch in a process
(:meth:`BatchedPlayer.warm`), so numba's compilation and torch's first call
are never timed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol
from weakref import WeakSet

import numpy as np

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
from env121.play.batched_policy import BatchedPolicy, WholeMatches
from env121.rules.config import RuleConfig

if TYPE_CHECKING:
    pass

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

    def sit(self, engine: BatchedEngine, game: int, seat: int, seed: int) -> None:
        """Seat the agent in ``seat`` of ``game`` (just dealt in ``engine``) with
        its ``reset`` seed."""

    def dealt(self, engine: BatchedEngine) -> None:
        """Every seat of the batch is taken; the engine has not stepped yet."""

    def act(self, engine: BatchedEngine, games: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """The actions (``int64``) of ``seats[k]``, to act in ``games[k]``."""
        ...

    def stepped(self, engine: BatchedEngine, actions: np.ndarray, games: np.ndarray) -> None:
        """``engine`` just played ``actions[g]`` in each game ``g`` of ``games``."""

    def faults(self, game: int, seat: int) -> dict[str, int]:
        """The faults its agent counted in ``seat`` of ``game``, the match over
        (:attr:`arena.play.SeatRecord.faults`)."""
        ...


class _Seats:
    """What a player that needs nothing more does: no warm-up, no match to follow,
    no faults."""

    def warm(self, config: RuleConfig) -> None:
        """Nothing to compile."""

    def sit(self, engine: BatchedEngine, game: int, seat: int, seed: int) -> None:
        """Nothing to seed."""

    def dealt(self, engine: BatchedEngine) -> None:
        """Nothing to deal."""

    def stepped(self, engine: BatchedEngine, actions: np.ndarray, games: np.ndarray) -> None:
        """Nothing to follow."""

    def faults(self, game: int, seat: int) -> dict[str, int]:
        """No faults counted."""
        return {}


class PolicySeats(_Seats):
    """A batched policy's seats: one policy object for all of them, each seat
    taken with its seed where the policy draws (its ``seat``:
    :class:`~env121.play.batched_policy.BatchedPolicy`), so that each seat
    draws as its agent reset with that seed would."""

    def __init__(self, policy: BatchedPolicy) -> None:
        self.policy = policy

    def warm(self, config: RuleConfig) -> None:
        """The policy's first call, on a one-game engine (once per policy object)."""
        if self.policy not in _WARM:
            self.policy.act(BatchedEngine(1, config, threads=1), np.zeros(1, dtype=np.int64))
            _WARM.add(self.policy)

    def sit(self, engine: BatchedEngine, game: int, seat: int, seed: int) -> None:
        """The seat's own draws, seeded, where the policy draws."""
        take = getattr(self.policy, "seat", None)
        if take is not None:
            take(game, seat, seed)

    def act(self, engine: BatchedEngine, games: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """The policy's actions in ``games``."""
        return self.policy.act(engine, games)


class FollowedSeats(_Seats):
    """An agent of ``act(turn)``'s seats: the spec's
    :class:`~env121.play.batched_policy.WholeMatches` (kept in the
    :class:`~arena.play.AgentCache`, so its agents, a ``program:``'s process
    among them, serve the next games too) follows each game's whole match
    beside the engine, each seat's agent reset with the seat's seed when the
    batch is dealt."""

    def __init__(self, follower: WholeMatches) -> None:
        self.follower = follower
        self.seeds: dict[int, dict[int, int]] = {}
        """The seed of each seat held, by game."""

    def sit(self, engine: BatchedEngine, game: int, seat: int, seed: int) -> None:
        """Hold ``seat`` of ``game``, its agent to be reset with ``seed``."""
        self.seeds.setdefault(game, {})[seat] = seed

    def dealt(self, engine: BatchedEngine) -> None:
        """Follow every game held, its agents reset with their seats' seeds."""
        games = sorted(self.seeds)
        held = np.zeros((len(games), NUM_SEATS), dtype=bool)
        seeds = np.zeros((len(games), NUM_SEATS), dtype=object)
        for k, g in enumerate(games):
            for seat, seed in self.seeds[g].items():
                held[k, seat], seeds[k, seat] = True, seed
        self.follower.begin(engine, np.array(games, dtype=np.int64), held, seeds)

    def act(self, engine: BatchedEngine, games: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """Each seat's agent's action, asked on a turn of its game's match."""
        return self.follower.act(engine, games)

    def stepped(self, engine: BatchedEngine, actions: np.ndarray, games: np.ndarray) -> None:
        """Play the step in each followed match (an ended one tells its agents)."""
        self.follower.stepped(engine, actions)

    def faults(self, game: int, seat: int) -> dict[str, int]:
        """The faults the seat's agent counted in the game's match."""
        return self.follower.faults.get((game, seat), {})


def decides_together(spec: str, cache: AgentCache) -> bool:
    """Whether ``spec``'s agent decides for many games at once (a batched policy,
    kept in ``cache``), so that its games share a batch; an agent of
    ``act(turn)`` (:class:`FollowedSeats`) plays batches of one."""
    return cache.batched_policy(spec) is not None


def batched_player(spec: str, cache: AgentCache) -> Callable[[], BatchedPlayer]:
    """What makes ``spec``'s :class:`BatchedPlayer` for a batch: its batched
    policy's seats (the policy kept in ``cache``), or its agents' a turn at a time."""
    policy = cache.batched_policy(spec)
    if policy is None:
        follower = cache.follower(spec)
        return lambda: FollowedSeats(follower)
    return lambda: PolicySeats(policy)


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
            chosen[owner[g, seat]].sit(engine, g, seat, seed)
    for player in chosen:
        player.dealt(engine)
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
        for player in chosen:
            player.stepped(engine, actions, active)
        tally.count(active)
        ended = engine.games["terminated"][active]
        for g in active[ended].tolist():
            actions[g] = SIT_OUT
            faults = [chosen[owner[g, s]].faults(g, s) for s in range(NUM_SEATS)]
            record = records[g] = tally.record(g, faults)
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

    def record(self, g: int, faults: Sequence[dict[str, int]]) -> GameRecord:
        """Game ``g``'s record, its match just ended; ``faults[s]``: what seat
        ``s``'s agent counted (:attr:`arena.play.SeatRecord.faults`)."""
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
                faults=faults[s],
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
    "FollowedSeats",
    "PolicySeats",
    "batched_player",
    "decides_together",
    "play_batch",
]
