"""Tournaments: plan the games, play them, estimate every metric, rate the agents.

Two entry points, both reproducible from ``seed`` whatever ``jobs`` is:

* :func:`one_vs_three` — one challenger against three copies of a reference,
  returning a :class:`MatchupResult` whose headline is the challenger's
  :attr:`~MatchupResult.advantage` (mean points per ván; 0 = as strong as the
  reference);
* :func:`run_tournament` — several 1-vs-3 matchups or a round-robin pool, with
  OpenSkill ratings, returning a :class:`TournamentResult`: it is
  :func:`plan_tournament` (every spec checked, every game named, nothing
  played) then :func:`play_tournament`, which can skip the games an
  interrupted run already played (``env121 tournament --resume``,
  :mod:`arena.journal`).

Every deal is played in the duplicate format (:mod:`arena.schedule`), games
run in the fixed order (deal, line-up, rotation), intervals are clustered by
deal (:mod:`arena.estimate`), and the metrics are those of :mod:`arena.metrics`.

The games are played in this process (``jobs=1``), in ``jobs`` worker
processes, or by a ``backend`` (:class:`arena.execute.Backend`) such as
:class:`arena.ray_backend.RayBackend`, which plays them as tasks on a Ray
cluster; each game's seeds depend only on which game it is, so every way
gives the same results.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from agents.registry import make_agent
from arena.estimate import Estimate
from arena.execute import Backend, play_all
from arena.metrics import AgentStats, agent_stats
from arena.play import AgentCache, GameRecord, GameTask, game_key
from arena.ratings import Rating, rate_games
from arena.schedule import Mode, Schedule, matchup_name, plan_one_vs_three, plan_round_robin
from arena.seeds import agent_seed, deal_seeds
from env121.engine.state import NUM_SEATS
from env121.play.protocol import SEES_ALL_HANDS_LABEL, sees_all_hands
from env121.rules.config import RuleConfig


@dataclass(frozen=True)
class MatchupResult:
    """One challenger against three copies of a reference."""

    name: str
    """``"greedy vs 3× random"``."""
    challenger: str
    """The challenger's label: its key in :attr:`metrics` (normally its spec)."""
    reference: str
    """The reference's label: its key in :attr:`metrics`."""
    advantage: Estimate
    """The challenger's mean points per ván; 0 means as strong as the reference."""
    agents: dict[str, AgentStats]
    """Everything about each of the two players, by label."""

    @property
    def metrics(self) -> dict[str, dict[str, Estimate]]:
        """Label → metric name → estimate (names in :data:`arena.metrics.METRICS`)."""
        return {label: stats.metrics for label, stats in self.agents.items()}


@dataclass(frozen=True)
class TournamentResult:
    """Everything a tournament measured."""

    mode: Mode
    seed: int
    deals: int
    deal_seeds: tuple[int, ...]
    jobs: int
    """Games played at once: the worker processes, or a backend's slots (a Ray
    cluster's CPUs)."""
    config: RuleConfig
    schedule: Schedule
    games: tuple[GameRecord, ...]
    """Every game, in the fixed order (deal, line-up, rotation)."""
    matchups: tuple[MatchupResult, ...]
    """1 vs 3: one result per matchup (empty in a round-robin)."""
    overall: dict[str, AgentStats]
    """Round-robin: each agent over all its games (empty in 1 vs 3)."""
    ratings: dict[str, Rating]
    """OpenSkill rating per agent spec."""
    seconds: float
    """Wall-clock duration (not reproducible)."""
    names: dict[str, str]
    """What to show for each label, spec and table name: the same with every
    agent spec as the user wrote it (``ppo:small``, which every result keys
    by its canonical spec ``ppo:checkpoint=small``)."""

    @property
    def tables(self) -> list[tuple[str, dict[str, AgentStats]]]:
        """The results tables: one per matchup, or the round-robin's one."""
        if self.mode == "1v3":
            return [(m.name, m.agents) for m in self.matchups]
        return [(self.schedule.groups[0].name, self.overall)]

    def shown(self, key: str) -> str:
        """A label, spec or table name as the user wrote its specs (see :attr:`names`)."""
        return self.names.get(key, key)


def one_vs_three(
    challenger: str,
    reference: str,
    *,
    deals: int,
    seed: int = 0,
    jobs: int = 1,
    config: RuleConfig | None = None,
    progress: Callable[[int, int], None] | None = None,
    backend: Backend | None = None,
) -> MatchupResult:
    """``challenger`` against three copies of ``reference`` on ``deals`` duplicate deals.

    Plays ``4 · deals`` matches (in ``jobs`` processes, or by ``backend``).
    ``progress(done, total)`` is called after each.
    """
    result = run_tournament(
        matchups=[(challenger, reference)],
        deals=deals,
        seed=seed,
        jobs=jobs,
        config=config,
        progress=progress,
        backend=backend,
    )
    return result.matchups[0]


@dataclass(frozen=True)
class TournamentPlan:
    """A tournament before it is played: every spec checked, every game named.

    :func:`plan_tournament` makes it (building each agent once, so a bad spec
    fails here, before any game); :func:`play_tournament` plays it.
    """

    matchups: tuple[tuple[str, str], ...]
    """The 1-vs-3 matchups as given (empty in a round-robin)."""
    pool: tuple[str, ...]
    """The round-robin pool as given (empty in 1 vs 3)."""
    deals: int
    seed: int
    config: RuleConfig
    schedule: Schedule
    """The line-ups, by canonical spec."""
    deal_seeds: tuple[int, ...]
    tasks: tuple[GameTask, ...]
    """Every game, in the fixed order (deal, line-up, rotation)."""
    names: dict[str, str]
    """:attr:`TournamentResult.names`."""
    cache: AgentCache = field(repr=False, compare=False)
    """The agents built while checking the specs (reused by ``jobs=1``)."""


def plan_tournament(
    *,
    matchups: Sequence[tuple[str, str]] = (),
    pool: Sequence[str] = (),
    deals: int,
    seed: int = 0,
    config: RuleConfig | None = None,
) -> TournamentPlan:
    """The plan of a 1-vs-3 tournament (``matchups``) or a round-robin (``pool``), not both.

    Bad specs or values raise ``ValueError`` (:class:`~agents.AgentSpecError`
    for specs) naming the input and what is accepted.
    """
    _check_count("deals", deals, minimum=1)
    _check_count("seed", seed, minimum=0)
    config = RuleConfig() if config is None else config
    if not isinstance(config, RuleConfig):
        raise ValueError(f"config={config!r} is not valid: expected a RuleConfig or None")
    cache = AgentCache()
    schedule, written = _plan(matchups, pool, cache)
    seeds = deal_seeds(seed, deals)
    tasks = tuple(
        GameTask(
            deal=deal,
            deal_seed=dseed,
            lineup=lineup.index,
            rotation=rotation,
            specs=lineup.seat_specs(rotation),
            agent_seeds=tuple(
                agent_seed(seed, dseed, lineup.index, rotation, s) for s in range(NUM_SEATS)
            ),
            config=config,
        )
        for deal, dseed in enumerate(seeds)
        for lineup in schedule.lineups
        for rotation in range(NUM_SEATS)
    )
    return TournamentPlan(
        matchups=tuple((a, b) for a, b in matchups),
        pool=tuple(pool),
        deals=deals,
        seed=seed,
        config=config,
        schedule=schedule,
        deal_seeds=seeds,
        tasks=tasks,
        names=_display_names(schedule, written),
        cache=cache,
    )


def run_tournament(
    *,
    matchups: Sequence[tuple[str, str]] = (),
    pool: Sequence[str] = (),
    deals: int,
    seed: int = 0,
    jobs: int = 1,
    config: RuleConfig | None = None,
    progress: Callable[[int, int], None] | None = None,
    backend: Backend | None = None,
) -> TournamentResult:
    """Plan (:func:`plan_tournament`) and play (:func:`play_tournament`) a tournament."""
    _check_runners(jobs, backend)
    plan = plan_tournament(matchups=matchups, pool=pool, deals=deals, seed=seed, config=config)
    return play_tournament(plan, jobs=jobs, progress=progress, backend=backend)


def play_tournament(
    plan: TournamentPlan,
    *,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    done: Sequence[GameRecord] = (),
    on_game: Callable[[GameRecord], None] | None = None,
    backend: Backend | None = None,
) -> TournamentResult:
    """Play the games of ``plan`` not in ``done`` (the games of an interrupted run,
    :mod:`arena.journal`), calling ``on_game(record)`` as each ends, and
    estimate everything over all of them.

    The games are played in ``jobs`` processes, or by ``backend`` (then ``jobs``
    must stay 1), on the compiled engine (:mod:`arena.execute`).
    ``progress(done, total)`` counts the games of ``done`` too. The result is
    the same whichever games were in ``done`` and however they were played
    (wall-clock fields and ``jobs`` aside).
    """
    _check_runners(jobs, backend)
    finished = {game_key(game): game for game in done}
    todo = [task for task in plan.tasks if game_key(task) not in finished]
    if len(finished) + len(todo) != len(plan.tasks):
        raise ValueError(
            f"{len(finished) + len(todo) - len(plan.tasks)} game(s) done are not in this "
            "tournament: expected games of its deals, line-ups and rotations"
        )
    counted = progress
    if progress is not None and finished:

        def counted(played: int, total: int) -> None:
            progress(len(finished) + played, len(finished) + total)

    start = time.perf_counter()
    played = play_all(
        todo,
        jobs=jobs,
        progress=counted,
        cache=plan.cache,
        on_game=on_game,
        backend=backend,
    )
    seconds = time.perf_counter() - start
    finished.update((game_key(game), game) for game in played)
    games = tuple(finished[game_key(task)] for task in plan.tasks)
    schedule = plan.schedule
    return TournamentResult(
        mode=schedule.mode,
        seed=plan.seed,
        deals=plan.deals,
        deal_seeds=plan.deal_seeds,
        jobs=jobs if backend is None else backend.slots,
        config=plan.config,
        schedule=schedule,
        games=games,
        matchups=_matchups(schedule, games),
        overall=_group_stats(schedule, games, 0) if schedule.mode == "round_robin" else {},
        ratings=_ratings(schedule, games),
        seconds=seconds,
        names=plan.names,
    )


def _plan(
    matchups: Sequence[tuple[str, str]], pool: Sequence[str], cache: AgentCache
) -> tuple[Schedule, dict[str, str]]:
    """The schedule, with every spec checked (by building it) and made canonical,
    and each canonical spec's first spelling as given."""
    if bool(matchups) == bool(pool):
        raise ValueError(
            "give either matchups (1 vs 3) or a pool (round-robin): "
            f"got {len(matchups)} matchup(s) and a pool of {len(pool)}"
        )
    canonical: dict[str, str] = {}
    written: dict[str, str] = {}

    def check(spec: str) -> str:
        if spec not in canonical:
            agent = make_agent(spec)
            canonical[spec] = agent.spec
            shown = spec.strip() + (SEES_ALL_HANDS_LABEL if sees_all_hands(agent) else "")
            written.setdefault(agent.spec, shown)
            cache.put(agent.spec, agent)
        return canonical[spec]

    if pool:
        return plan_round_robin([check(spec) for spec in pool]), written
    pairs = []
    for pair in matchups:
        if len(pair) != 2:
            raise ValueError(f"matchup {pair!r} is not valid: expected (challenger, reference)")
        pairs.append((check(pair[0]), check(pair[1])))
    return plan_one_vs_three(pairs), written


def _display_names(schedule: Schedule, written: dict[str, str]) -> dict[str, str]:
    """:attr:`TournamentResult.names`: labels start with their spec (:mod:`arena.schedule`)."""
    names = dict(written)
    for group in schedule.groups:
        for label, spec in zip(group.labels, group.specs, strict=True):
            names[label] = written[spec] + label[len(spec) :]
        if group.challenger is not None:
            challenger, reference = group.specs
            names[group.name] = matchup_name(written[challenger], written[reference])
    return names


def _group_stats(
    schedule: Schedule, games: Sequence[GameRecord], group: int
) -> dict[str, AgentStats]:
    lineups = schedule.lineups
    members = [
        (game, lineups[game.lineup].seat_labels(game.rotation))
        for game in games
        if lineups[game.lineup].group == group
    ]
    spec = schedule.groups[group]
    return agent_stats(members, spec.labels, spec.specs)


def _matchups(schedule: Schedule, games: Sequence[GameRecord]) -> tuple[MatchupResult, ...]:
    if schedule.mode != "1v3":
        return ()
    results = []
    for i, group in enumerate(schedule.groups):
        assert group.challenger is not None and group.reference is not None
        stats = _group_stats(schedule, games, i)
        results.append(
            MatchupResult(
                name=group.name,
                challenger=group.challenger,
                reference=group.reference,
                advantage=stats[group.challenger].metrics["points_per_van"],
                agents=stats,
            )
        )
    return tuple(results)


def _ratings(schedule: Schedule, games: Sequence[GameRecord]) -> dict[str, Rating]:
    rated = (
        (
            schedule.lineups[game.lineup].seat_specs(game.rotation),
            [seat.rank for seat in game.seats],
        )
        for game in games
    )
    return rate_games(rated, schedule.specs)


def _check_runners(jobs: int, backend: Backend | None) -> None:
    _check_count("jobs", jobs, minimum=1)
    if backend is not None and jobs != 1:
        raise ValueError(
            f"jobs={jobs} with backend={backend!r} is not valid: expected jobs (worker "
            "processes here) or a backend (which plays the games elsewhere), not both"
        )


def _check_count(name: str, value: object, *, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{name}={value!r} is not valid: expected an integer ≥ {minimum}")


__all__ = [
    "MatchupResult",
    "TournamentPlan",
    "TournamentResult",
    "game_key",
    "one_vs_three",
    "plan_tournament",
    "play_tournament",
    "run_tournament",
]
