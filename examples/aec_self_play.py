"""Self-play REINFORCE through PettingZoo's AEC API: one masked policy in all four seats.

The PettingZoo route, for learners that see the whole table rather than one
seat. ``env121.env()`` is the AEC game: ``env.agent_iter()`` names the agent
to act, ``env.last()`` gives it its observation, its action mask and the
reward it earned since it last acted (the other seats' moves and the end of
each vòng included). So the reward that follows an action arrives at the
agent's next turn, or, for its last action, at the dead step every agent
takes once the match is over. The loop below pairs each action with that
reward, and after each match follows the policy gradient of every seat's
discounted returns (normalized over the match, one update per match).

    python examples/aec_self_play.py                  # 200 matches
    python examples/aec_self_play.py --episodes 20 --seed 3

It prints each match's length and the policy's entropy. The same game
through the parallel API is ``env121.parallel_env()``; one seat as a
gymnasium env is ``env121/SingleSeat-v1`` (``examples/masked_ppo.py``).
"""

from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass

import torch
from torch import nn
from torch.distributions import Categorical

import env121


@dataclass
class Args:
    episodes: int = 200
    """matches to play and learn from"""
    seed: int = 1
    """seed of the first match (then +1 per match) and of torch"""
    learning_rate: float = 1e-3
    """Adam's step size"""
    gamma: float = 0.99
    """discount per decision of a seat"""
    max_actions_per_vong: int = 1000
    """a vòng this long ends drawn (the rule's default is 4000; a young policy may dither)"""


def parse_args() -> Args:
    """``Args`` from the command line: every field is a ``--flag``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for field in dataclasses.fields(Args):
        flag = "--" + field.name.replace("_", "-")
        parser.add_argument(flag, type=type(field.default), default=field.default)
    return Args(**vars(parser.parse_args()))


def discounted(rewards: list[float], gamma: float) -> list[float]:
    """The return from each step on."""
    out, running = [], 0.0
    for reward in reversed(rewards):
        running = reward + gamma * running
        out.append(running)
    return out[::-1]


def main(args: Args) -> None:
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)  # networks this small gain nothing from threads
    env = env121.env(max_actions_per_vong=args.max_actions_per_vong)
    first = env.possible_agents[0]
    obs_size = env.observation_space(first)["observation"].shape[0]
    policy = nn.Sequential(
        nn.Linear(obs_size, 128), nn.Tanh(), nn.Linear(128, int(env.action_space(first).n))
    )
    optimizer = torch.optim.Adam(policy.parameters(), lr=args.learning_rate)

    for episode in range(args.episodes):
        env.reset(seed=args.seed + episode)
        log_probs: dict[str, list[torch.Tensor]] = {a: [] for a in env.possible_agents}
        entropies: list[torch.Tensor] = []
        rewards: dict[str, list[float]] = {a: [] for a in env.possible_agents}
        for agent in env.agent_iter():
            observation, reward, termination, truncation, _info = env.last()
            if log_probs[agent]:  # the reward of this agent's previous action
                rewards[agent].append(float(reward))
            if termination or truncation:
                env.step(None)
                continue
            mask = torch.as_tensor(observation["action_mask"], dtype=torch.bool)
            logits = policy(torch.as_tensor(observation["observation"]))
            dist = Categorical(logits=logits.masked_fill(~mask, -1e8))
            action = dist.sample()
            log_probs[agent].append(dist.log_prob(action))
            entropies.append(dist.entropy())
            env.step(int(action))

        steps = [
            (log_prob, g)
            for a in env.possible_agents
            for log_prob, g in zip(log_probs[a], discounted(rewards[a], args.gamma), strict=True)
        ]
        returns = torch.tensor([g for _, g in steps])
        advantages = (returns - returns.mean()) / (returns.std() + 1e-8)
        loss = -(torch.stack([log_prob for log_prob, _ in steps]) * advantages).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        decisions = sum(len(lp) for lp in log_probs.values())
        print(
            f"match {episode + 1}/{args.episodes}  decisions {decisions}  "
            f"entropy {torch.stack(entropies).mean():.2f}"
        )
    env.close()


if __name__ == "__main__":
    main(parse_args())
