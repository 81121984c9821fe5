"""Agents from outside the registry: ``import:``, ``sb3:`` and ``program:`` specs.

Three forms let any agent enter ``env121 tournament`` and ``env121 benchmark``
without registering a Python class of its own:

* ``import:mypkg.bots:make_bot`` — a Python object by import path: ``make_bot``
  is a callable returning an agent of :class:`env121.play.protocol.Agent`
  (``reset(seed)``, ``act(turn)``, ``uses_search``), or such an object itself;
  or a *batched policy* (:func:`batched_decide`), which decides for many
  games at once: a ``torch.nn.Module`` mapping observations ``float32 [B,
  2491]`` to logits ``[B, 131]`` (it plays the legal argmax), or a callable of
  two arguments ``(observations, masks)`` (``bool [B, 131]``) returning the
  actions ``[B]``. It sees only the seat's observation, draws nothing, and the
  arena, the benchmark and the vector environment ask it once for all their
  games (:class:`BatchedImport`);
* ``sb3:path/to/model.zip`` — a MaskablePPO model (sb3-contrib) trained on
  :class:`~env121.envs.single_seat.SingleSeat`: it acts on the seat's
  ``env121_v1`` observation vector with the legal-action mask, deterministically
  unless ``deterministic=false`` (the ``train`` extra). Deterministic, it also
  decides for many games at once (:class:`BatchedSB3`: one
  ``predict`` for all of them), which is how the arena, the benchmark and the
  vector environment play it;
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
import inspect
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

import numpy as np

from agents.spec import AgentSpecError, NoBatchedForm, require_train
from env121.engine.batched.engine import BatchedEngine
from env121.play.batched_observation import Observer, encode_seats, make_observer
from env121.play.match import IllegalAgentActionError
from env121.play.observation import OBS_SIZE
from env121.play.protocol import Agent
from env121.play.turn import Turn


def import_target(target: str) -> Any:
    """The object at ``module:attribute``; a target of another form, a module that
    does not import or a missing attribute is an :class:`~agents.spec.AgentSpecError`."""
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
                "expected a factory, an agent or a batched policy"
            )
        obj = getattr(obj, part)
    return obj


Decide = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""A batched policy's decision: ``(observations float32 [B, OBS_SIZE], masks bool
[B, NUM_ACTIONS])`` → the actions ``[B]``."""


def batched_decide(obj: object) -> Decide | None:
    """``obj`` as a batched policy's :data:`Decide`, or None when it is an agent
    or an agent's factory: a ``torch.nn.Module`` (its outputs are logits; the
    decision is the legal argmax) or a callable whose signature takes exactly
    two arguments without defaults (the observations and the masks). A class,
    an agent object and a callable of no arguments (a factory) are not one."""
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(obj, torch.nn.Module):
        return _module_decide(obj)
    if isinstance(obj, type) or not callable(obj) or isinstance(obj, Agent):
        return None
    try:
        parameters = inspect.signature(obj).parameters.values()
    except (TypeError, ValueError):  # a builtin without a signature: not ours to guess
        return None
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    required = [p for p in parameters if p.kind in positional and p.default is p.empty]
    return obj if len(required) == 2 else None


def _module_decide(module: Any) -> Decide:
    """The legal argmax of a torch module's logits, on the device of its weights."""
    import torch

    from agents.weights import one_thread

    device = next(iter(module.parameters()), torch.empty(0)).device

    def decide(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        with one_thread(), torch.inference_mode():
            logits: np.ndarray = (
                module(torch.from_numpy(observations).to(device)).cpu().double().numpy()
            )
        logits[~masks] = -np.inf
        chosen: np.ndarray = np.argmax(logits, axis=1)
        return chosen

    return decide


def import_agent(target: str) -> Agent:
    """The agent at ``module:attribute`` (a factory called with no arguments, or an
    agent), or a batched policy there (:func:`batched_decide`) deciding one turn."""
    obj = import_target(target)
    decide = batched_decide(obj)
    if decide is not None:
        return ImportedPolicy(decide)
    # A class or factory is called (each seat gets its own agent); an agent object is used as is.
    factory = isinstance(obj, type) or (callable(obj) and not isinstance(obj, Agent))
    agent = obj() if factory else obj
    if not (callable(getattr(agent, "act", None)) and callable(getattr(agent, "reset", None))):
        raise AgentSpecError(
            f"{type(agent).__name__} is not an agent: expected an object with "
            "act(turn) -> int, reset(seed) and uses_search (env121.play.protocol.Agent), "
            "a factory of one, or a batched policy (a torch module, or a callable of "
            "(observations, masks))"
        )
    if not hasattr(agent, "uses_search"):
        agent.uses_search = False
    return agent  # type: ignore[no-any-return]


class ImportedPolicy:
    """A batched policy (:func:`batched_decide`) as an agent of one turn: its
    decision on the seat's observation and legal mask, a batch of one."""

    uses_search = False

    def __init__(self, decide: Decide) -> None:
        self.decide = decide
        self.spec = ""

    def reset(self, seed: int) -> None:
        """Nothing to seed: it draws nothing."""

    def act(self, turn: Turn) -> int:
        """The policy's action for this turn."""
        observations = turn.observation[None].astype(np.float32)
        return int(self.decide(observations, turn.action_mask.astype(bool)[None])[0])


class DecidingPolicy:
    """A batched policy around a :data:`Decide`: the seat to act in each game
    asked is encoded by the compiled observation encoder (equal to the turn's
    observation) and ``decide`` answers for all of them in one call. An action
    that is not legal, or an answer that is not one integer id per observation,
    is an :class:`~env121.play.match.IllegalAgentActionError` before anything is
    played. It draws nothing."""

    def __init__(self, decide: Decide) -> None:
        self.decide = decide
        self.spec = ""
        self._observers: WeakKeyDictionary[BatchedEngine, Observer] = WeakKeyDictionary()
        """Per engine the observation encoder's cache of its games."""

    def reset(self, seed: int) -> None:
        """Nothing to seed: it draws nothing."""

    def act(self, engine: BatchedEngine, indices: np.ndarray) -> np.ndarray:
        """The policy's action for the seat to act in each game ``indices``."""
        observer = self._observers.get(engine)
        if observer is None:
            observer = self._observers[engine] = make_observer(engine.num_games, engine.config)
        seats = engine.games["to_act"][indices].astype(np.int64)
        observations = np.empty((len(indices), OBS_SIZE), dtype=np.float32)
        encode_seats(engine.games, indices, seats, observer, observations)
        masks = engine.legal_mask()[indices].astype(bool)
        actions = np.asarray(self.decide(observations, masks))
        if actions.shape != (len(indices),) or actions.dtype.kind not in "iu":
            # not one action id per observation: no move of any seat can be read from it
            answer = f"an array of shape {actions.shape} and dtype {actions.dtype}"
            legal = tuple(np.flatnonzero(masks[0]).tolist())
            raise IllegalAgentActionError(self.spec, int(seats[0]), answer, legal)
        inside = (actions >= 0) & (actions < masks.shape[1])
        taken = inside & masks[np.arange(len(indices)), np.where(inside, actions, 0)]
        for k in np.flatnonzero(~taken).tolist():
            legal = tuple(np.flatnonzero(masks[k]).tolist())
            raise IllegalAgentActionError(self.spec, int(seats[k]), int(actions[k]), legal)
        return actions.astype(np.int64)


class BatchedImport(DecidingPolicy):
    """An ``import:`` batched policy (:func:`batched_decide`) for many games at
    once (:class:`DecidingPolicy`). A target that is an agent (``act(turn)``)
    has no batched form (:class:`~agents.spec.NoBatchedForm`): it is owed each
    match whole."""

    def __init__(self, target: str) -> None:
        decide = batched_decide(import_target(target))
        if decide is None:
            raise NoBatchedForm(
                f"{target!r} is an agent of act(turn): it has no batched policy (it is "
                "owed each match whole)"
            )
        super().__init__(decide)


def load_maskable_ppo(model: str) -> Any:
    """The MaskablePPO model saved at ``model`` (a ``.zip``), on the CPU; a missing
    file, one that is not a zip or not such a model, or a missing ``train`` extra
    is an :class:`~agents.spec.AgentSpecError` in one line."""
    path = Path(model)
    if not path.is_file():
        raise AgentSpecError(f"{model}: no such file: expected a MaskablePPO .zip")
    if not zipfile.is_zipfile(path):
        raise AgentSpecError(f"{model}: is not a zip: expected a MaskablePPO .zip")
    require_train("an sb3 agent")
    from sb3_contrib import MaskablePPO

    try:
        return MaskablePPO.load(path, device="cpu")
    except Exception as error:  # sb3 raises many kinds for a foreign zip
        raise AgentSpecError(
            f"{model}: cannot be loaded as a MaskablePPO model ({error})"
        ) from None


class SB3Agent:
    """A MaskablePPO model (sb3-contrib) trained on ``SingleSeat``, from its ``.zip``."""

    uses_search = False

    def __init__(self, model: str, deterministic: bool = True) -> None:
        self.model = load_maskable_ppo(model)
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


class BatchedSB3(DecidingPolicy):
    """:class:`SB3Agent` for many games at once, deterministic: the model's
    ``predict`` runs once on all the games asked, with their legal masks
    (:class:`DecidingPolicy`). Sampling (``deterministic=false``) draws from
    torch's generator seat by seat, so it has no batched form
    (:class:`~agents.spec.NoBatchedForm`)."""

    def __init__(self, model: str, deterministic: bool = True) -> None:
        if not deterministic:
            raise NoBatchedForm(
                "an sb3 model that samples (deterministic=false) draws seat by seat: "
                "it plays one game at a time"
            )
        self.model = load_maskable_ppo(model)
        super().__init__(self._predict)

    def _predict(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The model's deterministic actions, torch on one thread."""
        from agents.weights import one_thread  # torch: the model has loaded it

        with one_thread():
            actions, _ = self.model.predict(observations, action_masks=masks, deterministic=True)
        return np.asarray(actions)


__all__ = [
    "BatchedImport",
    "BatchedSB3",
    "Decide",
    "DecidingPolicy",
    "ImportedPolicy",
    "SB3Agent",
    "batched_decide",
    "import_agent",
    "import_target",
    "load_maskable_ppo",
]
