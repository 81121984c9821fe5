"""Agents from outside the registry: ``import:``, ``sb3:`` and ``program:`` specs.

Three forms let any agent enter ``env121 tournament`` and ``env121 benchmark``
without registering a Python class of its own:

* ``import:mypkg.bots:make_bot`` — a Python object by import path: ``make_bot``
  is a callable returning an agent of :class:`env121.play.protocol.Agent`
  (``reset(seed)``, ``act(turn)``, ``uses_search``), or such an object itself;
* ``sb3:path/to/model.zip`` — a MaskablePPO model (sb3-contrib) trained on
  :class:`~env121.envs.single_seat.SingleSeat`: it acts on the seat's
  ``env121_v1`` observation vector with the legal-action mask, deterministically
  unless ``deterministic=false`` (the ``train`` extra);
* ``program:CMD`` — a program in any language speaking the line protocol of
  ``docs/agent-protocol.md`` over stdin/stdout
  (:class:`agents.program.ProgramAgent`), with a per-decision time limit
  (``timeout=SECONDS``, default :data:`agents.program.DEFAULT_TIMEOUT`).

Each is checked when built: a missing module or attribute, a missing file or
one that is not a zip, a command not found or a program that does not speak
the protocol's version raise
:class:`~agents.spec.AgentSpecError` in one line, before any game starts.
The spec grammar is the registry's (``name:key=value,…``, the first value
bare), so a ``program:`` command cannot hold a ``,`` or an ``=``: put such a
command in a small script.
"""

from __future__ import annotations

import importlib
import zipfile
from pathlib import Path
from typing import Any

from agents.spec import AgentSpecError
from env121.extras import MissingExtraError, require_extra
from env121.play.protocol import Agent
from env121.play.turn import Turn


def import_agent(target: str) -> Agent:
    """The agent at ``module:attribute`` (a factory called with no arguments, or an agent)."""
    module_name, colon, attribute = target.partition(":")
    if not colon or not module_name or not attribute:
        raise AgentSpecError(
            f"import target {target!r} is not valid: expected 'module.path:attribute'"
        )
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise AgentSpecError(
            f"module {module_name!r} cannot be imported ({error}): "
            "expected an importable module (is it on PYTHONPATH?)"
        ) from None
    obj: Any = module
    for part in attribute.split("."):
        if not hasattr(obj, part):
            raise AgentSpecError(
                f"module {module_name!r} has no attribute {attribute!r}: "
                "expected a factory or an agent"
            )
        obj = getattr(obj, part)
    # A class or factory is called (each seat gets its own agent); an agent object is used as is.
    factory = isinstance(obj, type) or (callable(obj) and not isinstance(obj, Agent))
    agent = obj() if factory else obj
    if not (callable(getattr(agent, "act", None)) and callable(getattr(agent, "reset", None))):
        raise AgentSpecError(
            f"{type(agent).__name__} is not an agent: expected an object with "
            "act(turn) -> int, reset(seed) and uses_search (env121.play.protocol.Agent)"
        )
    if not hasattr(agent, "uses_search"):
        agent.uses_search = False
    return agent  # type: ignore[no-any-return]


class SB3Agent:
    """A MaskablePPO model (sb3-contrib) trained on ``SingleSeat``, from its ``.zip``."""

    uses_search = False

    def __init__(self, model: str, deterministic: bool = True) -> None:
        path = Path(model)
        if not path.is_file():
            raise AgentSpecError(f"{model}: no such file: expected a MaskablePPO .zip")
        if not zipfile.is_zipfile(path):
            raise AgentSpecError(f"{model}: is not a zip: expected a MaskablePPO .zip")
        try:
            require_extra("train", "an sb3 agent")
        except MissingExtraError as error:
            raise AgentSpecError(str(error)) from None
        from sb3_contrib import MaskablePPO

        try:
            self.model = MaskablePPO.load(path, device="cpu")
        except Exception as error:  # sb3 raises many kinds for a foreign zip
            raise AgentSpecError(
                f"{model}: cannot be loaded as a MaskablePPO model ({error})"
            ) from None
        self.deterministic = deterministic
        self.spec = ""

    def reset(self, seed: int) -> None:
        """Seed torch's sampling (only used when not deterministic)."""
        import torch

        torch.manual_seed(seed)

    def act(self, turn: Turn) -> int:
        """The model's action on the seat's observation, masked to the legal ids."""
        action, _ = self.model.predict(
            turn.observation,
            action_masks=turn.action_mask.astype(bool),
            deterministic=self.deterministic,
        )
        return int(action)


__all__ = ["SB3Agent", "import_agent"]
