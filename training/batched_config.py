"""The batched trainer's settings: :class:`Config` (a preset is a YAML file of
its fields), its validation, and how a saved run's older field names are read.

:mod:`training.batched_ppo` trains with it; ``training/README.md`` shows the
presets made of it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents.batched_ppo import BATCHED_INPUTS
from agents.environments import make_batched_policy, owed_whole_matches
from agents.ppo import hint_blocks, network_shape, read_sidecar, resolve_checkpoint
from agents.weights import sidecar_path
from env121.extras import require_extra
from env121.play.batched_policy import WholeMatches
from training import settings
from training.ppo_settings import PPOSettings
from training.settings import check_at_least, check_choice

ALGORITHM = "batched_ppo"
"""The ``algorithm`` a preset names to be trained by this module."""
TABLES = ("self", "pool", "greedy", "random", "frozen")
"""What a game's table can be: the learner in all four seats, or one learner
seat against three copies of a pool snapshot, of ``greedy``, of ``random`` or
of ``frozen_agent``."""
HORIZONS = ("vong", "match")
"""Where a seat's stream of decisions ends (``Config.horizon``)."""
CRITICS = ("perfect", "observation")
"""What the critic reads besides the actor's input (``Config.critic``)."""
MAX_WHOLE_MATCH_GAMES = 64
"""The most games (``num_games``) against a ``frozen_agent`` owed each match
whole: each holds three of its agents, for a ``program:`` three processes
(``env121 exploit`` plays 16:
:data:`~env121.play.batched_policy.FOLLOWED_GAMES`)."""
METHODS = ("ppo", "dmc")
"""How the learner learns (``Config.method``): PPO's clipped policy gradient
with a critic, or Deep Monte-Carlo (DouZero's): the actor's outputs are the
values of the actions, regressed on the points that followed each one."""


@dataclass
class Config(PPOSettings):
    """Everything a run depends on (a preset is a YAML file of these): the
    settings both PPO trainers have (:class:`~training.ppo_settings.PPOSettings`,
    whose defaults are this trainer's) and this trainer's own."""

    algorithm: str = ALGORITHM

    # --- run
    total_steps: int = 20_000_000
    """Engine steps to train for (all games; rounded up to whole rollouts)."""
    max_seconds: float = 0.0
    """Also stop once the run has trained this many wall-clock seconds, its
    resumed sessions counted together (0: no time limit)."""
    num_games: int = 512
    """Games stepped together."""
    rollout_steps: int = 64
    """Engine steps per rollout (each moves every game)."""
    overlap: bool = False
    """Play the next rollout in a background thread while the learner updates
    on the last one, so a cycle takes about the longer of the two instead of
    their sum. It acts with a copy of the networks one update behind (PPO's
    ratio is taken against the policy that acted, as in IMPALA's one-step
    lag; DMC's targets are unaffected), from generators of its own (the same
    seed still trains the same weights), into a second buffer of samples (the
    memory of the decisions doubles). A checkpoint drops the rollout played
    but not yet trained, as it drops the open decisions. Both phases use
    ``threads`` threads at once. Not with ``rollout_workers`` (training/README.md,
    "Where it runs": what it gains on two cores)."""
    rollout_workers: int = 0
    """Play the rollouts on this many Ray actors, each with ``num_games`` games
    of its own (so an update trains on ``rollout_workers`` × ``num_games``
    games' decisions), while this process learns; 0: in this process, no Ray
    (training/README.md, "Past one machine")."""
    worker_cpus: int = 1
    """CPUs each rollout worker reserves on the Ray cluster: the threads of its
    engine, its greedy opponents and its torch."""
    ray_address: str = ""
    """The Ray cluster of the rollout workers: ``""`` starts one on this
    machine, listening on 127.0.0.1 only (stopped at the end of the run);
    ``"auto"`` joins the cluster ``ray start`` runs here; ``"HOST:6379"`` a
    cluster's head; ``"ray://HOST:10001"`` one through Ray Client. A process
    already connected to Ray uses that connection."""

    # --- tables
    table_weights: dict[str, float] = field(
        default_factory=lambda: {"self": 0.5, "pool": 0.2, "greedy": 0.2, "random": 0.1}
    )
    """How often each kind of table (``TABLES``) is drawn for a new match."""
    frozen_agent: str = ""
    """The agent spec the ``frozen`` table seats three copies of: any agent with a
    batched form (``random``, ``greedy``, ``ppo:FILE``, ``mc`` and ``sb3:`` turn
    by turn, ``program:`` and ``import:`` shown their games whole, three agents a
    game: at most ``MAX_WHOLE_MATCH_GAMES`` games; ``env121 exploit``)."""
    start_policy: str = ""
    """A ``ppo`` checkpoint (a shipped name such as ``scratch``, or a file) whose
    actor weights the learner starts from instead of random ones (the critic
    starts afresh; a resumed run keeps its own weights). The network fields
    (``hidden_sizes``, ``activation``, ``inputs``, ``hint_head``) must be its
    network's; ``env121 exploit --start`` sets them."""
    critic_warmup_steps: int = 0
    """For the run's first this many engine steps only the critic learns: the
    updates fit its own layers to the returns (the value loss alone) while
    the actor, with the first layer the critic shares, stays as it is. A
    ``start_policy``'s critic starts afresh, and PPO's advantages from an
    untrained critic would move the actor it starts from by noise. Counted
    from the run's start (a resumed run does not warm up again); PPO only."""

    # --- networks
    hint_head_lr_scale: float = 10.0
    """The hint head's learning rate is ``learning_rate`` × this. Adam moves a
    weight by about its learning rate per step, and the head's few weights
    must grow to several units to weigh the per-action values against the
    rest of the logit: at the base rate that takes thousands of updates."""
    critic: str = "perfect"
    """``"perfect"``: the critic also reads the other seats' hands; ``"observation"``: not."""
    critic_detached: bool = False
    """The critic reads the first layer it shares with the actor without
    training it (a stop-gradient): the value loss moves only the critic's own
    layers, so it cannot pull the actor's first-layer features toward
    predicting the points (PPG's interference between policy and value; a
    ``start_policy``'s features were learned for its policy alone). PPO only."""

    # --- learning
    method: str = "ppo"
    """``"ppo"``: PPO (the fields below). ``"dmc"``: Deep Monte-Carlo, as
    DouZero: the actor's output for an action is its value Q (the points the
    seat scores from that decision to the end of its stream, × ``reward_scale``),
    fitted by least squares to the points that followed; the learner plays the
    legal action of highest Q, a uniformly random legal one with probability
    ``epsilon``, and a checkpoint plays the argmax (the ``ppo:`` agent's
    deterministic play). A stream still open at a rollout's end is bootstrapped
    on the Q of its next decision. No critic (``critic: observation``); the
    PPO-only fields (``clip_range``, ``ent_coef``, ``vf_coef``, ``gae_lambda``)
    are not used."""
    epsilon: float = 0.01
    """DMC's exploration: the chance that the learner plays a uniformly random
    legal action instead of its best."""

    # --- PPO
    anchor_coef: float = 0.0
    """Adds ``anchor_coef`` × KL(π_start ‖ π) to PPO's loss: the mean over the
    minibatch's decisions of the divergence of the learner's policy from the
    ``start_policy``'s (:func:`training.batched_ppo.anchor_kl`), a pull back
    toward the policy it started from, as RLHF's and AlphaStar's KL to the
    supervised policy (0: none; needs ``start_policy``)."""
    minibatch_size: int = 4096
    """Samples per gradient step."""
    horizon: str = "vong"
    """Where a seat's stream of decisions ends: ``"vong"`` or ``"match"``."""
    reward_scale: float = 1.0
    """Rewards are Điểm × this."""

    # --- checkpoints, evaluation
    eval_every: int = 2_000_000
    """Evaluate every this many engine steps, and at the end (0: only at the end)."""
    eval_opponents: list[str] = field(default_factory=lambda: ["greedy", "random"])
    """References of the duplicate 1-vs-3 evaluations: agent specs with a batched
    form (``greedy``, ``random``, ``ppo:FILE``)."""

    def check(self) -> None:
        """Raise ``ValueError`` naming the first field whose value is not accepted."""
        check_choice("algorithm", self.algorithm, (ALGORITHM,))
        check_choice("critic", self.critic, CRITICS)
        check_choice("method", self.method, METHODS)
        settings.check_in_range("epsilon", self.epsilon, 0, 1, "in [0, 1]", low_included=True)
        check_at_least("critic_warmup_steps", self.critic_warmup_steps, 0)
        critic_settings = (
            ("critic", self.critic, "observation"),
            ("critic_detached", self.critic_detached, False),
            ("critic_warmup_steps", self.critic_warmup_steps, 0),
        )
        for name, value, expected in critic_settings:
            if self.method == "dmc" and value != expected:
                raise ValueError(
                    f"{name}={value!r} is not valid with method='dmc': expected {expected!r} "
                    "(Deep Monte-Carlo learns no critic)"
                )
        settings.check_in_range(
            "anchor_coef", self.anchor_coef, 0, math.inf, ">= 0", low_included=True
        )
        if self.anchor_coef and not self.start_policy:
            raise ValueError(
                f"anchor_coef={self.anchor_coef} is not valid without a start_policy: "
                "expected the checkpoint whose policy the learner is pulled back toward"
            )
        if self.anchor_coef and self.method == "dmc":
            raise ValueError(
                f"anchor_coef={self.anchor_coef} is not valid with method='dmc': expected 0 "
                "(the anchor is a term of PPO's loss)"
            )
        if self.critic_warmup_steps and self.vf_coef == 0:
            raise ValueError(
                f"critic_warmup_steps={self.critic_warmup_steps} is not valid with vf_coef=0: "
                "expected a positive vf_coef (the warm-up trains the critic on the value loss)"
            )
        check_choice("horizon", self.horizon, HORIZONS)
        check_choice("inputs", self.inputs, BATCHED_INPUTS)
        if self.hint_head and not hint_blocks(self.inputs):
            raise ValueError(
                f"hint_head=True is not valid with inputs={self.inputs!r}: the head reads "
                "a per-action part"
            )
        check_at_least("rollout_workers", self.rollout_workers, 0)
        check_at_least("worker_cpus", self.worker_cpus, 1)
        if self.overlap and self.rollout_workers:
            raise ValueError(
                f"overlap=True is not valid with rollout_workers={self.rollout_workers}: "
                "expected rollout_workers=0 (the workers' rollouts do not overlap the updates)"
            )
        if self.rollout_workers:
            require_extra("ray", f"rollout_workers={self.rollout_workers}")
        for name in ("total_steps", "num_games", "rollout_steps", "minibatch_size"):
            check_at_least(name, getattr(self, name), 1)
        if not self.hidden_sizes:
            raise ValueError("hidden_sizes=[] is not valid: expected one or more widths")
        self.check_shared()
        check_at_least("eval_every", self.eval_every, 0)
        unknown = sorted(set(self.table_weights) - set(TABLES))
        if unknown or any(w < 0 for w in self.table_weights.values()):
            raise ValueError(
                f"table_weights={self.table_weights!r} is not valid: expected non-negative "
                f"weights for some of {TABLES}"
            )
        if sum(self.table_weights.values()) <= 0:
            raise ValueError("table_weights is not valid: expected a positive total weight")
        for opponent in self.eval_opponents:
            check_batched_form("eval_opponents", opponent)
        if self.table_weights.get("frozen", 0) > 0 or self.frozen_agent:
            check_batched_form("frozen_agent", self.frozen_agent)
            whole = owed_whole_matches(self.frozen_agent)
            if whole and self.num_games > MAX_WHOLE_MATCH_GAMES:
                raise ValueError(
                    f"num_games={self.num_games} is not valid with frozen_agent="
                    f"{self.frozen_agent!r}: each game holds three copies of it (a process "
                    f"each for a program:), so expected at most {MAX_WHOLE_MATCH_GAMES}"
                )
        if self.start_policy:
            network = start_network(self.start_policy)
            mine = {k: getattr(self, k) for k in network}
            if mine != network:
                raise ValueError(
                    f"start_policy={self.start_policy!r} is not valid with {mine}: "
                    f"expected its network's fields {network}"
                )
        settings.check_in_range(
            "max_seconds", self.max_seconds, 0, math.inf, "≥ 0 (0: no limit)", low_included=True
        )
        for name in ("reward_scale", "hint_head_lr_scale"):
            settings.check_in_range(name, getattr(self, name), 0, math.inf, "> 0")


def start_network(checkpoint: str) -> dict[str, Any]:
    """The network fields (``hidden_sizes``, ``activation``, ``inputs``,
    ``hint_head``) of the ``ppo`` checkpoint ``checkpoint``, read from its
    sidecar; a ``ValueError`` naming it if it is missing or not valid."""
    try:
        path = resolve_checkpoint(checkpoint)
        return network_shape(read_sidecar(path), str(sidecar_path(path)))
    except (OSError, ValueError) as error:
        raise ValueError(f"start_policy={checkpoint!r} is not valid: {error}") from None


def check_batched_form(name: str, spec: str) -> None:
    """Raise ``ValueError`` unless agent ``spec`` (the value of field ``name``)
    builds a batched policy: the trainer plays it in the batched engine, and
    shows the agents owed each match whole their games whole
    (:class:`~env121.play.batched_policy.WholeMatches`)."""
    try:
        policy = make_batched_policy(spec, whole_matches=True)
    except ValueError as error:
        raise ValueError(f"{name}={spec!r} is not valid: {error}") from None
    if isinstance(policy, WholeMatches):
        policy.close()


def load_config(preset: str | Path, overrides: Sequence[str] = ()) -> Config:
    """The config of ``preset`` (a shipped preset's name or a YAML file) with overrides."""
    return settings.load_config(Config, preset, overrides)
