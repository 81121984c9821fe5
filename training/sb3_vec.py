"""Stable-Baselines3's face of the batched vector environment.

:class:`SB3VectorSingleSeat` is an SB3 ``VecEnv`` over a
:class:`env121.envs.vector.VectorSingleSeat`: ``num_envs`` games of the
compiled engine in one process, where ``SubprocVecEnv(SingleSeat)`` runs one
match at a time per process. sb3-contrib's ``MaskablePPO`` trains on it as
on any ``VecEnv``; its ``get_action_masks`` asks
``env_method("action_masks")``, which gives each game's learner's legal
actions::

    from sb3_contrib import MaskablePPO
    from agents.environments import VectorSingleSeat
    from training.sb3_vec import SB3VectorSingleSeat

    env = SB3VectorSingleSeat(VectorSingleSeat(64, opponents="greedy"))
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64)
    model.learn(100_000)

SB3's conventions, as ``DummyVecEnv`` keeps them: ``step_wait`` returns
``float32`` rewards, ``dones`` and one info dict per game; a game whose
match ended has its match's last info with ``"terminal_observation"`` (the
table at the end) and ``"TimeLimit.truncated"`` (always False: matches end,
they are never cut), its next match having started in the same step (its
first observation in the returned batch, its first info in
``reset_infos``). ``seed(s)`` seeds the next :meth:`~SB3VectorSingleSeat.reset`:
the vector environment draws all its games from the one seed ``s``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvStepReturn

from env121.envs.vector import VectorSingleSeat

ACTION_MASKS = "action_masks"
"""The one method :meth:`SB3VectorSingleSeat.env_method` calls per game
(sb3-contrib's ``get_action_masks`` asks for it by this name)."""


class SB3VectorSingleSeat(VecEnv):
    """``venv`` as an SB3 ``VecEnv`` (see the module docstring)."""

    def __init__(self, venv: VectorSingleSeat) -> None:
        if not isinstance(venv, VectorSingleSeat):
            raise ValueError(f"venv={venv!r} is not valid: expected a VectorSingleSeat")
        self.venv = venv
        self._actions: np.ndarray | None = None
        super().__init__(venv.num_envs, venv.single_observation_space, venv.single_action_space)

    def reset(self) -> np.ndarray:
        """New matches in every game (seeded by the last :meth:`seed`, if any)."""
        options = self._options[0] or None
        observations, infos = self.venv.reset(seed=self._seeds[0], options=options)
        self.reset_infos = info_list(infos, self.num_envs)
        self._reset_seeds()
        self._reset_options()
        return observations

    def step_async(self, actions: np.ndarray) -> None:
        """Keep the learners' actions for :meth:`step_wait`."""
        self._actions = np.asarray(actions)

    def step_wait(self) -> VecEnvStepReturn:
        """Step every game with the actions of :meth:`step_async`."""
        if self._actions is None:
            raise RuntimeError("call step_async(actions) before step_wait()")
        actions, self._actions = self._actions, None
        observations, rewards, terminated, truncated, infos = self.venv.step(actions)
        dones = terminated | truncated
        infos_now = info_list(infos, self.num_envs)
        for g in np.flatnonzero(dones).tolist():
            info = infos_now[g]
            self.reset_infos[g] = {k: v for k, v in info.items() if k not in _FINAL_KEYS}
            infos_now[g] = {
                **info["final_info"],
                "terminal_observation": info["final_obs"],
                "TimeLimit.truncated": bool(truncated[g] and not terminated[g]),
            }
        return observations, rewards.astype(np.float32), dones, infos_now

    def close(self) -> None:
        """Close the vector environment."""
        self.venv.close()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The vector environment's attribute ``attr_name``, once per game asked
        (its games share it: ``render_mode``, ``action_masks`` …)."""
        value = getattr(self.venv, attr_name)  # AttributeError when it has none
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Set ``attr_name`` of the vector environment (its games share it: every game is set)."""
        if len(list(self._get_indices(indices))) != self.num_envs:
            raise ValueError(
                f"set_attr({attr_name!r}) for some games is not valid: the games share the "
                "vector environment's attributes (expected indices=None)"
            )
        setattr(self.venv, attr_name, value)

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """``env_method("action_masks")``: each game's learner's legal actions
        (``[131]`` bool per game asked), as ``SingleSeat.action_masks`` gives them."""
        if method_name != ACTION_MASKS or method_args or method_kwargs:
            raise AttributeError(
                f"env_method({method_name!r}) is not available: the games of a "
                f"VectorSingleSeat answer only env_method({ACTION_MASKS!r}) with no arguments"
            )
        masks = self.venv.action_masks()
        return [masks[g] for g in self._get_indices(indices)]

    def env_is_wrapped(
        self,
        wrapper_class: type[gymnasium.Wrapper[Any, Any, Any, Any]],
        indices: VecEnvIndices = None,
    ) -> list[bool]:
        """No game is a wrapped gymnasium environment."""
        return [False for _ in self._get_indices(indices)]


_FINAL_KEYS = ("final_obs", "final_info")


def info_list(infos: dict[str, Any], num_envs: int) -> list[dict[str, Any]]:
    """Gymnasium's vector infos (one array per key, a ``"_key"`` mask beside
    it, nested dicts alike) as one dict per game, as SB3 wants them."""
    out: list[dict[str, Any]] = [{} for _ in range(num_envs)]
    for key, value in infos.items():
        if key.startswith("_"):
            continue
        mask = infos.get(f"_{key}")
        games: Sequence[int] = range(num_envs) if mask is None else np.flatnonzero(mask).tolist()
        values = info_list(value, num_envs) if isinstance(value, dict) else value.tolist()
        for g in games:
            out[g][key] = values[g]
    return out


__all__ = ["ACTION_MASKS", "SB3VectorSingleSeat", "info_list"]
