"""Whether a player was shown each of its games whole, from the deal, in order.

:class:`WholeGames` is fed what one player is told, message by message, in the
line protocol's JSON (``docs/agent-protocol.md``): ``start``, each
``decision``'s events and then its whole view, ``end``. It keeps one line per
game: ``whole …`` for a game followed from its first event to its
``MatchEnded``, or ``gap: …`` at the first thing that breaks the stream:

* a decision or an ``end`` outside a game (no ``start`` since the last
  ``end``: an agent not reset for a new game), a ``start`` in the middle of
  a game, a game's first event not the match's first (``VongStarted`` of
  ván 0, vòng 0), a seat that changes within a game;
* at every decision, the events received since the vòng began differ from
  the view's ``history`` (events missing, repeated, another game's), or a
  vòng's number does not follow the last one's;
* an ``end`` whose stream does not close with ``MatchEnded`` and its standings.

Run as a script, ``python whole_games.py LOG``, it is a ``program:`` agent
that plays the highest legal id, asks for the view at every decision that
does not carry it, and appends its games' lines to ``LOG``;
``tests/support/stream_agent.py`` is the same as an ``import:`` agent. The
file imports nothing of env121, so the program starts in a few milliseconds.
"""

from __future__ import annotations

import json
import sys
from typing import Any

Json = dict[str, Any]


class WholeGames:
    """The games one player was shown, each ``whole …`` or ``gap: …`` (:attr:`games`)."""

    def __init__(self) -> None:
        self.games: list[str] = []
        """One line per game judged, in the order they ended (or broke)."""
        self.stream: list[Json] | None = None
        """The open game's events so far (``None`` between games)."""
        self.seat = -1
        self.decisions = 0
        self.vong_start = 0
        """Where the open vòng's events begin in :attr:`stream`."""

    def start(self) -> None:
        """A ``start``: a game begins."""
        if self.stream is not None:
            self.gap("a start in the middle of a game")
        self.stream, self.seat, self.decisions, self.vong_start = [], -1, 0, 0

    def decision(self, seat: int, events: list[Json]) -> None:
        """A ``decision`` of ``seat`` with the ``events`` since the last message."""
        if self.stream is None:
            return self.gap("a decision outside a game (no start)")
        if self.seat not in (-1, seat):
            return self.gap(f"seat {seat} in a game played by seat {self.seat}")
        self.seat = seat
        self.decisions += 1
        self.extend(events)
        return None

    def view(self, view: Json) -> None:
        """The whole view at the last decision: its ``history`` is the vòng's stream."""
        if self.stream is None:
            return None  # already judged broken
        if self.stream[self.vong_start :] != view["history"]:
            self.gap(
                f"decision {self.decisions}: {len(self.stream) - self.vong_start} events "
                f"since the vòng began, the view's history has {len(view['history'])}"
            )
        return None

    def end(self, seat: int, events: list[Json], standings: list[int]) -> None:
        """An ``end`` with its last ``events`` and the ``standings``."""
        if self.stream is None:
            return self.gap("an end outside a game (no start)")
        if not self.extend(events):
            return None
        last = self.stream[-1] if self.stream else {}
        if last.get("type") != "MatchEnded" or list(last["standings"]) != list(standings):
            return self.gap(f"the stream ends with {last.get('type')}, not the MatchEnded")
        vong = sum(e["type"] == "VongStarted" for e in self.stream)
        self.games.append(f"whole seat={seat} decisions={self.decisions} vong={vong}")
        self.stream = None
        return None

    def extend(self, events: list[Json]) -> bool:
        """Add ``events`` to the stream; False (and a gap) if they break it."""
        assert self.stream is not None
        for event in events:
            if event["type"] == "VongStarted":
                started = [e for e in self.stream if e["type"] == "VongStarted"]
                expected = _next_vong(started[-1]) if started else (0, 0)
                if (event["van"], event["vong"]) != expected:
                    self.gap(f"vòng {event['van']}.{event['vong']} follows, not {expected}")
                    return False
                self.vong_start = len(self.stream)
            elif not self.stream:
                self.gap(f"the game's first event is {event['type']}, not VongStarted")
                return False
            self.stream.append(event)
        return True

    def gap(self, why: str) -> None:
        """Judge the open game (or the message outside one) broken, and close it."""
        self.games.append(f"gap: {why}")
        self.stream = None


def _next_vong(started: Json) -> tuple[int, int]:
    """The (ván, vòng) after the vòng that ``started`` began (12 vòng a ván)."""
    van, vong = started["van"], started["vong"]
    return (van, vong + 1) if vong < 11 else (van + 1, 0)


def main(log_path: str) -> None:
    """Speak the protocol on stdin/stdout; append each game's line to ``log_path``."""
    judge = WholeGames()
    asked = -1  # the decision whose view was asked for
    with open(log_path, "a", buffering=1) as log:
        for line in sys.stdin:
            message = json.loads(line)
            kind = message["type"]
            if kind == "hello":
                print(f"hello {message['protocol']}", flush=True)
            elif kind == "start":
                judge.start()
            elif kind == "end":
                judge.end(message["seat"], message["events"], message["standings"])
            elif kind == "decision":
                if message["id"] != asked:
                    judge.decision(message["seat"], message["events"])
                if "view" not in message:
                    asked = message["id"]
                    print(f"{asked} view", flush=True)
                    continue
                judge.view(message["view"])
                print(f"{message['id']} {max(message['legal'])}", flush=True)
            for game in judge.games:
                log.write(game + "\n")
            judge.games.clear()


if __name__ == "__main__":
    main(sys.argv[1])
