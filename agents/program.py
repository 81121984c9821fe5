"""``program:CMD`` agents: a program in any language over the line protocol, version 2.

The contract a program author reads is ``docs/agent-protocol.md``; its tables
and sample messages are made from this module (:mod:`agents.protocol_doc`).
In short, env121 writes one JSON object a line on the program's stdin and
reads plain-text lines from its stdout:

* ``hello`` — once per process; the program answers ``hello 2`` (the version
  it speaks). A program that answers anything else, or nothing within
  :data:`STARTUP_TIMEOUT`, is refused in one line naming the versions, before
  any game starts (:class:`~agents.spec.AgentSpecError`).
* ``start`` — a game begins, with the seed of the program's randomness.
* ``decision`` — the seat must act. It carries an ``id`` and the events the seat
  saw since the last message (the whole ``view`` too in a game's first decision,
  after a restart, or when the program asks for it). The answer is the line
  ``ID ACTION`` (or ``ID view``, to be sent the same decision with the view).
  A line whose first token is not the pending id is a ``stray`` fault: counted,
  told, never played; env121 keeps reading until the answer or the time limit.
* ``end`` — the game is over: the last events, the standings and the ranks.

Every fault (:data:`FAULTS`) is counted in :attr:`ProgramAgent.faults` and told
on stderr in one line naming the whole command; all but ``stray`` make the
seat play the lowest legal id for that decision.

Version 1 (a bare action id a line, the whole view in every message) is
refused rather than kept: it cannot tell a stray line from an answer, so a
program that printed one extra line silently played every later answer one
decision late.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import os
import select
import shlex
import shutil
import subprocess
import sys
import time
import typing
from collections import Counter
from typing import Any, NamedTuple

from agents.spec import AgentSpecError
from env121.engine.state import Event
from env121.engine.view import SeatView
from env121.play.turn import EventCursor, MatchOver, Turn

PROTOCOL_VERSION = 2
"""The version of the line protocol spoken (``docs/agent-protocol.md``)."""
DEFAULT_TIMEOUT = 1.0
"""Seconds a program may take for one decision before it is a timeout fault."""
STARTUP_TIMEOUT = 10.0
"""Seconds a program may take from its start to its answer to ``hello``."""
SHUTDOWN_GRACE = 1.0
"""Seconds a program has to exit once its stdin is closed, before it is killed."""


class Fault(NamedTuple):
    """One kind of fault a program can commit: when it happens, what it costs."""

    kind: str
    when: str
    cost: str


FAULT_KINDS: tuple[Fault, ...] = (
    Fault(
        "crash",
        "the program exits, or closes its stdin or stdout, or, started again after a "
        "fault, does not answer `hello` with `hello 2`",
        "the lowest legal id is played; the program is started again for the next "
        "decision (`hello`, `start`, then a decision with the whole `view`)",
    ),
    Fault(
        "timeout",
        "no answer to the pending decision within the time limit",
        "the lowest legal id is played; the program is killed and started again "
        "for the next decision (as after a crash)",
    ),
    Fault(
        "bad_output",
        "a line answering the pending decision (its first token is the decision's id) "
        "whose second token is neither an integer nor `view`, or a second `view` request",
        "the lowest legal id is played",
    ),
    Fault(
        "illegal",
        "the answer's action id is not among the decision's `legal` ids",
        "the lowest legal id is played",
    ),
    Fault(
        "stray",
        "a line that does not answer the pending decision: its first token is not the "
        "decision's id, or nothing follows that id (an empty line, a log line, a late or "
        "repeated answer, a bare number)",
        "nothing is played for it: the line is dropped and env121 goes on reading for "
        "the answer, within the same time limit",
    ),
)
"""Every fault, in the order the tables list them."""
FAULTS = tuple(fault.kind for fault in FAULT_KINDS)
"""The kinds of fault a program agent can commit."""


class ProgramRefused(AgentSpecError):
    """A program that does not speak this version of the protocol."""


# ------------------------------------------------------------------ messages


def json_value(value: Any) -> Any:
    """``value`` as plain JSON data: events as objects with their ``type``, a
    dataclass as an object of its fields, an enum as its lower-case name."""
    kind = type(value)
    if kind is int or kind is bool or kind is str or value is None:
        return value
    if isinstance(value, enum.Enum):
        return value.name.lower()
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return event_json(value)  # type: ignore[arg-type]
    if isinstance(value, tuple | list):
        return [json_value(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: json_value(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if hasattr(value, "item"):  # a numpy scalar
        return value.item()
    raise TypeError(f"{value!r} has no JSON form in the protocol")


_PLAIN = (int, bool, tuple[int, ...])
"""Field types written as they are (no conversion)."""


def _converted_fields(kind: Any) -> tuple[str, ...]:
    """The fields of an event type that need :func:`json_value` (enums, results)."""
    hints = typing.get_type_hints(kind)
    return tuple(name for name in kind._fields if hints[name] not in _PLAIN)


_CONVERTED: dict[type, tuple[str, ...]] = {
    kind: _converted_fields(kind) for kind in typing.get_args(Event)
}
"""Per event type, the fields written through :func:`json_value`."""


def event_json(event: Event) -> dict[str, Any]:
    """One event as an object: ``{"type": "Flipped", "seat": 1, "card": 37, …}``."""
    out: dict[str, Any] = {"type": type(event).__name__, **event._asdict()}
    for name in _CONVERTED[type(event)]:
        out[name] = json_value(out[name])
    return out


def view_json(view: SeatView) -> dict[str, Any]:
    """The seat's whole view as an object (every field of the ``view`` table)."""
    return json_value(view)  # type: ignore[no-any-return]


def hello_message(timeout: float) -> dict[str, Any]:
    """The first message to a started program: the version and the time limit."""
    return {"type": "hello", "protocol": PROTOCOL_VERSION, "time_limit": timeout}


def start_message(seed: int) -> dict[str, Any]:
    """A game begins; all the program's randomness should come from ``seed``."""
    return {"type": "start", "seed": seed}


def decision_message(
    decision: int, turn: Turn, events: list[Event], view: SeatView | None
) -> dict[str, Any]:
    """The ``decision`` message: its id, the seat, what is decided, the hand, the
    legal ids, the events since the last message, and the whole view if given."""
    message: dict[str, Any] = {
        "type": "decision",
        "id": decision,
        "seat": turn.seat,
        "phase": turn.phase.name.lower(),
        "hand": turn.hand,
        "legal": turn.legal_actions,
        "events": [event_json(e) for e in events],
    }
    if view is not None:
        message["view"] = view_json(view)
    return message


def end_message(over: MatchOver, events: list[Event]) -> dict[str, Any]:
    """The ``end`` message: the last events, how the match ended, standings and ranks."""
    view = over.view
    return {
        "type": "end",
        "seat": over.seat,
        "events": [event_json(e) for e in events],
        "reason": json_value(view.match_end),
        "standings": view.standings,
        "ranks": view.ranks,
    }


_ENCODER = json.JSONEncoder(separators=(",", ":"), check_circular=False)
"""Compact JSON, ASCII only; made once (``json.dumps`` with options makes one a call)."""


def encode(message: dict[str, Any]) -> bytes:
    """One message as the line written to the program (compact JSON, ASCII, ``\\n``)."""
    return _ENCODER.encode(message).encode() + b"\n"


# --------------------------------------------------------------------- agent


class ProgramAgent:
    """A program over stdin/stdout (``docs/agent-protocol.md``), with faults and a fallback.

    The program is started and greeted (``hello``) when the agent is built,
    so a command that does not speak version 2 is refused before any game;
    it is kept for every later game, and started again after a crash or a
    timeout. See the module docstring for the messages.
    """

    uses_search = False

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        self._process: subprocess.Popen[bytes] | None = None
        argv = shlex.split(command)
        if not argv:
            raise AgentSpecError("program: has no command: expected program:CMD")
        if shutil.which(argv[0]) is None:
            raise AgentSpecError(
                f"command {argv[0]!r} not found: expected an executable on PATH or a path to one"
            )
        if not timeout > 0:
            raise AgentSpecError(f"timeout={timeout!r}: expected seconds > 0")
        self.argv = argv
        self.command = shlex.join(argv)
        """The whole command, as fault lines and refusals name it."""
        self.timeout = timeout
        self.faults: Counter[str] = Counter()
        """Faults committed so far, by kind (:data:`FAULTS`)."""
        self.spec = ""
        self._seed = 0
        self._buffer = b""
        self._poll: select.poll | None = None
        self._decision = 0
        self._cursor = EventCursor()
        self._send_view = True
        try:
            self._start()
        except _Fault as fault:
            raise ProgramRefused(
                f"program {self.command!r}: {fault.detail}: it does not speak protocol "
                f"{PROTOCOL_VERSION} (expected the line 'hello {PROTOCOL_VERSION}' in answer to "
                "'hello'; protocol 1 programs, which answer a bare action id, are no longer "
                "spoken: docs/agent-protocol.md, Versions)"
            ) from None

    def reset(self, seed: int) -> None:
        """A game begins: the program gets ``start``; the next decision carries the view."""
        self._seed = seed
        self._cursor = EventCursor()
        self._send_view = True
        if self._process is not None and self._process.poll() is None:
            try:
                self._send(start_message(seed))
            except _Fault:
                self.close()  # told as a crash at the next decision

    def act(self, turn: Turn) -> int:
        """The program's answer to this decision, or the lowest legal id on a fault."""
        legal = turn.legal_actions
        deadline = time.perf_counter() + self.timeout
        self._decision += 1
        decision = self._decision
        events = turn.events_since(self._cursor)
        try:
            if self._process is None or self._process.poll() is not None:
                self._start()
                self._send(start_message(self._seed))
                self._send_view = True
            view = turn.view if self._send_view else None
            self._send_view = False
            self._send(decision_message(decision, turn, events, view))
            asked_view = False
            while True:
                answer = self._answer(decision, deadline)
                if answer != "view":
                    break
                if asked_view:
                    return self._fault("bad_output", "a second 'view' request", legal)
                asked_view = True
                self._send(decision_message(decision, turn, [], turn.view))
        except _Fault as fault:
            return self._fault(fault.kind, fault.detail, legal)
        try:
            action = int(answer)
        except ValueError:
            return self._fault("bad_output", f"{answer[:60]!r} is not an action id", legal)
        if action not in legal:
            return self._fault("illegal", f"{action} is not among the legal ids", legal)
        return action

    def match_over(self, over: MatchOver) -> None:
        """Tell the program the game is over (``end``); no answer is read."""
        events = over.events_since(self._cursor)
        if self._process is not None and self._process.poll() is None:
            try:
                self._send(end_message(over, events))
            except _Fault:
                self.close()

    def close(self) -> None:
        """Close the program's stdin; kill it if it has not exited :data:`SHUTDOWN_GRACE` later."""
        process, self._process = self._process, None
        if process is None:
            return
        if process.poll() is None and process.stdin is not None:
            try:
                process.stdin.close()
                process.wait(SHUTDOWN_GRACE)
            except (OSError, subprocess.TimeoutExpired):
                pass
        if process.poll() is None:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()

    def __del__(self) -> None:
        self.close()

    # -------------------------------------------------------------- internals

    def _fault(self, kind: str, detail: str, legal: tuple[int, ...]) -> int:
        self._tell(kind, detail, f"it plays the lowest legal id {legal[0]}")
        if kind in ("crash", "timeout"):
            self._kill()
        return legal[0]

    def _tell(self, kind: str, detail: str, consequence: str) -> None:
        self.faults[kind] += 1
        print(
            f"env121: program {self.command!r}: {kind} fault ({detail}); {consequence}",
            file=sys.stderr,
        )

    def _kill(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            if process.poll() is None:
                process.kill()
                process.wait()
            for pipe in (process.stdin, process.stdout):
                if pipe is not None:
                    pipe.close()

    def _start(self) -> None:
        """Start the program and greet it; raise :class:`_Fault` unless it answers ``hello 2``."""
        try:
            process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                bufsize=0,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        except OSError as error:
            raise _Fault("crash", f"cannot be started ({error})") from None
        self._process = process
        self._buffer = b""
        assert process.stdout is not None
        self._poll = select.poll()
        self._poll.register(process.stdout.fileno(), select.POLLIN)
        self._send(hello_message(self.timeout))
        deadline = time.perf_counter() + STARTUP_TIMEOUT
        try:
            line = self._line(deadline, f"no answer to 'hello' within {STARTUP_TIMEOUT:g} s")
        except _Fault:
            self._kill()
            raise
        if line.split() != ["hello", str(PROTOCOL_VERSION)]:
            self._kill()
            raise _Fault("crash", f"answered 'hello' with {line[:60]!r}")

    def _send(self, message: dict[str, Any]) -> None:
        process = self._process
        assert process is not None and process.stdin is not None
        try:
            process.stdin.write(encode(message))
        except (BrokenPipeError, OSError, ValueError):
            raise _Fault("crash", "its stdin is closed") from None

    def _answer(self, decision: int, deadline: float) -> str:
        """The rest of the first line answering ``decision``; stray lines are told, dropped."""
        expected = str(decision)
        while True:
            line = self._line(deadline, f"no answer within {self.timeout:g} s")
            first, _, rest = line.partition(" ")
            if first == expected and rest.strip():
                return rest.strip()
            self._tell("stray", f"{line[:60]!r} does not answer decision {decision}", "dropped")

    def _line(self, deadline: float, late: str) -> str:
        """The next line of the program's stdout, before ``deadline``."""
        process, poll = self._process, self._poll
        assert process is not None and process.stdout is not None and poll is not None
        fd = process.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.perf_counter()
            if left <= 0 or not poll.poll(left * 1000.0):
                raise _Fault("timeout", late)
            chunk = os.read(fd, 65536)
            if not chunk:
                raise _Fault("crash", f"it exited (status {process.wait()})")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode(errors="replace").strip()


class _Fault(Exception):
    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


__all__ = [
    "DEFAULT_TIMEOUT",
    "FAULTS",
    "FAULT_KINDS",
    "PROTOCOL_VERSION",
    "SHUTDOWN_GRACE",
    "STARTUP_TIMEOUT",
    "Fault",
    "ProgramAgent",
    "ProgramRefused",
    "decision_message",
    "encode",
    "end_message",
    "event_json",
    "hello_message",
    "json_value",
    "start_message",
    "view_json",
]
