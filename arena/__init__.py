"""The arena: duplicate-format tournaments between 121 agents.

Agents are named by spec (:mod:`agents.registry`): ``"random"``, ``"greedy"``,
``"mc:budget=50"``. Two modes:

* **1 vs 3** — a challenger against three copies of a reference;
  :func:`one_vs_three` returns a :class:`MatchupResult` whose
  :attr:`~MatchupResult.advantage` is the challenger's mean points per ván
  with a 95% confidence interval clustered by deal (0 = as strong as the
  reference)::

      from arena import one_vs_three
      result = one_vs_three("greedy", "random", deals=200, jobs=8)
      print(result.advantage.describe(), result.advantage.excludes_zero)

* **round-robin** over a pool, and several 1-vs-3 matchups at once, with
  OpenSkill ratings: :func:`run_tournament`; :func:`write_results` saves
  ``results.json``, ``results.csv`` and ``results.png``.

Both play in this process, in ``jobs`` worker processes, or, with
``backend=RayBackend(address)``, as tasks on a Ray cluster
(:mod:`arena.ray_backend`, the optional ``ray`` extra) — the same games and
results every way. The games whose agents all have a batched form
(``random``, ``greedy``, ``ppo``) are played together on the compiled engine
(:mod:`arena.batched`), the others (``mc``, your own agents) one at a time;
each game's record is the same either way.

The command line is ``env121 tournament`` (:mod:`apps.cli.tournament`). Modules:
:mod:`~arena.schedule` (line-ups and the duplicate rotation),
:mod:`~arena.seeds`, :mod:`~arena.play` (one game), :mod:`~arena.batched`
(many games together), :mod:`~arena.execute` (batches and processes),
:mod:`~arena.ray_backend` (a Ray cluster), :mod:`~arena.estimate` (clustered
intervals), :mod:`~arena.metrics`, :mod:`~arena.ratings`,
:mod:`~arena.tournament`, :mod:`~arena.export`, :mod:`~arena.plot`,
:mod:`~arena.report`.
"""

from arena.estimate import Estimate, clustered_ratio
from arena.export import write_results
from arena.metrics import METRICS, AgentStats
from arena.play import IllegalAgentActionError
from arena.ratings import Rating
from arena.ray_backend import RayBackend
from arena.tournament import MatchupResult, TournamentResult, one_vs_three, run_tournament

__all__ = [
    "METRICS",
    "AgentStats",
    "Estimate",
    "IllegalAgentActionError",
    "MatchupResult",
    "Rating",
    "RayBackend",
    "TournamentResult",
    "clustered_ratio",
    "one_vs_three",
    "run_tournament",
    "write_results",
]
