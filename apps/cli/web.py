"""The ``serve`` subcommand of the ``env121`` CLI: the web table.

``env121 serve [--host 127.0.0.1] [--port 8121] [--config FILE] [--db FILE]``
runs the web table (:mod:`apps.web.app`): a page to play a match against
three agents in the browser, see the results and ratings of every game
played, and open records in the replay viewer. ``--config`` names a TOML file
(:mod:`apps.web.config`) saying which agents clients may seat, whether
practice games (a chosen seed) are on, where the games are kept and the
limits each client is held to; ``--print-config`` writes the defaults as such
a file. It binds to this machine only unless ``--host`` says otherwise, and
then needs a configuration file that sets every limit (it warns, naming them).
The web framework and the configuration's reader are imported only when it
runs; without the ``web`` extra it says, in one line, what to install (exit
status 2, :mod:`env121.extras`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from apps.cli.options import HelpFormatter
from env121.extras import require_extra


def add_subcommands(commands: Any) -> None:
    """Register ``serve`` on an ``argparse`` subparsers object."""
    serve = commands.add_parser(
        "serve",
        help="play in the browser: the web table, results and the replay viewer",
        description="Serve the web table: play a match against three agents in the browser, "
        "see every game's result and the players' ratings, replay any finished game.",
        formatter_class=HelpFormatter,
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to bind")
    serve.add_argument(
        "--port", type=port_number, default=8121, help="port to listen on (0..65535)"
    )
    serve.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help="TOML file: the agents clients may seat, practice games, the database, the "
        "limits (needed with a --host other than loopback)",
    )
    serve.add_argument(
        "--db",
        type=Path,
        metavar="FILE",
        help="the SQLite file the games are kept in (default: the config's, else "
        "$XDG_DATA_HOME/apps/web.sqlite)",
    )
    serve.add_argument(
        "--print-config",
        action="store_true",
        help="print the configuration in force as a TOML file to edit, and exit",
    )
    serve.set_defaults(func=run_serve)


def port_number(text: str) -> int:
    """``--port``: an integer in 0..65535 (0: any free port); argparse says
    so in one line (exit status 2) before anything starts."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port: expected 0..65535")
    return port


def run_serve(args: argparse.Namespace) -> int:
    """``serve``: run the web table until Ctrl-C. A configuration that cannot be
    used, or a missing ``web`` extra, is one error line before anything starts."""
    require_extra("web", "env121 serve")
    from apps.web.config import (
        agent_menu,
        check_exposed,
        config_toml,
        load_config,
        with_overrides,
    )

    config = with_overrides(load_config(args.config), db=args.db)
    if args.print_config:
        print(config_toml(config), end="")
        return 0
    warning = check_exposed(config, args.host)
    agent_menu(config)  # a bad agent spec is named before anything starts
    if warning is not None:
        print(warning, file=sys.stderr)
    from apps.web.app import serve

    serve(config, args.host, args.port)  # uvicorn stops cleanly on Ctrl-C
    return 0
