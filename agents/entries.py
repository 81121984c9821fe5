"""Agents from outside the registry: ``import:``, ``sb3:`` and ``program:`` specs.

Three forms let any agent enter ``env121 tournament`` and ``env121 benchmark``
without registering a Python class of its own:

* ``import:mypkg.bots:make_bot`` — a Python object by import path: ``make_bot``
  is a callable returning an agent of :class:`env121.play.protocol.Agent`
  (``reset(seed)``, ``act(turn)``, ``uses_search``), or such an object itself;
* ``sb3:path/to/model.zip`` — a MaskablePPO model (sb3-contrib) trained on
  :class:`~env121.envs.single_seat.SingleSeat`: it acts on the seat's
  ``env121_v1`` observation vector with the legal-action mask, deterministically
  unless ``deterministic=false`` (the ``train`` extra);
* ``program:CMD`` — a program in any language speaking the line protocol of
  ``docs/agent-protocol.md`` over stdin/stdout (:class:`ProgramAgent`), with a
  per-decision time limit (``timeout=SECONDS``, default
  :data:`DEFAULT_TIMEOUT`).

Each is checked when built: a missing module or attribute, a missing file or
one that is not a zip, a command not found raise
:class:`~agents.spec.AgentSpecError` in one line, before any game starts.
The spec grammar is the registry's (``name:key=value,…``, the first value
bare), so a ``program:`` command cannot hold a ``,`` or an ``=``: put such a
command in a small script.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import json
import os
import selectors
import shlex
import shutil
import subprocess
import sys
import time
import zipfile
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from agents.spec import AgentSpecError
from env121.engine.actions import format_action
from env121.extras import MissingExtraError, require_extra
from env121.play.protocol import Agent
from env121.play.turn import Turn
from env121.rules.cards import format_card

PROTOCOL_VERSION = 1
"""The version of the line protocol (``docs/agent-protocol.md``); every message carries it."""
DEFAULT_TIMEOUT = 1.0
"""Seconds a program may take for one decision before it is a timeout fault."""
FAULTS = ("crash", "timeout", "bad_output", "illegal")
"""The kinds of fault a program agent can commit; each plays the fallback move."""


def import_agent(target: str) -> Agent:
    """The agent at ``module:attribute`` (a factory called with no arguments, or an agent)."""
    module_name, colon, attribute = target.partition(":")
    if not colon or not module_name or not attribute:
        raise AgentSpecError(
            f"import target {target!r} is not valid: expected 'module.path:attribute'"
        )
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise AgentSpecError(
            f"module {module_name!r} cannot be imported ({error}): "
            "expected an importable module (is it on PYTHONPATH?)"
        ) from None
    obj: Any = module
    for part in attribute.split("."):
        if not hasattr(obj, part):
            raise AgentSpecError(
                f"module {module_name!r} has no attribute {attribute!r}: "
                "expected a factory or an agent"
            )
        obj = getattr(obj, part)
    # A class or factory is called (each seat gets its own agent); an agent object is used as is.
    factory = isinstance(obj, type) or (callable(obj) and not isinstance(obj, Agent))
    agent = obj() if factory else obj
    if not (callable(getattr(agent, "act", None)) and callable(getattr(agent, "reset", None))):
        raise AgentSpecError(
            f"{type(agent).__name__} is not an agent: expected an object with "
            "act(turn) -> int, reset(seed) and uses_search (env121.play.protocol.Agent)"
        )
    if not hasattr(agent, "uses_search"):
        agent.uses_search = False
    return agent  # type: ignore[no-any-return]


class SB3Agent:
    """A MaskablePPO model (sb3-contrib) trained on ``SingleSeat``, from its ``.zip``."""

    uses_search = False

    def __init__(self, model: str, deterministic: bool = True) -> None:
        path = Path(model)
        if not path.is_file():
            raise AgentSpecError(f"{model}: no such file: expected a MaskablePPO .zip")
        if not zipfile.is_zipfile(path):
            raise AgentSpecError(f"{model}: is not a zip: expected a MaskablePPO .zip")
        try:
            require_extra("train", "an sb3 agent")
        except MissingExtraError as error:
            raise AgentSpecError(str(error)) from None
        from sb3_contrib import MaskablePPO

        try:
            self.model = MaskablePPO.load(path, device="cpu")
        except Exception as error:  # sb3 raises many kinds for a foreign zip
            raise AgentSpecError(
                f"{model}: cannot be loaded as a MaskablePPO model ({error})"
            ) from None
        self.deterministic = deterministic
        self.spec = ""

    def reset(self, seed: int) -> None:
        """Seed torch's sampling (only used when not deterministic)."""
        import torch

        torch.manual_seed(seed)

    def act(self, turn: Turn) -> int:
        """The model's action on the seat's observation, masked to the legal ids."""
        action, _ = self.model.predict(
            turn.observation,
            action_masks=turn.action_mask.astype(bool),
            deterministic=self.deterministic,
        )
        return int(action)


def view_message(turn: Turn, time_left: float) -> dict[str, Any]:
    """The protocol's ``decision`` message: what the seat knows, its legal moves, the time left.

    ``view`` is every field of :class:`~env121.engine.view.SeatView` in JSON
    (enums by value, events as objects with their ``type``); ``hand`` is also
    given in the card notation.
    """
    view = turn.view
    return {
        "type": "decision",
        "protocol": PROTOCOL_VERSION,
        "seat": turn.seat,
        "legal": [{"id": a, "name": format_action(a)} for a in turn.legal_actions],
        "time_left": round(time_left, 4),
        "hand": [format_card(c) for c in view.hand],
        "view": _json(view),
    }


def _json(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: _json(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"type": type(value).__name__, **fields}
    if isinstance(value, tuple) and hasattr(value, "_asdict"):  # an event (a NamedTuple)
        return {"type": type(value).__name__, **{k: _json(v) for k, v in value._asdict().items()}}
    if isinstance(value, enum.Enum):
        return value.value if isinstance(value.value, int | str) else value.name
    if isinstance(value, tuple | list):
        return [_json(v) for v in value]
    if isinstance(value, np.integer | np.bool_):
        return value.item()
    return value


class ProgramAgent:
    """A program over stdin/stdout (``docs/agent-protocol.md``), with faults and a fallback.

    The program is started once per agent and kept; each match begins with a
    ``reset`` message, each decision is one ``decision`` line answered by one
    line holding an action id. A crash, a timeout, a line that is not an
    integer, or an id that is not legal is a *fault*: counted in
    :attr:`faults` by kind (:data:`FAULTS`), told on stderr in one line, and the
    seat plays the fallback — the lowest legal id — so the match goes on. After
    a crash or a timeout the program is restarted for the next decision.
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
        self.timeout = timeout
        self.faults: Counter[str] = Counter()
        """Faults committed so far, by kind (:data:`FAULTS`)."""
        self.spec = ""
        self._seed = 0
        self._buffer = b""

    def reset(self, seed: int) -> None:
        """Start a match: the program gets ``{"type": "reset", "seed": seed}``."""
        self._seed = seed
        if self._process is not None and self._process.poll() is None:
            self._send({"type": "reset", "protocol": PROTOCOL_VERSION, "seed": seed})

    def act(self, turn: Turn) -> int:
        """The program's action, or the fallback on a fault."""
        legal = turn.legal_actions
        start = time.perf_counter()
        try:
            process = self._ensure_started()
            self._send(view_message(turn, self.timeout))
            line = self._read_line(process, start + self.timeout)
        except _Fault as fault:
            return self._fault(fault.kind, fault.detail, legal)
        try:
            action = int(line)
        except ValueError:
            return self._fault("bad_output", f"{line[:60]!r} is not an action id", legal)
        if action not in legal:
            return self._fault("illegal", f"{action} is not among the legal ids", legal)
        return action

    def close(self) -> None:
        """Stop the program (it also stops when this agent is collected)."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()

    def __del__(self) -> None:
        self.close()

    def _fault(self, kind: str, detail: str, legal: tuple[int, ...]) -> int:
        self.faults[kind] += 1
        print(
            f"env121: program {self.argv[0]}: {kind} fault ({detail}); "
            f"it plays the lowest legal id {legal[0]}",
            file=sys.stderr,
        )
        if kind in ("crash", "timeout"):
            self.close()
        return legal[0]

    def _ensure_started(self) -> subprocess.Popen[bytes]:
        if self._process is None or self._process.poll() is not None:
            try:
                self._process = subprocess.Popen(
                    self.argv,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    bufsize=0,
                    env={**os.environ, "PYTHONUNBUFFERED": "1"},
                )
            except OSError as error:
                raise _Fault("crash", f"cannot start: {error}") from None
            self._buffer = b""
            self._send({"type": "reset", "protocol": PROTOCOL_VERSION, "seed": self._seed})
        return self._process

    def _send(self, message: dict[str, Any]) -> None:
        assert self._process is not None and self._process.stdin is not None
        try:
            self._process.stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        except (BrokenPipeError, OSError):
            raise _Fault("crash", "its stdin is closed") from None

    def _read_line(self, process: subprocess.Popen[bytes], deadline: float) -> str:
        assert process.stdout is not None
        fd = process.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                left = deadline - time.perf_counter()
                if left <= 0 or not selector.select(left):
                    raise _Fault("timeout", f"no answer within {self.timeout:g} s")
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
    "PROTOCOL_VERSION",
    "ProgramAgent",
    "SB3Agent",
    "import_agent",
    "view_message",
]
