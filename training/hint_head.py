"""The hint head inside SB3: a MaskablePPO policy whose action logits also
read the hints action by action (:class:`agents.ppo.PolicyNetwork`'s
``hint_head``).

SB3's actor is ``mlp_extractor.forward_actor`` (features → latent) then
``action_net`` (latent → logits), and the action net sees only the latent.
:class:`HintPassingExtractor` therefore appends the hints to the actor's
latent, and :class:`HintedActionNet` splits them off again: the usual linear
layer on the MLP's output, plus one weight per hint block shared by every
action. The critic is unchanged. The head's weights start at zero, so a fresh
policy starts as the plain MLP would.
"""

from __future__ import annotations

from typing import Any

import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import MlpExtractor
from stable_baselines3.common.type_aliases import Schedule
from torch import nn

from agents.ppo import action_hints
from env121.engine.actions import NUM_ACTIONS


class HintPassingExtractor(MlpExtractor):
    """SB3's ``MlpExtractor`` whose actor latent is the MLP's output followed
    by the raw hints (``blocks · NUM_ACTIONS`` values); its ``forward`` calls
    :meth:`forward_actor`, so both paths carry them."""

    def __init__(self, feature_dim: int, blocks: int, **kwargs: Any) -> None:
        super().__init__(feature_dim, **kwargs)
        self.hidden_pi = self.latent_dim_pi
        self.hint_width = blocks * NUM_ACTIONS
        self.latent_dim_pi = self.hidden_pi + self.hint_width

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        """The actor MLP's output followed by the hints."""
        hints = features[..., features.shape[-1] - self.hint_width :]
        return torch.cat([self.policy_net(features), hints], dim=-1)


class HintedActionNet(nn.Module):
    """Logits from a :class:`HintPassingExtractor` latent: ``linear`` on the
    MLP's part plus ``hint`` (one weight per block) on each action's hints."""

    def __init__(self, hidden: int, blocks: int) -> None:
        super().__init__()
        self.hidden = hidden
        self.linear = nn.Linear(hidden, NUM_ACTIONS)
        self.hint = nn.Linear(blocks, 1, bias=False)
        nn.init.zeros_(self.hint.weight)

    def forward(self, latent: torch.Tensor) -> torch.Tensor:
        """Logits over the action ids."""
        per_action = action_hints(latent, self.hint.in_features)
        logits: torch.Tensor = self.linear(latent[..., : self.hidden])
        hinted: torch.Tensor = self.hint(per_action).squeeze(-1)
        return logits + hinted


class HintHeadPolicy(MaskableActorCriticPolicy):
    """MaskablePPO's ``MlpPolicy`` with the hint head; ``hint_blocks`` is the
    number of hint blocks after the observation (``agents.ppo.hint_blocks``)."""

    def __init__(self, *args: Any, hint_blocks: int, **kwargs: Any) -> None:
        if hint_blocks < 1:
            raise ValueError(f"hint_blocks={hint_blocks} is not valid: expected ≥ 1")
        self.hint_blocks = hint_blocks
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = HintPassingExtractor(
            self.features_dim,
            self.hint_blocks,
            net_arch=self.net_arch,
            activation_fn=self.activation_fn,
            device=self.device,
        )

    def _build(self, lr_schedule: Schedule) -> None:
        super()._build(lr_schedule)  # builds a plain action net, replaced here
        assert isinstance(self.mlp_extractor, HintPassingExtractor)
        self.action_net = HintedActionNet(self.mlp_extractor.hidden_pi, self.hint_blocks)
        if self.ortho_init:
            self.action_net.linear.apply(lambda module: self.init_weights(module, gain=0.01))
        self.optimizer = self.optimizer_class(
            self.parameters(),
            lr=lr_schedule(1),  # type: ignore[call-arg]
            **self.optimizer_kwargs,
        )


__all__ = ["HintHeadPolicy", "HintPassingExtractor", "HintedActionNet"]
