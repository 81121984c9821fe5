"""Batched policies: one seat's decision in many games of a batched engine at once.

A :class:`BatchedPolicy` is the batched counterpart of an agent
(:class:`env121.play.protocol.Agent`): given a
:class:`~env121.engine.batched.BatchedEngine` and the indices of some of its
games, it returns the action of the seat to act in each of them, in one call::

    engine = BatchedEngine(1024)
    policy = BatchedRandom()
    policy.reset(seed=7)
    games = np.flatnonzero(engine.to_act != 0)     # every game seat 0 is not to act in
    actions = np.full(1024, SIT_OUT)               # the others sit the step out
    actions[games] = policy.act(engine, games)
    engine.step(actions)

The vector environment (:class:`env121.envs.vector.VectorSingleSeat`) plays
the opponents of its learners this way, one call per policy and round, and
any object with these two methods and a ``spec`` can sit there:
:class:`BatchedRandom` here, ``agents.batched_greedy.BatchedGreedy`` and
``agents.batched_ppo.BatchedPPO`` one layer up.

Policies that read the observation vector encode the games they decide for
with :func:`env121.play.batched_observation.encode_seats`. An agent with no
batched form of its own (``mc``) sits there through :class:`TurnByTurn`,
which shows it each game's turn in turn — at the agent's own speed.

An agent that follows each match as a story — a ``program:`` agent is sent
the events since its last decision, an ``import:`` agent may keep what it
likes between decisions — is owed its games whole, from the deal, in order,
as the arena plays them. :class:`WholeMatches` gives it that in a batched
engine: an agent of its own per seat of every game it follows, reset for
each new match, each game's match kept whole beside the engine. Its caller
tells it more than ``act``: where it sits when a match is dealt
(:meth:`WholeMatches.begin`), every action played in its games
(:meth:`WholeMatches.stepped`), and it asks the policy for every decision of
its seats, a forced one (a single legal action) too. The batched trainer and
its evaluations do (``env121 exploit program:…``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from env121.engine.batched.engine import BatchedEngine
from env121.engine.game import apply, new_game, state_of_record
from env121.engine.state import NUM_SEATS, State
from env121.play.match import IllegalAgentActionError, action_id
from env121.play.protocol import Agent, require_fair, sees_all_hands
from env121.play.random_agent import RandomAgent
from env121.play.turn import MatchOver, Turn

FOLLOWED_GAMES = 16
"""How many games a caller has a :class:`WholeMatches` follow at once, by
default: each game holds up to three of its agents (for a ``program:`` agent,
three processes), so 16 games are at most 48 programs. The batched trainer's
``num_games`` against such an agent (``env121 exploit``) and the games its
evaluations play at once."""


class BatchedPolicy(Protocol):
    """A policy that decides for many games at once.

    A policy that draws (``random``, a ``ppo`` network that samples) may also
    take seats, ``seat(game, seat, seed)``: from then on its draws in that seat
    of that game come from a generator of their own, seeded as its agent's
    ``reset(seed)`` seeds it, so that a game's draws do not depend on the other
    games of the batch — the arena seats each copy of an agent with its own seed
    (:class:`arena.batched.PolicySeats`)."""

    spec: str
    """Its agent spec (``"random"``, ``"greedy"``, ``"ppo:small"`` ...), for logs."""

    def reset(self, seed: int) -> None:
        """Reseed whatever it draws from (a deterministic policy ignores it)."""

    def act(self, engine: BatchedEngine, indices: np.ndarray) -> np.ndarray:
        """The action ids (``int64 [len(indices)]``) of the seat to act in the
        games ``indices`` (``int64``, ascending) of ``engine``: each one of that
        seat's legal actions (``engine.games["legal"]``)."""
        ...


class BatchedRandom:
    """Uniformly random legal actions, drawn from one seeded generator in the
    order of the games asked (``reset(seed)`` replays the same draws).

    numpy picks them from the records' legal lists (``n_legal`` and
    ``legal``) in a few array operations: no per-game Python, and nothing to
    compile. A seat taken with :meth:`seat` draws instead as a
    :class:`~env121.play.random_agent.RandomAgent` reset with its seed does."""

    spec = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)
        self.seated: dict[tuple[int, int], RandomAgent] = {}
        """The agent of each (game, seat) taken with :meth:`seat`."""

    def reset(self, seed: int) -> None:
        """Restart the generator from ``seed``."""
        self.rng = np.random.default_rng(seed)

    def seat(self, game: int, seat: int, seed: int) -> None:
        """Draw for ``seat`` of ``game`` as a :class:`RandomAgent` reset with ``seed``."""
        agent = self.seated[(game, seat)] = RandomAgent()
        agent.reset(seed)

    def act(self, engine: BatchedEngine, indices: np.ndarray) -> np.ndarray:
        """A uniformly random legal action of the seat to act in each game ``indices``."""
        games = engine.games
        if self.seated:
            legal = games["legal"][indices].tolist()
            counts = games["n_legal"][indices].tolist()
            seats = games["to_act"][indices].tolist()
            return np.array(
                [
                    self.seated[(g, s)].choose(legal[k][: counts[k]])
                    for k, (g, s) in enumerate(zip(indices.tolist(), seats, strict=True))
                ],
                dtype=np.int64,
            )
        picks = self.rng.integers(games["n_legal"][indices])
        actions: np.ndarray = games["legal"][indices, picks].astype(np.int64)
        return actions


class TurnByTurn:
    """An :class:`~env121.play.protocol.Agent` as a batched policy: each game
    asked is read into a :class:`~env121.engine.state.State`
    (:func:`~env121.engine.game.state_of_record`) and the agent acts on its
    :class:`~env121.play.turn.Turn`, one game after another — as fast as the
    agent, no faster (``mc``: about half a millisecond a decision).

    The agent is reset once, by :meth:`reset`, not before each match: the
    engine's matches run interleaved. A record keeps the seat's whole
    knowledge but not the match's past, so the turn's
    :attr:`~env121.play.turn.Turn.view` has no ``history`` nor ``results``:
    only agents that decide without them may sit here (``mc`` and ``greedy``
    do; a ``program:`` agent is sent them, so it sits in :class:`WholeMatches`).
    An agent that sees every hand is refused (:func:`~env121.play.protocol.require_fair`),
    and so is one that declares ``reads_history`` (``mc:beliefs=greedy``: it
    replays the match, which a record does not keep)."""

    def __init__(self, agent: Agent) -> None:
        require_fair(agent, "as a batched policy (a training opponent)")
        if getattr(agent, "reads_history", False):
            raise ValueError(
                f"agent {agent.spec!r} reads the match's past, which a batched engine's game "
                "record does not keep: it cannot sit a turn at a time (seat it in the arena, "
                "env121 play or SingleSeat)"
            )
        self.agent = agent
        self.spec = agent.spec

    def reset(self, seed: int) -> None:
        """Reset the agent with ``seed``."""
        self.agent.reset(seed)

    def act(self, engine: BatchedEngine, indices: np.ndarray) -> np.ndarray:
        """The agent's action in each game ``indices``, asked one game at a time."""
        actions = np.empty(len(indices), dtype=np.int64)
        search = self.agent.uses_search
        for k, g in enumerate(indices.tolist()):
            state = state_of_record(engine.games[g : g + 1], engine.config)
            actions[k] = self.agent.act(Turn(state, state.current_player, search_allowed=search))
        return actions


@dataclass
class _Followed:
    """A game :class:`WholeMatches` follows: its match, whole, and its agents by seat."""

    state: State
    agents: dict[int, Agent]
    before: dict[int, Counter[str]]
    """Each agent's fault counts when the match began."""
    asked: int = -1
    """How many actions the match had when its agent was last asked (``state.actions``)."""
    chosen: int = -1
    """What that agent chose."""


class WholeMatches:
    """Agents owed each match whole, as a batched policy: in each game it
    follows, one agent per seat it holds, reset (with the seed its caller
    gives, or one drawn from :meth:`reset`'s) before the match's first
    decision, shown every decision of its seat on a
    :class:`~env121.play.turn.Turn` of the whole match (its events, history and
    results: the match is played beside the engine, on the one-match engine,
    action by action; the true state too for an agent that
    :func:`~env121.play.protocol.sees_all_hands`), and told the end
    (``match_over``) — as :func:`env121.play.match.play_agents` plays a match.
    The arena seats every agent of ``act(turn)`` this way
    (:class:`arena.batched.FollowedSeats`), the batched trainer its
    ``program:`` and ``import:`` opponents. An agent whose match ended goes
    back to an idle list and is reset for the next one, so there are as many
    agents as seats held at once (three per game); the faults a ``program:``
    agent counted in a match are kept in :attr:`faults`.

    ``make_agent`` builds one agent (``agents.registry.make_agent`` of the
    spec); it must build a new one at each call. An agent that sees every hand
    is refused unless ``fair_only`` is False (the arena's diagnostic
    ``oracle``). The caller:

    * :meth:`begin`: after the engine deals games a match in which the policy
      holds some seats;
    * :meth:`act`: at every decision of those seats, the forced ones too;
    * :meth:`stepped`: after every engine step, with the actions played.

    A caller that steps a followed game without asking its seat, or plays
    another action than the agent's, is a ``RuntimeError``; so is a match
    that ends at another step than the engine's."""

    def __init__(
        self,
        make_agent: Callable[[], Agent],
        spec: str,
        seed: int = 0,
        *,
        fair_only: bool = True,
    ) -> None:
        first, second = make_agent(), make_agent()
        if fair_only:
            require_fair(first, "as a batched policy (a training opponent)")
        if first is second:
            raise ValueError(
                f"{spec!r} gives the same agent object each time: a game of the batched "
                "engine needs an agent of its own per seat (expected a class or a factory)"
            )
        self.make_agent = make_agent
        self.spec = spec
        self.idle: list[Agent] = [second, first]
        """Agents between matches, ready to be reset for the next one."""
        self.followed: dict[int, _Followed] = {}
        """The games followed, by index in the engine."""
        self.rng = np.random.default_rng(seed)
        """Draws each agent's ``reset`` seed."""
        self.faults: dict[tuple[int, int], dict[str, int]] = {}
        """The faults each (game, seat)'s agent counted in its last match, once it ended
        (an agent that keeps a ``faults`` mapping: a ``program:``)."""

    def reset(self, seed: int) -> None:
        """Reseed the draws of the agents' ``reset`` seeds."""
        self.rng = np.random.default_rng(seed)

    def begin(
        self,
        engine: BatchedEngine,
        games: np.ndarray,
        seats: np.ndarray,
        seeds: np.ndarray | None = None,
    ) -> None:
        """The matches just dealt in ``games`` of ``engine`` (by ``reset``, or
        after a match ended there) are followed: ``seats[k]`` (``bool [4]``)
        are the seats held in ``games[k]``, each given an idle agent, reset with
        ``seeds[k, seat]`` (default: a seed drawn from :meth:`reset`'s
        generator). A game still followed is given up (its agents go back idle,
        not told an end): the engine dealt it again."""
        for k, (g, held) in enumerate(zip(games.tolist(), seats, strict=True)):
            self._release(g)
            r = engine.games[g]
            state = new_game(int(r["seed"]), engine.config, rotation=int(r["rotation"]))
            dealt = state_of_record(engine.games[g : g + 1], engine.config)
            if (dealt.hands, dealt.noc, dealt.an_si) != (state.hands, state.noc, state.an_si):
                raise RuntimeError(
                    f"game {g}: the match dealt is not new_game(seed, rotation) (a first_deal?), "
                    f"so {self.spec!r} cannot be shown it whole"
                )
            agents = {}
            before = {}
            for seat in np.flatnonzero(held).tolist():
                agent = self.idle.pop() if self.idle else self.make_agent()
                seed = self.rng.integers(2**63) if seeds is None else seeds[k, seat]
                agent.reset(int(seed))
                agents[seat] = agent
                before[seat] = Counter(getattr(agent, "faults", {}))
            self.followed[g] = _Followed(state, agents, before)

    def act(self, engine: BatchedEngine, indices: np.ndarray) -> np.ndarray:
        """The action of the seat to act in each game ``indices``, asked of
        its agent on a turn of the game's whole match, one game at a time."""
        actions = np.empty(len(indices), dtype=np.int64)
        for k, g in enumerate(indices.tolist()):
            game = self.followed.get(g)
            seat = int(engine.games["to_act"][g])
            if game is None or seat not in game.agents:
                raise RuntimeError(f"game {g}, seat {seat}: not begun for {self.spec!r}")
            agent = game.agents[seat]
            turn = Turn(
                game.state,
                seat,
                search_allowed=agent.uses_search,
                true_state_allowed=sees_all_hands(agent),
            )
            answer = agent.act(turn)
            action = action_id(answer)
            if action is None or action not in turn.legal_actions:
                raise IllegalAgentActionError(agent.spec, seat, answer, turn.legal_actions)
            game.asked, game.chosen = len(game.state.actions), action
            actions[k] = action
        return actions

    def stepped(self, engine: BatchedEngine, actions: np.ndarray) -> None:
        """Play ``actions`` (one per game of ``engine``, as just stepped) in
        every followed game's match; a match that ended tells its agents
        (``match_over``, seat by seat), which go back idle."""
        for g, game in list(self.followed.items()):
            state = game.state
            action = int(actions[g])
            if state.current_player in game.agents and (
                game.asked != len(state.actions) or game.chosen != action
            ):
                raise RuntimeError(
                    f"game {g}: seat {state.current_player}'s decision was played without "
                    f"its agent's answer ({self.spec!r} is owed every decision of its seats)"
                )
            apply(state, action)
            if state.is_over != bool(engine.games["terminated"][g]):
                raise RuntimeError(f"game {g}: the match followed and the engine's parted")
            if state.is_over:
                for seat in range(NUM_SEATS):
                    agent = game.agents.get(seat)
                    match_over = getattr(agent, "match_over", None)
                    if match_over is not None:
                        match_over(MatchOver(state, seat))
                    if agent is not None:
                        counted = Counter(getattr(agent, "faults", {})) - game.before[seat]
                        self.faults[(g, seat)] = dict(sorted(counted.items()))
                self._release(g)

    def close(self) -> None:
        """Close every agent that has a ``close`` (a ``program:`` agent's process)."""
        for g in list(self.followed):
            self._release(g)
        for agent in self.idle:
            close = getattr(agent, "close", None)
            if close is not None:
                close()
        self.idle = []

    def _release(self, g: int) -> None:
        """Stop following game ``g``; its agents go back idle."""
        game = self.followed.pop(g, None)
        if game is not None:
            self.idle.extend(game.agents.values())


__all__ = ["FOLLOWED_GAMES", "BatchedPolicy", "BatchedRandom", "TurnByTurn", "WholeMatches"]
