"""Agents by name: ``make_agent("mc:budget=200")``.

A *spec* is ``name`` or ``name:params``, where ``params`` is a comma-separated
list of ``key=value`` pairs; a first parameter may also be given bare, without
its key (``ppo:runs/best.safetensors``). Values are converted to the type the
agent's constructor annotates (``int``, ``float``, ``bool``, ``str``). A bad
name, an unknown key or a value of the wrong type raises :class:`AgentSpecError`
naming it and what is accepted.

Every built agent's ``spec`` is the canonical form of the spec it was built
from, so ``make_agent(agent.spec)`` rebuilds an equal agent (the arena sends
specs, not agents, to its worker processes).

Each entry (:class:`AgentEntry`) holds every form of its agent: the agent of
``act(turn)``, its batched policy if it has one (built from the same
parameters, :func:`agents.environments.make_batched_policy`), and how it may
otherwise sit in a batched engine — a turn at a time on a game record's
turn (``mc``: it reads no history), or owed each match whole (``program:``,
an ``import:`` agent).

Two stable names stand for concrete specs (:data:`ALIASES`): ``best``, the
strongest fair agent env121 ships (any means: search, network, both), and
``best-net``, the strongest that decides with one network pass a decision
(no search at play time). They resolve when parsed, so an agent built from
``best`` carries the concrete spec, and the commands print what each stood
for (:func:`describe_aliases`). The measurements behind the choice are in
``agents/README.md``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agents.beliefs import Model
from agents.entries import BatchedImport, BatchedSB3, SB3Agent, import_agent
from agents.greedy import GreedyAgent
from agents.mc import BELIEF_MODELS, MCAgent
from agents.oracle import OracleAgent
from agents.program import ProgramAgent
from agents.search import SearchAgent
from agents.spec import AgentSpecError, canonical_spec, require_train
from env121.play.batched_policy import BatchedPolicy, BatchedRandom
from env121.play.protocol import Agent
from env121.play.random_agent import RandomAgent


@dataclass(frozen=True)
class AgentEntry:
    """One registered agent: how to build each of its forms and what it is."""

    name: str
    factory: Callable[..., Agent]
    """Builds the agent of ``act(turn)`` from the spec's parameters."""
    summary: str
    batched: Callable[..., BatchedPolicy] | None = None
    """Builds its batched policy from the same parameters (it may refuse some
    with :class:`~agents.spec.NoBatchedForm`); None: it has none."""
    turn_by_turn: bool = False
    """Without a batched policy it may still sit in a batched engine a game at a
    time, on the turn a game record holds (it reads no match history:
    :class:`~env121.play.batched_policy.TurnByTurn`)."""
    whole_matches: bool = False
    """Without a batched policy it is owed each match whole, from its deal and in
    order (:class:`~env121.play.batched_policy.WholeMatches`)."""


_REGISTRY: dict[str, AgentEntry] = {}
ALIASES: dict[str, str] = {
    "best": "mc:value=greedy,confidence=1,look=96",
    "best-net": "ppo:distilled",
}
"""The stable names and the concrete specs they stand for (see the module docstring)."""
_BOOLS = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}


def register(
    name: str,
    factory: Callable[..., Agent],
    summary: str,
    *,
    batched: Callable[..., BatchedPolicy] | None = None,
    turn_by_turn: bool = False,
    whole_matches: bool = False,
) -> None:
    """Register ``factory`` (keyword parameters with annotated types) as ``name``,
    with its other forms (:class:`AgentEntry`)."""
    if not name.isidentifier():
        raise ValueError(f"agent name {name!r} is not valid: expected an identifier")
    if name in _REGISTRY:
        raise ValueError(f"an agent named {name!r} is already registered")
    _REGISTRY[name] = AgentEntry(name, factory, summary, batched, turn_by_turn, whole_matches)


def agent_entry(name: str) -> AgentEntry:
    """The entry of the agent registered as ``name`` (a name :func:`parse_spec` returned)."""
    return _REGISTRY[name]


def available_agents() -> dict[str, str]:
    """Registered agent names and their one-line summaries."""
    return {name: entry.summary for name, entry in sorted(_REGISTRY.items())}


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``(name, typed parameters)`` of a spec; raises :class:`AgentSpecError`."""
    if not isinstance(spec, str) or not spec.strip():
        raise AgentSpecError(f"agent spec {spec!r} is not valid: expected 'name' or 'name:k=v,…'")
    spec = ALIASES.get(spec.strip(), spec)
    name, _, rest = spec.strip().partition(":")
    entry = _REGISTRY.get(name)
    if entry is None:
        raise AgentSpecError(
            f"no agent named {name!r} (in spec {spec!r}): expected one of "
            f"{sorted(_REGISTRY)} or {sorted(ALIASES)}"
        )
    parameters = _parameters(entry)
    raw: dict[str, str] = {}
    for i, item in enumerate(filter(None, (p.strip() for p in rest.split(",")))):
        key, eq, value = item.partition("=")
        if not eq:
            if i or not parameters:
                raise AgentSpecError(
                    f"parameter {item!r} of {spec!r} has no key: expected key=value "
                    "(only the first parameter may be given bare)"
                )
            key, value = next(iter(parameters)), item
        key = key.strip()
        if key not in parameters:
            raise AgentSpecError(
                f"agent {name!r} has no parameter {key!r} (in spec {spec!r}): "
                f"expected one of {sorted(parameters)}"
            )
        if key in raw:
            raise AgentSpecError(f"parameter {key!r} is given twice in spec {spec!r}")
        raw[key] = value.strip()
    return name, {key: _convert(spec, key, value, parameters[key]) for key, value in raw.items()}


def describe_aliases(specs: list[str]) -> list[str]:
    """``"best = search"`` for each of ``specs`` that is a stable name (in order, once)."""
    named = dict.fromkeys(s.strip() for s in specs if s.strip() in ALIASES)
    return [f"{alias} = {ALIASES[alias]}" for alias in named]


def make_agent(spec: str) -> Agent:
    """A new agent built from ``spec`` (see the module docstring)."""
    name, params = parse_spec(spec)
    try:
        agent = _REGISTRY[name].factory(**params)
    except (TypeError, ValueError, OSError) as error:  # OSError: a file it names is missing
        raise AgentSpecError(f"agent spec {spec!r} is not valid: {error}") from error
    agent.spec = canonical_spec(name, params)
    return agent


def _parameters(entry: AgentEntry) -> dict[str, type]:
    signature = inspect.signature(entry.factory, eval_str=True)
    types: dict[str, type] = {}
    for p in signature.parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        annotation = p.annotation
        types[p.name] = annotation if annotation in (int, float, bool, str) else str
    return types


def _convert(spec: str, key: str, value: str, kind: type) -> Any:
    try:
        if kind is bool:
            return _BOOLS[value.lower()]
        return kind(value)
    except (KeyError, ValueError):
        raise AgentSpecError(
            f"parameter {key}={value!r} of spec {spec!r} is not valid: expected {kind.__name__}"
        ) from None


def _batched_greedy(cuop_margin: float = 4.0, nhat_ban_waits: int = 2) -> BatchedPolicy:
    from agents.batched_greedy import BatchedGreedy  # numba's kernels, loaded when used

    return BatchedGreedy(cuop_margin, nhat_ban_waits)


def _batched_ppo(checkpoint: str, deterministic: bool = True) -> BatchedPolicy:
    from agents.batched_ppo import BatchedPPO  # torch, imported when used

    return BatchedPPO(checkpoint, deterministic)


def _ppo(checkpoint: str, deterministic: bool = True) -> Agent:
    """A trained MaskablePPO policy (torch is imported only when one is built)."""
    require_train("a ppo agent")
    from agents.ppo import PPOAgent

    return PPOAgent(checkpoint, deterministic=deterministic)


def _network_model() -> Model:
    """The shipped network's policy as a model of a seat (torch is imported
    only when one is made)."""
    require_train("a network's beliefs (mc:beliefs=scratch)")
    from agents.ppo import network_model

    return network_model()


# mc's beliefs under the shipped network: made here, above mc, since a network's
# inputs (agents.hints) read mc.
BELIEF_MODELS["scratch"] = _network_model

# The built-in agents.
register("random", RandomAgent, "uniformly random legal actions", batched=BatchedRandom)
register(
    "greedy",
    GreedyAgent,
    "rule based: Ù at once, swaps to the most valuable waits",
    batched=_batched_greedy,
)
register(
    "mc",
    MCAgent,
    "determinized Monte Carlo anchored on greedy, fitted leaf value",
    turn_by_turn=True,
)
register(
    "oracle",
    OracleAgent,
    "diagnostic ceiling, sees all hands: mc's search on the true state (arena only)",
)
register(
    "search",
    SearchAgent,
    "mc's search with a learned policy as prior and a time budget: search:net=scratch,budget_ms=40",
)
# a network that reads the Python search hints refuses the batched form: it sits turn by turn
register(
    "ppo",
    _ppo,
    "a trained MaskablePPO checkpoint: ppo:<file.safetensors>",
    batched=_batched_ppo,
    turn_by_turn=True,
)
# Agents from outside (agents.entries, agents.program): by import path, an SB3 zip, a program.
register(
    "import",
    import_agent,
    "a Python agent or batched policy by import path: import:<module>:<factory>",
    batched=BatchedImport,
    whole_matches=True,
)
register(
    "sb3",
    SB3Agent,
    "a MaskablePPO .zip trained on SingleSeat: sb3:<model.zip>",
    batched=BatchedSB3,
    turn_by_turn=True,
)
register(
    "program",
    ProgramAgent,
    "a program over stdin/stdout (docs/agent-protocol.md): program:<command>[,timeout=S]",
    whole_matches=True,
)


__all__ = [
    "ALIASES",
    "AgentEntry",
    "AgentSpecError",
    "agent_entry",
    "available_agents",
    "canonical_spec",
    "describe_aliases",
    "make_agent",
    "parse_spec",
    "register",
]
