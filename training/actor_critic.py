"""The batched trainer's networks: the actor that ``ppo:`` checkpoints hold and
its critic, which may also read the other seats' hands.

:class:`ActorCritic` wraps :class:`agents.ppo.PolicyNetwork` (the actor, saved
alone) with a critic sharing its first layer; with the perfect-information
critic (PerfectDou's: the value may know what the actor may not) the critic's
first hidden layer also reads :func:`agents.value.hidden_hands`, the free cards of the three
other seats. Training only: the actor never sees them.
"""

from __future__ import annotations

import torch
from torch import nn

from agents.ppo import PolicyNetwork, action_hints
from agents.value import HIDDEN_SIZE
from agents.weights import ACTIVATIONS


class ActorCritic(nn.Module):
    """The actor (:class:`agents.ppo.PolicyNetwork`, what a checkpoint holds)
    and the critic, which shares the actor's first layer: the critic's first
    hidden layer is the activation of that layer's output plus (``perfect``)
    a linear map of the three other seats' free cards, then its own layers.
    The widest matrix product (the input is ~2,700 wide) is made once for both.
    With ``detached`` the critic reads the shared layer's output without
    training it (a stop-gradient): only the actor's losses move that layer."""

    def __init__(self, actor: PolicyNetwork, perfect: bool, detached: bool = False) -> None:
        super().__init__()
        self.actor = actor
        self.detached = detached
        first = actor.layers[0]
        assert isinstance(first, nn.Linear)
        self.hidden_in = nn.Linear(HIDDEN_SIZE, first.out_features, bias=False) if perfect else None
        layers: list[nn.Module] = []
        width = first.out_features
        for hidden in actor.hidden_sizes[1:]:
            layers += [nn.Linear(width, hidden), ACTIVATIONS[actor.activation]()]
            width = hidden
        layers.append(nn.Linear(width, 1))
        self.critic_layers = nn.Sequential(*layers)

    def forward(
        self, inputs: torch.Tensor, hidden: torch.Tensor | None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """``(logits [N, NUM_ACTIONS], values [N])``; ``logits`` are the actor's
        (``self.actor(inputs)`` exactly)."""
        layers = self.actor.layers
        pre = layers[0](inputs)
        logits: torch.Tensor = layers[2:](layers[1](pre))
        head = self.actor.hint_head
        if head is not None:
            logits = logits + head(action_hints(inputs, head.in_features)).squeeze(-1)
        if self.detached:
            pre = pre.detach()
        if self.hidden_in is not None and hidden is not None:
            pre = pre + self.hidden_in(hidden)
        values: torch.Tensor = self.critic_layers(layers[1](pre)).squeeze(-1)
        return logits, values


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``logits`` with the illegal actions at a large negative value."""
    return logits.masked_fill(~mask, -1e9)


def cross_entropy(targets: torch.Tensor, log_q: torch.Tensor) -> torch.Tensor:
    """Each row's cross-entropy ``−Σ_a p(a)·log q(a)`` of the distribution
    ``targets`` (``p``, ``[n, NUM_ACTIONS]``) to the log-probabilities ``log_q``,
    summed over the actions ``p`` gives mass to: an illegal action, of no mass
    in ``p``, counts nothing, even where ``log q`` is −∞ (``0 · −∞`` would be
    NaN)."""
    return -torch.where(targets > 0, targets * log_q, 0.0).sum(dim=1)


__all__ = ["ActorCritic", "cross_entropy", "masked_logits"]
