"""The ``play`` and ``replay`` subcommands of the ``env121`` CLI.

* ``env121 play --seed S [--json FILE]`` — a seeded match between
  uniform-random players, printed event by event in the card notation; with
  ``--json`` its game record is saved too.
* ``env121 replay FILE`` — load a game record, replay it, print its transcript.

:func:`add_subcommands` registers both on an ``argparse`` subparsers object;
each sets ``func`` (``args.func(args)`` returns the exit status).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from env121.game import new_game
from env121.playout import play_random, player_rng
from env121.records import RecordError, load, save
from env121.state import State
from env121.transcript import format_event, transcript


def add_subcommands(subparsers: Any) -> None:
    """Register ``play`` and ``replay`` on ``parser.add_subparsers()``'s result."""
    play = subparsers.add_parser(
        "play",
        help="play a seeded match between uniform-random players",
        description="Play a seeded match between uniform-random players, printed move by move.",
    )
    play.add_argument("--seed", type=int, required=True, help="match seed (non-negative)")
    play.add_argument("--json", metavar="FILE", help="also save the game record to FILE")
    play.add_argument(
        "--rotation", type=int, default=0, choices=range(4), help="duplicate-deal rotation"
    )
    play.set_defaults(func=run_play)

    replay = subparsers.add_parser(
        "replay",
        help="replay a game record and print its transcript",
        description="Load a JSON game record, replay every action, print the transcript.",
    )
    replay.add_argument("file", help="a record written by `play --json` or records.save")
    replay.set_defaults(func=run_replay)


def run_play(args: argparse.Namespace) -> int:
    """``play``: print each event as it happens; save the record if asked."""
    try:
        state = new_game(args.seed, rotation=args.rotation)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    printed = 0

    def show(st: State, _action: int = -1) -> None:
        nonlocal printed
        for event in st.events[printed:]:
            print(format_event(event))
        printed = len(st.events)

    show(state)
    play_random(state, player_rng(args.seed), on_action=show)
    if args.json:
        save(state, args.json)
        print(f"record saved to {args.json}")
    return 0


def run_replay(args: argparse.Namespace) -> int:
    """``replay``: print the transcript of a record, or say what is wrong with it."""
    try:
        state = load(args.file)
    except RecordError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print("\n".join(transcript(state)))
    return 0
