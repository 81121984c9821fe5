"""Masked PPO for one seat of 121, in one file, in CleanRL's shape.

The learner is one seat of ``env121/SingleSeat-v1`` (the other three seats
play ``--opponents``), ``--num-envs`` copies of it stepped together by
``gym.make_vec``. What makes it 121's rather than CartPole's is the mask:
each copy's legal actions come from ``envs.call("action_masks")``, and the
logits of illegal actions are pushed to -1e8 before sampling, so the
policy never plays one and its gradient never asks for one. The vector env
resets a finished copy in the same step (``AutoresetMode.SAME_STEP``), so
the observation and the mask after a step are always those of a match in
play.

    python examples/masked_ppo.py                              # 100k steps against random
    python examples/masked_ppo.py --opponents greedy --total-timesteps 20000

It prints the mean return (Điểm per match) of the matches finished in each
update. ``training/ppo_selfplay.py`` is the full trainer (self-play pool,
evaluation, checkpoints).
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from dataclasses import dataclass

import gymnasium as gym
import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

import env121


@dataclass
class Args:
    env_id: str = "env121/SingleSeat-v1"
    """the Gymnasium id"""
    opponents: str = "random"
    """the agent spec playing the three other seats: random, greedy, mc:budget=8, ppo:small"""
    seed: int = 1
    """seed of the environments and of torch"""
    total_timesteps: int = 100_000
    """learner decisions in all"""
    learning_rate: float = 2.5e-4
    """Adam's step size"""
    num_envs: int = 4
    """copies of the environment stepped together"""
    num_steps: int = 128
    """steps of each copy per update"""
    gamma: float = 0.99
    """discount per learner decision"""
    gae_lambda: float = 0.95
    """the λ of generalized advantage estimation"""
    num_minibatches: int = 4
    """minibatches per epoch"""
    update_epochs: int = 4
    """passes over each batch"""
    clip_coef: float = 0.2
    """the PPO clip of the probability ratio"""
    ent_coef: float = 0.01
    """weight of the entropy bonus"""
    vf_coef: float = 0.5
    """weight of the value loss"""
    max_grad_norm: float = 0.5
    """gradient clipping"""


def parse_args() -> Args:
    """``Args`` from the command line: every field is a ``--flag``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for field in dataclasses.fields(Args):
        flag = "--" + field.name.replace("_", "-")
        parser.add_argument(flag, type=type(field.default), default=field.default)
    return Args(**vars(parser.parse_args()))


def layer(n_in: int, n_out: int, std: float = np.sqrt(2)) -> nn.Linear:
    """A linear layer with CleanRL's orthogonal initialization."""
    linear = nn.Linear(n_in, n_out)
    nn.init.orthogonal_(linear.weight, std)
    nn.init.constant_(linear.bias, 0.0)
    return linear


class Agent(nn.Module):
    """The actor (masked logits over the 131 action ids) and the critic, two MLPs."""

    def __init__(self, obs_size: int, num_actions: int) -> None:
        super().__init__()
        self.critic = nn.Sequential(
            layer(obs_size, 128), nn.Tanh(), layer(128, 128), nn.Tanh(), layer(128, 1, std=1.0)
        )
        self.actor = nn.Sequential(
            layer(obs_size, 128),
            nn.Tanh(),
            layer(128, 128),
            nn.Tanh(),
            layer(128, num_actions, std=0.01),
        )

    def get_value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x).squeeze(-1)

    def get_action_and_value(
        self, x: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        logits = self.actor(x).masked_fill(~mask, -1e8)  # illegal actions: never sampled
        probs = Categorical(logits=logits)
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action), probs.entropy(), self.get_value(x)


def main(args: Args) -> None:
    gym.register_envs(env121)  # importing env121 registered its ids
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)  # networks this small gain nothing from threads
    envs = gym.make_vec(
        args.env_id,
        num_envs=args.num_envs,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": gym.vector.AutoresetMode.SAME_STEP},
        opponents=args.opponents,
    )
    obs_size = envs.single_observation_space.shape[0]
    num_actions = int(envs.single_action_space.n)
    agent = Agent(obs_size, num_actions)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    def masks() -> torch.Tensor:
        return torch.as_tensor(np.stack(envs.call("action_masks")), dtype=torch.bool)

    shape = (args.num_steps, args.num_envs)
    obs = torch.zeros((*shape, obs_size))
    action_masks = torch.zeros((*shape, num_actions), dtype=torch.bool)
    actions, logprobs, rewards, dones, values = (torch.zeros(shape) for _ in range(5))

    batch_size = args.num_envs * args.num_steps
    minibatch_size = batch_size // args.num_minibatches
    num_updates = max(1, args.total_timesteps // batch_size)
    next_obs = torch.as_tensor(envs.reset(seed=args.seed)[0])
    next_mask, next_done = masks(), torch.zeros(args.num_envs)
    episode_return, finished = np.zeros(args.num_envs), []
    start = time.perf_counter()

    for update in range(1, num_updates + 1):
        for step in range(args.num_steps):
            obs[step], action_masks[step], dones[step] = next_obs, next_mask, next_done
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs, next_mask)
            actions[step], logprobs[step], values[step] = action, logprob, value
            next_np, reward, terminated, truncated, _ = envs.step(action.numpy())
            done = np.logical_or(terminated, truncated)
            rewards[step] = torch.as_tensor(reward, dtype=torch.float32)
            episode_return += reward
            finished.extend(episode_return[done])
            episode_return[done] = 0.0
            next_obs = torch.as_tensor(next_np)
            next_mask, next_done = masks(), torch.as_tensor(done, dtype=torch.float32)

        with torch.no_grad():  # generalized advantage estimation
            next_value = agent.get_value(next_obs)
            advantages = torch.zeros_like(rewards)
            gae = torch.zeros(args.num_envs)
            for t in reversed(range(args.num_steps)):
                nonterminal = 1.0 - (next_done if t == args.num_steps - 1 else dones[t + 1])
                following = next_value if t == args.num_steps - 1 else values[t + 1]
                delta = rewards[t] + args.gamma * following * nonterminal - values[t]
                gae = delta + args.gamma * args.gae_lambda * nonterminal * gae
                advantages[t] = gae
            returns = advantages + values

        b_obs, b_masks = obs.reshape(batch_size, -1), action_masks.reshape(batch_size, -1)
        b_actions, b_logprobs = actions.reshape(-1), logprobs.reshape(-1)
        b_advantages, b_returns = advantages.reshape(-1), returns.reshape(-1)
        for _epoch in range(args.update_epochs):
            for batch in torch.randperm(batch_size).split(minibatch_size):
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(
                    b_obs[batch], b_masks[batch], b_actions[batch].long()
                )
                ratio = (newlogprob - b_logprobs[batch]).exp()
                adv = b_advantages[batch]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                clipped = ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)
                pg_loss = torch.max(-adv * ratio, -adv * clipped).mean()
                v_loss = 0.5 * ((newvalue - b_returns[batch]) ** 2).mean()
                loss = pg_loss - args.ent_coef * entropy.mean() + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()

        steps = update * batch_size
        mean = f"{np.mean(finished):+.1f}" if finished else "–"
        print(
            f"update {update}/{num_updates}  steps {steps}  matches {len(finished)}  "
            f"mean return {mean}  value loss {v_loss.item():.1f}  "
            f"{steps / (time.perf_counter() - start):.0f} steps/s"
        )
        finished = []
    envs.close()


if __name__ == "__main__":
    main(parse_args())
