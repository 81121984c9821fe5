"""Soak the reference engine: many seeded vòng under every rule variant, checked.

Usage::

    python scripts/soak.py [--vong 100000] [--jobs 2] [--first-seed 0] [--variants NAME …]
    python scripts/soak.py --match VARIANT:SEED     # one match again, with its traceback

The variants (``--list`` prints them) are the default rules and, for each
:class:`~env121.rules.config.RuleConfig` field, each of its non-default values
in turn (:func:`rule_variants`); ``--vong`` is shared out evenly between them.
A match of seed ``S`` under a variant is ``env121 play --seed S`` with that
variant's rule option: dealt by the engine from ``S`` and played by its
uniform-random players (:func:`env121.play.random_agent.random_players`).
:func:`env121.engine.validate.validate` checks the state after every action,
and at the end the match's record is exported, loaded back and replayed
(:mod:`env121.engine.records`) and must give the identical final state
(``State ==``: every event, result and score). Seeds run from
``--first-seed`` up under each variant; a variant short of its share after
its first matches (busts end matches early) gets more seeds until it has it.

It prints its progress and ends with the line docs/tests.md quotes::

    100,176 vòng, 5,757,260 steps, 13 variants, 0 failures in 2225 s

and exits with status 1 if any match failed, after one line per failure
naming the variant, the seed and the command that plays it again.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from env121.engine.game import apply, legal_actions, new_game
from env121.engine.records import dumps, loads
from env121.engine.state import VONG_PER_VAN, State
from env121.engine.validate import validate
from env121.play.random_agent import random_players
from env121.rules.config import DEFAULT_CONFIG, NUM_VAN_CHOICES, PAYMENT_ROUNDINGS, RuleConfig

OTHER_VALUES: dict[str, tuple[Any, ...]] = {
    "left_figures": (DEFAULT_CONFIG.right_figures,),  # the mirror image of the facing
    "payment_rounding": tuple(r for r in PAYMENT_ROUNDINGS if r != DEFAULT_CONFIG.payment_rounding),
    "num_van": tuple(n for n in NUM_VAN_CHOICES if n != DEFAULT_CONFIG.num_van),
    "starting_points": (1000,),  # busts: matches that end early
    "max_actions_per_vong": (None, 40),  # no cap; a cap many vòng reach (truncated draws)
}
"""The non-default values soaked for the fields that are not on/off; every
on/off field is soaked with its other value."""
WITH: dict[str, dict[str, Any]] = {"carry_scores": {"num_van": 2}}
"""What a field's non-default value needs beside it to matter (scores carry
from one ván to the next only in a match of several)."""
PROGRESS_SECONDS = 10.0


def rule_variants() -> dict[str, RuleConfig]:
    """``{name: config}``: the default rules, then one variant per non-default
    value of each field (``"num_van=2"``, ``"carry_scores=True,num_van=2"``)."""
    variants = {"default": DEFAULT_CONFIG}
    for field in dataclasses.fields(RuleConfig):
        default = getattr(DEFAULT_CONFIG, field.name)
        if isinstance(default, bool):
            values: tuple[Any, ...] = (not default,)
        elif field.name in OTHER_VALUES:
            values = OTHER_VALUES[field.name]
        else:
            raise LookupError(
                f"RuleConfig.{field.name} has no non-default value to soak: add one to "
                "scripts/soak.py OTHER_VALUES"
            )
        for value in values:
            changes = {field.name: value, **WITH.get(field.name, {})}
            name = ",".join(f"{k}={_shown(v)}" for k, v in changes.items())
            variants[name] = dataclasses.replace(DEFAULT_CONFIG, **changes)
    return variants


def _shown(value: Any) -> str:
    return ",".join(map(str, sorted(value))) if isinstance(value, frozenset) else str(value)


@dataclass(frozen=True)
class MatchSoaked:
    """What one match gave: its size, and what went wrong (empty if nothing)."""

    variant: str
    seed: int
    vong: int
    steps: int
    failure: str = ""


def soak_match(variant: str, config: RuleConfig, seed: int) -> State:
    """Play the match of ``seed`` under ``config`` with ``validate`` after every
    action, then check its record replays to the identical state; returns it."""
    state = new_game(seed, config)
    player = random_players(seed)[0]  # one generator for the four seats
    while not state.is_over:
        apply(state, player.choose(legal_actions(state)))
        validate(state)
    replayed = loads(dumps(state), source=f"the record of {variant} seed {seed}")
    if replayed != state:
        differing = [
            f.name
            for f in dataclasses.fields(State)
            if getattr(replayed, f.name) != getattr(state, f.name)
        ]
        raise AssertionError(f"the replayed record differs from the match in {differing}")
    return state


def _soak(task: tuple[str, RuleConfig, int]) -> MatchSoaked:
    variant, config, seed = task
    try:
        state = soak_match(variant, config, seed)
    except Exception as error:  # every failure is reported with its seed, none stops the soak
        first_line = str(error).splitlines()[0] if str(error) else ""
        return MatchSoaked(variant, seed, 0, 0, f"{type(error).__name__}: {first_line}")
    return MatchSoaked(variant, seed, len(state.results), len(state.actions))


def _run(tasks: list[tuple[str, RuleConfig, int]], jobs: int) -> Iterator[MatchSoaked]:
    if jobs == 1:
        yield from map(_soak, tasks)
        return
    with ProcessPoolExecutor(jobs) as pool:
        yield from pool.map(_soak, tasks, chunksize=max(1, min(16, len(tasks) // (4 * jobs))))


def soak(
    variants: dict[str, RuleConfig], vong: int, jobs: int, first_seed: int = 0
) -> tuple[list[MatchSoaked], float]:
    """Play matches under each variant until each has its share of ``vong``;
    returns every match's outcome and the seconds it took, printing progress."""
    share = math.ceil(vong / len(variants))
    next_seed = dict.fromkeys(variants, first_seed)
    done: dict[str, list[MatchSoaked]] = defaultdict(list)
    start = last_report = time.perf_counter()
    total = Counter[str]()
    while True:
        tasks = []
        for name, config in variants.items():
            have = sum(m.vong for m in done[name])
            if have >= share:
                continue
            per_match = have / len(done[name]) if done[name] else VONG_PER_VAN * config.num_van
            count = math.ceil((share - have) / max(per_match, 1.0))
            tasks += [(name, config, next_seed[name] + i) for i in range(count)]
            next_seed[name] += count
        if not tasks:
            return [m for name in variants for m in done[name]], time.perf_counter() - start
        for match in _run(tasks, jobs):
            done[match.variant].append(match)
            total.update(vong=match.vong, steps=match.steps, failures=bool(match.failure))
            if match.failure:  # now, and again at the end
                print(f"FAILED {_reproduce(match)}: {match.failure}", flush=True)
            if time.perf_counter() - last_report >= PROGRESS_SECONDS:
                last_report = time.perf_counter()
                print(
                    f"{total['vong']:,} of {share * len(variants):,} vòng, "
                    f"{total['steps']:,} steps, {total['failures']} failures, "
                    f"{last_report - start:.0f} s",
                    flush=True,
                )


def _reproduce(match: MatchSoaked) -> str:
    again = f"python scripts/soak.py --match '{match.variant}:{match.seed}'"
    return f"{match.variant} seed {match.seed} ({again})"


def summary(matches: Sequence[MatchSoaked], variants: int, seconds: float) -> str:
    """The final line: ``"N vòng, M steps, K variants, F failures in T s"``."""
    vong = sum(m.vong for m in matches)
    steps = sum(m.steps for m in matches)
    failures = sum(1 for m in matches if m.failure)
    played = f"{vong:,} vòng, {steps:,} steps, {variants} variants"
    return f"{played}, {failures} failures in {seconds:.0f} s"


def _match(text: str, variants: dict[str, RuleConfig]) -> tuple[str, int]:
    name, _colon, seed = text.rpartition(":")
    if name not in variants or not seed.isdigit():
        raise argparse.ArgumentTypeError(
            f"--match {text!r} is not valid: expected VARIANT:SEED with VARIANT one of "
            f"{list(variants)}"
        )
    return name, int(seed)


def main(argv: Iterable[str] | None = None) -> int:
    """Run the soak; returns the exit status (1 if any match failed)."""
    variants = rule_variants()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--vong", type=int, default=100_000, help="vòng to play in all")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--first-seed", type=int, default=0, help="the first match seed")
    parser.add_argument(
        "--variants",
        nargs="+",
        choices=list(variants),
        metavar="NAME",
        help="only these variants (default: all; --list names them)",
    )
    parser.add_argument("--list", action="store_true", help="print the variants and stop")
    parser.add_argument("--match", metavar="VARIANT:SEED", help="play one match, traceback shown")
    args = parser.parse_args(None if argv is None else list(argv))
    if args.list:
        print("\n".join(variants))
        return 0
    if args.match is not None:
        name, seed = _match(args.match, variants)
        state = soak_match(name, variants[name], seed)
        print(f"{name} seed {seed}: {len(state.results)} vòng, {len(state.actions)} steps, sound")
        return 0
    if args.vong < 1 or args.jobs < 1 or args.first_seed < 0:
        parser.error("--vong and --jobs must be ≥ 1, --first-seed ≥ 0")
    chosen = {name: variants[name] for name in args.variants or variants}
    print(f"soaking {len(chosen)} variants, {args.vong:,} vòng, {args.jobs} jobs", flush=True)
    matches, seconds = soak(chosen, args.vong, args.jobs, args.first_seed)
    failed = [m for m in matches if m.failure]
    for match in failed:
        print(f"FAILED {_reproduce(match)}: {match.failure}")
    print(summary(matches, len(chosen), seconds))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
