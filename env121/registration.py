"""env121's Gymnasium ids, registered without ``import env121`` importing gymnasium.

* ``env121/SingleSeat-v1`` — :class:`agents.environments.SingleSeat`: one
  learning seat of ``env121_v1``, the other three played by ``opponents``
  (agent specs such as ``"greedy"``, ``"mc:budget=8"``, ``"ppo:small"``, built
  agents or policies); every other keyword argument is the environment's
  (``seat``, ``reward_mode``, rule fields such as ``num_van``, …). Its
  vector entry point, what ``gym.make_vec`` makes unless told otherwise, is
  :class:`agents.environments.VectorSingleSeat`: ``num_envs`` games of the
  compiled batched engine, the opponents batched policies (``"random"``,
  ``"greedy"``, ``"ppo:small"``); ``vectorization_mode="sync"`` or
  ``"async"`` steps copies of the single environment instead, for any opponents.

::

    import env121
    import gymnasium as gym

    env = gym.make("env121/SingleSeat-v1", opponents="greedy")
    envs = gym.make_vec("env121/SingleSeat-v1", num_envs=1024, opponents="greedy")
    envs = gym.make_vec(
        "env121/SingleSeat-v1", num_envs=4, vectorization_mode="sync", opponents="mc:budget=8"
    )

Registering needs gymnasium's registry, and importing gymnasium would add
about a third to ``import env121`` (``docs/measurements.md``) for the rules,
the engine and the command line, which never use it. So
:func:`register_when_gymnasium_is_imported`, called by ``import env121``,
registers at once if gymnasium is already imported, and otherwise waits for
it: a finder on ``sys.meta_path`` sees gymnasium's import go by (it finds
gymnasium with the finders after it, and only wraps its loader) and registers
as soon as gymnasium has loaded. Either import order works, and nothing is
imported that the program did not ask for. The ids name their builders by
import path (gymnasium's entry-point strings), so registering imports none of
env121's environments or agents.

PettingZoo's environments are modules instead: ``from env121 import env121_v1``.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from importlib.abc import Loader
    from importlib.machinery import ModuleSpec

GYMNASIUM_ENTRY_POINTS: dict[str, str] = {
    "env121/SingleSeat-v1": "agents.environments:SingleSeat",
}
"""Each Gymnasium id and its builder as ``"module:attribute"``."""
GYMNASIUM_VECTOR_ENTRY_POINTS: dict[str, str] = {
    "env121/SingleSeat-v1": "agents.environments:VectorSingleSeat",
}
"""The ids with a batched vector environment, and its builder (``gym.make_vec``'s
``vectorization_mode="vector_entry_point"``)."""


def register_environments() -> None:
    """Register :data:`GYMNASIUM_ENTRY_POINTS` in gymnasium's registry (once)."""
    import gymnasium

    for env_id, entry_point in GYMNASIUM_ENTRY_POINTS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id,
                entry_point=entry_point,
                vector_entry_point=GYMNASIUM_VECTOR_ENTRY_POINTS.get(env_id),
            )


def register_when_gymnasium_is_imported() -> None:
    """Register now if gymnasium is imported, else as soon as it is."""
    if "gymnasium" not in sys.modules:
        if not any(isinstance(finder, _GymnasiumImportFinder) for finder in sys.meta_path):
            sys.meta_path.insert(0, _GymnasiumImportFinder())
    elif sys.modules["gymnasium"] is not None:  # None: the program blocked its import
        register_environments()


class _GymnasiumImportFinder:
    """A ``sys.meta_path`` finder that finds nothing itself: it hands gymnasium's
    own spec back with its loader wrapped in :class:`_RegisteringLoader`, then
    leaves ``sys.meta_path``. (No ``importlib.abc`` base: importing it would
    slow ``import env121`` down.)"""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        if fullname != "gymnasium":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is not None and spec.loader is not None:
            spec.loader = cast("Loader", _RegisteringLoader(spec.loader))
        return spec


class _RegisteringLoader:
    """Gymnasium's loader, registering env121's ids once gymnasium has run."""

    def __init__(self, loader: Loader) -> None:
        self.loader = loader

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self.loader.exec_module(module)
        register_environments()

    def __getattr__(self, name: str) -> Any:
        """Everything else (``get_source``, resource readers) is the wrapped loader's."""
        return getattr(self.loader, name)


__all__ = [
    "GYMNASIUM_ENTRY_POINTS",
    "GYMNASIUM_VECTOR_ENTRY_POINTS",
    "register_environments",
    "register_when_gymnasium_is_imported",
]
