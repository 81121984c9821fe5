"""``env121 train``, ``env121 imitate`` and ``env121 exploit``: self-play training,
behaviour cloning, and a best response trained against a frozen agent.

Torch and SB3 load only when one of these commands runs (the training modules
are imported inside the functions), so the other commands stay light.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from apps.cli.options import ArgumentParser, HelpFormatter, error_line
from env121.engine.files import check_output_directory
from env121.extras import require_extra
from training import available_presets


def _train(args: argparse.Namespace) -> int:
    return run_train(args.preset, args.set, args.out, args.resume, progress=not args.no_progress)


def add_subcommands(commands: argparse._SubParsersAction[ArgumentParser]) -> None:
    """Add ``train`` and ``imitate`` to the ``env121`` parser."""
    _add_train_subcommand(commands)
    _add_imitate_subcommand(commands)
    _add_exploit_subcommand(commands)


def _add_train_subcommand(commands: argparse._SubParsersAction[ArgumentParser]) -> None:
    train = commands.add_parser(
        "train",
        help="self-play training (training/)",
        description="Self-play training (training/README.md): a preset with algorithm "
        "batched_ppo (scratch) trains one policy for all four seats on the batched engine; "
        "the others train MaskablePPO, one learning seat against an opponent pool.",
        formatter_class=HelpFormatter,
    )
    train.add_argument("--preset", help=f"{_presets()} (training/presets/) or a YAML file")
    _add_set_option(
        train, "override config fields, values in YAML: --set total_timesteps=1e6 n_envs=2"
    )
    train.add_argument("--out", help="the run directory (default runs/<preset>-<time>)")
    train.add_argument("--resume", metavar="RUN_DIR", help="continue a run from its checkpoint")
    train.add_argument("--no-progress", action="store_true", help="no progress bar")
    train.set_defaults(func=_train)


def _imitate(args: argparse.Namespace) -> int:
    settings = (args.teacher, args.matches, args.seed, args.jobs, args.epochs)
    fine_tune = (args.from_network, args.learning_rate)
    return run_imitate(
        args.preset, args.set, *settings, args.out, *fine_tune, progress=not args.no_progress
    )


def _add_imitate_subcommand(
    commands: argparse._SubParsersAction[ArgumentParser],
) -> None:
    imitate = commands.add_parser(
        "imitate",
        help="behaviour cloning of an agent: a warm start for env121 train",
        description="Collect an agent's decisions in seeded matches, fit the network of a "
        "training preset to them, and write a warm start and a ppo: checkpoint.",
        formatter_class=HelpFormatter,
    )
    imitate.add_argument(
        "--preset", default="small", help=f"the training preset it is for: {_presets()}"
    )
    _add_set_option(imitate, "the preset's overrides (the network's shape must match the run's)")
    imitate.add_argument("--teacher", default="greedy", help="the agent spec to imitate")
    imitate.add_argument("--matches", type=int, default=300, help="matches of demonstrations")
    imitate.add_argument("--seed", type=int, default=0, help="first match seed; seeds the fit")
    imitate.add_argument("--jobs", type=int, default=2, help="processes collecting")
    imitate.add_argument("--epochs", type=int, default=10, help="passes over the demonstrations")
    imitate.add_argument(
        "--from",
        dest="from_network",
        metavar="NETWORK",
        help="fine-tune this network (a shipped name such as scratch, or a .safetensors file) "
        "instead of fitting a fresh one of the preset: its shape and inputs are kept, the "
        "preset gives the returns' gamma, and only policy.safetensors is written",
    )
    imitate.add_argument(
        "--learning-rate", type=float, default=1e-3, help="Adam's step size (fine-tuning: 1e-4)"
    )
    imitate.add_argument("--out", default="runs/imitate", help="where the files go")
    imitate.add_argument("--no-progress", action="store_true", help="no progress bars")
    imitate.set_defaults(func=_imitate)


def _exploit(args: argparse.Namespace) -> int:
    return run_exploit(
        args.agent,
        args.budget,
        args.out,
        args.resume,
        args.deals,
        args.set,
        args.start,
        not args.no_progress,
        args.quick,
    )


def _add_exploit_subcommand(commands: argparse._SubParsersAction[ArgumentParser]) -> None:
    exploit = commands.add_parser(
        "exploit",
        help="how exploitable an agent is: a best response trained against it",
        description="Train a best response (the batched trainer, one learner seat against "
        "three copies of AGENT) for a fixed budget, then measure its advantage over AGENT "
        "in the duplicate 1-vs-3 format on fresh deals (training/exploit.py).",
        formatter_class=HelpFormatter,
    )
    exploit.add_argument(
        "agent",
        nargs="?",
        help="the agent to exploit: random, greedy, ppo:FILE, mc, sb3:ZIP, program:CMD or "
        "import:MODULE:FACTORY (these two are shown each game whole, as in the arena: "
        "16 games at once, three agents each)",
    )
    exploit.add_argument("--budget", help="training time or steps: 900s, 20min, 1h, 5e6steps")
    exploit.add_argument(
        "--quick",
        action="store_true",
        help="a look in under 10 minutes on 2 cores: --budget 6min --deals 128, evaluating "
        "every 100k steps on 64 deals (measured, kernels compiled inside: 8 min 38 s against "
        "mc at load ~5.4, 8 min 38 s against program:node examples/js_agent/agent.js at "
        "load ~5; greedy runs 3-6x more steps/s; from random weights the best response "
        "will not have learned the game)",
    )
    exploit.add_argument(
        "--deals", type=int, help="fresh deals of the final measure (256; --quick: 128)"
    )
    exploit.add_argument(
        "--start",
        default="",
        metavar="CHECKPOINT",
        help="start the best response from this ppo network (scratch, small, a file) "
        "instead of random weights",
    )
    _add_set_option(exploit, "override the trainer's config fields (as env121 train --set)")
    exploit.add_argument("--out", help="the run directory (default runs/exploit-<time>)")
    exploit.add_argument("--resume", metavar="RUN_DIR", help="continue an exploit run")
    exploit.add_argument("--no-progress", action="store_true", help="no progress bar")
    exploit.set_defaults(func=_exploit)


def run_exploit(
    agent: str | None,
    budget: str | None,
    out: str | None,
    resume: str | None,
    deals: int | None,
    overrides: Sequence[str],
    start: str = "",
    progress: bool = True,
    quick: bool = False,
) -> int:
    """``env121 exploit``: train the best response, print its measured advantage
    and the verdict on it (whether its curve had stopped rising)."""
    require_extra("train", "env121 exploit")
    from training.curves import plot_curves
    from training.exploit import QUICK, QUICK_DEALS, QUICK_SETTINGS, Budget, exploit

    if resume is not None and out is not None:
        raise ValueError("--out and --resume exclude each other: a resumed run keeps its folder")
    if quick:
        if budget is not None or resume is not None:
            raise ValueError("--quick is a budget of its own: give it without --budget or --resume")
        budget, overrides = QUICK, [*QUICK_SETTINGS, *overrides]
        deals = QUICK_DEALS if deals is None else deals
    limit = Budget.parse(budget) if budget is not None else None
    where = resume or out or f"runs/exploit-{time.strftime('%Y%m%d-%H%M%S')}"
    try:
        card = exploit(
            agent,
            limit,
            where,
            resume=resume is not None,
            deals=256 if deals is None else deals,
            overrides=overrides,
            start=start,
            progress=progress,
            on_note=_warning_line,
        )
    except KeyboardInterrupt:
        print(f"env121: interrupted; {where} keeps its last complete checkpoint", file=sys.stderr)
        return 130
    if card is None:
        print(f"env121: interrupted: `env121 exploit --resume {where}` continues", file=sys.stderr)
        return 130
    final = card["final"]
    print(f"run:    {where}   (exploit.json, curves: {plot_curves(where)})")
    origin = f", from {card['start']}" if card["start"] else ""
    print(f"best response: {card['best_response']} ({card['steps']:,} steps{origin})")
    print(
        f"exploit: {final['advantage']:+.2f} [{final['low']:+.2f}, {final['high']:+.2f}] "
        f"points/ván vs 3× {card['agent']} ({final['deals']} fresh deals)"
    )
    if card["start_final"] is not None:
        begun = card["start_final"]
        print(
            f"its start, {card['start']}: {begun['advantage']:+.2f} "
            f"[{begun['low']:+.2f}, {begun['high']:+.2f}] on the same deals"
        )
    for line in card["verdict"]:
        print(f"verdict: {line}")
    return 0


def _add_set_option(parser: ArgumentParser, text: str) -> None:
    """``--set KEY=VALUE …``: config fields overridden, values in YAML."""
    parser.add_argument(
        "--set", nargs="+", action="extend", default=[], metavar="KEY=VALUE", help=text
    )


def _presets() -> str:
    """The shipped presets, ``"default, hinted, …"`` (listing them loads no torch)."""
    return ", ".join(available_presets())


def run_train(
    preset: str | None,
    overrides: Sequence[str],
    out: str | None,
    resume: str | None,
    progress: bool = True,
) -> int:
    """``env121 train``: train, then print where everything went.

    Every setting is checked before the run directory is made (a bad one is
    the one error line, exit status 2, and nothing on disk); a checkpoint
    passed over on ``--resume`` is a warning line naming the file. Ctrl-C
    stops the run with a checkpoint and one line, exit status 130; a Ray
    worker lost past its retries (rollouts, an expert's self-play match or
    measurement game) is one line saying how to continue, exit status 1."""
    if resume is not None and preset is not None:
        raise ValueError("--preset and --resume exclude each other: a resumed run keeps its config")
    if resume is None and preset is None:
        raise ValueError(f"give --preset (one of {available_presets()}) or --resume RUN_DIR")
    require_extra("train", "env121 train")
    from arena.ray_backend import GameLostError
    from training.imitation import MatchLostError
    from training.ray_rollouts import RolloutWorkerLostError

    try:
        from training import batched_ppo, ppo_selfplay, settings
        from training.curves import plot_curves

        if resume is not None:
            source = settings.saved_config_path(resume)
            values = settings.saved_values(source)
        else:
            source = settings.preset_path(str(preset))
            values = settings.preset_values(source)
        algorithm = settings.algorithm_of(values, str(source))
        if out is None and preset is not None:
            out = f"runs/{Path(preset).stem}-{time.strftime('%Y%m%d-%H%M%S')}"
        if algorithm == "expert_iteration":
            return _run_expert(preset, overrides, out, resume)
        trainer = batched_ppo if algorithm == batched_ppo.ALGORITHM else ppo_selfplay
        config = None if preset is None else trainer.load_config(preset, overrides)
        result = trainer.train(
            config,
            out,
            resume=resume,
            overrides=overrides if resume else (),
            progress=progress,
            on_note=_warning_line,
        )
    except KeyboardInterrupt:  # before the run started, or a second Ctrl-C
        where = resume or out
        kept = f"; {where} keeps its last complete checkpoint, if any" if where else ""
        print(f"env121: interrupted{kept}", file=sys.stderr)
        return 130
    except (RolloutWorkerLostError, MatchLostError, GameLostError) as error:
        # A Ray worker died past its retries: the run keeps what it finished.
        error_line(f"{error}; `env121 train --resume {resume or out}` continues the run")
        return 1
    if result.interrupted:
        print(
            f"env121: interrupted: checkpoint of step "
            f"{result.num_timesteps:,} saved in {result.checkpoint}; "
            f"`env121 train --resume {result.out}` continues",
            file=sys.stderr,
        )
        return 130
    print(
        f"trained to step {result.num_timesteps:,} in {result.seconds:,.0f} s "
        f"({result.steps_per_second:,.0f} steps/s)"
    )
    print(f"run:    {result.out}   (tensorboard --logdir {result.out / 'tb'})")
    print(f"curves: {plot_curves(result.out)}")
    print(f"policy: ppo:{result.policy}")
    last_step = result.evaluations[-1]["step"] if result.evaluations else None
    for row in result.evaluations:
        if row["step"] == last_step:
            print(
                f"eval:   {row['advantage']:+.2f} [{row['low']:+.2f}, {row['high']:+.2f}] "
                f"points/ván vs 3× {row['opponent']} ({row['deals']} deals)"
            )
    return 0


def _run_expert(
    preset: str | None, overrides: Sequence[str], out: str | None, resume: str | None
) -> int:
    """``env121 train`` of an expert-iteration preset (:mod:`training.expert_iteration`):
    its generations, a line per stage and one with each generation's figures."""
    from training import expert_iteration

    config = None if preset is None else expert_iteration.load_config(preset, overrides)
    if resume is None:
        check_output_directory(str(out))
    where = resume or str(out)
    result = expert_iteration.run(
        config, where, resume=resume is not None, overrides=overrides if resume else ()
    )
    last = result.generations[-1]
    print(f"run:    {result.out}   (curve: {result.out / expert_iteration.GENERATIONS_LOG})")
    newest = expert_iteration.generation_dir(result.out, last["generation"])
    print(f"policy: ppo:{newest / 'policy.safetensors'}")
    return 0


def run_imitate(
    preset: str,
    overrides: Sequence[str],
    teacher: str,
    matches: int,
    seed: int,
    jobs: int,
    epochs: int,
    out: str,
    from_network: str | None = None,
    learning_rate: float = 1e-3,
    progress: bool = True,
) -> int:
    """``env121 imitate``: collect, fit and write a warm start for ``preset``'s network,
    or fine-tune ``from_network`` (a ``ppo:`` checkpoint) and write it alone (with
    ``progress``, a bar for the matches collected and one for the epochs fitted)."""
    require_extra("train", "env121 imitate")
    from agents.registry import make_agent
    from training.checkpoint import checkpoint_network, export_policy
    from training.imitation import collect, fit, write_warm_start
    from training.ppo_selfplay import load_config, network_of

    if epochs < 1:
        raise ValueError(f"--epochs {epochs}: expected an integer ≥ 1 (passes over the data)")
    if not learning_rate > 0:
        raise ValueError(f"--learning-rate {learning_rate}: expected a number > 0")
    if matches < MIN_MATCHES:
        raise ValueError(
            f"--matches {matches}: expected at least {MIN_MATCHES}, so that one match in ten "
            "is held out to measure the agreement with the teacher"
        )
    if jobs < 1:
        raise ValueError(f"--jobs {jobs}: expected an integer ≥ 1")
    check_output_directory(out)
    try:
        make_agent(teacher)
    except ValueError as error:
        raise ValueError(f"--teacher: {error}") from None
    config = load_config(preset, overrides)
    if config.reward_mode != "points":
        raise ValueError(
            f"reward_mode={config.reward_mode!r} is not valid for a warm start: the critic "
            "learns the returns of reward_mode='points'"
        )
    network, initial = network_of(config), None
    if from_network is not None:
        try:
            network, initial = checkpoint_network(from_network)
        except (OSError, ValueError) as error:
            raise ValueError(f"--from {from_network}: {error}") from None
    start = time.perf_counter()
    with _bar("collect", "matches", progress) as advance:
        demos = collect(teacher, matches, seed, config.gamma, jobs, network.inputs, advance)
    print(f"collected {len(demos):,} decisions of {teacher} in {time.perf_counter() - start:.0f} s")
    with _bar("fit", "epochs", progress) as advance:
        policy, report = fit(
            demos,
            network,
            epochs,
            learning_rate=learning_rate,
            seed=seed,
            progress=advance,
            initial=initial,
        )
    print(
        f"fitted in {report.seconds:.0f} s: agreement with {teacher} {report.agreement:.1%} "
        f"and critic RMSE {report.value_rmse:.2f} (returns' std {report.return_std:.2f}) "
        f"on {report.held_out_rows:,} held-out decisions"
    )
    notes = {"teacher": teacher, "matches": matches, "seed": seed, "epochs": epochs}
    notes |= {"from": from_network, "learning_rate": learning_rate, "gamma": config.gamma}
    notes["report"] = dataclasses.asdict(report)
    directory = Path(out)
    if from_network is None:
        warm = write_warm_start(policy, directory / "warm_start.safetensors", network, notes)
        print(f"warm start: {warm}   (env121 train --preset {preset} --set warm_start={warm})")
    actor = export_policy(policy, directory / "policy.safetensors", network, notes)
    print(f"policy:     ppo:{actor}")
    return 0


MIN_MATCHES = 10
"""The fewest ``imitate --matches``: ``fit`` holds out one match in ten (whole matches)."""


def _warning_line(message: str) -> None:
    """Print ``message`` as one warning line (a checkpoint passed over on ``--resume``)."""
    print(f"env121: warning: {message}", file=sys.stderr)


@contextlib.contextmanager
def _bar(description: str, unit: str, shown: bool) -> Iterator[Callable[[int, int], None] | None]:
    """A rich progress bar while the block runs (none unless ``shown``); yields
    the ``progress(done, total)`` callback that moves it."""
    if not shown:
        yield None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn(f"[bold]{description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(unit),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
    )
    with Progress(*columns) as bar:
        task = bar.add_task(description, total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield advance
