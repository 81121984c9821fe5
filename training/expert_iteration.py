"""Expert iteration: the search teaches the network that guides the next search.

A generation ``g`` (1, 2, …) of ``env121 train --preset expert``:

1. **self-play by the search** — the teacher, ``search`` (:mod:`agents.search`)
   with generation ``g − 1``'s network as its prior (``first_net``, a shipped
   ``ppo:`` checkpoint, for generation 1), the learned leaf value ``value``
   and a fixed work budget (``worlds`` a decision, ``budget_ms=0``: machine
   load cannot change what it plays), sits in all four seats of ``matches``
   seeded matches; every decision with more than one legal action is kept
   with the search's choice and the points that followed
   (:func:`training.imitation.collect`);
2. **the next network** — the network is fitted to the search's targets (the
   actor, cross-entropy) and to the returns (the critic) of the last
   ``window`` generations' matches (:func:`training.imitation.fit`), and
   exported as a ``ppo:`` checkpoint. With ``network: prior`` (the preset's)
   it is the teacher's own prior, fine-tuned: generation 1 starts from
   ``first_net``'s weights, each later one from the last generation's; with a
   ``maskable_ppo`` preset's name, a fresh network of that shape each time;
3. **the measurement** — on fresh deals (seed ``eval_seed + g``, never a
   self-play seed; the rules are the spec's defaults), duplicate 1 vs 3:
   the new search against three greedy, three ``mc`` and three of the last
   generation's search, and the new network alone (no search) against three
   greedy.

The targets (``temperature``, :func:`training.imitation.targets`): with
``temperature: 0`` the search's choices — greedy's plan unless a plan clears
its bar over the worlds, the bar moved by the prior (:mod:`agents.search`),
and greedy's move in the phases it does not search; above 0 the search's
improved policy — its prior, moved by each plan's gain over greedy's plan
(shrunk by how well the worlds measured it), and the prior alone where the
search left the decision to greedy.

The run directory holds ``config.yaml``; ``gen-NNN/`` per generation with
``demonstrations.npz``, ``policy.safetensors`` (+ its sidecar), ``fit.json``
and ``evaluation.json``, each written atomically once its stage is done; and
``generations.jsonl``, one line per finished generation (the curve: its
figures, the decisions, the teacher's self-play matches and the wall clock).
``env121 train --resume DIR`` (or the same command again) skips every stage
whose file exists: a kill loses at most the stage it interrupted.

The self-play and the measurements run in ``jobs`` processes, or as Ray tasks
on a cluster (``ray``, ``ray_address``), a match or a game each. Not built
yet: the self-play on the batched engine (the search decides one game at a
time) and a value network fitted with the policy (the leaf stays
:mod:`agents.value`'s ``greedy`` fit).
"""

from __future__ import annotations

import dataclasses
import io
import json
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from agents.ppo import PolicyNetwork
from agents.registry import make_agent
from env121.engine.files import append_atomically, write_atomically
from env121.extras import require_extra
from training import settings
from training.checkpoint import Network, checkpoint_network, export_policy
from training.imitation import FIELDS, SEARCH_FIELDS, Demonstrations, collect, fit

ALGORITHM = "expert_iteration"
"""The ``algorithm`` a preset names to be trained by this module."""
PRIOR = "prior"
"""``network: prior``: fine-tune the prior's own network, generation after generation."""
GENERATIONS_LOG = "generations.jsonl"
"""The run's curve: one JSON line per finished generation."""
_DEMONSTRATIONS = "demonstrations.npz"
_POLICY = "policy.safetensors"
_FIT = "fit.json"
_EVALUATION = "evaluation.json"


@dataclass
class ExpertConfig:
    """The settings of an expert-iteration run (``training/presets/expert.yaml``)."""

    algorithm: str = ALGORITHM
    description: str = ""
    generations: int = 3
    """Generations to run (a resumed run may be given more)."""
    matches: int = 200
    """Self-play matches the search plays per generation."""
    window: int = 2
    """Generations of self-play each network is fitted on (the newest ones)."""
    network: str = "hinted"
    """The network each generation fits: a ``maskable_ppo`` preset's name (a
    fresh network of that preset's shape), or ``prior`` (the shape of
    ``first_net``, fine-tuned from the last generation's network: generation
    1 starts from ``first_net`` itself)."""
    gamma: float = 0.7
    """The discount of the returns the critic is fitted to (the actor, the
    exported part, reads only the search's targets)."""
    learning_rate: float = 1e-3
    """Adam's step size of each fit."""
    temperature: float = 0.0
    """The actor's targets (:func:`training.imitation.targets`): 0, the
    search's choices (hard targets); above 0, the search's improved policy,
    its prior moved by the plans' gains, ``temperature`` points of the vòng a
    nat (soft targets)."""
    first_net: str = "scratch"
    """Generation 1's prior: a shipped ``ppo:`` checkpoint or a path."""
    worlds: int = 96
    """Worlds the search plays a decision (its fixed work budget)."""
    value: str = "greedy"
    """The search's leaf value (:mod:`agents.value`; ``none``: the fitted line)."""
    epochs: int = 4
    eval_deals: int = 64
    """Duplicate deals of each measurement."""
    eval_seed: int = 380_000
    """Generation ``g`` is measured on the deals of seed ``eval_seed + g``."""
    seed: int = 0
    """Generation ``g``'s self-play matches are seeded ``seed + (g − 1) · matches``, …"""
    jobs: int = 1
    """Processes that play the self-play matches and the measurements (1 with ``ray``)."""
    ray: bool = False
    """Play the self-play matches (a Ray task each) and the measurements' games
    on the Ray cluster of ``ray_address``, as many at once as it has CPUs
    (the ``ray`` extra). The games are the same as in ``jobs`` processes."""
    ray_address: str = ""
    """The cluster of ``ray``: ``""`` starts one on this machine, listening on
    127.0.0.1 only (stopped at the end of the run); ``"auto"`` joins the
    cluster ``ray start`` runs here; ``"HOST:6379"`` a cluster's head;
    ``"ray://HOST:10001"`` one through Ray Client. A process already connected
    to Ray uses that connection."""

    def check(self) -> None:
        """Raise ``ValueError`` naming the first field whose value is not accepted."""
        settings.check_choice("algorithm", self.algorithm, (ALGORITHM,))
        for name in ("generations", "matches", "window", "worlds", "epochs", "jobs"):
            settings.check_at_least(name, getattr(self, name), 1)
        settings.check_at_least("eval_deals", self.eval_deals, 2)  # an interval needs two deals
        settings.check_in_range("gamma", self.gamma, 0, 1, "in (0, 1]")
        settings.check_in_range("learning_rate", self.learning_rate, 0, 1, "in (0, 1]")
        settings.check_in_range(
            "temperature",
            self.temperature,
            0,
            float("inf"),
            "≥ 0 (points of the vòng a nat; 0: the search's choices)",
            low_included=True,
        )
        if self.network != PRIOR:
            settings.preset_path(self.network)  # a bad preset name fails here
        settings.check_at_least("matches", self.matches, 10)  # fit holds out one match in ten
        if self.ray:
            if self.jobs != 1:
                raise ValueError(
                    f"jobs={self.jobs} is not valid with ray=true: expected jobs=1 (Ray plays "
                    "as many games at once as its cluster has CPUs)"
                )
            require_extra("ray", "ray=true")
        make_agent(self.teacher(self.first_net))  # a bad net or value fails before any work

    def teacher(self, net: str | Path) -> str:
        """The search spec that plays with ``net`` as its prior."""
        return f"search:net={net},value={self.value},worlds={self.worlds},budget_ms=0"


def load_config(preset: str | Path, overrides: Any = ()) -> ExpertConfig:
    """The config of ``preset`` with ``key=value`` overrides, checked."""
    return settings.load_config(ExpertConfig, preset, overrides)


@dataclass
class ExpertResult:
    """What a run did: where it is and the generations it holds."""

    out: Path
    generations: list[dict[str, Any]]
    seconds: float
    interrupted: bool = False


def generation_dir(out: Path, generation: int) -> Path:
    """The folder of ``generation`` (1-based) in the run ``out``."""
    return out / f"gen-{generation:03d}"


def run(
    config: ExpertConfig | None,
    out: str | Path,
    *,
    resume: bool = False,
    overrides: Sequence[str] = (),
    on_line: Callable[[str], None] = print,
) -> ExpertResult:
    """Run (or continue) the generations of ``config`` in ``out``: every stage
    whose file exists is skipped, so a run killed at any point continues
    where it stopped. With ``resume`` the saved config is read instead, with
    ``overrides`` (``generations=5`` runs two more of a three-generation run)."""
    out = Path(out)
    saved = out / "config.yaml"
    if resume:
        saved = settings.saved_config_path(out)  # one line if ``out`` holds no run
        config = settings.with_overrides(settings.read_config(ExpertConfig, saved), overrides)
    elif config is None:
        raise ValueError("give a config, or resume a run directory")
    elif saved.exists():
        raise ValueError(
            f"--out {str(out)!r} already holds a run: continue it with --resume "
            "or pick another directory"
        )
    out.mkdir(parents=True, exist_ok=True)
    settings.save_config(config, saved)
    start = time.perf_counter()
    done = _finished(out)
    with _cluster(config) as ray:
        for generation in range(len(done) + 1, config.generations + 1):
            row = _generation(config, out, generation, on_line, ray)
            append_atomically(out / GENERATIONS_LOG, json.dumps(row) + "\n")
            done.append(row)
            on_line(_summary(row))
    return ExpertResult(out, done, time.perf_counter() - start)


@contextmanager
def _cluster(config: ExpertConfig) -> Iterator[ModuleType | None]:
    """``ray`` connected to ``config``'s cluster (disconnected at the end if
    connected here), or None without ``config.ray``."""
    if not config.ray:
        yield None
        return
    from training.ray_rollouts import connect

    ray, connected_here = connect(config.ray_address)
    try:
        yield ray
    finally:
        if connected_here:
            ray.shutdown()


def _finished(out: Path) -> list[dict[str, Any]]:
    """The generations the run's log holds, in order."""
    path = out / GENERATIONS_LOG
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _generation(
    config: ExpertConfig,
    out: Path,
    generation: int,
    on_line: Callable[[str], None],
    ray: ModuleType | None,
) -> dict[str, Any]:
    """Play, fit and measure ``generation`` (on Ray when ``ray`` is connected),
    skipping the stages already on disk."""
    folder = generation_dir(out, generation)
    folder.mkdir(parents=True, exist_ok=True)
    net = config.first_net if generation == 1 else generation_dir(out, generation - 1) / _POLICY
    teacher = config.teacher(net)
    network, initial = _network(config, net)
    clock = time.perf_counter()
    demos_path = folder / _DEMONSTRATIONS
    if not demos_path.is_file():
        on_line(f"generation {generation}: {teacher} plays {config.matches} matches")
        first = config.seed + (generation - 1) * config.matches
        demos = collect(
            teacher, config.matches, first, config.gamma, config.jobs, network.inputs, ray=ray
        )
        save_demonstrations(demos, demos_path)
    play_seconds = time.perf_counter() - clock
    policy_path = folder / _POLICY
    if not policy_path.is_file():
        window = range(max(1, generation - config.window + 1), generation + 1)
        demos = Demonstrations.concatenate(
            [load_demonstrations(generation_dir(out, g) / _DEMONSTRATIONS) for g in window]
        )
        policy, report = fit(
            demos,
            network,
            config.epochs,
            learning_rate=config.learning_rate,
            seed=config.seed + generation,
            initial=initial,
            temperature=config.temperature,
        )
        notes = {"teacher": teacher, "generation": generation, "fit": dataclasses.asdict(report)}
        write_atomically(folder / _FIT, json.dumps(notes["fit"], indent=2) + "\n")
        export_policy(policy, policy_path, network, notes)
    fit_report = json.loads((folder / _FIT).read_text(encoding="utf-8"))
    evaluation_path = folder / _EVALUATION
    if not evaluation_path.is_file():
        on_line(f"generation {generation}: measuring on {config.eval_deals} fresh deals")
        measured = measure(
            config, teacher, config.teacher(policy_path), policy_path, generation, ray is not None
        )
        write_atomically(evaluation_path, json.dumps(measured, indent=2) + "\n")
    measured = json.loads(evaluation_path.read_text(encoding="utf-8"))
    with np.load(demos_path) as data:
        decisions = len(data["actions"])  # the actions only: the observations stay on disk
    return {
        "generation": generation,
        "teacher": teacher,
        "matches": config.matches,
        "decisions": decisions,
        "agreement": fit_report["agreement"],
        "seconds": round(time.perf_counter() - clock, 1),
        "self_play_seconds": round(play_seconds, 1),
        **measured,
    }


def _network(config: ExpertConfig, net: str | Path) -> tuple[Network, PolicyNetwork | None]:
    """The shape the generation fits and the network it starts from (None: fresh)."""
    if config.network != PRIOR:
        from training.ppo_selfplay import load_config as preset_config
        from training.ppo_selfplay import network_of

        return network_of(preset_config(config.network)), None
    return checkpoint_network(net)


def measure(
    config: ExpertConfig,
    last: str,
    search: str,
    policy: Path,
    generation: int,
    on_ray: bool = False,
) -> dict[str, Any]:
    """The generation's search against three greedy, three ``mc`` and three of
    ``last`` (the search that taught it), and its network alone against three
    greedy, duplicate 1 vs 3 on the deals of seed ``eval_seed + generation``
    (``on_ray``: on the cluster this process is connected to)."""
    from arena import one_vs_three
    from arena.ray_backend import RayBackend

    matchups = {
        "search_vs_greedy": (search, "greedy"),
        "search_vs_mc": (search, "mc"),
        "search_vs_last": (search, last),
        "net_vs_greedy": (f"ppo:{policy}", "greedy"),
    }
    measured: dict[str, Any] = {"eval_seed": config.eval_seed + generation}
    for name, (challenger, reference) in matchups.items():
        advantage = one_vs_three(
            challenger,
            reference,
            deals=config.eval_deals,
            seed=config.eval_seed + generation,
            jobs=config.jobs,
            backend=RayBackend() if on_ray else None,
        ).advantage
        measured[name] = [round(x, 2) for x in (advantage.mean, advantage.low, advantage.high)]
    return measured


def _summary(row: dict[str, Any]) -> str:
    """One line of a finished generation's figures."""

    def cell(key: str) -> str:
        mean, low, high = row[key]
        return f"{mean:+.1f} [{low:+.1f}, {high:+.1f}]"

    return (
        f"generation {row['generation']}: search vs 3× greedy {cell('search_vs_greedy')}, "
        f"vs 3× mc {cell('search_vs_mc')}, vs 3× its teacher {cell('search_vs_last')}; "
        f"network alone vs 3× greedy {cell('net_vs_greedy')} "
        f"({row['decisions']:,} decisions, {row['seconds']:.0f} s)"
    )


def save_demonstrations(demos: Demonstrations, path: Path) -> None:
    """Write ``demos`` to ``path`` (``.npz``) atomically."""
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **{name: getattr(demos, name) for name in FIELDS})
    write_atomically(path, buffer.getvalue())


def load_demonstrations(path: Path) -> Demonstrations:
    """The demonstrations :func:`save_demonstrations` wrote to ``path``; a file
    written before the search's fields (:data:`~training.imitation.SEARCH_FIELDS`)
    has NaN there: every row keeps the search's choice as its target."""
    try:
        with np.load(path) as data:
            fields = {n: data[n] for n in FIELDS if n in data or n not in SEARCH_FIELDS}
    except (OSError, KeyError, ValueError) as error:
        raise ValueError(f"{path} is not valid: not a demonstrations file ({error})") from None
    for name in SEARCH_FIELDS:
        fields.setdefault(name, np.full(fields["masks"].shape, np.nan, np.float32))
    return Demonstrations(**fields)
