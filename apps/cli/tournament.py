"""``env121 tournament``: run a tournament from the command line.

Examples::

    env121 tournament --vs greedy random --deals 200 --jobs 8
    env121 tournament --vs greedy random --vs mc:budget=50 greedy --deals 100
    env121 tournament --pool random,greedy,mc:budget=50 --deals 100 --out runs/rr
    env121 tournament --vs ppo:searched greedy --deals 256 --ray auto

``--vs CHALLENGER REFERENCE`` (repeatable) plays 1 vs 3 matchups;
``--pool A,B,C`` a round-robin (:mod:`arena.schedule`). In a pool, a comma
followed by ``key=value`` continues the previous spec's parameters, so
``--pool random,mc:budget=50,width=2`` is the two agents ``random`` and
``mc:budget=50,width=2``. Results go to ``--out`` (``results.json``,
``results.csv``, ``results.png``; by default a new directory under
``tournament_results/`` for each tournament). The rule options (``--num-van``,
``--payment-rounding``, …) are ``env121 play``'s (:mod:`apps.cli.options`).
Bad specs or values exit with status 2 and a message naming them, before
any game is played.

The games run in this process, in ``--jobs`` worker processes, or with
``--ray [ADDRESS]`` as tasks on a Ray cluster (:mod:`arena.ray_backend`; the
``ray`` extra): without ADDRESS Ray's own choice (``RAY_ADDRESS``, a cluster
started on this machine by ``ray start``, else a new one on this machine's
CPUs). Every way plays the same games and writes the same results
(wall-clock fields and ``jobs`` aside).

Every game is appended to ``OUT/games.jsonl`` as it ends (:mod:`arena.journal`),
so Ctrl-C or a kill loses only the games being played;
``env121 tournament --resume OUT`` plays the missing games and writes the
same results as an uninterrupted run (wall-clock fields aside). With
``--resume`` the tournament is the log's: ``--jobs``, ``--ray``, ``--quiet`` and
``--no-plot`` apply, any other option given must match the log. An ``--out``
that already holds a log is refused (resume it, or choose another).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from agents.registry import (
    ALIASES,
    AgentSpecError,
    available_agents,
    describe_aliases,
    parse_spec,
)
from apps.cli.options import (
    ArgumentParser,
    HelpFormatter,
    add_rule_options,
    error_line,
    rule_config,
)
from env121.rules.config import RuleConfig

if TYPE_CHECKING:
    from arena.journal import LoggedRun

RULE_FIELDS = tuple(field.name for field in dataclasses.fields(RuleConfig))

RAY_DEFAULT = ""
"""``--ray`` without an address: Ray's own choice of cluster."""
DEFAULT_OUT = "tournament_results"
"""Where a tournament goes without ``--out``: a new ``DEFAULT_OUT/<date>-<time>``."""
PROG = "env121 tournament"


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``env121 tournament``."""
    parser = ArgumentParser(
        prog=PROG,
        description="Play a duplicate-format tournament between agents and report "
        "every metric with 95% confidence intervals clustered by deal.",
        epilog=f"agents: {', '.join(available_agents())} (spec: name or name:key=value,…); "
        f"stable names: {', '.join(describe_aliases(list(ALIASES)))}",
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
    mode.add_argument(
        "--resume",
        metavar="DIR",
        help="finish the interrupted tournament whose --out was DIR (its games.jsonl "
        "says what it is): only the missing games are played",
    )
    parser.add_argument("--deals", type=int, default=100, help="deals to play")
    parser.add_argument("--seed", type=int, default=0, help="tournament seed")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument(
        "--ray",
        nargs="?",
        const=RAY_DEFAULT,
        metavar="ADDRESS",
        help="play the games as tasks on a Ray cluster (instead of --jobs): at ADDRESS "
        "(auto, local, HOST:6379, ray://HOST:10001), or without it Ray's default: RAY_ADDRESS, "
        "a cluster started here by `ray start`, else a new one on this machine's CPUs",
    )
    parser.add_argument(
        "--out",
        help=f"output directory (default: a new {DEFAULT_OUT}/<date>-<time> for each tournament)",
    )
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
    for name in ("deals", "jobs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} {getattr(args, name)}: expected an integer ≥ 1")
    if args.seed < 0:
        parser.error(f"--seed {args.seed}: expected an integer ≥ 0")
    if args.ray is not None:
        from arena.ray_backend import RayNotInstalledError, import_ray

        if args.jobs != 1:
            parser.error(
                f"--jobs {args.jobs} with --ray: expected one of them (Ray plays as many "
                "games at once as its cluster has CPUs)"
            )
        try:
            import_ray()
        except RayNotInstalledError as error:
            parser.error(f"--ray: {error}")
    try:
        config = rule_config(args)
    except ValueError as error:
        parser.error(str(error))
    if args.resume is not None:
        return _resume(parser, args, config)
    from arena.journal import LOG_NAME

    given = [s for pair in args.vs or () for s in pair] + split_pool(args.pool or ())
    if not args.quiet:
        for line in describe_aliases(given):  # the stable names, as the tables show them
            print(line)
    matchups = [(ALIASES.get(a, a), ALIASES.get(b, b)) for a, b in args.vs or ()]
    pool = [ALIASES.get(spec, spec) for spec in split_pool(args.pool or ())]
    try:
        for spec in [s for pair in matchups for s in pair] + pool:
            parse_spec(spec)  # names and parameters; building happens in plan_tournament
    except AgentSpecError as error:
        parser.error(str(error))
    out = Path(args.out) if args.out is not None else new_out_dir()
    if out.exists() and not out.is_dir():
        parser.error(f"--out {out}: is a file: expected a directory (new, or empty of results)")
    if (out / LOG_NAME).exists():
        parser.error(
            f"--out {out}: already holds a tournament ({out / LOG_NAME}): "
            f"`{PROG} --resume {out}` finishes it; or choose another --out"
        )
    tournament = Tournament(matchups, pool, args.deals, args.seed, config, out, None)
    return _run(args, tournament, [*PROG.split(), *arguments])


def new_out_dir() -> Path:
    """A directory no tournament has used: ``DEFAULT_OUT/<date>-<time>`` (with
    ``-2``, ``-3``, … if several start in the same second)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    out, n = Path(DEFAULT_OUT) / stamp, 2
    while out.exists():
        out, n = Path(DEFAULT_OUT) / f"{stamp}-{n}", n + 1
    return out


def _resume(parser: argparse.ArgumentParser, args: argparse.Namespace, config: RuleConfig) -> int:
    """``--resume DIR``: the tournament of ``DIR/games.jsonl``; options given must match it."""
    from arena.journal import LOG_NAME, LogError, read_log

    directory = Path(args.resume)
    try:
        run = read_log(directory / LOG_NAME)
    except LogError as error:
        parser.error(f"--resume {directory}: {error}")
    header = run.header
    given = {"deals": args.deals, "seed": args.seed}
    logged: dict[str, object] = {"deals": header.deals, "seed": header.seed}
    for name in RULE_FIELDS:
        given[name] = getattr(config, name)
        logged[name] = getattr(header.config, name)
    for name, value in given.items():
        if value != parser.get_default(name) and value != logged[name]:
            option = "--" + name.replace("_", "-")
            parser.error(
                f"--resume {directory}: {option} {value!r} does not match the tournament "
                f"in {run.path} ({logged[name]!r}): expected it left out, or the same"
            )
    tournament = Tournament(
        list(header.matchups),
        list(header.pool),
        header.deals,
        header.seed,
        header.config,
        directory,
        run,
    )
    return _run(args, tournament, header.command)


@dataclass(frozen=True)
class Tournament:
    """What the command plays: the tournament, where it goes, what its log holds."""

    matchups: list[tuple[str, str]]
    pool: list[str]
    deals: int
    seed: int
    config: RuleConfig
    out: Path
    logged: LoggedRun | None
    """The log of an interrupted run being resumed (None for a new tournament)."""


def _run(args: argparse.Namespace, tournament: Tournament, command: Sequence[str] | None) -> int:
    # The heavy modules (scipy, openskill, rich, the agents) load only now.
    from agents.warmup import families_for, warm_kernels
    from arena.export import write_results
    from arena.journal import LOG_NAME, GameLog, LogError, LogHeader, check_log
    from arena.ray_backend import GameLostError, RayBackend  # Ray itself only with --ray
    from arena.report import print_report, progress_bar, report_console
    from arena.tournament import TournamentResult, plan_tournament, play_tournament

    console = report_console(args.quiet)
    backend = None if args.ray is None else RayBackend(args.ray or None)
    try:
        plan = plan_tournament(
            matchups=tournament.matchups,
            pool=tournament.pool,
            deals=tournament.deals,
            seed=tournament.seed,
            config=tournament.config,
        )
        if backend is not None:
            backend.connect()  # before the log: a wrong address leaves no trace
    except ValueError as error:
        return error_line(str(error))
    except ConnectionError as error:
        return error_line(f"--ray {args.ray}: {error}")
    logged = tournament.logged
    try:
        if logged is None:
            tournament.out.mkdir(parents=True, exist_ok=True)
            log = GameLog(tournament.out / LOG_NAME, LogHeader.of(plan, command))
        else:
            check_log(logged, plan)
            log = GameLog(logged.path, size=logged.size)
    except LogError as error:
        return error_line(str(error))
    except OSError as error:
        return error_line(f"--out {tournament.out}: cannot be written ({error.strerror or error})")
    done = () if logged is None else logged.games
    for note in () if logged is None else logged.notes:
        print(f"env121: note: {note}; it is played again", file=sys.stderr)
    if done:
        console.print(f"resuming: {len(done)} of {len(plan.tasks)} games already played")
    # the kernels its agents use, compiled (or loaded) before any clock starts: never a
    # decision's time
    warm_kernels(families_for({spec for task in plan.tasks for spec in task.specs}))

    def play(progress: Callable[[int, int], None] | None) -> TournamentResult:
        return play_tournament(
            plan,
            jobs=args.jobs,
            progress=progress,
            done=done,
            on_game=log.append,
            backend=backend,
        )

    with log:
        try:
            if args.quiet:
                result = play(None)
            else:
                with progress_bar(console, "playing") as progress:
                    result = play(progress)
        except KeyboardInterrupt:
            print(
                f"env121: interrupted; the games finished are in {tournament.out / LOG_NAME}: "
                f"`{PROG} --resume {tournament.out}` plays the rest",
                file=sys.stderr,
            )
            return 130
        except GameLostError as error:
            error_line(
                f"--ray: {error}; they are in {tournament.out / LOG_NAME}: "
                f"`{PROG} --resume {tournament.out}` plays the rest"
            )
            return 1
    paths = write_results(result, tournament.out, plot=not args.no_plot, command=command)
    print_report(result, console)
    console.print(f"results: {', '.join(str(p) for p in paths)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
