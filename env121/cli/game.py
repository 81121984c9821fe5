"""The ``play`` and ``replay`` subcommands of the ``env121`` CLI.

* ``env121 play --seed S [--rotation R] [--agents SPEC SPEC SPEC SPEC]
  [--json FILE] [rule options]`` — a seeded match, printed event by event in
  the card notation; with ``--json`` its game record is saved too (``replay``
  replays it). The rule options are ``tournament``'s
  (:mod:`env121.rules.options`; a bad value: ``error: …``, exit status 2).
  Without ``--agents`` all four seats are uniform-random players
  (:func:`env121.play.random_agent.random_players`: one generator, the stream
  ``RANDOM_PLAYERS`` of ``S``). With
  ``--agents`` seats ``S0`` … ``S3`` are played by four new agents built from
  the specs, as the arena accepts them (:func:`agents.registry.make_agent`:
  ``greedy``, ``mc:budget=8``, ``random``, ``ppo:FILE.safetensors``, …); a
  first line names them, and the agent in seat ``s`` is reset with the seed
  ``agent_seed(S, s)`` (:func:`agent_seed`, the stream ``PLAY_AGENT`` of
  :mod:`env121.engine.seeds`), so the same seed and specs
  print the same match. Either way the match is played by the arena's loop,
  :func:`env121.play.match.play_agents`. A bad spec or a count other than four is
  reported (``error: …``, exit status 2) before anything is played; an agent
  that returns an illegal action stops the match (``error: …`` naming the
  seat, spec, action and legal actions: an
  :class:`~env121.play.match.IllegalAgentActionError`; exit status 1). The agents
  are imported only when ``--agents`` is given.
* ``env121 replay FILE`` — load a game record, replay it, print its transcript.

:func:`add_subcommands` registers both on an ``argparse`` subparsers object;
each sets ``func`` (``args.func(args)`` returns the exit status).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from env121.engine.game import new_game
from env121.engine.records import RecordError, load, save
from env121.engine.render import format_event, seat_name, transcript
from env121.engine.seeds import Stream, derive_seed
from env121.engine.state import NUM_SEATS, State
from env121.play.match import IllegalAgentActionError, play_agents
from env121.play.random_agent import random_players
from env121.rules.options import HelpFormatter, add_rule_options, rule_config

if TYPE_CHECKING:
    from env121.play.protocol import Agent


def add_subcommands(subparsers: Any) -> None:
    """Register ``play`` and ``replay`` on ``parser.add_subparsers()``'s result."""
    play = subparsers.add_parser(
        "play",
        help="play a seeded match between random players or the given agents",
        description="Play a seeded match, printed move by move: uniform-random players, "
        "or the four agents given with --agents.",
        formatter_class=HelpFormatter,
    )
    play.add_argument("--seed", type=int, required=True, help="match seed (non-negative)")
    play.add_argument("--json", metavar="FILE", help="also save the game record to FILE")
    play.add_argument(
        "--rotation", type=int, default=0, choices=range(4), help="duplicate-deal rotation"
    )
    play.add_argument(
        "--agents",
        nargs="*",
        metavar="SPEC",
        help="exactly four agent specs, for seats S0..S3 in order (greedy, random, "
        "mc:budget=8, ppo:FILE.safetensors, …); default: four uniform-random players",
    )
    add_rule_options(play)
    play.set_defaults(func=run_play)

    replay = subparsers.add_parser(
        "replay",
        help="replay a game record and print its transcript",
        description="Load a JSON game record, replay every action, print the transcript.",
        formatter_class=HelpFormatter,
    )
    replay.add_argument("file", help="a record written by `play --json` or records.save")
    replay.set_defaults(func=run_replay)


def agent_seed(seed: int, seat: int) -> int:
    """The ``reset`` seed of the agent in ``seat`` of ``env121 play --seed seed
    --agents …`` (the stream ``PLAY_AGENT``, independent of the deals and of the
    random players)."""
    return derive_seed(seed, Stream.PLAY_AGENT, seat)


def run_play(args: argparse.Namespace) -> int:
    """``play``: print each event as it happens; save the record if asked."""
    try:
        state = new_game(args.seed, rule_config(args), rotation=args.rotation)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    agents: Sequence[Agent]
    if args.agents is None:
        agents = random_players(args.seed)
    else:
        try:
            agents = seat_agents(args.agents)
        except ValueError as err:
            print(f"error: {err}", file=sys.stderr)
            return 2
        print("agents: " + ", ".join(f"{seat_name(s)} {a.spec}" for s, a in enumerate(agents)))
        for seat, agent in enumerate(agents):
            agent.reset(agent_seed(args.seed, seat))
    show = EventPrinter()
    show(state)
    try:
        play_agents(state, agents, on_action=show)
    except IllegalAgentActionError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    if args.json:
        save(state, args.json)
        print(f"record saved to {args.json}")
    return 0


class EventPrinter:
    """``show(state, action=-1)``: print the events of ``state`` not printed yet."""

    def __init__(self) -> None:
        self.printed = 0

    def __call__(self, state: State, _action: int = -1) -> None:
        for event in state.events[self.printed :]:
            print(format_event(event))
        self.printed = len(state.events)


def seat_agents(specs: Sequence[str]) -> list[Agent]:
    """One new agent per seat from exactly four specs; raises ``ValueError``
    (an ``agents.registry.AgentSpecError``) naming what is wrong."""
    from agents.registry import AgentSpecError, available_agents, make_agent

    accepted = (
        f"agents: {', '.join(available_agents())} (spec: name or name:key=value,…; "
        "ppo:FILE.safetensors)"
    )
    if len(specs) != NUM_SEATS:
        raise AgentSpecError(
            f"--agents takes exactly {NUM_SEATS} specs, one per seat S0..S3, but got "
            f"{len(specs)}: {list(specs)}; {accepted}"
        )
    agents = []
    for seat, spec in enumerate(specs):
        try:
            agents.append(make_agent(spec))
        except AgentSpecError as err:  # a missing checkpoint or torch included
            raise AgentSpecError(f"--agents, seat {seat_name(seat)}: {err}") from err
    return agents


def run_replay(args: argparse.Namespace) -> int:
    """``replay``: print the transcript of a record, or say what is wrong with it."""
    try:
        state = load(args.file)
    except RecordError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print("\n".join(transcript(state)))
    return 0
