"""The settings both PPO trainers share, declared once: :class:`PPOSettings`.

:mod:`training.batched_config` (``batched_ppo``) and :mod:`training.ppo_selfplay`
(``maskable_ppo``) extend it; :mod:`training.settings` reads all of them alike
(presets, ``--set``, saved runs).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

from agents.weights import ACTIVATIONS
from env121.rules.config import RuleConfig
from training.hardware import check_device
from training.settings import check_at_least, check_choice, check_in_range


@dataclass
class PPOSettings:
    """The settings both PPO trainers have, declared once.

    :class:`training.batched_config.Config` (``batched_ppo``) and
    :class:`training.ppo_selfplay.Config` (``maskable_ppo``) extend it with their
    own; the defaults here are ``batched_ppo``'s, and ``maskable_ppo`` gives some
    of them other defaults (named in its class). A "step" is the trainer's own
    count: an engine step of any game for ``batched_ppo``, a decision of the
    learner for ``maskable_ppo``."""

    algorithm: str = ""
    """Which trainer runs the preset (one of :data:`training.settings.ALGORITHMS`)."""
    description: str = ""
    """What the preset is for (free text)."""

    # --- run
    seed: int = 0
    """Seeds the networks, the deals and every draw of the trainer."""
    threads: int = 0
    """Threads of the trainer's process: the engine's slices, the input encoder,
    the opponents and torch's (they run one after another;
    :mod:`training.hardware`); 0: ``ENV121_THREADS`` if set, else every core."""
    device: str = "auto"
    """Where the learner's networks act and learn: ``auto`` (a GPU when torch
    sees one), ``cpu``, ``cuda`` or ``cuda:N`` (:mod:`training.hardware`)."""
    rules: dict[str, Any] = dataclasses.field(default_factory=dict)
    """:class:`~env121.rules.config.RuleConfig` fields, e.g. ``{num_van: 2}``
    (default: the spec's)."""

    # --- the pool of the learner's snapshots
    pool_max_size: int = 8
    """Snapshots in play; the oldest retire."""
    snapshot_every: int = 2_000_000
    """Add a snapshot of the learner to the pool every this many steps (0: never
    on a schedule)."""

    # --- networks
    inputs: str = "observation+swap_wins"
    """What the networks read: a key of ``agents.hints.INPUTS`` (the observation,
    alone or with rules knowledge or an agent's hints; ``batched_ppo`` takes
    those without an agent's hints)."""
    hint_head: bool = True
    """Each action's logit also reads that action's entries of the input's
    trailing per-action part, through one weight per block (inputs with such a
    part only)."""
    hidden_sizes: list[int] = dataclasses.field(default_factory=lambda: [256, 256])
    """Hidden layer widths of the actor and of the critic (``maskable_ppo``: two
    networks; ``batched_ppo``: the critic shares the actor's first layer,
    :class:`training.actor_critic.ActorCritic`)."""
    activation: str = "relu"
    """``"tanh"`` or ``"relu"``."""

    # --- PPO
    learning_rate: float = 3e-4
    """Adam step size (at the start when ``anneal_lr``)."""
    anneal_lr: bool = True
    """Decay the learning rate linearly to 0 over the run's steps."""
    n_epochs: int = 2
    """Passes over each rollout's samples."""
    gamma: float = 1.0
    """Discount per decision of a seat."""
    gae_lambda: float = 0.95
    """GAE's λ."""
    clip_range: float = 0.2
    """PPO's policy clipping."""
    ent_coef: float = 0.01
    """Entropy bonus."""
    vf_coef: float = 0.5
    """Value loss weight."""
    max_grad_norm: float = 0.5
    """Gradient clipping norm."""

    # --- checkpoints, evaluation
    checkpoint_every: int = 2_000_000
    """Write a resumable checkpoint every this many steps (and at the end)."""
    keep_checkpoints: int = 2
    """Checkpoints kept on disk (the oldest are deleted)."""
    eval_deals: int = 64
    """Duplicate deals per evaluation (each played in the four seats)."""
    eval_seed: int = 2024
    """Seed of the evaluation deals (the same every time, so evaluations compare)."""

    def check_shared(self) -> None:
        """Raise ``ValueError`` naming the first of these settings whose value is
        not accepted: one check, so both trainers accept the same values."""
        for name in ("n_epochs", "pool_max_size", "keep_checkpoints", "eval_deals"):
            check_at_least(name, getattr(self, name), 1)
        for name in ("threads", "snapshot_every", "checkpoint_every"):
            check_at_least(name, getattr(self, name), 0)
        check_device(self.device)
        check_choice("activation", self.activation, tuple(ACTIVATIONS))
        if not self.hidden_sizes or any(h < 1 for h in self.hidden_sizes):
            raise ValueError(
                f"hidden_sizes={self.hidden_sizes!r} is not valid: expected one or more widths >= 1"
            )
        check_in_range("learning_rate", self.learning_rate, 0, math.inf, "> 0")
        check_in_range("gamma", self.gamma, 0, 1, "in (0, 1]")
        check_in_range("clip_range", self.clip_range, 0, math.inf, "> 0")
        check_in_range("max_grad_norm", self.max_grad_norm, 0, math.inf, "> 0")
        check_in_range("gae_lambda", self.gae_lambda, 0, 1, "in [0, 1]", low_included=True)
        for name in ("ent_coef", "vf_coef"):
            check_in_range(name, getattr(self, name), 0, math.inf, ">= 0", low_included=True)
        _ = self.rule_config  # names a bad rule itself

    @property
    def rule_config(self) -> RuleConfig:
        """The rules the games are played under: the :class:`RuleConfig` of
        ``rules`` (:meth:`RuleConfig.from_dict`: a ``ValueError`` naming a field
        it does not have, or a value it does not accept)."""
        return RuleConfig.from_dict(self.rules)


__all__ = ["PPOSettings"]
