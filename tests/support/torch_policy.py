"""An ``import:`` batched policy that is a torch module: ``linear``, a seeded
``torch.nn.Linear`` from the observation to the 131 logits; and ``busy_agent``,
an agent that keeps torch's thread pool busy."""

from __future__ import annotations

import torch

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
    the first legal action."""

    spec = "import:tests.support.torch_policy:busy_agent"
    uses_search = False

    def __init__(self) -> None:
        self.work = torch.ones(1 << 22)
        self.work.mul_(2.0)

    def reset(self, seed: int) -> None:
        """Nothing to reseed."""

    def act(self, turn: Turn) -> int:
        """The first legal action, after the pool's work."""
        self.work.mul_(1.0)
        return int(turn.legal_actions[0])


def busy_agent() -> BusyAgent:
    """A :class:`BusyAgent`."""
    return BusyAgent()
