"""A :class:`Turn`: one decision of one seat, as an agent is shown it.

The arena, :class:`env121.envs.single_seat.SingleSeat` and ``env121 play`` hand an
agent a ``Turn`` whenever its seat must act. It offers the same information in
three forms, each computed only when asked for:

* :attr:`Turn.observation` — the flat ``float32`` vector of ``env121_v1``
  (:func:`env121.play.batched_observation.encode_observation`), for learned agents;
* :attr:`Turn.view` — the same knowledge as a :class:`~env121.engine.view.SeatView`,
  for hand-written agents;
* :attr:`Turn.action_mask` / :attr:`Turn.legal_actions` — the legal ids.

Search agents may also call :meth:`Turn.determinization` for full states
consistent with what the seat knows (:func:`env121.engine.view.sample_determinization`),
or :meth:`Turn.worlds` for a batch of them drawn by the kernel as game records
(:func:`env121.engine.kernel.determinize.draw_worlds`), and
:meth:`Turn.offer_decisions` for the vòng's decisions on a card on offer so far,
each with the state before it as the seat could know it then; the caller
grants them only to agents that declare they search, so a plain agent
cannot look behind the seat's view. The engine state itself is exposed only
through :meth:`Turn.true_state`, granted to the diagnostic agents that declare
``sees_all_hands`` (the ``oracle``: :func:`env121.play.protocol.sees_all_hands`).

An agent that follows a match as a stream of events (the line protocol of
``docs/agent-protocol.md``) keeps an :class:`EventCursor` per match and reads
what the seat saw since it last read with :meth:`Turn.events_since`, and once
more at the end with :meth:`MatchOver.events_since` (:class:`MatchOver` is what
:func:`env121.play.match.play_agents` hands an agent's optional ``match_over``).
"""

from __future__ import annotations

import numpy as np

from env121.engine.game import apply, kernel_config_of, kernel_record, legal_actions, new_game
from env121.engine.kernel.determinize import draw_worlds
from env121.engine.kernel.record import GAME_DTYPE
from env121.engine.state import Event, Phase, State, visible_to
from env121.engine.view import SeatView, observe, sample_determinization
from env121.play.batched_observation import encode_observation
from env121.play.observation import action_mask
from env121.rules.config import RuleConfig


class DeterminizationNotGranted(RuntimeError):
    """An agent asked for a determinization (or the true state) it was not granted."""


class EventCursor:
    """Where one seat's reading of a match's events stopped: a new cursor for each match.

    Opaque on purpose: the match's event log also holds the events the seat
    did not see (other seats' private ones), so the position is not the
    seat's information and no agent should read it.
    """

    __slots__ = ("_position",)

    def __init__(self) -> None:
        self._position = 0


def _events_seen_since(state: State, seat: int, cursor: EventCursor) -> list[Event]:
    """The events ``seat`` saw since ``cursor``, in order; moves the cursor to the end."""
    events = state.events
    new = [e for e in events[cursor._position :] if visible_to(e, seat)]
    cursor._position = len(events)
    return new


class Turn:
    """The decision of ``seat`` in ``state`` (the state must not change while in use)."""

    __slots__ = (
        "_legal",
        "_observation",
        "_state",
        "_view",
        "search_allowed",
        "seat",
        "true_state_allowed",
    )

    def __init__(
        self,
        state: State,
        seat: int,
        *,
        search_allowed: bool = False,
        true_state_allowed: bool = False,
    ) -> None:
        if state.current_player != seat:
            raise ValueError(
                f"seat {seat} is not to act: the seat to act is {state.current_player} "
                f"(phase {state.phase.value})"
            )
        self._state = state
        self.seat = seat
        self.search_allowed = search_allowed
        self.true_state_allowed = true_state_allowed
        self._legal: tuple[int, ...] | None = None
        self._observation: np.ndarray | None = None
        self._view: SeatView | None = None

    @property
    def config(self) -> RuleConfig:
        """The rules of the match (public)."""
        return self._state.config

    @property
    def phase(self) -> Phase:
        """What the seat is deciding (public)."""
        return self._state.phase

    @property
    def hand(self) -> tuple[int, ...]:
        """The seat's free cards, sorted (as in :attr:`view`, without building it)."""
        return self._state.hands[self.seat]

    def events_since(self, cursor: EventCursor) -> list[Event]:
        """The events the seat saw since ``cursor`` (the whole match's for a new
        cursor), public ones and its own private ones; moves the cursor here."""
        return _events_seen_since(self._state, self.seat, cursor)

    @property
    def legal_actions(self) -> tuple[int, ...]:
        """The legal action ids, ascending."""
        if self._legal is None:
            self._legal = tuple(legal_actions(self._state))
        return self._legal

    @property
    def action_mask(self) -> np.ndarray:
        """``int8`` mask over the action ids, as in ``env121_v1``'s observation
        (:func:`env121.play.observation.action_mask`)."""
        return action_mask(self.legal_actions)

    @property
    def observation(self) -> np.ndarray:
        """The seat's ``env121_v1`` observation vector (read-only)."""
        if self._observation is None:
            self._observation = encode_observation(self._state, self.seat)
            self._observation.flags.writeable = False
        return self._observation

    @property
    def view(self) -> SeatView:
        """What the seat knows, as a :class:`~env121.engine.view.SeatView`."""
        if self._view is None:
            self._view = observe(self._state, self.seat)
        return self._view

    def determinization(self, rng: np.random.Generator) -> State:
        """A fresh full state consistent with the seat's knowledge, hidden parts
        drawn from ``rng``; only for turns created with ``search_allowed``."""
        self._require_search("a determinization")
        return sample_determinization(self._state, self.seat, rng)

    def worlds(self, seed: int, first: int, count: int) -> np.ndarray:
        """Worlds ``first .. first + count - 1`` of the draw seeded ``seed``
        (an int in 0..2**64-1): ``count`` game records
        (:mod:`env121.engine.kernel.record`), each a full state consistent with
        the seat's knowledge, drawn by the kernel
        (:func:`env121.engine.kernel.determinize.draw_worlds`; the distribution
        of :meth:`determinization`); only for turns created with ``search_allowed``."""
        self._require_search("a batch of worlds")
        if count < 1 or first < 0 or not 0 <= seed < 2**64:
            raise ValueError(
                f"worlds(seed={seed}, first={first}, count={count}) is not valid: expected "
                "a seed in 0..2**64-1, first ≥ 0 and count ≥ 1"
            )
        games = np.empty(count, dtype=GAME_DTYPE)
        config = kernel_config_of(self._state.config)
        draw_worlds(kernel_record(self._state), self.seat, config, seed, first, games)
        return games

    def offer_decisions(self) -> list[tuple[State, int]]:
        """The current vòng's decisions on a card on offer so far, every seat's,
        in order, as ``(state before, action)``; only for turns created with
        ``search_allowed``.

        Each action is public (a pass, or a swap that takes the card face up
        and puts a hand card face up: [R] §5.4). Each state is a
        determinization of the moment before the decision from this seat
        (:func:`~env121.engine.view.sample_determinization`, drawn with a fixed
        seed): everything the seat knew then is the game's, everything hidden
        from it is re-drawn, and its ``events`` are the ones the seat had seen,
        a prefix of a determinization's of the turn now. So a search agent
        can ask, in a world of its own, what an opponent would have done there
        (:mod:`agents.beliefs`) and learns nothing else. The match is replayed
        from its deal to find the states (a few milliseconds); a turn read
        from a game record (or a determinization) has no past to replay and
        raises ``ValueError``."""
        self._require_search("the vòng's decisions on a card on offer")
        state = self._state
        replay = new_game(
            state.seed, state.config, rotation=state.rotation, first_deal=state.first_deal
        )
        rng = np.random.default_rng(0)
        decisions: list[tuple[State, int]] = []
        for action in state.actions:
            if replay.vong_event_start == state.vong_event_start and replay.phase == Phase.OFFER:
                decisions.append((sample_determinization(replay, self.seat, rng), action))
            apply(replay, action)
        if replay.events != state.events:
            raise ValueError(
                f"seat {self.seat}'s turn holds no past to replay (a turn read from a game "
                "record, or a determinization): the vòng's decisions need the match's own state"
            )
        return decisions

    def seat_record(self) -> np.ndarray:
        """The game as the seat may know it, as an array of one game record
        (:mod:`env121.engine.kernel.record`), for the compiled agents that judge
        a decision from a record (greedy, :mod:`agents.greedy`): every part the
        seat knows is the game's and every hidden part a draw consistent with
        that knowledge (world 0 of the draw seeded 0, :meth:`worlds`), so it
        tells the seat nothing it does not know and needs no search grant."""
        games = np.empty(1, dtype=GAME_DTYPE)
        config = kernel_config_of(self._state.config)
        draw_worlds(kernel_record(self._state), self.seat, config, 0, 0, games)
        return games

    def _require_search(self, what: str) -> None:
        """Raise :class:`DeterminizationNotGranted` unless the turn allows search."""
        if not self.search_allowed:
            raise DeterminizationNotGranted(
                f"seat {self.seat} asked for {what}, but this turn does not allow "
                "search: only agents that declare uses_search=True are granted one"
            )

    def true_state(self) -> State:
        """A copy of the true state — every hand and the Nọc's order; only for
        turns created with ``true_state_allowed`` (diagnostic agents that
        declare ``sees_all_hands``)."""
        if not self.true_state_allowed:
            raise DeterminizationNotGranted(
                f"seat {self.seat} asked for the true state, but this turn does not show it: "
                "only diagnostic agents that declare sees_all_hands=True, seated where such "
                "agents are allowed (env121 tournament), are shown every hand"
            )
        return self._state.clone()


class MatchOver:
    """The end of a match as seat ``seat`` is told it (the state must not change while in use)."""

    __slots__ = ("_state", "seat")

    def __init__(self, state: State, seat: int) -> None:
        if not state.is_over:
            raise ValueError(f"the match is not over: phase {state.phase.value}")
        self._state = state
        self.seat = seat

    @property
    def view(self) -> SeatView:
        """What the seat knows at the end (its ``standings``, ``ranks``, ``match_end``)."""
        return observe(self._state, self.seat)

    def events_since(self, cursor: EventCursor) -> list[Event]:
        """The events the seat saw since ``cursor`` (:meth:`Turn.events_since`)."""
        return _events_seen_since(self._state, self.seat, cursor)


__all__ = ["DeterminizationNotGranted", "EventCursor", "MatchOver", "Turn"]
