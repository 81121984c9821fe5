"""The ``env121`` command line.

``env121`` alone prints this help; ``env121 --version`` the version; every
subcommand's ``--help`` shows its options' defaults.

* ``env121 score "<six cards>" [--chi-diem CARD [--an-si CARD …]] [--locked]
  [--nhat-ban] [--dealer] [--self-drawn] [--last-card]`` scores a hand the way
  the engine does and prints the arrangement, the Thế and the point breakdown.
  Without ``--chi-diem`` (a deal always has one, but a hand is often asked
  about on its own) the indicators are not counted and the Quốc Sĩ members
  that need the Chỉ Điểm (Thất Sĩ and above) cannot match; the output says so.
* ``env121 warmup [--jobs J]`` compiles the game's kernels ahead
  (:mod:`agents.warmup`; ``--jobs J``: its families in J processes): where no
  shipped kernels fit (another platform, Python or numba, or edited sources), the
  first use of a version compiles the kernels a command uses once (about a minute
  of CPU for a tournament of greedy and random, 1.5 min for all of them,
  ``docs/first-run.md``) and says so in one line
  (:mod:`env121.rules.compiled.cache`); later runs load them.
* ``env121 play --seed S [--agents SPEC SPEC SPEC SPEC] [--json FILE]
  [rule options]`` plays
  a seeded match between random players — or, with ``--agents``, between the
  four agents of the specs (``greedy``, ``mc:budget=8``,
  ``ppo:FILE.safetensors``, …; loaded only then) — and prints it move by move;
  ``env121 replay FILE`` replays a game record (:mod:`apps.cli.game`).
* ``env121 tournament (--vs A B … | --pool A,B,C) [--deals N] [--jobs J |
  --ray [ADDRESS]] …`` plays a duplicate-format tournament between agents, in
  worker processes or on a Ray cluster (:mod:`apps.cli.tournament`; the arena and the
  agents load only when this subcommand runs, Ray only with ``--ray``).
* ``env121 benchmark AGENT [--quick]`` plays any agent (a registered one,
  ``import:``, ``sb3:`` or ``program:``) on the frozen benchmark suite and
  writes its scorecard; ``env121 benchmark --league`` the league table
  (:mod:`apps.cli.benchmark`).
* ``env121 train --preset NAME [--set KEY=VALUE …] [--out DIR] [--resume DIR]``
  trains with the preset's algorithm — the batched self-play PPO
  (:mod:`training.batched_ppo`, ``--preset scratch``) or SB3's MaskablePPO
  (:mod:`training.ppo_selfplay`) — then draws the run's learning curves
  (``RUN_DIR/curves.png``); torch and Stable-Baselines3 load only when it runs.
* ``env121 imitate [--preset NAME] [--teacher greedy] [--matches N] [--out DIR]``
  clones an agent's play into a warm start for ``env121 train --set
  warm_start=DIR/warm_start.safetensors`` (:mod:`training.imitation`), with a
  progress bar for the matches played and the epochs fitted; with ``--from
  NETWORK`` it fine-tunes that network instead (``--from scratch --teacher best``
  distils the search into one network pass).
* ``env121 exploit AGENT (--budget 20min | --quick) [--deals N] [--out DIR] [--resume DIR]``
  trains a best response against three copies of AGENT (any agent the trainer
  can seat: not ``program:`` or ``import:``) and reports its advantage on fresh
  deals with its interval and curve, and a verdict: whether the curve had
  stopped rising (:mod:`training.exploit`).
* ``env121 serve`` runs the web table (:mod:`apps.cli.web`).

The rule options (``--num-van``, ``--payment-rounding``, …) are the same
for ``play``, ``tournament`` and ``score`` (:mod:`apps.cli.options`).
A command that needs an optional extra it lacks says which in one line
(:mod:`env121.extras`).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

import env121
from apps.cli.game import add_subcommands as add_game_subcommands
from apps.cli.options import (
    SCORING_FIELDS,
    ArgumentParser,
    HelpFormatter,
    add_rule_options,
    error_line,
    rule_config,
)
from apps.cli.train import add_subcommands as add_training_subcommands
from apps.cli.web import add_subcommands as add_web_subcommands
from env121.extras import MissingExtraError
from env121.rules.bonuses import NHAT_BAN_BONUS, THUONG_BY_ID, indicator_hits
from env121.rules.cards import (
    CardNotationError,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
)
from env121.rules.payment import win_payments
from env121.rules.scoring import HandScore, explain_no_win, score_hand
from env121.rules.thes import THE_BY_ID


def _score(args: argparse.Namespace) -> int:
    cards = parse_cards(args.cards)
    if args.an_si and args.chi_diem is None:
        raise ValueError(
            "--an-si needs --chi-diem: the Ẩn Sĩ are revealed in a deal, which has a Chỉ Điểm"
        )
    chi_diem = None if args.chi_diem is None else parse_card(args.chi_diem)
    an_si = parse_cards(args.an_si) if args.an_si else ()
    config = rule_config(args)
    result = score_hand(
        cards,
        chi_diem=chi_diem,
        an_si=an_si,
        locked=args.locked,
        nhat_ban=args.nhat_ban,
        dealer=args.dealer,
        self_drawn=args.self_drawn,
        last_card=args.last_card,
        config=config,
    )
    print(f"hand:      {format_cards(cards)}")
    if chi_diem is None:
        print("Chỉ Điểm:  not given: no indicator points, no Thất Sĩ or above (they need it);")
        print("           --chi-diem CARD counts them")
    else:
        shown = format_cards(an_si) or "-"
        print(f"Chỉ Điểm:  {format_card(chi_diem)}   Ẩn Sĩ revealed: {shown}")
    if result is None:
        reason = explain_no_win(cards, locked=args.locked, nhat_ban=args.nhat_ban, config=config)
        print(f"no win: {reason}")
        return 1
    for line in _breakdown(result, chi_diem, an_si):
        print(line)
    deltas = win_payments(result.points, 0, config)
    print(
        f"payment ({config.payment_rounding}), as seat #1: receives {deltas[0]}; "
        f"#2 pays {-deltas[1]}, #3 pays {-deltas[2]}, #4 pays {-deltas[3]}"
    )
    return 0


def _breakdown(score: HandScore, chi_diem: int | None, an_si: Sequence[int]) -> list[str]:
    lines = [f"laid out:  {format_cards(score.arrangement)}"]
    if score.the is None:
        lines.append("Thế:       none (a completed hand under Nhất Bản)          +0")
    else:
        the = THE_BY_ID[score.the]
        label = f"{the.id} — {the.name_vi} ({the.heading})"
        lines.append(f"Thế:       {label:<52} +{score.tier}")
    for bonus in sorted(score.bonuses):
        name = "Nhất Bản" if bonus == NHAT_BAN_BONUS else THUONG_BY_ID[bonus].name_vi
        lines.append(f"Thưởng:    {bonus + ' — ' + name:<52} +1")
    if score.indicator_points:
        for indicator in an_si if chi_diem is None else (chi_diem, *an_si):
            hits = indicator_hits(score.arrangement, indicator)
            if hits:
                label = f"{format_card(indicator)} — {', '.join(hits)}"
                lines.append(f"indicator: {label:<52} +{len(hits)}")
    lines.append(f"total:     {score.points} Điểm")
    return lines


def _warmup(args: argparse.Namespace) -> int:
    from agents.warmup import warm_in_parallel
    from env121.rules.compiled.cache import compile_seconds, kernel_folder

    if args.jobs < 1:
        return error_line(f"--jobs {args.jobs}: expected an integer ≥ 1")
    seconds = warm_in_parallel(jobs=args.jobs)
    # this process compiles only when it warms alone: with --jobs > 1 the workers compile
    how = f", {compile_seconds():.0f} s of it compiling" if compile_seconds() else ""
    print(f"kernels ready in {seconds:.1f} s{how}; cache: {kernel_folder()}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``env121`` command."""
    parser = ArgumentParser(
        prog="env121",
        description="121, the four-player Vietnamese card game: score hands, play and "
        "replay matches, run tournaments between agents, train agents.",
        epilog="`env121 COMMAND --help` shows a command's options and their defaults.",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"env121 {env121.__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    score = commands.add_parser(
        "score",
        help="score a six-card hand",
        description="Score six cards as a win: the arrangement, the Thế, the Thưởng, the "
        "indicators and the payment.",
        formatter_class=HelpFormatter,
    )
    score.add_argument("cards", help='six cards in the notation, e.g. "ASA/FR ASA/BR ..."')
    score.add_argument(
        "--chi-diem",
        metavar="CARD",
        help="the Chỉ Điểm; without it no indicator points are counted and no Thất Sĩ or "
        "above can match (they need it)",
    )
    score.add_argument(
        "--an-si", nargs="*", default=[], metavar="CARD", help="revealed Ẩn Sĩ (needs --chi-diem)"
    )
    score.add_argument("--locked", action="store_true", help="the winner is in Bội ước")
    score.add_argument("--nhat-ban", action="store_true", help="the cards are a Nhất Bản layout")
    score.add_argument("--dealer", action="store_true", help="the winner is the dealer")
    score.add_argument("--self-drawn", action="store_true", help="won on own flip (Tự thân)")
    score.add_argument("--last-card", action="store_true", help="won on the last Nọc card")
    add_rule_options(score, SCORING_FIELDS)
    score.set_defaults(func=_score)
    warmup = commands.add_parser(
        "warmup",
        help="compile the game's kernels ahead (where none ship: about 1.5 min of CPU)",
        description="Compile every kernel of the engine, the observations, the network "
        "inputs, greedy and mc ahead, so that no later command waits for it. The kernels "
        "ship compiled for one platform, Python and numba (unpacked on first use, in a "
        "second); elsewhere, or after an edit of their sources, they compile once per "
        "version, about 1.5 min of CPU, and later runs only load them, in seconds. "
        "With --jobs J, the families of kernels compile in J processes. The compiled "
        "kernels are kept in $ENV121_CACHE_DIR, else $XDG_CACHE_HOME/env121, else "
        "~/.cache/env121.",
        formatter_class=HelpFormatter,
    )
    warmup.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="J",
        help="processes compiling the kernel families side by side (they share the rule "
        "kernels, which each compiles again: 40%% more CPU, slower than one on 2 cores; "
        "docs/first-run.md)",
    )
    warmup.set_defaults(func=_warmup)
    add_game_subcommands(commands)
    add_training_subcommands(commands)
    add_web_subcommands(commands)
    commands.add_parser(
        "tournament",
        add_help=False,  # its own parser (apps.cli.tournament) answers --help
        help="a duplicate-format tournament between agents (env121 tournament --help)",
    )
    commands.add_parser(
        "benchmark",
        add_help=False,  # its own parser (apps.cli.benchmark) answers --help
        help="an agent on the frozen benchmark suite, or the league (env121 benchmark --help)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["tournament"]:
        from apps.cli.tournament import main as tournament_main  # the arena loads only here

        return tournament_main(arguments[1:])
    if arguments[:1] == ["benchmark"]:
        from apps.cli.benchmark import main as benchmark_main  # the arena loads only here

        return benchmark_main(arguments[1:])
    parser = build_parser()
    args = parser.parse_args(arguments)
    if args.command is None:  # `env121` alone: what it can do
        parser.print_help()
        return 0
    try:
        status: int = args.func(args)
    except (CardNotationError, ValueError, MissingExtraError) as error:
        return error_line(str(error))
    except BrokenPipeError:  # the reader went away (`env121 play … | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
