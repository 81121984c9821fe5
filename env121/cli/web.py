"""The ``serve`` subcommand of the ``env121`` CLI: the web table.

``env121 serve [--host 127.0.0.1] [--port 8121] [--ttl SECONDS]`` runs the
web table (:mod:`env121.web.app`): a page to play a match against three
agents in the browser and to open records in the replay viewer. It binds to
this machine only unless ``--host`` says otherwise. The web framework is
imported only when it runs; without the ``web`` extra it says, in one line,
what to install (exit status 2, :mod:`env121.extras`).
"""

from __future__ import annotations

import argparse
from typing import Any

from env121.extras import require_extra
from env121.rules.options import HelpFormatter
from env121.web.tables import DEFAULT_TTL


def add_subcommands(commands: Any) -> None:
    """Register ``serve`` on an ``argparse`` subparsers object."""
    serve = commands.add_parser(
        "serve",
        help="play in the browser: the web table and the replay viewer",
        description="Serve the web table: pick three agents and a seed, play a match in the "
        "browser, download its record, open records in the replay viewer.",
        formatter_class=HelpFormatter,
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to bind")
    serve.add_argument("--port", type=int, default=8121, help="port to listen on")
    serve.add_argument(
        "--ttl",
        type=float,
        default=DEFAULT_TTL,
        help="seconds a game is kept after its last move (finished or not)",
    )
    serve.set_defaults(func=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    """``serve``: run the web table until Ctrl-C."""
    require_extra("web", "env121 serve")
    from env121.web.app import serve

    serve(args.host, args.port, ttl=args.ttl)  # uvicorn stops cleanly on Ctrl-C
    return 0
