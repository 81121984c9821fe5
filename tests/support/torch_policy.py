"""An ``import:`` batched policy that is a torch module: ``linear``, a seeded
``torch.nn.Linear`` from the observation to the 131 logits; :class:`BusyAgent`,
an agent that keeps torch's thread pool busy; and :func:`run_after_a_busy_pool`,
code run where that pool was started before any worker is forked."""

from __future__ import annotations

import subprocess
import sys

import torch

from agents.greedy import GreedyAgent
from env121.engine.actions import NUM_ACTIONS
from env121.play.observation import OBS_SIZE
from env121.play.turn import Turn

torch.manual_seed(0)
linear = torch.nn.Linear(OBS_SIZE, NUM_ACTIONS)


class BusyAgent:
    """An ``import:`` agent whose construction and every decision run a torch
    operation large enough for torch's OpenMP pool (where torch has two
    threads or more): built in a tournament's parent to check its spec, it
    starts that pool there, as an agent that loads its weights does. It plays
    as greedy."""

    spec = "import:tests.support.torch_policy:BusyAgent"
    uses_search = False

    def __init__(self) -> None:
        self.work = torch.ones(1 << 18)
        self.work.mul_(2.0)
        self.greedy = GreedyAgent()

    def reset(self, seed: int) -> None:
        """Reset its greedy."""
        self.greedy.reset(seed)

    def act(self, turn: Turn) -> int:
        """Greedy's action, after the pool's work."""
        self.work.mul_(1.0)
        return self.greedy.act(turn)


def run_after_a_busy_pool(code: str, timeout: float = 120) -> str:
    """The output of ``code`` run by a fresh Python whose torch has two threads
    (so that building a :class:`BusyAgent` starts its pool, on any machine); one
    that does not end within ``timeout`` seconds is killed
    (``subprocess.TimeoutExpired``), as a hung one would be."""
    prelude = "import torch\ntorch.set_num_threads(2)\n"
    done = subprocess.run(
        [sys.executable, "-c", prelude + code],
        capture_output=True,
        text=True,
        check=True,
        timeout=timeout,
    )
    return done.stdout
