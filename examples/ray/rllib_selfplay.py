"""Self-play PPO for 121 on RLlib: the four seats share one policy, frozen snapshots join in.

An example of env121 on RLlib, not one of env121's trainers (``env121 train``
runs those): it shows how a turn-based env121 match meets RLlib's multi-agent
episodes, and how RLlib's result plays in the arena. Run it from the
repository's root as ``python -m examples.ray.rllib_selfplay --iterations 50
--num-env-runners 2 --out runs/rllib`` (every :class:`RLlibConfig` field is an option, ``--help``
lists them) or from Python with :func:`train`; play the result in the arena as
``ppo:runs/rllib/policy.safetensors``. It needs the ``ray`` extra
(``pip install -e ".[ray]"``); on a cluster, see ``docs/ray.md``.

RLlib's current API stack (RLModule, ConnectorV2, EnvRunner) with PPO:

1. **The environment** is :class:`TurnTakingEnv`, ``env121_v1`` as an RLlib
   ``MultiAgentEnv``: the one place where the turn-based game meets RLlib's
   multi-agent episodes (its docstring says how rewards and the last
   observations are delivered, and the tests check it against the match's
   standings). RLlib's generic ``PettingZooEnv`` wrapper walks the AEC
   ``last()`` loop to the same effect, but leaves these rules implicit in
   the wrapped environment's bookkeeping.
2. **The policy** is :class:`MaskedPolicyModule`: its actor *is*
   :class:`agents.ppo.PolicyNetwork`, the network ``ppo:`` checkpoints hold,
   with illegal actions' logits pushed to the lowest float (as RLlib's
   ``ActionMaskingTorchRLModule`` example does), and a separate critic MLP.
   So the export (:func:`export_policy`) is the actor's state dict as it
   trained, written by :func:`agents.ppo.save_policy`.
3. **Parameter sharing and the league**: every seat maps to the module
   ``main``, the one trained, until :class:`SnapshotLeague` (an
   ``RLlibCallback``) adds a frozen copy of ``main`` every ``snapshot_every``
   iterations (also written to ``OUT/pool/`` as a ``ppo:`` checkpoint). From
   then on :class:`SeatAssignment` maps, per episode, one seat to ``main``
   and each other seat to ``main`` or, with probability ``snapshot_share``,
   to one of the newest ``pool_max_size`` snapshots.

What it leaves in ``OUT``: ``config.yaml``, ``progress.jsonl`` (one line per
iteration: env steps, episodes, mean return of ``main``, snapshots),
``pool/snapshot_<iteration>.safetensors`` and ``policy.safetensors`` (+ their
``.json`` sidecars).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import logging
import random
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import torch
import yaml
from torch import nn

from agents.ppo import PolicyNetwork, save_policy
from agents.weights import ACTIVATIONS
from arena.ray_backend import INSTALL_HINT, RayNotInstalledError
from env121.engine.files import append_atomically, write_atomically
from env121.envs.aec_env import AGENTS, REWARD_MODES, raw_env
from env121.play.observation import OBS_SIZE
from env121.rules.config import RuleConfig
from training.hardware import use_threads
from training.settings import check_at_least

try:
    import ray
    from ray.rllib.algorithms.algorithm import Algorithm
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.callbacks.callbacks import RLlibCallback
    from ray.rllib.core import COMPONENT_LEARNER, COMPONENT_LEARNER_GROUP, COMPONENT_RL_MODULE
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.core.rl_module.torch import TorchRLModule
    from ray.rllib.env.multi_agent_env import MultiAgentEnv
    from ray.rllib.utils.metrics import (
        ENV_RUNNER_RESULTS,
        EPISODE_RETURN_MEAN,
        NUM_ENV_STEPS_SAMPLED_LIFETIME,
        NUM_EPISODES,
    )
    from ray.rllib.utils.typing import AgentID, EpisodeType, MultiAgentDict
except ModuleNotFoundError as error:
    if not (error.name or "").startswith("ray"):
        raise
    raise RayNotInstalledError(
        f"RLlib is not installed: expected env121's ray extra ({INSTALL_HINT})"
    ) from error

MAIN = "main"
"""The module every seat shares and the only one trained."""
SNAPSHOT_PREFIX = "snapshot_"
"""Frozen copies of ``main`` are ``snapshot_<iteration>``."""


@dataclass
class RLlibConfig:
    """Everything a run depends on (``--field value`` on the command line)."""

    seed: int = 0
    """Seeds the networks and the environments' deals."""
    iterations: int = 20
    """PPO iterations: each samples ``train_batch_size`` env steps, then updates."""
    num_env_runners: int = 2
    """EnvRunner actors sampling in parallel (0: sample in the learner's process)."""
    num_envs_per_env_runner: int = 8
    """Environment copies each EnvRunner steps together (one batched forward pass for all)."""
    threads: int = 1
    """Torch threads of this process (the learner, and the sampling when
    ``num_env_runners=0``); 0: ``ENV121_THREADS`` if set, else every core
    (:func:`training.hardware.use_threads`, as every trainer)."""
    reward_mode: str = "points"
    """``"points"`` (Điểm as they are won) or ``"rank"`` (placement at the end)."""
    rules: dict[str, Any] = field(default_factory=lambda: {"num_van": 1})
    """:class:`~env121.rules.config.RuleConfig` fields (one ván per match: about 600 env steps)."""

    train_batch_size: int = 4000
    """Env steps (decisions of any seat) per iteration."""
    minibatch_size: int = 500
    """Decisions per gradient step."""
    num_epochs: int = 4
    """Passes over each iteration's batch."""
    lr: float = 3e-4
    """Adam step size."""
    gamma: float = 0.995
    """Discount per decision of a seat."""
    lambda_: float = 0.95
    """GAE's λ."""
    clip_param: float = 0.2
    """PPO's policy clipping."""
    entropy_coeff: float = 0.01
    """Entropy bonus."""
    vf_loss_coeff: float = 0.5
    """Value loss weight."""
    vf_clip_param: float = 100.0
    """Value loss clipping, in squared Điểm (RLlib's default of 10 suits returns near 1)."""
    hidden_sizes: list[int] = field(default_factory=lambda: [256, 256])
    """Hidden layer widths of the actor and of the critic (separate networks)."""
    activation: str = "tanh"
    """``"tanh"`` or ``"relu"``."""

    snapshot_every: int = 5
    """Add a frozen snapshot of ``main`` every this many iterations (0: never)."""
    pool_max_size: int = 5
    """Snapshots in the draw; older ones retire."""
    snapshot_share: float = 0.5
    """Chance that a seat other than ``main``'s own plays a snapshot (once there is one)."""

    def check(self) -> None:
        """Raise ``ValueError`` naming the first field whose value is not accepted."""
        if self.reward_mode not in REWARD_MODES:
            raise ValueError(
                f"reward_mode={self.reward_mode!r} is not valid: expected one of {REWARD_MODES}"
            )
        if self.activation not in ACTIVATIONS:
            raise ValueError(
                f"activation={self.activation!r} is not valid: expected one of {list(ACTIVATIONS)}"
            )
        check_at_least("threads", self.threads, 0)
        for name in ("iterations", "num_envs_per_env_runner", "train_batch_size"):
            check_at_least(name, getattr(self, name), 1)
        for name in ("minibatch_size", "num_epochs", "pool_max_size"):
            check_at_least(name, getattr(self, name), 1)
        for name in ("seed", "num_env_runners", "snapshot_every"):
            check_at_least(name, getattr(self, name), 0)
        if self.minibatch_size > self.train_batch_size:
            raise ValueError(
                f"minibatch_size={self.minibatch_size} is not valid: expected at most "
                f"train_batch_size={self.train_batch_size}"
            )
        if not 0.0 <= self.snapshot_share <= 1.0:
            raise ValueError(
                f"snapshot_share={self.snapshot_share!r} is not valid: expected 0 to 1"
            )
        if not self.hidden_sizes or any(h < 1 for h in self.hidden_sizes):
            raise ValueError(
                f"hidden_sizes={self.hidden_sizes!r} is not valid: expected widths >= 1"
            )
        self.rule_config()

    def rule_config(self) -> RuleConfig:
        """The :class:`RuleConfig` of ``rules`` (a ``ValueError`` naming what is wrong)."""
        return RuleConfig.from_dict(self.rules)


# ------------------------------------------------------------- environment


class TurnTakingEnv(MultiAgentEnv):
    """``env121_v1`` as an RLlib ``MultiAgentEnv``: the turn-based pitfalls, handled here once.

    RLlib gives an action to every agent that got an observation, and books a
    reward to an agent only next to an observation of it. So:

    * **one seat acts at a time**: :meth:`reset` and :meth:`step` return an
      observation for the seat to act only (the same seat again after a
      Cướp, say);
    * **a waiting seat's rewards wait too**: the other seats' moves and the
      end of a vòng pay every seat, but a seat's reward is delivered with its
      next observation, summed since its previous action (the AEC env's
      cumulative reward, :meth:`env121.envs.aec_env.raw_env.cumulative_reward`),
      so nothing earned between two turns is lost or counted twice;
    * **every seat gets a final observation**: when the match ends, all four
      seats get one (its mask all zeros), their last rewards and
      ``terminated``, which closes each seat's trajectory and credits its
      last action — not only the trajectory of the seat that moved last.

    Observations are ``env121_v1``'s ``{"observation", "action_mask"}``. An
    illegal action raises the engine's ``IllegalActionError``: the masked
    policy never plays one. ``config`` (RLlib's ``env_config``) may hold
    ``rules`` (RuleConfig fields) and ``reward_mode``.
    """

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # RLlib's __init__ is unannotated
        config = dict(config or {})
        rules = RuleConfig.from_dict(config.get("rules", {}))
        self.env = raw_env(rules, reward_mode=config.get("reward_mode", "points"))
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.observation_spaces = {agent: self.env.observation_space(agent) for agent in AGENTS}
        self.action_spaces = {agent: self.env.action_space(agent) for agent in AGENTS}

    def reset(  # type: ignore[override]  # RLlib's MultiAgentEnv redefines gymnasium's reset
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[MultiAgentDict, MultiAgentDict]:
        """A new match (``seed``: its match seed); the observation of the seat to act."""
        self.env.reset(seed=None if seed is None else int(seed), options=options)
        agent = self.env.agent_selection
        return {agent: self._observe(agent)}, {}

    def step(  # type: ignore[override]  # RLlib's MultiAgentEnv redefines gymnasium's step
        self, action_dict: MultiAgentDict
    ) -> tuple[MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict]:
        """Play the action of the seat to act; the next seat to act (or, at the
        end, every seat) gets its observation and its reward since it last acted."""
        acting = self.env.agent_selection
        self.env.step(int(action_dict[acting]))
        over = self.env.game.is_over
        seen = list(AGENTS) if over else [self.env.agent_selection]
        observations: MultiAgentDict = {agent: self._observe(agent) for agent in seen}
        rewards: MultiAgentDict = {agent: self.env.cumulative_reward(agent) for agent in seen}
        terminated: MultiAgentDict = {**dict.fromkeys(seen, over), "__all__": over}
        return observations, rewards, terminated, {"__all__": False}, {}

    def _observe(self, agent: str) -> dict[str, Any]:
        return dict(self.env.observe(agent))  # a dict of its own: the env keeps its cache


# ------------------------------------------------------------------ policy


class MaskedPolicyModule(TorchRLModule, ValueFunctionAPI):
    """PPO's RLModule: the actor is a :class:`agents.ppo.PolicyNetwork` whose
    illegal actions' logits are pushed to the lowest float, the critic an MLP
    of the same widths. ``model_config``: ``hidden_sizes``, ``activation``.

    A terminal observation (no legal action) keeps its logits unmasked:
    nothing is sampled from it, and an all-masked row would have no
    distribution for the learner's bookkeeping."""

    def setup(self) -> None:
        """Build the actor and the critic."""
        model = cast(dict[str, Any], self.model_config)  # the dict algorithm_config gives
        hidden = [int(width) for width in model["hidden_sizes"]]
        activation = str(model["activation"])
        self.actor = PolicyNetwork(hidden, activation)
        layers: list[nn.Module] = []
        width = OBS_SIZE
        for size in hidden:
            layers += [nn.Linear(width, size), ACTIVATIONS[activation]()]
            width = size
        self.critic = nn.Sequential(*layers, nn.Linear(width, 1))

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        observation = batch[Columns.OBS]
        logits = self.actor(observation["observation"])
        return {Columns.ACTION_DIST_INPUTS: masked_logits(logits, observation["action_mask"])}

    def compute_values(self, batch: dict[str, Any], embeddings: Any | None = None) -> torch.Tensor:
        """The critic's value of each observation (shape ``[B]``)."""
        values: torch.Tensor = self.critic(batch[Columns.OBS]["observation"]).squeeze(-1)
        return values


def masked_logits(logits: torch.Tensor, action_mask: torch.Tensor) -> torch.Tensor:
    """``logits`` with the actions ``action_mask`` forbids at the lowest float
    (rows that allow nothing unchanged)."""
    legal = action_mask.bool()
    legal = legal | ~legal.any(dim=-1, keepdim=True)
    return torch.where(legal, logits, torch.finfo(logits.dtype).min)


# ------------------------------------------------------------------ league


@dataclass(frozen=True)
class SeatAssignment:
    """RLlib's agent-to-module mapping: which module plays each seat of an episode.

    With no snapshot every seat is ``main``. Otherwise one seat per episode
    (drawn from the episode's id) is ``main``, and each other seat is
    ``main`` or, with probability ``snapshot_share``, one of ``snapshots``.
    The draws depend only on the episode's id and the seat, so the four calls
    of an episode agree wherever they are made."""

    snapshots: tuple[str, ...] = ()
    snapshot_share: float = 0.5

    def __call__(self, agent_id: AgentID, episode: EpisodeType, **kwargs: Any) -> str:
        """The module of ``agent_id`` in ``episode``."""
        if not self.snapshots:
            return MAIN
        seat = AGENTS.index(agent_id)
        if seat == random.Random(f"{episode.id_}/main").randrange(len(AGENTS)):
            return MAIN
        draw = random.Random(f"{episode.id_}/{seat}")
        if draw.random() >= self.snapshot_share:
            return MAIN
        return draw.choice(self.snapshots)


class SnapshotLeague(RLlibCallback):
    """Every ``snapshot_every`` iterations, a frozen copy of ``main`` joins the
    opponents (:class:`SeatAssignment`) and is written to ``pool/`` as a
    ``ppo:`` checkpoint. Only the newest ``pool_max_size`` are drawn; a
    retired snapshot's module is removed one snapshot later, once no episode
    begun while it was drawn can still be running (an iteration plays whole
    episodes and more, see ``train_batch_size``)."""

    def __init__(self, config: RLlibConfig, out: Path | None = None) -> None:
        super().__init__()
        self.config = config
        self.out = out
        self.snapshots: list[str] = []
        self.retired: list[str] = []

    def on_train_result(
        self, *, algorithm: Algorithm, result: dict[str, Any], **kwargs: Any
    ) -> None:
        """Add a snapshot when one is due; report the league in ``result``."""
        every = self.config.snapshot_every
        if every and algorithm.iteration % every == 0:
            self.add_snapshot(algorithm, f"{SNAPSHOT_PREFIX}{algorithm.iteration}")
        result["league"] = {"snapshots": list(self.snapshots)}

    def add_snapshot(self, algorithm: Algorithm, name: str) -> None:
        """Freeze ``main`` as module ``name`` and draw from the newest snapshots."""
        main = main_module(algorithm)
        for old in self.retired:
            algorithm.remove_module(old)
        self.snapshots.append(name)
        self.retired = self.snapshots[: -self.config.pool_max_size]
        self.snapshots = self.snapshots[-self.config.pool_max_size :]
        algorithm.add_module(
            module_id=name,
            module_spec=RLModuleSpec.from_module(main),
            new_agent_to_module_mapping_fn=SeatAssignment(
                tuple(self.snapshots), self.config.snapshot_share
            ),
        )
        # The new module's weights: main's now (set on the learner, synced to the EnvRunners).
        state = {COMPONENT_LEARNER: {COMPONENT_RL_MODULE: {name: main.get_state()}}}
        algorithm.set_state({COMPONENT_LEARNER_GROUP: state})
        if self.out is not None:
            export_policy(main, self.out / "pool" / f"{name}.safetensors", self.config)


# ------------------------------------------------------------------ export


def main_module(algorithm: Algorithm) -> MaskedPolicyModule:
    """The module ``main`` of ``algorithm`` (as its EnvRunners have it)."""
    module = algorithm.get_module(MAIN)
    assert isinstance(module, MaskedPolicyModule), f"module {MAIN!r} is {module!r}"
    return module


def export_policy(
    module: MaskedPolicyModule,
    path: str | Path,
    config: RLlibConfig,
    notes: Mapping[str, Any] | None = None,
) -> Path:
    """Write ``module``'s actor as a weights-only ``ppo:`` checkpoint (:mod:`agents.ppo`)."""
    training = {
        "trainer": f"RLlib {ray.__version__} PPO (examples.ray.rllib_selfplay)",
        "reward_mode": config.reward_mode,
        "rules": config.rules,
        "seed": config.seed,
        **(notes or {}),
    }
    state = {key: value.detach().cpu() for key, value in module.actor.state_dict().items()}
    return save_policy(path, state, config.hidden_sizes, config.activation, training)


# ------------------------------------------------------------------- run


def algorithm_config(config: RLlibConfig, out: Path | None = None) -> PPOConfig:
    """RLlib's PPO config for ``config`` (``out``: where snapshots are written)."""
    config.check()
    model = {"hidden_sizes": list(config.hidden_sizes), "activation": config.activation}
    return (
        PPOConfig()
        .environment(
            TurnTakingEnv,
            env_config={"rules": config.rules, "reward_mode": config.reward_mode},
            # RLlib's check steps a random action, ignoring the mask: the tests check the env.
            disable_env_checking=True,
        )
        .env_runners(
            num_env_runners=config.num_env_runners,
            num_envs_per_env_runner=config.num_envs_per_env_runner,
        )
        .learners(num_learners=0)
        .training(
            lr=config.lr,
            gamma=config.gamma,
            lambda_=config.lambda_,
            clip_param=config.clip_param,
            entropy_coeff=config.entropy_coeff,
            vf_loss_coeff=config.vf_loss_coeff,
            vf_clip_param=config.vf_clip_param,
            train_batch_size_per_learner=config.train_batch_size,
            minibatch_size=config.minibatch_size,
            num_epochs=config.num_epochs,
        )
        .multi_agent(
            policies={MAIN},
            policy_mapping_fn=SeatAssignment((), config.snapshot_share),
            policies_to_train=[MAIN],
        )
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    MAIN: RLModuleSpec(module_class=MaskedPolicyModule, model_config=model)
                }
            )
        )
        # RLlib builds the callbacks by calling this (its examples pass a partial too).
        .callbacks(cast(type[RLlibCallback], functools.partial(SnapshotLeague, config, out)))
        .debugging(seed=config.seed)
    )


@dataclass
class RLlibResult:
    """What a finished :func:`train` call left behind."""

    out: Path
    """The run directory."""
    policy: Path
    """The exported policy: play it as ``ppo:<policy>``."""
    iterations: int
    env_steps: int
    """Env steps sampled (decisions of all four seats)."""
    episodes: int
    """Matches finished."""
    seconds: float
    """Wall-clock time of the iterations (the algorithm's setup not included)."""
    snapshots: list[str]
    """The snapshots in the draw at the end."""

    @property
    def env_steps_per_second(self) -> float:
        """Env steps per second, updates included."""
        return self.env_steps / self.seconds if self.seconds > 0 else 0.0


def train(config: RLlibConfig, out: str | Path) -> RLlibResult:
    """Train ``config`` into ``out`` on the Ray cluster this process is
    connected to (or a new local one) and export the policy."""
    out = Path(out)
    config.check()
    out.mkdir(parents=True, exist_ok=True)
    use_threads(config.threads)
    config_yaml = yaml.safe_dump(dataclasses.asdict(config), sort_keys=False, allow_unicode=True)
    write_atomically(out / "config.yaml", config_yaml)
    log = write_atomically(out / "progress.jsonl", "")
    algorithm = algorithm_config(config, out).build_algo()
    env_steps = episodes = 0
    snapshots: list[str] = []
    seconds = 0.0
    try:
        for _ in range(config.iterations):
            start = time.perf_counter()
            result = algorithm.train()
            seconds += time.perf_counter() - start
            runners = result.get(ENV_RUNNER_RESULTS, {})
            env_steps = _count(runners.get(NUM_ENV_STEPS_SAMPLED_LIFETIME), env_steps)
            episodes += _count(runners.get(NUM_EPISODES), 0)
            snapshots = list(result.get("league", {}).get("snapshots", []))
            row = {
                "iteration": algorithm.iteration,
                "env_steps": env_steps,
                "episodes": episodes,
                "episode_return_mean": runners.get(EPISODE_RETURN_MEAN),
                "snapshots": snapshots,
                "seconds": seconds,
            }
            append_atomically(log, json.dumps(row) + "\n")
        notes = {"iterations": algorithm.iteration, "env_steps": env_steps}
        policy = export_policy(main_module(algorithm), out / "policy.safetensors", config, notes)
    finally:
        algorithm.stop()
    return RLlibResult(out, policy, config.iterations, env_steps, episodes, seconds, snapshots)


# ------------------------------------------------------------ command line


def build_parser() -> argparse.ArgumentParser:
    """``--field value`` for every :class:`RLlibConfig` field (values in YAML),
    ``--out`` and ``--ray``."""
    parser = argparse.ArgumentParser(
        prog="python -m examples.ray.rllib_selfplay",
        description="Self-play PPO on RLlib: the four seats share one policy; frozen "
        "snapshots join as opponents. Values are YAML ('--hidden-sizes [64,64]').",
    )
    defaults = RLlibConfig()
    for item in dataclasses.fields(RLlibConfig):
        parser.add_argument(
            "--" + item.name.rstrip("_").replace("_", "-"),
            dest=item.name,
            type=yaml.safe_load,
            default=getattr(defaults, item.name),
            metavar="VALUE",
            help=f"(default: {getattr(defaults, item.name)!r})",
        )
    parser.add_argument("--out", default="runs/rllib", help="run directory")
    parser.add_argument(
        "--ray", metavar="ADDRESS", help="the Ray cluster (default: Ray's own choice)"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Train from the command line; prints where the policy is and the speed."""
    parser = build_parser()
    args = parser.parse_args(argv)
    values = {f.name: getattr(args, f.name) for f in dataclasses.fields(RLlibConfig)}
    try:
        config = RLlibConfig(**values)
        config.check()
    except (TypeError, ValueError) as error:
        parser.error(str(error))
    ray.init(address=args.ray, logging_level=logging.WARNING)
    result = train(config, args.out)
    print(
        f"{result.iterations} iterations, {result.env_steps} env steps, {result.episodes} "
        f"matches in {result.seconds:.0f} s ({result.env_steps_per_second:.0f} env steps/s); "
        f"snapshots {result.snapshots}"
    )
    print(f"policy: ppo:{result.policy}")
    return 0


if __name__ == "__main__":
    sys.exit(main())


def _count(value: Any, default: int) -> int:
    """A count from RLlib's results: RLlib reports NaN (or nothing) for a
    metric no episode of the iteration produced."""
    if value is None or value != value:  # NaN is not equal to itself
        return default
    return int(value)


__all__ = [
    "MAIN",
    "MaskedPolicyModule",
    "RLlibConfig",
    "RLlibResult",
    "SeatAssignment",
    "SnapshotLeague",
    "TurnTakingEnv",
    "algorithm_config",
    "export_policy",
    "masked_logits",
    "train",
]
