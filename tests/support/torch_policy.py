"""An ``import:`` batched policy that is a torch module: ``linear``, a seeded
``torch.nn.Linear`` from the observation to the 131 logits."""

from __future__ import annotations

import torch

from env121.engine.actions import NUM_ACTIONS
from env121.play.observation import OBS_SIZE

torch.manual_seed(0)
linear = torch.nn.Linear(OBS_SIZE, NUM_ACTIONS)
