"""The ``play`` and ``replay`` subcommands of the ``env121`` CLI.

* ``env121 play --seed S [--rotation R] [--agents SPEC …] [--human SEAT]
  [--json FILE] [--verbose] [rule options]`` — a seeded match, printed as it is played in
  the readable form (:class:`env121.engine.render.ReadableTranscript`: grouped
  by vòng and lượt, each swapper's cards after its swap, passes and declined
  Thế trắng / Nhất Bản left out unless ``--verbose``); with ``--json`` its
  game record is saved too (``replay`` replays it). The rule options are
  ``tournament``'s (:mod:`apps.cli.options`; a bad value: ``env121: error: …``,
  exit status 2). Without ``--agents`` all four seats are uniform-random players
  (:func:`env121.play.random_agent.random_players`: one generator, the stream
  ``RANDOM_PLAYERS`` of ``S``). With ``--agents`` seats ``S0`` … ``S3`` are
  played by four new agents built from the specs, as the arena accepts them
  (:func:`agents.registry.make_agent`: ``greedy``, ``mc:budget=8``,
  ``random``, ``ppo:FILE.safetensors``, …); a first line names them, and the
  agent in seat ``s`` is reset with the seed ``agent_seed(S, s)``
  (:func:`agent_seed`, the stream ``PLAY_AGENT`` of :mod:`env121.engine.seeds`),
  so the same seed and specs print the same match. Either way the match is
  played by the arena's loop, :func:`env121.play.match.play_agents`. A bad
  spec or a wrong count is reported (``env121: error: …``, exit status 2) before
  anything is played; an agent that returns an illegal action stops the
  match (``env121: error: …`` naming the seat, spec, action and legal actions: an
  :class:`~env121.play.match.IllegalAgentActionError`; exit status 1). The
  agents are imported only when ``--agents`` is given.
* ``--human SEAT`` (``S0`` … ``S3``) seats a person in the terminal
  (:class:`env121.play.human.HumanAgent`); ``--agents`` then takes three
  specs, for the other seats in order (default: random players). Only what
  that seat sees is printed. The record is always saved (to ``--json FILE``,
  default ``game-seed<S>.json``). Ctrl-C or ``q`` leaves with one line and
  saves the record so far (exit status 0 for ``q`` or the end of the input,
  130 for Ctrl-C).
* ``env121 replay FILE [--verbose] [--html OUT]`` — load a game record, replay
  it, print its transcript in the readable form; with ``--html`` write the
  replay viewer instead, one self-contained HTML file
  (:func:`apps.web.replay.standalone_html`).

:func:`add_subcommands` registers both on an ``argparse`` subparsers object;
each sets ``func`` (``args.func(args)`` returns the exit status).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from apps.cli.options import HelpFormatter, add_rule_options, error_line, rule_config
from env121.engine.files import write_atomically
from env121.engine.game import new_game
from env121.engine.records import RecordError, load, save
from env121.engine.render import ReadableTranscript, readable_transcript, seat_name
from env121.engine.seeds import Stream, derive_seed
from env121.engine.state import NUM_SEATS, State
from env121.play.human import HumanAgent, LeftTheTable
from env121.play.match import IllegalAgentActionError, play_agents
from env121.play.protocol import UnfairAgentError, require_fair
from env121.play.random_agent import random_players

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
        "mc:budget=8, ppo:FILE.safetensors, …), three with --human; default: "
        "uniform-random players",
    )
    play.add_argument(
        "--human",
        type=parse_seat,
        metavar="SEAT",
        help="play seat SEAT (S0..S3) yourself in the terminal; --agents then names the "
        "other three seats in order",
    )
    play.add_argument("--verbose", action="store_true", help=VERBOSE_HELP)
    add_rule_options(play)
    play.set_defaults(func=run_play)

    replay = subparsers.add_parser(
        "replay",
        help="replay a game record and print its transcript",
        description="Load a JSON game record, replay every action, print the transcript.",
        formatter_class=HelpFormatter,
    )
    replay.add_argument("file", help="a record written by `play --json` or records.save")
    replay.add_argument("--verbose", action="store_true", help=VERBOSE_HELP)
    replay.add_argument(
        "--html",
        metavar="OUT",
        help="write the replay viewer to OUT instead: one self-contained HTML file (step "
        "through the match, hidden hands on or off, each vòng's result explained)",
    )
    replay.set_defaults(func=run_replay)


VERBOSE_HELP = "print every event: passes and declined Thế trắng / Nhất Bản too"


def parse_seat(text: str) -> int:
    """A seat as the command line writes it: ``S0`` … ``S3`` (or ``0`` … ``3``)."""
    seat = text.strip().upper().removeprefix("S")
    if seat not in ("0", "1", "2", "3"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a seat: expected S0, S1, S2 or S3")
    return int(seat)


def agent_seed(seed: int, seat: int) -> int:
    """The ``reset`` seed of the agent in ``seat`` of ``env121 play --seed seed
    --agents …`` (the stream ``PLAY_AGENT``, independent of the deals and of the
    random players)."""
    return derive_seed(seed, Stream.PLAY_AGENT, seat)


def run_play(args: argparse.Namespace) -> int:
    """``play``: print the match as it is played; save the record if asked
    (always with ``--human``)."""
    try:
        state = new_game(args.seed, rule_config(args), rotation=args.rotation)
        if args.json is not None:
            check_record_path(args.json)
    except ValueError as err:
        return error_line(str(err))
    human: int | None = args.human
    seats = [s for s in range(NUM_SEATS) if s != human]
    lineup: dict[int, Agent]
    if args.agents is None:
        lineup = dict(enumerate(random_players(args.seed)))
    else:
        try:
            lineup = dict(zip(seats, seat_agents(args.agents, seats), strict=True))
        except ValueError as err:
            return error_line(str(err))
        for seat, agent in lineup.items():
            agent.reset(agent_seed(args.seed, seat))
    if human is not None:
        lineup[human] = HumanAgent()
    agents = [lineup[s] for s in range(NUM_SEATS)]
    if args.agents is not None or human is not None:
        print("agents: " + ", ".join(f"{seat_name(s)} {a.spec}" for s, a in enumerate(agents)))
    record = args.json or (f"game-seed{args.seed}.json" if human is not None else None)
    show = TranscriptPrinter(ReadableTranscript(viewer=human, verbose=args.verbose))
    show(state)
    try:
        play_agents(state, agents, on_action=show)
    except IllegalAgentActionError as err:
        error_line(str(err))
        return 1
    except (KeyboardInterrupt, LeftTheTable) as left:
        saved = f"; the record so far is saved to {record}" if record else ""
        if record:
            save(state, record)
        print(f"\nleft the game at ván {state.van + 1}, vòng {state.vong + 1}{saved}")
        return 0 if isinstance(left, LeftTheTable) else 130  # q is a choice, Ctrl-C is not
    if record:
        save(state, record)
        print(f"record saved to {record}")
    return 0


def check_record_path(path: str, option: str = "--json") -> None:
    """Raise ``ValueError`` naming ``option`` unless a file can be written to
    ``path`` (checked before the work, so none is lost to a bad path)."""
    file = Path(path)
    if file.is_dir():
        raise ValueError(f"{option} {path}: is a directory: expected a file name")
    if not file.parent.is_dir():
        raise ValueError(f"{option} {path}: the directory {file.parent} does not exist")
    if not os.access(file.parent, os.W_OK):
        raise ValueError(f"{option} {path}: the directory {file.parent} is not writable")


class TranscriptPrinter:
    """``show(state, action=-1)``: print the readable lines of the events of
    ``state`` not printed yet."""

    def __init__(self, transcript: ReadableTranscript) -> None:
        self.transcript = transcript
        self.printed = 0

    def __call__(self, state: State, _action: int = -1) -> None:
        for line in self.transcript.lines(state.events[self.printed :]):
            print(line)
        self.printed = len(state.events)


def seat_agents(
    specs: Sequence[str], seats: Sequence[int] = tuple(range(NUM_SEATS))
) -> list[Agent]:
    """One new agent per seat of ``seats`` (all four, or the three beside a
    person) from as many specs; raises ``ValueError`` (an
    ``agents.registry.AgentSpecError``) naming what is wrong."""
    from agents.registry import AgentSpecError, available_agents, make_agent

    accepted = (
        f"agents: {', '.join(available_agents())} (spec: name or name:key=value,…; "
        "ppo:FILE.safetensors)"
    )
    if len(specs) != len(seats):
        which = ", ".join(seat_name(s) for s in seats) if len(seats) < NUM_SEATS else "S0..S3"
        beside = " beside --human" if len(seats) < NUM_SEATS else ""
        raise AgentSpecError(
            f"--agents takes exactly {len(seats)} specs{beside}, one per seat {which}, but got "
            f"{len(specs)}: {list(specs)}; {accepted}"
        )
    agents = []
    for seat, spec in zip(seats, specs, strict=True):
        try:
            agents.append(make_agent(spec))
        except AgentSpecError as err:  # a missing checkpoint or torch included
            raise AgentSpecError(f"--agents, seat {seat_name(seat)}: {err}") from err
        if len(seats) < NUM_SEATS:
            try:
                require_fair(agents[-1], "beside --human")
            except UnfairAgentError as err:
                raise AgentSpecError(f"--agents, seat {seat_name(seat)}: {err}") from None
    return agents


def run_replay(args: argparse.Namespace) -> int:
    """``replay``: print the transcript of a record, or say what is wrong with it."""
    try:
        if args.html:
            check_record_path(args.html, "--html")
    except ValueError as err:
        return error_line(str(err))
    try:
        state = load(args.file)
    except RecordError as err:
        return error_line(str(err))
    if args.html:
        from apps.web.replay import standalone_html

        write_atomically(args.html, standalone_html(state))
        print(f"replay viewer written to {args.html} ({len(state.actions)} actions)")
        return 0
    print("\n".join(readable_transcript(state, verbose=args.verbose)))
    if state.match_end is None:  # e.g. `play --human` left before the end
        print(
            f"(the record stops here, at ván {state.van + 1}, vòng {state.vong + 1}: "
            "the match was not played to its end)"
        )
    return 0
