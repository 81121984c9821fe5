"""``env121 tournament``: run a tournament from the command line.

Examples::

    env121 tournament --vs greedy random --deals 200 --jobs 8
    env121 tournament --vs greedy random --vs mc:budget=50 greedy --deals 100
    env121 tournament --pool random,greedy,mc:budget=50 --deals 100 --out runs/rr

``--vs CHALLENGER REFERENCE`` (repeatable) plays 1 vs 3 matchups;
``--pool A,B,C`` a round-robin (:mod:`arena.schedule`). In a pool, a comma
followed by ``key=value`` continues the previous spec's parameters, so
``--pool random,mc:budget=50,width=2`` is the two agents ``random`` and
``mc:budget=50,width=2``. Results go to ``--out`` (``results.json``,
``results.csv``, ``results.png``). The rule options (``--num-van``,
``--payment-rounding``, …) are ``env121 play``'s (:mod:`env121.rules.options`).
Bad specs or values exit with status 2 and a message naming them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from agents.registry import AgentSpecError, available_agents, parse_spec
from env121.rules.config import RuleConfig
from env121.rules.options import HelpFormatter, add_rule_options, rule_config

DEFAULT_OUT = "tournament_results"
PROG = "env121 tournament"


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``env121 tournament``."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Play a duplicate-format tournament between agents and report "
        "every metric with 95% confidence intervals clustered by deal.",
        epilog=f"agents: {', '.join(available_agents())} (spec: name or name:key=value,…)",
        formatter_class=HelpFormatter,
    )
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument(
        "--vs",
        nargs=2,
        action="append",
        metavar=("CHALLENGER", "REFERENCE"),
        help="a 1 vs 3 matchup: CHALLENGER against three copies of REFERENCE (repeatable)",
    )
    mode.add_argument(
        "--pool",
        nargs="+",
        metavar="A,B,C",
        help="a round-robin over these agents (comma- or space-separated)",
    )
    parser.add_argument("--deals", type=int, default=100, help="deals to play")
    parser.add_argument("--seed", type=int, default=0, help="tournament seed")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--out", default=DEFAULT_OUT, help="output directory")
    parser.add_argument("--no-plot", action="store_true", help="do not write results.png")
    parser.add_argument(
        "--quiet", action="store_true", help="no progress bar and no tables (files only)"
    )
    add_rule_options(parser)
    return parser


def split_pool(values: Sequence[str]) -> list[str]:
    """The agent specs of ``--pool`` values (comma rule in the module docstring)."""
    specs: list[str] = []
    for value in values:
        for piece in filter(None, (p.strip() for p in value.split(","))):
            if specs and "=" in piece and ":" not in piece and not piece.endswith(":"):
                specs[-1] = f"{specs[-1]},{piece}"
            else:
                specs.append(piece)
    return specs


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``env121 tournament`` with ``argv``; returns the exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = parser.parse_args(arguments)
    matchups: list[tuple[str, str]] = [(a, b) for a, b in args.vs or ()]
    pool = split_pool(args.pool or ())
    try:
        for spec in [s for pair in matchups for s in pair] + pool:
            parse_spec(spec)  # names and parameters; building happens in run_tournament
    except AgentSpecError as error:
        parser.error(str(error))
    for name in ("deals", "jobs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} {getattr(args, name)}: expected an integer ≥ 1")
    if args.seed < 0:
        parser.error(f"--seed {args.seed}: expected an integer ≥ 0")
    try:
        config = rule_config(args)
    except ValueError as error:
        parser.error(str(error))
    return _run(args, config, matchups, pool, [*PROG.split(), *arguments])


def _run(
    args: argparse.Namespace,
    config: RuleConfig,
    matchups: list[tuple[str, str]],
    pool: list[str],
    command: list[str],
) -> int:
    # The heavy modules (scipy, openskill, rich, the agents) load only now.
    from rich.console import Console

    from arena.export import write_results
    from arena.report import print_report, progress_bar
    from arena.tournament import TournamentResult, run_tournament

    def play(progress: Callable[[int, int], None] | None) -> TournamentResult:
        return run_tournament(
            matchups=matchups,
            pool=pool,
            deals=args.deals,
            seed=args.seed,
            jobs=args.jobs,
            config=config,
            progress=progress,
        )

    console = Console(quiet=args.quiet)
    try:
        if args.quiet:
            result = play(None)
        else:
            with progress_bar(console, "playing") as progress:
                result = play(progress)
    except ValueError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    paths = write_results(result, args.out, plot=not args.no_plot, command=command)
    print_report(result, console)
    console.print(f"results: {', '.join(str(p) for p in paths)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
