"""The benchmark suite: one agent against frozen references on frozen deals, on a fixed scale.

A suite (``arena/suites/<version>.json``, :func:`load_suite`) is frozen data:
its published deal seeds, its tiers (how many of those deals each plays), its
references (agent specs) and each reference's **rating**. :func:`plan_benchmark`
plans the agent against three copies of each reference, duplicate 1 vs 3
(:mod:`arena.schedule`), on the tier's deals; :func:`scorecard` turns the
arena's result into a :class:`Scorecard`: the advantage against each
reference with its 95% interval clustered by deal, and the rating.

**The rating scale.** Ratings are in points per ván, on a scale with two
slopes: an agent rated ``r`` is expected to score ``g(r − r_R)`` points a ván
against three copies of a reference rated ``r_R``, where ``g(x) = x`` when it
is the stronger (``x ≥ 0``) and ``g(x) = λ·x`` when it is the weaker
(:func:`expected_advantage`). One slope is not enough because 1 vs 3 is not
symmetric: one strong seat among three weak ones wins far more than one weak
seat among three strong ones loses (greedy vs 3× random ≈ +1,900 points a ván,
random vs 3× greedy ≈ −870, so λ ≈ 0.45); with a single slope ``random``
benchmarked at +239 against its own 0. The references' ratings and ``λ`` were
fitted once, by weighted least squares, from their cross-play (every
reference 1 vs 3 against each batched one, :func:`fit_scale`,
``scripts/fit_benchmark_references.py``), with ``random`` anchored at 0, and
are frozen in the suite file. A new agent's rating is the ``r`` that best
fits its advantages against all the references, each weighted by the inverse
of its variance (:func:`combined_rating`), with the 95% interval of that fit
(the frozen ratings count as exact). So a rating means the same whenever it
was measured, as long as the suite version is the same: a change of deals,
references or ratings is a new version.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy import optimize, stats

from arena.estimate import Estimate
from arena.seeds import deal_seeds
from arena.tournament import TournamentPlan, TournamentResult, plan_tournament

SUITES = Path(__file__).resolve().parent / "suites"
"""Where the frozen suite files are."""
SUITE_VERSION = "121-bench-v1"
"""The current suite."""
FROZEN = {"121-bench-v1": "893f875fb3839994993bbfa798b2c8adfdc78325390ad988fa0d4cdb10cd7bdf"}
"""The SHA-256 of every published suite file. A published suite never changes
(new deals, references or ratings make a new version), so :func:`load_suite`
refuses a file of a published version whose bytes are not these."""


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
    down_slope: float
    """``λ``: the slope of the scale where the agent is the weaker (module docstring)."""
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
    raw = path.read_bytes()
    frozen = FROZEN.get(version)
    if frozen is not None and hashlib.sha256(raw).hexdigest() != frozen:
        raise SuiteError(
            f"{path} is not the published {version} (its SHA-256 differs from {frozen[:12]}…): "
            "a published suite never changes; restore the file (git checkout) or make a "
            "new version"
        )
    try:
        data = json.loads(raw.decode("utf-8"))
        suite = Suite(
            version=data["version"],
            seed=int(data["seed"]),
            deal_seeds=tuple(int(s) for s in data["deal_seeds"]),
            tiers={str(k): int(v) for k, v in data["tiers"].items()},
            references=tuple(Reference(r["spec"], float(r["rating"])) for r in data["references"]),
            down_slope=float(data["down_slope"]),
            fitted_from=str(data.get("fitted_from", "")),
        )
    except (UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError, ValueError) as error:
        raise SuiteError(
            f"{path} is not a suite file ({type(error).__name__}: {error}): expected the JSON "
            "of scripts/fit_benchmark_references.py"
        ) from None
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
    """The rating this matchup alone implies (``advantage = g(rating − reference_rating)``)."""


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
    versions: Mapping[str, str] | None = None,
) -> Scorecard:
    """The :class:`Scorecard` of a benchmark's tournament result (its faults those
    of the agent's games, resumed ones included)."""
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
                rating=ref.rating + implied_gap(advantage.mean, suite.down_slope),
            )
        )
    rating, low, high = combined_rating(
        [ref.rating for ref in suite.references],
        [m.advantage for m in result.matchups],
        suite.down_slope,
    )
    challenger = result.matchups[0].challenger
    faults: Counter[str] = Counter()
    for matchup in result.matchups:
        faults.update(matchup.agents[matchup.challenger].faults)
    ms = result.matchups[0].agents[challenger].metrics["decision_ms"].mean
    return Scorecard(
        suite=suite.version,
        tier=tier,
        agent=result.shown(challenger),
        rows=tuple(rows),
        rating=rating,
        rating_low=low,
        rating_high=high,
        faults=dict(sorted(faults.items())),
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


def expected_advantage(gap: float | np.ndarray, down_slope: float) -> np.ndarray:
    """``g(gap)``: the points a ván an agent rated ``gap`` above a reference is
    expected to score against three copies of it (``gap`` a float or an array)."""
    gaps = np.asarray(gap, dtype=float)
    return np.where(gaps >= 0, gaps, down_slope * gaps)


def implied_gap(advantage: float, down_slope: float) -> float:
    """The rating gap whose expected advantage is ``advantage`` (``g``'s inverse)."""
    return advantage if advantage >= 0 else advantage / down_slope


def combined_rating(
    ratings: Sequence[float], advantages: Sequence[Estimate], down_slope: float
) -> tuple[float, float, float]:
    """The rating and its 95% interval: the ``r`` minimizing the weighted squared
    misfit ``Σ (advantage_R − g(r − r_R))² / se_R²`` over the references (exact:
    ``g`` is linear between the references' ratings, so the misfit is a
    parabola on each stretch), and ``± 1.96`` over the square root of the fit's
    information ``Σ g'(r − r_R)² / se_R²``."""
    refs = np.array(ratings, dtype=float)
    means = np.array([a.mean for a in advantages])
    errors = np.array([standard_error(a) for a in advantages])
    if not np.isfinite(errors).all():
        rating = float(np.mean(refs + [implied_gap(m, down_slope) for m in means]))
        return rating, math.nan, math.nan
    weights = 1 / errors**2
    cuts = np.unique(refs)
    bounds = [-math.inf, *cuts, math.inf]
    best, best_misfit = 0.0, math.inf
    for low, high in itertools.pairwise(bounds):
        # on (low, high) each reference's slope is fixed: a weighted linear fit of r
        slope = np.where(refs <= low, 1.0, down_slope)
        # advantage = slope·(r − r_R)  ⇔  advantage/slope + r_R = r, weight w·slope²
        w = weights * slope**2
        r = float((w * (means / slope + refs)).sum() / w.sum())
        r = min(max(r, low), high)
        misfit = float((weights * (means - expected_advantage(r - refs, down_slope)) ** 2).sum())
        if misfit < best_misfit:
            best, best_misfit = r, misfit
    slope = np.where(refs <= best, 1.0, down_slope)
    half = 1.96 / math.sqrt(float((weights * slope**2).sum()))
    return best, best - half, best + half


def fit_scale(
    advantages: Sequence[tuple[str, str, Estimate]], anchor: str = "random"
) -> tuple[dict[str, float], float]:
    """The ratings of the agents of a cross-play (``anchor`` = 0) and ``λ``: the
    weighted least-squares fit of ``advantage(A vs 3× B) = g(r_A − r_B)`` over
    every ``(A, B, advantage)``."""
    agents = sorted({a for a, _, _ in advantages} | {b for _, b, _ in advantages})
    if anchor not in agents:
        raise ValueError(f"anchor {anchor!r} is not in the cross-play: expected one of {agents}")
    free = [a for a in agents if a != anchor]
    column = {a: i for i, a in enumerate(free)}
    weight = np.array([1 / standard_error(e) for _, _, e in advantages])
    target = np.array([e.mean for _, _, e in advantages])

    def ratings_of(params: np.ndarray) -> dict[str, float]:
        return {anchor: 0.0, **{a: float(params[column[a]]) for a in free}}

    def misfit(params: np.ndarray) -> np.ndarray:
        r = ratings_of(params)
        gaps = np.array([r[a] - r[b] for a, b, _ in advantages])
        residuals: np.ndarray = weight * (target - expected_advantage(gaps, math.exp(params[-1])))
        return residuals

    start = np.zeros(len(free) + 1)
    for a, b, estimate in advantages:  # a rough start: each agent's mean against the anchor
        if b == anchor and a != anchor:
            start[column[a]] = estimate.mean
    solution = optimize.least_squares(misfit, start).x
    return ratings_of(solution), math.exp(float(solution[-1]))


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
    "FROZEN",
    "SUITES",
    "SUITE_VERSION",
    "Reference",
    "Row",
    "Scorecard",
    "Suite",
    "SuiteError",
    "combined_rating",
    "expected_advantage",
    "fit_scale",
    "format_scorecard",
    "implied_gap",
    "load_suite",
    "plan_benchmark",
    "plot_scorecard",
    "scorecard",
    "standard_error",
]
