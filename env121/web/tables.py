"""The games the web table is playing: :class:`Tables` of :class:`Table`.

A :class:`Table` is one match between a person (one seat) and three agents
(specs as :func:`agents.registry.make_agent` takes them). The person's moves
come in as messages ``{"action": id, "step": n}``: ``step`` is the number of
actions the page saw played, so a stale or repeated message (a double click,
a second tab) is out of turn. A message that is not such an object, names an
action the seat may not play, comes when the match is over or out of turn is
refused with a :class:`MoveError` saying why, and changes nothing. After each
accepted move the agents play until the person is to act again or the match
is over. Each table has its own lock, so several games go on at once and one
game's moves are applied one at a time.

:class:`Tables` holds the games by id and reclaims those finished or idle
longer than its time to live (checked whenever a game is opened or looked up).
Nothing here imports the web framework, so it is tested on its own.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from env121.engine.actions import NUM_ACTIONS, action_card, is_card_action
from env121.engine.game import apply, new_game
from env121.engine.picture import PictureOptions, table_svg
from env121.engine.records import to_record
from env121.engine.render import SEAT_NAMES, ReadableTranscript
from env121.engine.seeds import Stream, derive_seed
from env121.engine.state import NUM_SEATS, State
from env121.play.match import IllegalAgentActionError, action_id, play_agents
from env121.play.moves import named_moves
from env121.play.protocol import Agent
from env121.play.turn import Turn
from env121.rules.cards import format_card
from env121.rules.config import RuleConfig
from env121.web.explain import explain_results

DEFAULT_TTL = 30 * 60.0
"""Seconds a game is kept after its last message (finished games too)."""
MAX_TABLES = 64
"""Games kept at once; opening one more reclaims the oldest."""


class MoveError(ValueError):
    """A message the table refuses; the game is unchanged."""


class AgentFailed(RuntimeError):
    """An agent at the table played an illegal action: the game stops there
    (the state keeps every legal action played before it)."""


class UnknownTable(KeyError):
    """No game with this id (never opened, or reclaimed)."""


class Table:
    """One match: a person in ``seat``, ``agents`` in the other seats (see
    the module docstring). ``clock`` gives the time (tests pass their own)."""

    def __init__(
        self,
        table_id: str,
        state: State,
        seat: int,
        agents: dict[int, Agent],
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.id = table_id
        self.state = state
        self.seat = seat
        self.agents = agents
        self.lock = threading.Lock()
        self.clock = clock
        self.last_used = clock()
        self.transcript = ReadableTranscript(viewer=seat)
        self.lines: list[str] = []
        """The readable transcript the person may see (:class:`ReadableTranscript`)."""
        self.seen_events = 0
        self.stopped: str | None = None
        """Why the game stopped before its end (an agent's illegal action), else ``None``."""
        self.names = tuple(
            f"{SEAT_NAMES[s]} you" if s == seat else f"{SEAT_NAMES[s]} {agents[s].spec}"
            for s in range(NUM_SEATS)
        )
        self._play_agents()

    @property
    def specs(self) -> list[str]:
        """The spec of each seat, ``"human"`` for the person's."""
        return ["human" if s == self.seat else self.agents[s].spec for s in range(NUM_SEATS)]

    def move(self, message: object) -> dict[str, Any]:
        """Apply the person's move ``{"action": id, "step": n}`` and let the
        agents play on; returns the new :meth:`snapshot`. Raises
        :class:`MoveError` (nothing changed) for a bad or out-of-turn message."""
        with self.lock:
            self.last_used = self.clock()
            action, step = _parse_move(message)
            state = self.state
            if self.stopped is not None:
                raise MoveError(self.stopped)
            if state.is_over:
                raise MoveError("the match is over: no more moves")
            if step != len(state.actions):
                raise MoveError(
                    f"out of turn: the message is for step {step}, but the game is at step "
                    f"{len(state.actions)} (reload the table)"
                )
            if state.current_player != self.seat:
                raise MoveError(f"out of turn: {SEAT_NAMES[state.current_player]} is to act")
            legal = Turn(state, self.seat).legal_actions
            if action not in legal:
                raise MoveError(f"action {action} is not one of your moves now: expected {legal}")
            apply(state, action)
            self._play_agents()
            return self._snapshot()

    def snapshot(self) -> dict[str, Any]:
        """What the page shows: the table as the person sees it (every hand
        once the match is over), the moves by name, the vòng results explained."""
        with self.lock:
            self.last_used = self.clock()
            return self._snapshot()

    def record(self) -> dict[str, Any]:
        """The game record so far (:func:`env121.engine.records.to_record`)."""
        with self.lock:
            self.last_used = self.clock()
            return to_record(self.state)

    def _play_agents(self) -> None:
        """The agents act until the person is to act or the match is over; an
        agent's illegal action stops the game (:class:`AgentFailed`)."""
        try:
            play_agents(self.state, self._lineup(), until=lambda s: s.current_player == self.seat)
        except IllegalAgentActionError as err:
            self.stopped = f"the game stopped: {err}"
            raise AgentFailed(self.stopped) from None
        self.lines += self.transcript.lines(self.state.events[self.seen_events :])
        self.seen_events = len(self.state.events)

    def _lineup(self) -> list[Agent]:
        return [self.agents.get(s, _Nobody()) for s in range(NUM_SEATS)]

    def _snapshot(self) -> dict[str, Any]:
        state = self.state
        over = state.is_over
        to_act = state.current_player == self.seat and not over
        moves = named_moves(Turn(state, self.seat)) if to_act else []
        card_moves = {
            format_card(action_card(action)): action
            for action, _ in moves
            if is_card_action(action)
        }
        options = PictureOptions(names=self.names, title="121")
        return {
            "id": self.id,
            "seat": self.seat,
            "specs": self.specs,
            "seed": state.seed,
            "step": len(state.actions),
            "over": over,
            "match_end": state.match_end.value if state.match_end else None,
            "scores": list(state.scores),
            "svg": table_svg(state, None if over else self.seat, options),
            "moves": [{"action": a, "name": name} for a, name in moves],
            "card_moves": card_moves,
            "results": explain_results(state.events, state.results, self.names),
            "transcript": self.lines[-40:],
        }


class _Nobody:
    """The person's seat inside :func:`play_agents`: never asked, since the
    loop stops before the person's turn."""

    spec = "human"
    uses_search = False

    def reset(self, seed: int) -> None:
        """Nothing to seed."""

    def act(self, turn: Turn) -> int:
        raise AssertionError("the person's seat is played through Table.move")


def _parse_move(message: object) -> tuple[int, int]:
    expected = 'expected {"action": <action id>, "step": <steps played>}'
    if not isinstance(message, dict) or set(message) != {"action", "step"}:
        raise MoveError(f"malformed move {message!r}: {expected}")
    action, step = action_id(message["action"]), action_id(message["step"])
    if action is None or step is None:
        raise MoveError(f"malformed move {message!r}: {expected} (integers)")
    if action not in range(NUM_ACTIONS):
        raise MoveError(f"action {action} is outside 0..{NUM_ACTIONS - 1}")
    return action, step


class Tables:
    """The open games by id, reclaimed when finished or idle past ``ttl``
    seconds (and the oldest beyond ``max_tables``)."""

    def __init__(
        self,
        *,
        ttl: float = DEFAULT_TTL,
        max_tables: int = MAX_TABLES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.ttl = ttl
        self.max_tables = max_tables
        self.clock = clock
        self.tables: dict[str, Table] = {}
        self.lock = threading.Lock()

    def open(
        self, *, seed: int, seat: int, specs: Sequence[str], config: RuleConfig | None = None
    ) -> Table:
        """A new game: the person in ``seat``, agents built from ``specs``
        (three, for the other seats in order); raises ``ValueError`` naming a
        bad seed, seat or spec."""
        from agents.registry import make_agent

        if seat not in range(NUM_SEATS):
            raise ValueError(f"seat {seat!r} is not a seat: expected 0, 1, 2 or 3")
        others = [s for s in range(NUM_SEATS) if s != seat]
        if len(specs) != len(others):
            raise ValueError(
                f"expected three agent specs, for seats {', '.join(SEAT_NAMES[s] for s in others)}"
                f", got {len(specs)}: {list(specs)}"
            )
        state = new_game(seed, config or RuleConfig())
        agents = {}
        for s, spec in zip(others, specs, strict=True):
            agent = make_agent(spec)
            agent.reset(derive_seed(seed, Stream.PLAY_AGENT, s))
            agents[s] = agent
        with self.lock:
            self._reclaim()
            table_id = secrets.token_urlsafe(9)
            table = Table(table_id, state, seat, agents, clock=self.clock)
            self.tables[table_id] = table
            while len(self.tables) > self.max_tables:
                oldest = min(self.tables.values(), key=lambda t: t.last_used)
                del self.tables[oldest.id]
        return table

    def get(self, table_id: str) -> Table:
        """The game ``table_id``; raises :class:`UnknownTable`."""
        with self.lock:
            self._reclaim()
            try:
                return self.tables[table_id]
            except KeyError:
                raise UnknownTable(table_id) from None

    def _reclaim(self) -> None:
        now = self.clock()
        for table_id, table in list(self.tables.items()):
            if now - table.last_used > self.ttl:
                del self.tables[table_id]


__all__ = [
    "DEFAULT_TTL",
    "MAX_TABLES",
    "AgentFailed",
    "MoveError",
    "Table",
    "Tables",
    "UnknownTable",
]
