"""An ``import:`` agent that judges whether it was shown each game whole and in order.

``import:tests.support.stream_agent:StreamAgent`` plays the highest legal id
and feeds :class:`~tests.support.whole_games.WholeGames` what it reads of
each decision: the events since its last one (:meth:`Turn.events_since`, a
new :class:`EventCursor` at every ``reset``), then the view, in the line
protocol's JSON, as the ``program:`` form of the checker is sent them. Every
agent built is kept in :attr:`StreamAgent.built` for the test to read.
"""

from __future__ import annotations

from typing import ClassVar

from agents.program import event_json, view_json
from env121.play.turn import EventCursor, MatchOver, Turn
from tests.support.whole_games import WholeGames


class StreamAgent:
    """Plays the highest legal id; its games are judged in :attr:`judge`."""

    uses_search = False
    spec = "import:target=tests.support.stream_agent:StreamAgent"
    built: ClassVar[list[StreamAgent]] = []

    def __init__(self) -> None:
        self.judge = WholeGames()
        self.cursor = EventCursor()
        StreamAgent.built.append(self)

    def reset(self, seed: int) -> None:
        """A game begins: a new cursor."""
        self.judge.start()
        self.cursor = EventCursor()

    def act(self, turn: Turn) -> int:
        """Judge the events since the last decision and the view; play the highest id."""
        self.judge.decision(turn.seat, [event_json(e) for e in turn.events_since(self.cursor)])
        self.judge.view(view_json(turn.view))
        return max(turn.legal_actions)

    def match_over(self, over: MatchOver) -> None:
        """Judge the game's last events and its end."""
        events = [event_json(e) for e in over.events_since(self.cursor)]
        self.judge.end(over.seat, events, list(over.view.standings))


ONE_AGENT = StreamAgent()
"""One agent object, not a factory: ``import:`` gives it for every seat, which
the arena accepts (one match at a time) and a batched engine refuses."""
