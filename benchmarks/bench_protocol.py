"""The overhead per decision of a ``program:`` agent (the line protocol) beside the same
policy in process.

Usage::

    .venv/bin/python benchmarks/bench_protocol.py [--deals N]

Three agents play the same tournament against three ``random`` (one game at a
time, as a program agent always plays):

* ``import:benchmarks.bench_protocol:HighestLegal`` — the policy "highest
  legal id" in this process (the peer: no protocol);
* the same policy as a Python program over stdin/stdout
  (``tests/support/faulty_program.py good``);
* the JavaScript example ``examples/js_agent/agent.js`` (if ``node`` is here).

Each line prints the agent's mean ms per decision (time inside ``act``: for a
program, building the JSON message, the pipe both ways and the program's own
thinking); the protocol overhead is the program's figure minus the peer's.
The target is ≤ 1 ms. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from arena.tournament import run_tournament
from env121.play.turn import Turn

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
    result = run_tournament(matchups=[(spec, "random")], deals=deals, batched=False)
    (matchup,) = result.matchups
    return result.matchups[0].agents[matchup.challenger].metrics["decision_ms"].mean


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    args = parser.parse_args()
    run_tournament(matchups=[("random", "random")], deals=1)  # compile the kernels first
    peer = decision_ms("import:benchmarks.bench_protocol:HighestLegal", args.deals)
    print(f"in process (peer)        {peer:7.3f} ms/decision")
    program = f"program:{sys.executable} {ROOT / 'tests/support/faulty_program.py'} good"
    ms = decision_ms(program, args.deals)
    print(f"python program           {ms:7.3f} ms/decision   overhead {ms - peer:6.3f} ms")
    if shutil.which("node"):
        ms = decision_ms(f"program:node {ROOT / 'examples/js_agent/agent.js'}", args.deals)
        print(f"node example (js_agent)  {ms:7.3f} ms/decision   overhead {ms - peer:6.3f} ms")


if __name__ == "__main__":
    main()
