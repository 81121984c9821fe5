"""``env121 benchmark``: one agent on the frozen suite, or the league of the shipped agents.

Examples::

    env121 benchmark greedy --quick
    env121 benchmark "program:node examples/js_agent/agent.js" --quick
    env121 benchmark import:mypkg.bots:make_bot            # the full tier
    env121 benchmark --league --quick                      # regenerate docs/league.md

``AGENT`` is any agent spec: a registered agent, ``import:module:factory``,
``sb3:model.zip`` or ``program:CMD`` (:mod:`agents.entries`). It plays the
suite (:mod:`arena.benchmark`, default ``121-bench-v1``): duplicate 1 vs 3
against each frozen reference on the suite's published deals, ``--quick``
(its quick tier) or the full tier. The scorecard is printed and written to
``OUT/scorecard.json``, ``OUT/scorecard.txt`` and ``OUT/scorecard.png``; the
arena's results and every game's record are ``OUT/results.json`` and
``OUT/games.jsonl``. ``OUT`` is by default ``benchmark_results/<agent>-<suite>-<tier>``;
if it already holds this benchmark's log, the run **resumes** it: only the
missing games are played (Ctrl-C loses only the games being played), and the
scorecard is the same as an uninterrupted run's. A bad spec is one error line
(status 2) before any game, and so is a reference that cannot be built: the
suite's ``ppo`` references need the ``train`` extra, and on the base install
the line names it and its install command.

``--league`` benchmarks every reference and shipped agent and writes the
league table (``docs/league.md``: rating, interval, versions, wall time of each).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from agents.registry import AgentSpecError, make_agent
from apps.cli.options import ArgumentParser, HelpFormatter, error_line
from arena.benchmark import SUITE_VERSION, Scorecard, Suite, SuiteError, load_suite
from env121.play.protocol import UnfairAgentError, require_fair

PROG = "env121 benchmark"
DEFAULT_OUT = Path("benchmark_results")
LEAGUE = Path("docs/league.md")
"""The league table that docs/benchmark.md shows."""
LEAGUE_CHALLENGERS = ("mc", "search")
"""The shipped agents the league benchmarks besides the suite's references:
``mc`` at its default budget and the ``search`` agent (the references hold a
cheaper ``mc:budget=16`` and every shipped ``ppo`` checkpoint)."""


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``env121 benchmark``."""
    parser = ArgumentParser(
        prog=PROG,
        description="Benchmark an agent on a frozen suite: duplicate 1 vs 3 against each "
        "frozen reference on published deals, a rating on a fixed scale (random = 0).",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("agent", nargs="?", metavar="AGENT", help="the agent spec to benchmark")
    parser.add_argument(
        "--league", action="store_true", help=f"benchmark every shipped agent and write {LEAGUE}"
    )
    parser.add_argument("--quick", action="store_true", help="the suite's quick tier (minutes)")
    parser.add_argument("--suite", default=SUITE_VERSION, help="the suite version")
    parser.add_argument(
        "--out",
        type=Path,
        help=f"output directory (default {DEFAULT_OUT}/<agent>-<suite>-<tier>; with --league "
        "the directory that holds one such folder per agent)",
    )
    parser.add_argument("--no-plot", action="store_true", help="do not write scorecard.png")
    parser.add_argument(
        "--quiet", action="store_true", help="no progress bar (files and the table only)"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``env121 benchmark`` with ``argv``; returns the exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = parser.parse_args(arguments)
    if bool(args.agent) == bool(args.league):
        parser.error("expected an AGENT spec or --league (one of them)")
    try:
        suite = load_suite(args.suite)
    except SuiteError as error:
        parser.error(f"--suite {args.suite}: {error}")
    tier = "quick" if args.quick else "full"
    # the league: the suite's references (a reference's rating is its frozen
    # one; its row shows how it fares against the others) and the challengers
    references = [r.spec for r in suite.references]
    agents = [*references, *LEAGUE_CHALLENGERS] if args.league else [args.agent]
    for spec in agents:
        try:
            # every spec checked (files, modules, commands) before any game
            agent = make_agent(spec)
            require_fair(agent, "in env121 benchmark (it rates play on a seat's own knowledge)")
        except (AgentSpecError, UnfairAgentError) as error:
            return error_line(str(error))
    for spec in references:  # the opponents too: a ppo one needs the train extra
        try:
            make_agent(spec)
        except AgentSpecError as error:
            return error_line(f"{suite.version}'s reference {spec}: {error}")
    cards = []
    for spec in agents:
        if args.league:
            out = default_out(spec, suite.version, tier, args.out or DEFAULT_OUT)
        else:
            out = args.out or default_out(spec, suite.version, tier)
        try:
            card = run_benchmark(spec, suite, tier, out, args, [*PROG.split(), *arguments])
        except ValueError as error:  # a log that is not this benchmark's (arena.journal.LogError)
            return error_line(f"--out {out}: {error}")
        except OSError as error:
            return error_line(f"--out {out}: cannot be written ({error.strerror or error})")
        if card is None:
            return 130
        cards.append(card)
    if args.league:
        from env121.engine.files import write_atomically

        path = write_atomically(LEAGUE, league_table(cards, [*PROG.split(), *arguments]))
        print(f"league: {path}")
    return 0


def default_out(spec: str, suite: str, tier: str, root: Path = DEFAULT_OUT) -> Path:
    """``ROOT/<agent>-<suite>-<tier>`` (``ROOT`` by default ``benchmark_results``),
    the agent spec made a file name."""
    slug = re.sub(r"[^A-Za-z0-9._=-]+", "_", spec).strip("_")[:80]
    return root / f"{slug}-{suite}-{tier}"


def run_benchmark(
    spec: str,
    suite: Suite,
    tier: str,
    out: Path,
    args: argparse.Namespace,
    command: Sequence[str],
) -> Scorecard | None:
    """Play (or resume) one agent's benchmark into ``out`` and write its scorecard;
    None when interrupted."""
    from agents.warmup import families_for, warm_kernels
    from arena.benchmark import format_scorecard, plan_benchmark, plot_scorecard, scorecard
    from arena.export import versions, write_results
    from arena.journal import LOG_NAME, GameLog, LogHeader, check_log, read_log
    from arena.report import progress_bar, report_console
    from arena.tournament import play_tournament
    from env121.engine.files import write_atomically

    console = report_console(args.quiet)
    plan = plan_benchmark(spec, suite, tier)
    path = out / LOG_NAME
    if path.exists():
        logged = read_log(path)
        check_log(logged, plan)
        log = GameLog(logged.path, size=logged.size)
        done = logged.games
        console.print(f"resuming {out}: {len(done)} of {len(plan.tasks)} games already played")
    else:
        out.mkdir(parents=True, exist_ok=True)
        log = GameLog(path, LogHeader.of(plan, command))
        done = ()
    warm_kernels(families_for({spec for task in plan.tasks for spec in task.specs}))
    start = time.perf_counter()
    with log:
        try:
            if args.quiet:
                result = play_tournament(plan, done=done, on_game=log.append)
            else:
                with progress_bar(console, f"{spec} on {suite.version} ({tier})") as progress:
                    result = play_tournament(plan, done=done, on_game=log.append, progress=progress)
        except KeyboardInterrupt:
            print(
                f"env121: interrupted; the games finished are in {path}: the same command "
                "plays the rest",
                file=sys.stderr,
            )
            return None
    card = scorecard(result, suite, tier, versions=versions())
    card = dataclasses.replace(card, seconds=time.perf_counter() - start)
    write_results(result, out, plot=False, command=command)
    write_atomically(out / "scorecard.json", json.dumps(card.to_json(), indent=1) + "\n")
    text = format_scorecard(card)
    write_atomically(out / "scorecard.txt", text + "\n")
    if not args.no_plot:
        plot_scorecard(card, out / "scorecard.png")
    print(text)
    print(f"scorecard: {out / 'scorecard.json'}, {out / 'scorecard.txt'}; games: {path}")
    return card


def league_table(cards: Sequence[Scorecard], command: Sequence[str]) -> str:
    """The league as Markdown: one row per agent, best first."""
    first = cards[0]
    lines = [
        f"# The {first.suite} league ({first.tier} tier)",
        "",
        f"Regenerated by `{' '.join(command)}`; ratings in points per ván on the suite's "
        "fixed scale (random = 0; `arena/benchmark.py`), 95% intervals.",
        "",
        "| agent | rating [95% CI] | "
        + " | ".join(f"vs {r.reference}" for r in first.rows)
        + " | ms/decision | wall s |",
        "|---|---|" + "---|" * len(first.rows) + "---|---|",
    ]
    for card in sorted(cards, key=lambda c: -c.rating):
        cells = " | ".join(f"{r.advantage:+.0f}" for r in card.rows)
        lines.append(
            f"| `{card.agent}` | {card.rating:+.0f} "
            f"[{card.rating_low:+.0f}, {card.rating_high:+.0f}] | {cells} "
            f"| {card.decision_ms:.3f} | {card.seconds:.0f} |"
        )
    versions = ", ".join(f"{k} {v}" for k, v in sorted(first.versions.items()))
    lines += ["", f"Versions: {versions}.", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
