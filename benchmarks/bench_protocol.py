"""The overhead per decision of a ``program:`` agent (the line protocol, version 2),
beside a raw pipe round trip and the same kind of policy in process, all measured
in this run.

Usage::

    .venv/bin/python -m benchmarks.bench_protocol [--deals N]

(as a module from the checkout's root, so the in-process peer
``import:benchmarks.bench_protocol:HighestLegal`` can be imported)

Rows:

* ``raw pipe round trip`` — each decision line of a played game written to
  ``cat`` and read back, the way :class:`agents.program.ProgramAgent` reads
  (``poll`` + ``os.read``), between the game's moves: the floor any program
  pays (two pipe transfers and two process wake-ups), with no parsing and no
  thinking;
* ``message build + encode`` — :func:`agents.program.decision_message` and
  :func:`agents.program.encode` alone, on the same decisions: env121's side of
  the protocol without the pipe;
* ``in process (peer)`` — ``import:benchmarks.bench_protocol:HighestLegal``, a
  trivial policy inside ``act`` (no protocol at all);
* the C example ``examples/c_agent/agent.c`` (compiled here with ``cc -O2``, if
  ``cc`` is here), the Node example ``examples/js_agent/agent.js`` (if ``node``
  is), and a Python program (``tests/support/faulty_program.py good``).

A program's figure is the mean time inside ``act`` per decision against three
``random`` (one game at a time, as a program agent plays): building the
message, the pipe both ways, the program's parsing and choosing. Its
``overhead`` is that figure minus the peer's. The target is ≤ 0.1 ms a decision
for the Node and C examples on an idle machine. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from agents.program import decision_message, encode
from arena.tournament import run_tournament
from env121.engine.game import apply, new_game
from env121.play.turn import EventCursor, Turn

ROOT = Path(__file__).resolve().parents[1]


class HighestLegal:
    """The highest legal id: the in-process twin of the ``good`` test program."""

    uses_search = False
    spec = "highest"

    def reset(self, seed: int) -> None:
        """Nothing to seed."""

    def act(self, turn: Turn) -> int:
        """The highest legal id."""
        return max(turn.legal_actions)


def decision_ms(spec: str, deals: int) -> float:
    """Mean ms per decision of ``spec`` against three ``random``."""
    result = run_tournament(matchups=[(spec, "random")], deals=deals)
    (matchup,) = result.matchups
    return matchup.agents[matchup.challenger].metrics["decision_ms"].mean


def env121_side_and_pipe(seed: int = 1, seat: int = 0) -> tuple[float, float, int]:
    """Play a seeded game of lowest-legal players; at each decision of ``seat``,
    build and encode its decision line (timed), and send it through ``cat`` and
    read it back the way :class:`~agents.program.ProgramAgent` reads (timed
    apart). The mean ms of each, and the median line's length in bytes."""
    process = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    assert process.stdin is not None and process.stdout is not None
    fd = process.stdout.fileno()
    poll = select.poll()
    poll.register(fd, select.POLLIN)
    state = new_game(seed)
    cursor = EventCursor()
    sizes: list[int] = []
    build = pipe = 0.0
    while not state.is_over:
        turn = Turn(state, state.current_player)
        if turn.seat == seat:
            start = time.perf_counter()
            message = decision_message(len(sizes) + 1, turn, turn.events_since(cursor), None)
            line = encode(message)
            sent = time.perf_counter()
            process.stdin.write(line)
            received = b""
            while not received.endswith(b"\n"):
                poll.poll(1000.0)
                received += os.read(fd, 65536)
            pipe += time.perf_counter() - sent
            build += sent - start
            sizes.append(len(line))
        apply(state, turn.legal_actions[0])
    process.stdin.close()
    process.wait()
    return 1000.0 * build / len(sizes), 1000.0 * pipe / len(sizes), sorted(sizes)[len(sizes) // 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20, help="deals per program (default: 20)")
    args = parser.parse_args()
    if args.deals < 1:
        parser.error(f"--deals {args.deals}: expected ≥ 1")
    run_tournament(matchups=[("random", "random")], deals=1)  # compile the kernels first
    build_ms, pipe_ms, median = env121_side_and_pipe()
    print(f"cores: {os.cpu_count()}; load average {os.getloadavg()[0]:.2f} (idle: near 0)")
    print(f"raw pipe round trip      {pipe_ms:7.3f} ms   (a {median}-byte line through cat)")
    print(f"message build + encode   {build_ms:7.3f} ms/decision")
    peer = decision_ms("import:benchmarks.bench_protocol:HighestLegal", args.deals)
    print(f"in process (peer)        {peer:7.3f} ms/decision")
    programs: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory() as folder:
        if shutil.which("cc"):
            binary = Path(folder) / "c_agent"
            source = ROOT / "examples" / "c_agent" / "agent.c"
            subprocess.run(["cc", "-std=c99", "-O2", "-o", str(binary), str(source)], check=True)
            programs.append(("C example (c_agent)", f"program:{binary}"))
        else:
            print("C example: skipped (no cc)")
        if shutil.which("node"):
            agent = ROOT / "examples" / "js_agent" / "agent.js"
            programs.append(("node example (js_agent)", f"program:node {agent}"))
        else:
            print("node example: skipped (no node)")
        good = ROOT / "tests" / "support" / "faulty_program.py"
        programs.append(("python program", f"program:{sys.executable} {good} good"))
        for name, spec in programs:
            ms = decision_ms(spec, args.deals)
            print(f"{name:<24} {ms:7.3f} ms/decision   overhead {ms - peer:6.3f} ms")


if __name__ == "__main__":
    main()
