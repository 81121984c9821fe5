"""The benchmark suite: one agent against frozen references on frozen deals, on a fixed scale.

A suite (``arena/suites/<version>.json``, :func:`load_suite`) is frozen data:
its published deal seeds, its tiers (how many of those deals each plays), its
references (agent specs) and each reference's **rating**. :func:`plan_benchmark`
plans the agent against three copies of each reference, duplicate 1 vs 3
(:mod:`arena.schedule`), on the tier's deals; :func:`scorecard` turns the
arena's result into a :class:`Scorecard`: the advantage against each
reference with its 95% interval clustered by deal, and the rating.

**The rating scale.** Ratings are in points per ván, additive: an agent rated
``r`` is expected to score ``r − r_R`` points a ván against three copies of a
reference rated ``r_R``. The references' ratings were fitted once, by least
squares, from their cross-play (every reference 1 vs 3 against each batched one,
:func:`fit_ratings`, ``scripts/fit_benchmark_references.py``), with ``random``
anchored at 0, and are frozen in the suite file. A new agent's rating is the
inverse-variance weighted mean of ``r_R + advantage_R`` over the references,
with the interval of that mean (the frozen ratings count as exact). So a
rating means the same whenever it was measured, as long as the suite version
is the same: a change of deals, references or ratings is a new version.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats

from arena.estimate import Estimate
from arena.seeds import deal_seeds
from arena.tournament import TournamentPlan, TournamentResult, plan_tournament

SUITES = Path(__file__).resolve().parent / "suites"
"""Where the frozen suite files are."""
SUITE_VERSION = "121-bench-v1"
"""The current suite."""


class SuiteError(ValueError):
    """A suite file is missing, malformed or does not match the arena's deal seeds."""


@dataclass(frozen=True)
class Reference:
    """One frozen opponent of the suite."""

    spec: str
    rating: float
    """Its frozen rating (points per ván; ``random`` = 0)."""


@dataclass(frozen=True)
class Suite:
    """A frozen benchmark suite (``arena/suites/<version>.json``)."""

    version: str
    seed: int
    """The arena seed whose deal seeds are :attr:`deal_seeds` (checked on load)."""
    deal_seeds: tuple[int, ...]
    """The published deals: a tier plays the first ``tiers[tier]`` of them."""
    tiers: dict[str, int]
    references: tuple[Reference, ...]
    fitted_from: str
    """How the ratings were fitted (the cross-play command)."""

    def deals(self, tier: str) -> int:
        """How many deals ``tier`` plays; a bad tier raises :class:`SuiteError`."""
        if tier not in self.tiers:
            raise SuiteError(
                f"tier {tier!r} is not in {self.version}: expected one of {sorted(self.tiers)}"
            )
        return self.tiers[tier]


def load_suite(version: str = SUITE_VERSION, directory: Path = SUITES) -> Suite:
    """The suite ``version``, checked: its deal seeds must be the arena's for its seed."""
    path = directory / f"{version}.json"
    if not path.is_file():
        known = sorted(p.stem for p in directory.glob("*.json") if not p.stem.endswith("league"))
        raise SuiteError(f"no suite {version!r} ({path}): expected one of {known}")
    data = json.loads(path.read_text(encoding="utf-8"))
    suite = Suite(
        version=data["version"],
        seed=int(data["seed"]),
        deal_seeds=tuple(int(s) for s in data["deal_seeds"]),
        tiers={str(k): int(v) for k, v in data["tiers"].items()},
        references=tuple(Reference(r["spec"], float(r["rating"])) for r in data["references"]),
        fitted_from=str(data.get("fitted_from", "")),
    )
    if suite.deal_seeds != deal_seeds(suite.seed, len(suite.deal_seeds)):
        raise SuiteError(
            f"{path}: its deal seeds are not the arena's for seed {suite.seed}: the deal "
            "derivation changed, which needs a new suite version"
        )
    if max(suite.tiers.values()) > len(suite.deal_seeds):
        raise SuiteError(
            f"{path}: a tier plays more deals than the {len(suite.deal_seeds)} published"
        )
    return suite


def plan_benchmark(agent: str, suite: Suite, tier: str) -> TournamentPlan:
    """The games of ``agent`` against three copies of each reference on the tier's deals."""
    return plan_tournament(
        matchups=[(agent, ref.spec) for ref in suite.references],
        deals=suite.deals(tier),
        seed=suite.seed,
    )


@dataclass(frozen=True)
class Row:
    """The agent against three copies of one reference."""

    reference: str
    reference_rating: float
    advantage: float
    """Mean points per ván against the reference (0 = as strong)."""
    low: float
    high: float
    deals: int
    rating: float
    """``reference_rating + advantage``: the rating this matchup alone implies."""


@dataclass(frozen=True)
class Scorecard:
    """The benchmark's result for one agent; the same for the same agent, suite and
    tier, :attr:`decision_ms` and :attr:`seconds` aside."""

    suite: str
    tier: str
    agent: str
    rows: tuple[Row, ...]
    rating: float
    rating_low: float
    rating_high: float
    faults: dict[str, int]
    """Program agents' faults by kind (``docs/agent-protocol.md``); empty for others."""
    decision_ms: float
    """The agent's mean thinking time per decision (not reproducible)."""
    seconds: float
    """Wall-clock time of the run (not reproducible)."""
    versions: dict[str, str]

    def to_json(self) -> dict[str, Any]:
        """The scorecard as a JSON document."""
        return {"format": "env121-scorecard", "format_version": 1, **asdict(self)}


def scorecard(
    result: TournamentResult,
    suite: Suite,
    tier: str,
    *,
    faults: Mapping[str, int] | None = None,
    versions: Mapping[str, str] | None = None,
) -> Scorecard:
    """The :class:`Scorecard` of a benchmark's tournament result."""
    rows = []
    for matchup, ref in zip(result.matchups, suite.references, strict=True):
        advantage = matchup.advantage
        rows.append(
            Row(
                reference=ref.spec,
                reference_rating=ref.rating,
                advantage=advantage.mean,
                low=advantage.low,
                high=advantage.high,
                deals=advantage.clusters,
                rating=ref.rating + advantage.mean,
            )
        )
    rating, low, high = combined_rating(
        [ref.rating for ref in suite.references], [m.advantage for m in result.matchups]
    )
    challenger = result.matchups[0].challenger
    ms = result.matchups[0].agents[challenger].metrics["decision_ms"].mean
    return Scorecard(
        suite=suite.version,
        tier=tier,
        agent=result.shown(challenger),
        rows=tuple(rows),
        rating=rating,
        rating_low=low,
        rating_high=high,
        faults=dict(sorted((faults or {}).items())),
        decision_ms=ms,
        seconds=result.seconds,
        versions=dict(versions or {}),
    )


def standard_error(estimate: Estimate) -> float:
    """The standard error behind a 95% interval clustered by deal (Student's t)."""
    if not estimate.has_interval:
        return math.inf
    t = float(stats.t.ppf(0.975, estimate.clusters - 1))
    return max((estimate.high - estimate.low) / (2 * t), 1e-9)


def combined_rating(
    ratings: Sequence[float], advantages: Sequence[Estimate]
) -> tuple[float, float, float]:
    """The rating and its 95% interval: the inverse-variance weighted mean of
    ``rating + advantage`` over the references (see the module docstring)."""
    weights = np.array([1 / standard_error(a) ** 2 for a in advantages])
    values = np.array([r + a.mean for r, a in zip(ratings, advantages, strict=True)])
    if not weights.sum() > 0 or not np.isfinite(weights).all():
        mean = float(values.mean())
        return mean, math.nan, math.nan
    mean = float((weights * values).sum() / weights.sum())
    half = 1.96 / math.sqrt(float(weights.sum()))
    return mean, mean - half, mean + half


def fit_ratings(
    advantages: Sequence[tuple[str, str, Estimate]], anchor: str = "random"
) -> dict[str, float]:
    """Ratings of the agents of a cross-play, ``anchor`` = 0: the weighted least-squares
    fit of ``advantage(A vs 3× B) = r_A − r_B`` over every ``(A, B, advantage)``."""
    agents = sorted({a for a, _, _ in advantages} | {b for _, b, _ in advantages})
    if anchor not in agents:
        raise ValueError(f"anchor {anchor!r} is not in the cross-play: expected one of {agents}")
    free = [a for a in agents if a != anchor]
    column = {a: i for i, a in enumerate(free)}
    design = np.zeros((len(advantages), len(free)))
    target = np.zeros(len(advantages))
    for row, (a, b, estimate) in enumerate(advantages):
        weight = 1 / standard_error(estimate)
        if a != anchor:
            design[row, column[a]] += weight
        if b != anchor:
            design[row, column[b]] -= weight
        target[row] = weight * estimate.mean
    solution, *_ = np.linalg.lstsq(design, target, rcond=None)
    return {anchor: 0.0, **{a: float(solution[column[a]]) for a in free}}


def format_scorecard(card: Scorecard) -> str:
    """The scorecard as a plain text table (the terminal's, and the league's rows)."""
    lines = [
        f"{card.agent} on {card.suite} ({card.tier}): rating {card.rating:+.1f} "
        f"[{card.rating_low:+.1f}, {card.rating_high:+.1f}] points/ván (random = 0)",
        f"{'reference':<16} {'its rating':>10} {'advantage [95% CI]':>28} {'deals':>5}",
    ]
    for row in card.rows:
        interval = f"{row.advantage:+.1f} [{row.low:+.1f}, {row.high:+.1f}]"
        lines.append(
            f"{row.reference:<16} {row.reference_rating:>+10.1f} {interval:>28} {row.deals:>5}"
        )
    faults = ", ".join(f"{k} {v}" for k, v in card.faults.items()) or "none"
    lines.append(f"faults: {faults}; {card.decision_ms:.3f} ms/decision; {card.seconds:.1f} s wall")
    return "\n".join(lines)


def plot_scorecard(card: Scorecard, path: Path) -> Path:
    """The scorecard as a PNG: the advantage against each reference with its interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(7, 0.5 * len(card.rows) + 1.5))
    y = np.arange(len(card.rows))
    means = np.array([r.advantage for r in card.rows])
    errors = np.array(
        [[r.advantage - r.low for r in card.rows], [r.high - r.advantage for r in card.rows]]
    )
    axis.errorbar(means, y, xerr=np.nan_to_num(errors), fmt="o", capsize=4)
    axis.axvline(0, color="grey", linewidth=1)
    axis.set_yticks(y, [r.reference for r in card.rows])
    axis.invert_yaxis()
    axis.set_xlabel("advantage, points per ván (95% CI clustered by deal)")
    axis.set_title(
        f"{card.agent} on {card.suite} ({card.tier}): rating {card.rating:+.0f} "
        f"[{card.rating_low:+.0f}, {card.rating_high:+.0f}]",
        fontsize=10,
    )
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path


__all__ = [
    "SUITES",
    "SUITE_VERSION",
    "Reference",
    "Row",
    "Scorecard",
    "Suite",
    "SuiteError",
    "combined_rating",
    "fit_ratings",
    "format_scorecard",
    "load_suite",
    "plan_benchmark",
    "plot_scorecard",
    "scorecard",
    "standard_error",
]
