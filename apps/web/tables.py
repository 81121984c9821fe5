"""The games the web table is playing: :class:`Tables` of :class:`Table`.

A :class:`Table` is one match between a person (one seat, under a name they
chose) and three agents (specs from the server's allowed list,
:func:`apps.web.config.agent_menu`). The server draws the seed; only a
practice game takes the person's. The person's moves come in as messages
``{"action": id, "step": n}``: ``step`` is the number of actions the page saw
played, so a stale or repeated message (a double click, a second tab) is out
of turn. A message that is not such an object, names an action the seat may
not play, comes when the match is over or out of turn is refused with a
:class:`MoveError` saying why, and changes nothing. After each accepted move
the agents play until the person is to act again or the match is over, and
the game is written to the :class:`~apps.web.store.GameStore`. Each table
has its own lock, so several games go on at once and one game's moves are
applied one at a time. A move needs the seat token given to whoever opened
the game (:class:`NotYourSeat` without it); anyone else sees the game as a
watcher (:meth:`Table._watched`: nothing of any hand).

What a table shows (:meth:`Table.snapshot`) is made from what the person's
seat may know (:func:`env121.engine.view.observe`, the seat's view of the
table, its own moves, the events it saw, the public results): no seed, no
record, no card hidden from the seat until the match is over. Then the seed,
every hand and the record are given.

:class:`Tables` holds the games in memory by id, within the server's limits
(:class:`~apps.web.config.Limits`): at most ``games_per_client`` games in
play per client, ``games_per_block`` per network block and ``games`` in all.
Only the person's moves count as activity. A game with no move for
``idle_seconds`` leaves memory, and so, when room is needed, does a finished
one, then one with no move for ``full_idle_seconds``; it stays in the store,
and :meth:`Tables.get` brings it back (an unfinished one replayed from its
seed and actions, so it also resumes after a restart), but an unfinished
rated game with no move for ``idle_seconds`` comes back abandoned: finished,
its person last (:meth:`~apps.web.store.GameStore.abandon`). A new game is
refused when there is no room. Nothing here imports the web framework, so it
is tested on its own.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from apps.web.clients import network_block
from apps.web.config import Limits
from apps.web.explain import explain_results
from apps.web.store import PERSON, GameStore, StoredGame, abandoned_ranks, token_digest
from env121.engine.actions import (
    NHAT_BAN,
    NUM_ACTIONS,
    PASS,
    THE_TRANG,
    U,
    action_card,
    is_card_action,
)
from env121.engine.game import apply, new_game, swap_kind_between
from env121.engine.picture import PictureOptions, table_svg
from env121.engine.records import replay, to_record
from env121.engine.render import SEAT_NAMES, ReadableTranscript
from env121.engine.seeds import Stream, derive_seed
from env121.engine.state import NUM_SEATS, MatchEnd, Phase, State
from env121.engine.view import SeatView, observe
from env121.play.match import IllegalAgentActionError, action_id, play_agents
from env121.play.moves import named_moves
from env121.play.protocol import Agent
from env121.play.turn import Turn
from env121.rules.cards import format_card
from env121.rules.config import RuleConfig

LOG = logging.getLogger("apps.web")

MAX_NAME = 32
"""The longest name a person may choose, in characters."""
MATCH_ENDS = {
    MatchEnd.COMPLETED: "every ván was played",
    MatchEnd.BUST: "a seat ran out of points",
    MatchEnd.QUOC_SI_VO_SONG: "Quốc Sĩ Vô Song won the match outright",
}
"""How a match ended, in words."""
ORDINALS = ("1st", "2nd", "3rd", "4th")


class MoveError(ValueError):
    """A message the table refuses; the game is unchanged."""


class AgentFailed(RuntimeError):
    """An agent at the table played an illegal action: the game stops there
    (the state keeps every legal action played before it)."""


class NotYourSeat(PermissionError):
    """A move without the seat's token: only who opened the game plays it."""


class UnknownTable(KeyError):
    """No game with this id."""


class NoRoom(RuntimeError):
    """A new game (or replay) the limits do not allow now (``per_client``:
    this client's cap, else the server's; ``retry_after``: the seconds until
    it will be allowed, where known)."""

    def __init__(self, message: str, *, per_client: bool, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.per_client = per_client
        self.retry_after = retry_after


def person_name(name: object) -> str:
    """A chosen name, checked: 1 to :data:`MAX_NAME` printable characters
    (spaces at the ends dropped); raises ``ValueError`` saying what is expected."""
    expected = f"expected 1 to {MAX_NAME} printable characters"
    if not isinstance(name, str):
        raise ValueError(f"name {name!r} is not valid: {expected}")
    name = name.strip()
    if not 0 < len(name) <= MAX_NAME or not name.isprintable():
        raise ValueError(f"name {name!r} is not valid: {expected}")
    return name


class Table:
    """One match: a person named ``player`` in ``seat``, ``agents`` in the
    other seats (see the module docstring). ``clock`` gives the time."""

    def __init__(
        self,
        table_id: str,
        state: State,
        seat: int,
        agents: dict[int, Agent],
        *,
        player: str = "you",
        practice: bool = False,
        client: str = "",
        store: GameStore | None = None,
        decision_seconds: float = Limits.decision_seconds,
        labels: Mapping[str, str] | None = None,
        clock: Callable[[], float] = time.monotonic,
        token: str | None = None,
    ) -> None:
        labels = labels or {}
        self.id = table_id
        self.state = state
        self.seat = seat
        self.agents = agents
        self.player = player
        self.practice = practice
        self.client = client
        """Who opened it or last resumed it (the per-client cap counts it there)."""
        self.store = store
        self.decision_seconds = decision_seconds
        self.slowest = 0.0
        """The longest agent decision at this table, in seconds."""
        self.token = token
        """The digest of the seat token (:func:`~apps.web.store.token_digest`);
        None: nobody may play the seat (a game kept before tokens)."""
        self.abandoned = False
        """Whether the person stopped moving for ``idle_seconds``: the match
        then counts as finished, the person last."""
        self.lock = threading.Lock()
        self.clock = clock
        self.last_used = clock()
        """When the person last moved (or the game was opened or brought
        back): what the idle times count from. Looking at the game, or
        watching it, does not count."""
        self.transcript = ReadableTranscript(viewer=seat)
        self.lines: list[str] = []
        """The readable transcript the person may see (:class:`ReadableTranscript`)."""
        self.seen_events = 0
        self.stopped: str | None = None
        """Why the game stopped before its end (an agent's illegal action), else ``None``."""
        self.names = tuple(
            f"{SEAT_NAMES[s]} {player}"
            if s == seat
            else f"{SEAT_NAMES[s]} {labels.get(agents[s].spec, agents[s].spec)}"
            for s in range(NUM_SEATS)
        )
        """Each seat's name: its code and the person's name or the agent's spec
        (as the server's menu spells it); the picture adds "(you)"."""

    @property
    def specs(self) -> list[str]:
        """The spec of each seat, ``"person"`` for the person's."""
        return [PERSON if s == self.seat else self.agents[s].spec for s in range(NUM_SEATS)]

    @property
    def over(self) -> bool:
        """Whether the match is over, stopped or abandoned (no more moves)."""
        return self.state.is_over or self.stopped is not None or self.abandoned

    def holds(self, token: str | None) -> bool:
        """Whether ``token`` is this game's seat token."""
        return (
            self.token is not None
            and isinstance(token, str)
            and secrets.compare_digest(token_digest(token), self.token)
        )

    def move(self, message: object, token: str | None = None) -> dict[str, Any]:
        """Apply the person's move ``{"action": id, "step": n}`` and let the
        agents play on; returns the new :meth:`snapshot`. Raises
        :class:`NotYourSeat` without the seat's ``token`` and
        :class:`MoveError` (nothing changed) for a bad or out-of-turn message."""
        with self.lock:
            if not self.holds(token):
                raise NotYourSeat(
                    "this seat is played only by whoever opened the game (with its seat token): "
                    "you may watch it"
                )
            action, step = _parse_move(message)
            state = self.state
            if self.stopped is not None:
                raise MoveError(self.stopped)
            if self.over:
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
            self.last_used = self.clock()
            apply(state, action)
            self.play_agents()
            return self._snapshot()

    def snapshot(self, token: str | None = None) -> dict[str, Any]:
        """What the page shows: to the seat's ``token`` (or once the match is
        over) :meth:`_snapshot`, to anyone else :meth:`_watched`."""
        with self.lock:
            return self._snapshot() if self.over or self.holds(token) else self._watched()

    def record(self) -> dict[str, Any] | None:
        """The game record (:func:`env121.engine.records.to_record`) once the
        match is over (or a practice game's at any time), else None: before
        the end it would give the seed, and the seed gives every hidden card."""
        with self.lock:
            if not (self.over or self.practice):
                return None
            return to_record(self.state)

    def play_agents(self) -> None:
        """The agents act until the person is to act or the match is over, and
        the game is written to the store; an agent's illegal action stops the
        game (:class:`AgentFailed`)."""
        mark = [time.perf_counter()]

        def timed(_state: State, _action: int) -> None:
            now = time.perf_counter()
            spent, mark[0] = now - mark[0], now
            self.slowest = max(self.slowest, spent)
            if spent > self.decision_seconds:
                LOG.warning(
                    "game %s: a decision took %.2f s (limit %.2f s)",
                    self.id, spent, self.decision_seconds,
                )  # fmt: skip

        try:
            play_agents(
                self.state,
                self._lineup(),
                until=lambda s: s.current_player == self.seat,
                on_action=timed,
            )
        except IllegalAgentActionError as err:
            self.stopped = f"the game stopped: {err}"
            self._save()
            raise AgentFailed(self.stopped) from None
        self.lines += self.transcript.lines(self.state.events[self.seen_events :])
        self.seen_events = len(self.state.events)
        self._save()

    def _save(self) -> None:
        if self.store is None:
            return
        state = self.state
        over = state.is_over
        self.store.update_game(
            self.id,
            to_record(state),
            stopped=self.stopped,
            scores=state.scores,
            ranks=state.ranks if over else None,
        )

    def _lineup(self) -> list[Agent]:
        return [self.agents.get(s, _Nobody()) for s in range(NUM_SEATS)]

    def _snapshot(self) -> dict[str, Any]:
        """The table as the person's seat knows it: made from
        :func:`~env121.engine.view.observe` of that seat (and the seat's own
        transcript) until the match is over; the seed only in a practice game
        or after the end."""
        state = self.state
        over = self.over
        view = observe(state, self.seat)
        to_act = view.current_player == self.seat and not over
        moves = named_moves(Turn(state, self.seat)) if to_act else []
        card_moves = {
            format_card(action_card(action)): action
            for action, _ in moves
            if is_card_action(action)
        }
        options = PictureOptions(names=self.names, title="121")
        shown: dict[str, Any] = {
            **self._public(over, to_act),
            "scores": list(view.scores),
            "svg": table_svg(state, None if over else self.seat, options),
            "moves": [{"action": a, "name": name, "kind": move_kind(view, a)} for a, name in moves],
            "card_moves": card_moves,
            "results": explain_results(state.events, view.results, self.names),
            "transcript": self.lines[-40:],
            "end": self._end_message() if over else None,
        }
        if over or self.practice:
            shown["seed"] = state.seed
        if self.abandoned:
            shown["abandoned"] = True
        return shown

    def _watched(self) -> dict[str, Any]:
        """The game as someone without the seat token sees it before the
        end: who plays, the step and the points, nothing of any hand (no
        picture, no moves, no transcript)."""
        return {
            **self._public(over=False, to_act=False),
            "watching": True,
            "scores": list(self.state.scores),
        }

    def _public(self, over: bool, to_act: bool) -> dict[str, Any]:
        """What the player and a watcher are both shown: who plays, the step,
        whether it is over and whether the seat is to act."""
        return {
            "id": self.id,
            "seat": self.seat,
            "player": self.player,
            "names": list(self.names),
            "specs": self.specs,
            "practice": self.practice,
            "step": len(self.state.actions),
            "over": over,
            "to_act": to_act,
        }

    def _end_message(self) -> str:
        """Who finished where, with their scores, in words."""
        state = self.state
        if self.stopped is not None:
            return self.stopped
        if self.abandoned:
            end, ranks = (
                "abandoned: no move from you in time",
                abandoned_ranks(state.scores, self.seat),
            )
        else:
            end = MATCH_ENDS.get(state.match_end, str(state.match_end)) if state.match_end else ""
            ranks = state.ranks
        order = sorted(range(NUM_SEATS), key=lambda s: (ranks[s], s))
        places = "; ".join(
            f"{ORDINALS[ranks[s] - 1]} {self.names[s]} "
            f"({'you, ' if s == self.seat else ''}{state.scores[s]:,} points)"
            for s in order
        )
        you = ORDINALS[ranks[self.seat] - 1]
        return f"The match is over ({end}). You finished {you}. {places}."


MOVE_KINDS = (
    "u",
    "pass",
    "boc",
    "lay",
    "cuop",
    "the_trang",
    "nhat_ban",
    "decline",
    "nb_gap",
    "nb_place",
)
"""Every kind :func:`move_kind` gives; the page's glossary explains each."""


def move_kind(view: SeatView, action: int) -> str:
    """What kind of move ``action`` is for the viewing seat, as the page's
    glossary names them: ``u``, ``the_trang``, ``nhat_ban``, ``decline``,
    ``pass``, ``boc`` / ``lay`` / ``cuop`` (a swap, by how the card on offer
    is taken), ``nb_gap``, ``nb_place``."""
    phase = view.phase
    if phase in (Phase.THE_TRANG, Phase.NB_CHOICE):
        return {THE_TRANG: "the_trang", NHAT_BAN: "nhat_ban"}.get(action, "decline")
    if phase == Phase.NB_GAP:
        return "nb_gap"
    if phase == Phase.NB_PLACE:
        return "nb_place"
    if action == U:
        return "u"
    if action == PASS:
        return "pass"
    kind = swap_kind_between(view.offer_exposer, view.seat)
    return {"Bốc": "boc", "Lấy": "lay", "Cướp": "cuop"}[kind.value]


class _Nobody:
    """The person's seat inside :func:`play_agents`: never asked, since the
    loop stops before the person's turn."""

    spec = PERSON
    uses_search = False

    def reset(self, seed: int) -> None:
        """Nothing to seed."""

    def act(self, turn: Turn) -> int:
        raise AssertionError("the person's seat is played through Table.move")


def _parse_move(message: object) -> tuple[int, int]:
    expected = 'expected {"action": <action id>, "step": <steps played>}'
    if not isinstance(message, dict) or set(message) != {"action", "step"}:
        raise MoveError(f"malformed move {message!r:.200}: {expected}")
    action, step = action_id(message["action"]), action_id(message["step"])
    if action is None or step is None:
        raise MoveError(f"malformed move {message!r:.200}: {expected} (integers)")
    if action not in range(NUM_ACTIONS):
        raise MoveError(f"action {action} is outside 0..{NUM_ACTIONS - 1}")
    return action, step


def warm_up(specs: Sequence[str], actions: int = 8) -> None:
    """Let one spec of each agent kind in ``specs`` play ``actions`` actions
    of a throwaway match, so its imports and compiled kernels are ready
    before the first person sits down (a first compile takes tens of seconds)."""
    from agents.registry import make_agent, parse_spec

    first = {parse_spec(spec)[0]: spec for spec in reversed(specs)}
    for spec in first.values():
        agents = [make_agent(spec) for _ in range(NUM_SEATS)]
        for seat, agent in enumerate(agents):
            agent.reset(seat)
        state = new_game(0, RuleConfig())
        play_agents(state, agents, until=lambda s: len(s.actions) >= actions)


def _canonical(spec: str) -> str | None:
    """The canonical spelling of an agent spec, None if it is not one."""
    from agents.registry import AgentSpecError, parse_spec
    from agents.spec import canonical_spec

    try:
        return canonical_spec(*parse_spec(spec))
    except AgentSpecError:
        return None


def draw_seed() -> int:
    """A deal's seed drawn by the server: 62 random bits (no client can guess it)."""
    return secrets.randbits(62)


class Tables:
    """The games in memory by id, within ``limits`` (see the module docstring).

    ``menu``: the agent specs a client may seat (canonical spellings);
    ``store``: where every game is written (None: nowhere, as in some tests);
    ``seeds``: draws each game's seed; ``practice``: whether a client may
    choose the seed.
    """

    def __init__(
        self,
        *,
        menu: Sequence[str] = ("random", "greedy"),
        limits: Limits | None = None,
        store: GameStore | None = None,
        practice: bool = True,
        seeds: Callable[[], int] = draw_seed,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.menu = tuple(menu)
        self.labels = {_canonical(spec) or spec: spec for spec in menu}
        """The menu by canonical spelling (what a client's spec is matched
        against), each with its spelling in the menu (what the table shows)."""
        self.limits = limits or Limits()
        self.store = store
        self.practice = practice
        self.seeds = seeds
        self.clock = clock
        self.tables: dict[str, Table] = {}
        self.lock = threading.Lock()
        self.swept = clock()
        """When the store's idle games were last counted as abandoned."""

    def open(
        self,
        *,
        seat: int,
        specs: Sequence[str],
        player: str = "you",
        client: str = "",
        practice_seed: int | None = None,
        config: RuleConfig | None = None,
    ) -> tuple[Table, str]:
        """A new game and its seat token (the secret that plays the seat,
        given once): the person named ``player`` in ``seat``, agents built
        from ``specs`` (three, from the menu, for the other seats in order);
        the seed drawn by the server, or ``practice_seed`` for a practice
        game. Raises ``ValueError`` naming a bad seat, spec or seed, and
        :class:`NoRoom` beyond the limits; nothing is kept then."""
        from agents.registry import make_agent

        player = person_name(player)
        if type(seat) is not int or seat not in range(NUM_SEATS):
            raise ValueError(f"seat {seat!r} is not a seat: expected 0, 1, 2 or 3")
        others = [s for s in range(NUM_SEATS) if s != seat]
        if isinstance(specs, str | bytes) or len(specs) != len(others):
            raise ValueError(
                f"expected three agent specs, for seats {', '.join(SEAT_NAMES[s] for s in others)}"
                f", got {len(specs)}: {list(specs)!r:.300}"
            )
        for spec in specs:
            if _canonical(spec) not in self.labels:
                raise ValueError(
                    f"agent {spec!r:.100} is not offered here: expected one of {list(self.menu)}"
                )
        practice = practice_seed is not None
        if practice and not self.practice:
            raise ValueError("this server draws every seed: practice games are off")
        if practice and (
            isinstance(practice_seed, bool)
            or not isinstance(practice_seed, int)
            or not 0 <= practice_seed < 2**63
        ):
            raise ValueError(
                f"seed {practice_seed!r} is not valid: expected an integer in 0..2**63-1"
            )
        seed = practice_seed if practice_seed is not None else self.seeds()
        agents = {s: make_agent(spec) for s, spec in zip(others, specs, strict=True)}
        token = secrets.token_urlsafe(18)
        with self.lock:
            self._make_room(client)
            table_id = secrets.token_urlsafe(12)
            state = new_game(seed, config or RuleConfig())
            table = self._table(table_id, state, seat, agents, player, practice, client)
            table.token = token_digest(token)
            if self.store is not None:
                self.store.open_game(
                    table_id,
                    player=player,
                    seat=seat,
                    specs=table.specs,
                    practice=practice,
                    record=to_record(state),
                    token=table.token,
                )
            self.tables[table_id] = table
        with table.lock, contextlib.suppress(AgentFailed):  # the table says why it stopped
            table.play_agents()
        return table, token

    def get(self, table_id: str, client: str = "") -> Table:
        """The game ``table_id``, from memory or brought back from the store
        (an unfinished one then counts as ``client``'s); raises :class:`UnknownTable`."""
        with self.lock:
            self._reclaim()
            table = self.tables.get(table_id)
            if table is not None:
                return table
            stored = self.store.game(table_id) if self.store is not None else None
            if stored is None or self.store is None:
                raise UnknownTable(table_id)
            if (
                not (stored.over or stored.practice)
                and self.store.clock() - stored.updated > self.limits.idle_seconds
            ):  # left unfinished before it was put aside or the server stopped
                self.store.abandon(table_id)
                stored = self.store.game(table_id) or stored
            if not stored.over:
                self._make_room(client)
            table = self._resume(stored, client)
            if not table.over or len(self.tables) < self.limits.games:
                self.tables[table_id] = table  # a finished game is kept only where there is room
        with table.lock, contextlib.suppress(AgentFailed):  # the table says why it stopped
            if not table.over and table.state.current_player != table.seat:
                table.play_agents()  # the server stopped while the agents were playing
        return table

    def in_play(self, client: str) -> int:
        """Games in play (in memory, unfinished) opened or resumed by ``client``."""
        return sum(1 for t in self.tables.values() if t.client == client and not t.over)

    def in_play_in_block(self, client: str) -> int:
        """Games in play opened or resumed from ``client``'s network block
        (:func:`~apps.web.clients.network_block`)."""
        block = network_block(client)
        return sum(
            1 for t in self.tables.values() if not t.over and network_block(t.client) == block
        )

    def _table(
        self,
        table_id: str,
        state: State,
        seat: int,
        agents: dict[int, Agent],
        player: str,
        practice: bool,
        client: str,
    ) -> Table:
        for s, agent in agents.items():
            agent.reset(derive_seed(state.seed, Stream.PLAY_AGENT, s))
        return Table(
            table_id,
            state,
            seat,
            agents,
            player=player,
            practice=practice,
            client=client,
            store=self.store,
            decision_seconds=self.limits.decision_seconds,
            labels=self.labels,
            clock=self.clock,
        )

    def _resume(self, stored: StoredGame, client: str) -> Table:
        """A stored game as a table again: its record replayed (the agents are
        reseeded from the game's seed; a searching agent's later choices may
        differ from those it would have made without the restart)."""
        from agents.registry import make_agent

        state = replay(stored.record, source=f"stored game {stored.id}")
        agents = {s: make_agent(spec) for s, spec in enumerate(stored.specs) if s != stored.seat}
        table = self._table(
            stored.id, state, stored.seat, agents, stored.player, stored.practice, client
        )
        table.stopped = stored.stopped
        table.token = stored.token
        table.abandoned = stored.abandoned
        table.lines = table.transcript.lines(state.events)
        table.seen_events = len(state.events)
        return table

    def _make_room(self, client: str) -> None:
        """Room for one more game in play of ``client``, or :class:`NoRoom`:
        idle games leave memory, then finished ones (oldest first), then
        unfinished ones with no move for ``full_idle_seconds`` (oldest first;
        they stay in the store and come back when asked for)."""
        limits = self.limits
        self._reclaim()
        if self.in_play(client) >= limits.games_per_client:
            raise NoRoom(
                f"you have {limits.games_per_client} games in play, the most one client may "
                "have: finish one, or come back when one has idled out "
                f"({limits.idle_seconds / 60:g} minutes)",
                per_client=True,
            )
        if self.in_play_in_block(client) >= limits.games_per_block:
            raise NoRoom(
                f"your network ({network_block(client)}) has {limits.games_per_block} games in "
                "play, the most one network block may have: try again later",
                per_client=True,
            )
        now = self.clock()
        finished = sorted((t for t in self.tables.values() if t.over), key=lambda t: t.last_used)
        quiet = sorted(
            (
                t
                for t in self.tables.values()
                if not t.over and now - t.last_used > limits.full_idle_seconds
            ),
            key=lambda t: t.last_used,
        )
        for put_aside in (finished, quiet):
            while len(self.tables) >= limits.games and put_aside:
                del self.tables[put_aside.pop(0).id]
        if len(self.tables) >= limits.games:
            raise NoRoom(
                f"the server is full ({limits.games} games in play): try again later",
                per_client=False,
            )

    def _reclaim(self) -> None:
        """Games with no move for ``idle_seconds`` leave memory (the store
        keeps them); at most once a minute, the unfinished rated games out of
        memory that the store has not seen a move of for ``idle_seconds``
        are abandoned (:meth:`GameStore.abandon_idle`; one asked for sooner
        is abandoned by :meth:`get`)."""
        now = self.clock()
        idle = self.limits.idle_seconds
        for table_id, table in list(self.tables.items()):
            if now - table.last_used > idle:
                del self.tables[table_id]
        if self.store is not None and now - self.swept >= 60.0:
            self.swept = now
            self.store.abandon_idle(idle, keep=list(self.tables))


__all__ = [
    "MATCH_ENDS",
    "MAX_NAME",
    "MOVE_KINDS",
    "AgentFailed",
    "MoveError",
    "NoRoom",
    "NotYourSeat",
    "Table",
    "Tables",
    "UnknownTable",
    "draw_seed",
    "move_kind",
    "person_name",
    "warm_up",
]
