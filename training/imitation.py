"""Behaviour cloning: a warm start for self-play PPO that imitates a teacher.

A network that starts from random weights spends most of a CPU budget
relearning what a hand-written player already knows. This module

1. **collects demonstrations** (:func:`collect`): the teacher agent (``greedy``
   by default) plays every seat of seeded matches; every decision with more
   than one legal action is recorded as the deciding seat's network input
   (the observation vector, followed by greedy's hints when the network reads
   them: :mod:`agents.hints`), action mask and the teacher's action, with the
   *return* that
   :class:`~env121.envs.single_seat.SingleSeat` would have paid a learner in that seat
   from there on (``reward_mode="points"``: points / 100 when a vòng is paid,
   discounted by ``gamma`` per learner step of the seat: every decision,
   forced ones included, or for a hinted network the decisions greedy does
   not take for it, :func:`agents.hints.greedy_decides`). With an ``mc``
   teacher and search hints, the hints are drawn from a copy of the
   teacher's generator just before it decides (:func:`share_draws`), so they
   report the first look the teacher takes. With an ``mc`` or ``search``
   teacher each row also keeps what the search saw
   (:meth:`agents.mc.MCAgent.judge`, :func:`searched_row`): the prior it
   anchored on and every plan's gain over greedy's;
2. **fits** (:func:`fit`) the very policy MaskablePPO trains — the actor to
   the :func:`targets` (cross-entropy over the legal actions: the teacher's
   actions, or with a ``temperature`` a search's improved policy), the
   critic to the returns (mean squared error) — and reports the actor's
   agreement with the teacher on held-out matches;
3. **writes** (:func:`write_warm_start`) a warm start for
   ``env121 train --set warm_start=FILE`` (every parameter of the SB3 policy,
   safetensors) and the actor alone as a shareable ``ppo:`` checkpoint
   (:func:`training.checkpoint.export_policy`).

``env121 imitate --preset hinted --matches 400 --out runs/imitate`` does all
three for the network of a training preset (``--teacher`` picks another agent).
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import functools
import json
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import safetensors
import safetensors.torch
import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch import nn

from agents.hints import INPUTS, Hinter
from agents.mc import Judgement, MCAgent
from agents.ppo import PolicyNetwork
from agents.registry import make_agent
from arena.ray_backend import DEFAULT_MAX_RETRIES, task_result
from env121.engine.actions import NUM_ACTIONS
from env121.engine.batched.threads import forked_worker_torch
from env121.engine.files import write_atomically
from env121.engine.game import new_game
from env121.engine.seeds import Stream, derive_seed
from env121.engine.state import NUM_SEATS, State
from env121.play.match import play_agents
from env121.play.protocol import Agent
from env121.play.turn import Turn
from training.actor_critic import cross_entropy
from training.checkpoint import Network, load_actor
from training.hint_head import HintedActionNet

WARM_START_FORMAT = "env121-warm-start"
POINTS_PER_REWARD = 100
"""``reward_mode="points"`` pays points / 100."""
HEAD_LEARNING_RATE_SCALE = 50.0
"""The hint head's learning rate over the rest's in :func:`fit`: its few weights,
starting at zero, must reach a few units, where an MLP weight moves by hundredths
(at the common rate, six epochs left them under 0.1)."""


@dataclass
class Demonstrations:
    """Decisions of a teacher: row ``i`` is one decision (``match`` is the
    match it was played in, so held-out rows can be whole matches).

    When a search made the decision (an ``mc`` or ``search`` teacher,
    :meth:`agents.mc.MCAgent.judge`), the row also keeps what it saw, from
    which :func:`targets` builds the search's improved policy: the prior the
    search anchored on and each legal action's gain over greedy's plan
    (:func:`searched_row`: a row left to greedy holds the prior and NaN
    gains, an obvious row or another teacher's NaN in both)."""

    observations: np.ndarray  # float32 [N, OBS_SIZE]
    masks: np.ndarray  # bool [N, NUM_ACTIONS]
    actions: np.ndarray  # int64 [N]
    returns: np.ndarray  # float32 [N]
    matches: np.ndarray  # int64 [N]
    log_priors: np.ndarray  # float32 [N, NUM_ACTIONS]: ln π, -inf off the legal actions
    gains: np.ndarray  # float32 [N, NUM_ACTIONS]: shrunk gain over greedy's plan

    def __len__(self) -> int:
        return len(self.actions)

    def subset(self, rows: np.ndarray | slice) -> Demonstrations:
        """The demonstrations of ``rows``: a boolean or index array (a copy),
        or a slice (a view)."""
        return Demonstrations(*(getattr(self, name)[rows] for name in FIELDS))

    @staticmethod
    def concatenate(parts: Sequence[Demonstrations]) -> Demonstrations:
        """The rows of ``parts``, in order."""
        return Demonstrations(
            *(np.concatenate([getattr(p, name) for p in parts]) for name in FIELDS)
        )


FIELDS = tuple(field.name for field in dataclasses.fields(Demonstrations))
"""The fields of :class:`Demonstrations`, in order: the arrays of a demonstrations file."""
SEARCH_FIELDS = ("log_priors", "gains")
"""The fields only a search's decisions fill (absent from files written before them)."""


def play_match(
    teacher: str, seed: int, gamma: float, inputs: str = "observation"
) -> Demonstrations:
    """One seeded match (:func:`env121.engine.game.new_game`) with ``teacher`` in
    every seat, as demonstrations of a network reading ``inputs``; see the
    module docstring for the returns. The teachers are reset from the stream
    ``TEACHER`` of ``seed`` (seat by seat), the hinter from ``TEACHER_HINTS``
    (:mod:`env121.engine.seeds`); the match is played by
    :func:`env121.play.match.play_agents`."""
    hinter = Hinter(inputs)
    hinter.reset(derive_seed(seed, Stream.TEACHER_HINTS))
    state = new_game(seed)
    demonstration = _Demonstration(hinter, state.scores)
    teachers = []
    for seat in range(NUM_SEATS):
        agent = make_agent(teacher)
        agent.reset(derive_seed(seed, Stream.TEACHER, seat))
        teachers.append(_Watched(agent, demonstration))
    play_agents(state, teachers, on_action=demonstration.paid)
    return demonstration.demonstrations(seed, gamma, INPUTS[inputs])


class _Demonstration:
    """What :func:`play_match` writes down while the teachers play: each
    learner step of each seat, the rewards paid after it, and the recorded rows."""

    def __init__(self, hinter: Hinter, scores: tuple[int, ...]) -> None:
        self.hinter = hinter
        self.scores = scores
        """The scores after the last action, to see what the next one pays."""
        self.rows: list[tuple[np.ndarray, np.ndarray, int, np.ndarray, np.ndarray]] = []
        self.row_of: list[int | None] = []  # per learner step: its row, if recorded
        self.steps: list[list[int]] = [[] for _ in range(NUM_SEATS)]  # per seat: step ids
        self.rewards: list[float] = []  # per learner step: the reward paid after it
        self.early = [0.0] * NUM_SEATS  # paid before a seat's first step: SingleSeat adds it

    def decide(self, teacher: Agent, turn: Turn) -> int:
        """The teacher's action in ``turn``, written down as a learner step (and a
        row, when there is a choice) unless the network leaves it to greedy."""
        learner = not self.hinter.leaves_to_greedy(turn)  # a learner's step
        recorded = learner and len(turn.legal_actions) > 1
        if recorded:
            share_draws(self.hinter, teacher)
            features = self.hinter(turn)
        judgement = None
        if isinstance(teacher, MCAgent):
            judgement = teacher.judge(turn)
            if recorded and judgement.left_to_greedy:  # the prior it would have searched with
                judgement = dataclasses.replace(judgement, log_prior=teacher.log_prior(turn))
        action = int(teacher.act(turn) if judgement is None else judgement.action)
        if learner:
            steps = self.steps[turn.seat]
            steps.append(len(self.rewards))
            self.rewards.append(self.early[turn.seat] if len(steps) == 1 else 0.0)
            self.row_of.append(len(self.rows) if recorded else None)
            if recorded:
                log_prior, gains = searched_row(judgement)
                mask = turn.action_mask.astype(bool)
                self.rows.append((features, mask, action, log_prior, gains))
        return action

    def paid(self, state: State, _action: int) -> None:
        """After each action: what it paid goes to each seat's last step."""
        for seat, (now, then) in enumerate(zip(state.scores, self.scores, strict=True)):
            if self.steps[seat]:
                self.rewards[self.steps[seat][-1]] += (now - then) / POINTS_PER_REWARD
            else:
                self.early[seat] += (now - then) / POINTS_PER_REWARD
        self.scores = state.scores

    def demonstrations(self, match: int, gamma: float, width: int) -> Demonstrations:
        """The rows, each with its discounted return, labelled ``match``."""
        returns = np.zeros(len(self.rows), dtype=np.float32)
        for steps in self.steps:
            future = 0.0
            for step in reversed(steps):
                future = self.rewards[step] + gamma * future
                row = self.row_of[step]
                if row is not None:
                    returns[row] = future
        if not self.rows:
            return _empty(width)
        observations, masks, actions, log_priors, gains = zip(*self.rows, strict=True)
        return Demonstrations(
            np.stack(observations),
            np.stack(masks),
            np.array(actions, dtype=np.int64),
            returns,
            np.full(len(self.rows), match, dtype=np.int64),
            np.stack(log_priors),
            np.stack(gains),
        )


class _Watched:
    """A teacher seated by :func:`play_match`: an agent whose decisions the
    :class:`_Demonstration` writes down (its turns grant determinizations when
    the teacher or the search hints need them)."""

    def __init__(self, teacher: Agent, demonstration: _Demonstration) -> None:
        self.teacher = teacher
        self.demonstration = demonstration
        self.spec = teacher.spec
        self.uses_search = teacher.uses_search or demonstration.hinter.uses_search

    def reset(self, seed: int) -> None:
        """Reset the teacher."""
        self.teacher.reset(seed)

    def act(self, turn: Turn) -> int:
        """The teacher's action, written down."""
        return self.demonstration.decide(self.teacher, turn)


def shrunk(gains: np.ndarray, z: np.ndarray) -> np.ndarray:
    """Gains shrunk towards greedy's plan by how well the worlds measured them:
    ``gain · max(0, 1 − 1/z²)`` (the positive-part James–Stein factor), so a
    gain within one standard error of zero counts as none and one of ``z``
    standard errors keeps ``1 − 1/z²`` of itself (all of it when exact)."""
    with np.errstate(divide="ignore"):
        factor = np.maximum(0.0, 1.0 - 1.0 / np.square(z))
    return np.asarray(gains * factor)


def searched_row(judgement: Judgement | None) -> tuple[np.ndarray, np.ndarray]:
    """A demonstration's search fields for a decision (:class:`agents.mc.Judgement`):
    the prior ``ln π`` the teacher anchored on, and per action id the best
    :func:`shrunk` gain over greedy's plan among the plans it starts (0 for a
    legal action the search did not plan: no evidence, the prior stands;
    ``-inf`` off the legal ones). A decision left to greedy has the prior it
    would have been searched with (the recorder asks the teacher for it) and
    NaN gains; an obvious one, or a teacher that is not a search, NaN in both."""
    nothing = np.full(NUM_ACTIONS, np.nan, np.float32)
    if judgement is None or not len(judgement.log_prior):
        return nothing, nothing
    if judgement.searched is None:
        return judgement.log_prior.astype(np.float32), nothing
    legal = np.isfinite(judgement.log_prior)
    gains = np.where(legal, 0.0, -np.inf)
    planned = shrunk(judgement.searched.gains, judgement.searched.z)
    first = {action for action, _ in judgement.plans}
    for action in first:
        gains[action] = max(
            g for (a, _), g in zip(judgement.plans, planned, strict=True) if a == action
        )
    return judgement.log_prior.astype(np.float32), gains.astype(np.float32)


def targets(demos: Demonstrations, temperature: float = 0.0) -> np.ndarray:
    """The actor's targets, a distribution over the action ids per row.

    With ``temperature = 0``, the teacher's action (the search's choice: hard
    targets). With ``temperature > 0`` (points of the vòng a nat), the
    search's **improved policy** (:func:`searched_row`'s fields):

    * on rows a search decided, ``softmax(ln π + gain / temperature)`` over
      the legal actions: the prior the search anchored on, each action's odds
      multiplied by ``e`` for every ``temperature`` points of shrunk gain over
      greedy's plan — where the worlds showed nothing the prior stands, where
      they showed a gain the target moves towards it, by its size and not
      only its sign;
    * on rows the search left to greedy, the prior itself: greedy's move
      there is what the teacher plays, not what its search found;
    * on obvious rows (and every row of a teacher that is not a search), the
      teacher's action."""
    out = np.zeros(demos.masks.shape, np.float32)
    out[np.arange(len(demos)), demos.actions] = 1.0
    if temperature == 0:
        return out
    if temperature < 0 or not np.isfinite(temperature):
        raise ValueError(f"temperature={temperature} is not valid: expected ≥ 0 points a nat")
    anchored = ~np.isnan(demos.log_priors[:, 0])  # searched, or left to greedy
    gains = np.nan_to_num(demos.gains[anchored], nan=0.0, neginf=-np.inf)
    logits = demos.log_priors[anchored] + gains / temperature
    logits = logits - logits.max(axis=1, keepdims=True)
    odds = np.exp(logits)
    out[anchored] = odds / odds.sum(axis=1, keepdims=True)
    return out


def share_draws(hinter: Hinter, teacher: Agent) -> None:
    """Before an ``mc`` teacher decides, give the search hints a copy of its
    generator: the hints then report the very first look the teacher is about
    to take, so its choice follows from what the network reads rather than
    from determinizations the network never sees."""
    if hinter.uses_search and isinstance(teacher, MCAgent):
        hinter.searcher.rng = copy.deepcopy(teacher.rng)


def _empty(width: int) -> Demonstrations:
    return Demonstrations(
        np.zeros((0, width), np.float32),
        np.zeros((0, NUM_ACTIONS), bool),
        np.zeros(0, np.int64),
        np.zeros(0, np.float32),
        np.zeros(0, np.int64),
        np.zeros((0, NUM_ACTIONS), np.float32),
        np.zeros((0, NUM_ACTIONS), np.float32),
    )


class MatchLostError(RuntimeError):
    """A match played as a Ray task lost its worker more than
    :data:`~arena.ray_backend.DEFAULT_MAX_RETRIES` times (or its machine):
    the demonstrations cannot be completed on this cluster now."""


def _lost(seed: int, error: Exception) -> MatchLostError:
    """The error of the match of ``seed``, lost on Ray with ``error``."""
    return MatchLostError(
        f"the self-play match of seed {seed} was lost ({type(error).__name__} after "
        f"{DEFAULT_MAX_RETRIES} retries: {str(error).splitlines()[0]}): expected a Ray "
        "worker to finish it"
    )


def collect(
    teacher: str = "greedy",
    matches: int = 100,
    seed: int = 0,
    gamma: float = 0.995,
    jobs: int = 1,
    inputs: str = "observation",
    progress: Callable[[int, int], None] | None = None,
    ray: ModuleType | None = None,
) -> Demonstrations:
    """Demonstrations of ``matches`` seeded matches (seeds ``seed``,
    ``seed + 1``, …) in ``jobs`` processes, or with ``ray`` (the module,
    connected to a cluster) as Ray tasks of one match each, one CPU each,
    run again on another worker when theirs dies; the same arguments give
    the same rows in the same order for any ``jobs`` and on Ray.
    ``progress(done, matches)`` is called as each match is added, in seed
    order."""
    if matches < 1 or jobs < 1:
        raise ValueError(f"matches={matches}, jobs={jobs} are not valid: expected both ≥ 1")
    make_agent(teacher)  # a bad spec fails here, before any process starts
    if inputs not in INPUTS:
        raise ValueError(f"inputs={inputs!r} is not valid: expected one of {sorted(INPUTS)}")
    seeds = range(seed, seed + matches)
    arguments = ([teacher] * matches, seeds, [gamma] * matches, [inputs] * matches)
    with contextlib.ExitStack() as stack:
        if ray is not None:
            remote = ray.remote(num_cpus=1, max_retries=DEFAULT_MAX_RETRIES)(play_match)
            refs = [remote.remote(*match) for match in zip(*arguments, strict=True)]
            played: Iterator[Demonstrations] = (
                task_result(ray, ref, functools.partial(_lost, match))
                for ref, match in zip(refs, seeds, strict=True)
            )
        elif jobs == 1:
            played = map(play_match, *arguments)
        else:
            pool = ProcessPoolExecutor(jobs, initializer=forked_worker_torch)
            played = stack.enter_context(pool).map(play_match, *arguments)
        parts = []
        for part in played:  # in seed order
            parts.append(part)
            if progress is not None:
                progress(len(parts), matches)
    return Demonstrations.concatenate(parts)


# ------------------------------------------------------------------ fitting


def make_policy(network: Network) -> MaskableActorCriticPolicy:
    """The policy ``env121 train`` builds for ``network``."""
    return network.policy_class()(
        spaces.Box(-np.inf, np.inf, (INPUTS[network.inputs],), np.float32),
        spaces.Discrete(NUM_ACTIONS),
        lambda _: 0.0,
        **network.policy_kwargs(),
    )


@dataclass
class FitReport:
    """How the fitted policy does on the held-out matches."""

    train_rows: int
    held_out_rows: int
    agreement: float
    """Share of held-out decisions where the actor's masked argmax is the teacher's action."""
    value_rmse: float
    """Root mean squared error of the critic on held-out returns."""
    return_std: float
    """Standard deviation of the held-out returns (what a constant critic would score)."""
    seconds: float


def fit(
    demos: Demonstrations,
    network: Network,
    epochs: int = 10,
    batch_size: int = 512,
    learning_rate: float = 1e-3,
    held_out: float = 0.1,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    initial: PolicyNetwork | None = None,
    temperature: float = 0.0,
) -> tuple[MaskableActorCriticPolicy, FitReport]:
    """Fit a fresh policy to ``demos`` (its actor first set to ``initial``'s
    weights, when given: fine-tuning a network of ``network``'s shape): the
    actor to the :func:`targets` of ``temperature`` (cross-entropy), the
    critic to the returns; the last ``held_out`` share of the matches is kept
    out of training and reported on. ``progress(done, epochs)`` is called
    after each epoch."""
    if not 0 <= held_out < 1:
        raise ValueError(f"held_out={held_out} is not valid: expected 0 ≤ held_out < 1")
    if len(demos) == 0:
        raise ValueError("no demonstrations to fit: collect at least one match")
    start = time.perf_counter()
    torch.manual_seed(seed)
    policy = make_policy(network)
    if initial is not None:
        load_actor(policy, initial)
    if demos.observations.shape[1] != INPUTS[network.inputs]:
        raise ValueError(
            f"the demonstrations have {demos.observations.shape[1]} inputs, but a network "
            f"reading {network.inputs!r} takes {INPUTS[network.inputs]}: collect them with "
            f"inputs={network.inputs!r}"
        )
    train, test = held_out_split(demos, held_out)
    tensors = (*_tensors(train), torch.from_numpy(targets(train, temperature)))
    optimizer = torch.optim.Adam(parameter_groups(policy, learning_rate))
    rng = np.random.default_rng(seed)
    for epoch in range(1, epochs + 1):
        for batch in np.array_split(rng.permutation(len(train)), max(1, len(train) // batch_size)):
            observations, masks, _, returns, wanted = (t[batch] for t in tensors)
            policy_loss, value_loss = _losses(policy, observations, masks, wanted, returns)
            optimizer.zero_grad()
            torch.autograd.backward(policy_loss + 0.5 * value_loss)
            optimizer.step()
        if progress is not None:
            progress(epoch, epochs)
    agreement, rmse = evaluate(policy, test) if len(test) else (float("nan"), float("nan"))
    report = FitReport(
        train_rows=len(train),
        held_out_rows=len(test),
        agreement=agreement,
        value_rmse=rmse,
        return_std=float(test.returns.std()) if len(test) else float("nan"),
        seconds=time.perf_counter() - start,
    )
    return policy, report


def held_out_split(demos: Demonstrations, held_out: float) -> tuple[Demonstrations, Demonstrations]:
    """The training rows and the held-out rows of ``demos``: the last ``held_out``
    share of its matches (whole matches, by number) is held out. When those are
    the last rows, as :func:`collect` orders them, both parts are views of
    ``demos`` rather than copies: the fit of thousands of matches holds its
    demonstrations (gigabytes of observations) once."""
    match_ids = np.unique(demos.matches)
    held = int(len(match_ids) * held_out)
    test_rows = np.isin(demos.matches, match_ids[len(match_ids) - held :] if held else [])
    first = len(demos) - int(test_rows.sum())
    if test_rows[first:].all():
        return demos.subset(slice(0, first)), demos.subset(slice(first, None))
    return demos.subset(~test_rows), demos.subset(test_rows)


def parameter_groups(
    policy: MaskableActorCriticPolicy, learning_rate: float
) -> list[dict[str, Any]]:
    """Adam's parameter groups: the hint head's weights (if any) at
    :data:`HEAD_LEARNING_RATE_SCALE` times ``learning_rate``, the rest at it."""
    if not isinstance(policy.action_net, HintedActionNet):
        return [{"params": list(policy.parameters()), "lr": learning_rate}]
    head = policy.action_net.hint.weight
    rest = [p for p in policy.parameters() if p is not head]
    return [
        {"params": rest, "lr": learning_rate},
        {"params": [head], "lr": learning_rate * HEAD_LEARNING_RATE_SCALE},
    ]


def _tensors(demos: Demonstrations) -> tuple[torch.Tensor, ...]:
    return (
        torch.from_numpy(demos.observations),
        torch.from_numpy(demos.masks),
        torch.from_numpy(demos.actions),
        torch.from_numpy(demos.returns),
    )


def _forward(
    policy: MaskableActorCriticPolicy, observations: torch.Tensor, masks: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """Masked logits and values of the policy."""
    latent_pi, latent_vf = policy.mlp_extractor(policy.extract_features(observations))
    logits = policy.action_net(latent_pi).masked_fill(~masks, float("-inf"))
    return logits, policy.value_net(latent_vf).squeeze(-1)


def _losses(
    policy: MaskableActorCriticPolicy,
    observations: torch.Tensor,
    masks: torch.Tensor,
    wanted: torch.Tensor,
    returns: torch.Tensor,
) -> tuple[torch.Tensor, torch.Tensor]:
    """The actor's cross-entropy to the ``wanted`` distributions (a row's
    illegal actions have none of their mass) and the critic's squared error."""
    logits, values = _forward(policy, observations, masks)
    log_pi = nn.functional.log_softmax(logits, dim=1)
    policy_loss = cross_entropy(wanted, log_pi).mean()
    return policy_loss, nn.functional.mse_loss(values, returns)


def evaluate(policy: MaskableActorCriticPolicy, demos: Demonstrations) -> tuple[float, float]:
    """(agreement with the teacher, critic RMSE) of ``policy`` on ``demos``."""
    observations, masks, actions, returns = _tensors(demos)
    with torch.no_grad():
        logits, values = _forward(policy, observations, masks)
    agreement = float((logits.argmax(dim=1) == actions).float().mean())
    return agreement, float(((values - returns) ** 2).mean().sqrt())


# ------------------------------------------------------------------ files


def write_warm_start(
    policy: MaskableActorCriticPolicy, path: str | Path, network: Network, notes: dict[str, Any]
) -> Path:
    """Write ``policy``'s parameters to ``path`` (``.safetensors``) with a JSON
    sidecar naming the network it fits, each file atomically; returns ``path``."""
    path = Path(path)
    if path.suffix != ".safetensors":
        raise ValueError(f"warm start path {str(path)!r} is not valid: expected NAME.safetensors")
    path.parent.mkdir(parents=True, exist_ok=True)
    tensors = {k: v.detach().contiguous() for k, v in policy.state_dict().items()}
    write_atomically(path, safetensors.torch.save(tensors))
    sidecar = {"format": WARM_START_FORMAT, "network": network.describe(), **notes}
    write_atomically(path.with_suffix(".json"), json.dumps(sidecar, indent=2) + "\n")
    return path


def check_warm_start(path: str | Path, network: Network) -> None:
    """Raise ``ValueError`` unless ``path`` is a :func:`write_warm_start` file
    (with its sidecar) made for ``network``; the name and what is wrong in one line."""
    path = Path(path)
    if path.suffix != ".safetensors":
        raise ValueError(f"warm_start={str(path)!r} is not valid: expected a NAME.safetensors file")
    side = path.with_suffix(".json")
    for needed in (path, side):
        if not needed.is_file():
            raise ValueError(
                f"warm_start={str(path)!r} is not valid: {needed} does not exist "
                "(env121 imitate writes both files)"
            )
    try:
        meta = json.loads(side.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"warm start sidecar {str(side)!r} is not valid JSON: {error}") from None
    if not isinstance(meta, dict) or meta.get("format") != WARM_START_FORMAT:
        raise ValueError(f"{str(side)!r} is not a warm start sidecar (written by env121 imitate)")
    recorded = {"hint_head": False, **meta.get("network", {})}  # written before the hint head
    if recorded != network.describe():
        raise ValueError(
            f"warm start {str(path)!r} is for the network {recorded}, but the run builds "
            f"{network.describe()}: set hidden_sizes, activation, inputs and hint_head to match"
        )


def load_warm_start(policy: MaskableActorCriticPolicy, path: str | Path, network: Network) -> None:
    """Load a :func:`write_warm_start` file into ``policy`` (built for
    ``network``); a file made for another network, or whose weights cannot be
    read or do not fit, is a ``ValueError`` naming it."""
    check_warm_start(path, network)
    try:
        tensors = safetensors.torch.load_file(str(path))
        policy.load_state_dict(tensors)
    except (safetensors.SafetensorError, RuntimeError) as error:
        reason = str(error).splitlines()[0]
        raise ValueError(f"warm start {str(path)!r} cannot be loaded: {reason}") from None
