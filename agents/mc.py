"""``mc``: determinized Monte Carlo over the seat's choices, anchored on greedy.

For each decision with a real choice (an offer it may swap on, the Nhất Bản
choice), the agent

1. lists candidate *plans*, greedy's own first: PASS, and every swap on a Bốc
   or Lấy — each twice, once followed by declaring Nhất Bản (when the new
   hand has a wait) and once not — or, on a Cướp, the ``width`` swaps
   :mod:`greedy <agents.greedy>` values most (all when ``width`` is 0);
   at the Nhất Bản choice, declining and declaring;
2. draws determinizations of what the seat knows, a look's worlds at once in
   the kernel (:meth:`env121.play.turn.Turn.worlds`), and in each plays every plan
   on a copy: the plan (a declared arrangement is the one greedy would lay
   out), then the *playout*. The same determinizations serve every plan
   (common random numbers), so each plan's *gain* over greedy's is measured
   sample by sample;
3. leaves greedy's plan only for a plan whose mean gain is at least
   ``confidence`` standard errors above zero. It tests after ``look`` (12)
   determinizations, then after twice, four times … as many, up to ``budget`` (or
   until ``ms`` milliseconds are spent):
   a clear gain stops the search at once, and a gain that is not even one
   standard error above zero stops it with greedy's plan, so the budget goes
   to the close decisions.

Every plan in every world of a look is played in one kernel call
(:func:`agents.batched_mc.play_plans`, on game records; the per-plan reference
it is proven equal to is ``tests/support/mc_reference.py``).

The playout (``leaf``, the default): the card the plan leaves on offer — the
card a swap put out, or on a pass the card passed — goes round its remaining
askers, who win on it or pass; if nobody wins, the rest of the vòng is valued
by the leaf value of :mod:`agents.leaf`, a line fitted to greedy self-play on how
much better each seat's win table is than the others'. What a swap gives the
next seats is played out exactly in each determinization; what the hands are
worth later is estimated. With ``chain``, greedy first plays every seat up to
the next flip (the rest of the lượt, where the cards put out by swaps go
round), at several times the cost. With ``leaf=false`` the playout is instead
the win-or-pass showdown to the end of the vòng (both defined in plain Python
in ``tests/support/mc_reference.py``),
which freezes every hand.

With ``value=NAME`` (a shipped value network such as ``greedy``, or a
``.safetensors`` path) the open leaves — nobody won the card on offer and
the Nọc is not empty — are valued instead by a learned perfect-information
value (:class:`agents.value.LeafValuer`: the line plus a network's
correction, read from the world's true state), all of a look's leaves in
one forward pass; the measurements are in ``agents/README.md``.

With ``nb_layout=greedy`` the worlds model every opponent that declared
Nhất Bản as greedy: its drawn hand is laid out as greedy would lay it out,
not by a random legal arrangement, and a world whose hand greedy would not
have declared with weighs nothing
(:func:`agents.batched_greedy.lay_out_nhat_ban`). At greedy's table that is
the true arrangement of the true hand in 99% of the decisions it applies to.

With ``beliefs=greedy`` (or ``beliefs=scratch``) the worlds are weighted by
what the opponents were seen to do (:mod:`agents.beliefs`): each world by the
likelihood, under greedy's policy (or the shipped network ``ppo:scratch``'s,
every world's decisions in one forward pass) softened by ``epsilon``, of every
opponent decision on a card on offer in the vòng so far
(:meth:`~env121.play.turn.Turn.offer_decisions`),
and the plans' gains are the weighted means, their standard errors those of
the weighted worlds' effective number (:func:`plan_gains`). It reads the
match's past, so it sits only where the whole match is played (the arena,
``env121 play``, :class:`~env121.envs.single_seat.SingleSeat`), not a turn at a
time in a batched engine.

Why the leaf and not the showdown, what backs the confidence gate and the
leaf's scale, and how ``mc`` fares against greedy: ``docs/research/mc.md``.

It takes Ù whenever it can and declares Thế trắng whenever it may, as greedy
does, and places a Nhất Bản arrangement as greedy would.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from agents.batched_greedy import declares_after_swap, lay_out_nhat_ban, new_plans, swap_values
from agents.batched_mc import play_plans
from agents.beliefs import Model, greedy_model, normalized, observed_decisions, world_likelihoods
from agents.greedy import GreedyAgent
from agents.knowledge import obvious_action, swapped_hand
from agents.spec import require_train
from env121.engine.actions import NHAT_BAN, NUM_ACTIONS, PASS, action_card, is_card_action
from env121.engine.game import (
    kernel_config_of,
    nhat_ban_allowed,
    state_of_record,
    swap_kind_between,
)
from env121.engine.kernel.record import GAME_DTYPE
from env121.engine.state import Phase, SwapKind
from env121.play.turn import Turn
from env121.rules.config import RuleConfig

if TYPE_CHECKING:
    from agents.value import LeafValuer

NO_VALUE = "none"
"""The ``value`` that means the fitted line of :mod:`agents.leaf` at the leaves."""
FIRST_LOOK = 12
"""Determinizations drawn before the first test unless ``look`` says otherwise;
each further test doubles them."""
Plan = tuple[int, bool]
"""A first action and whether to declare Nhất Bản if the choice follows."""
BELIEF_MODELS: dict[str, Callable[[], Model] | None] = {"none": None, "greedy": greedy_model}
"""The ``beliefs`` an ``mc`` may weigh its worlds by: none (uniform worlds), or
the likelihood of the opponents' decisions under greedy's policy; the
registry, which may build networks, adds ``scratch``: under the shipped
network ``ppo:scratch``'s (:func:`agents.ppo.network_model`, the ``train``
extra; it reads :mod:`agents.hints`, which reads this module)."""
BELIEF_EPSILON = 0.5
"""The search's default softening of the opponents' model: at ε = 0.5, 128
weighted worlds kept a median 18 worlds' worth of weight, at ε = 0.1 only 4
(``agents/README.md``, Beliefs), and the search's gate needs many."""
NB_LAYOUTS = ("uniform", "greedy")
"""How an opponent's fixed Nhất Bản is laid out in the worlds: ``uniform``, a
random legal arrangement of its drawn hand (what the worlds are drawn with);
``greedy``, as greedy lays out that hand, the world kept only where greedy
would have declared with it (:func:`agents.batched_greedy.lay_out_nhat_ban`)."""
Likelihoods = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""Worlds of a decision's draw and which of them are kept (:meth:`MCAgent.draw`)
→ their likelihoods."""


@dataclass(frozen=True)
class Searched:
    """What a search found: the plan it plays and every plan's gain over greedy's."""

    plan: int
    """The index of the plan to play (0: greedy's)."""
    gains: np.ndarray
    """Per plan, its mean gain over plan 0 in the worlds looked at (points of the vòng)."""
    z: np.ndarray
    """Per plan, that gain in standard errors (:func:`plan_gains`; ±inf when exact)."""


@dataclass(frozen=True)
class Judgement:
    """A decision and what the search saw when it made it: what a teacher's
    demonstrations keep (:mod:`training.imitation`'s targets). Three kinds:
    an **obvious** action (:func:`agents.knowledge.obvious_action`), one
    **left to greedy** (a phase the search does not search, or plans that all
    start alike), and a **searched** one."""

    action: int
    left_to_greedy: bool = False
    """Whether the search left the decision to greedy (not obvious, not searched)."""
    plans: tuple[Plan, ...] = ()
    """The plans searched, greedy's first (none without a search)."""
    searched: Searched | None = None
    log_prior: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """``ln π`` over the action ids that moved the plans' bars
    (:meth:`MCAgent.log_prior`); empty without a search (a teacher's
    demonstrations add the prior of a decision left to greedy themselves)."""


class MCAgent:
    """Determinized Monte Carlo anchored on greedy; see the module docstring."""

    uses_search = True

    def __init__(
        self,
        budget: int = 96,
        ms: float = 0.0,
        width: int = 3,
        nhat_ban: bool = True,
        confidence: float = 3.0,
        chain: bool = False,
        leaf: bool = True,
        value: str = NO_VALUE,
        look: int = FIRST_LOOK,
        beliefs: str = "none",
        epsilon: float = BELIEF_EPSILON,
        nb_layout: str = "uniform",
    ) -> None:
        if budget < 2:
            raise ValueError(f"budget={budget} is not valid: expected ≥ 2 determinizations")
        if look < 2:
            raise ValueError(
                f"look={look} is not valid: expected ≥ 2 determinizations in the first look"
            )
        if ms < 0:
            raise ValueError(f"ms={ms} is not valid: expected ≥ 0 (0: use the budget)")
        if width < 0:
            raise ValueError(f"width={width} is not valid: expected ≥ 0 (0: every swap)")
        if confidence < 0:
            raise ValueError(f"confidence={confidence} is not valid: expected ≥ 0 standard errors")
        if beliefs not in BELIEF_MODELS:
            raise ValueError(
                f"beliefs={beliefs!r} is not valid: expected one of {', '.join(BELIEF_MODELS)}"
            )
        if not 0 < epsilon <= 1:
            raise ValueError(f"epsilon={epsilon} is not valid: expected 0 < epsilon ≤ 1")
        if nb_layout not in NB_LAYOUTS:
            raise ValueError(
                f"nb_layout={nb_layout!r} is not valid: expected one of {', '.join(NB_LAYOUTS)}"
            )
        self.spec = "mc"
        self.budget = budget
        self.ms = ms
        self.width = width
        self.nhat_ban = nhat_ban
        self.confidence = confidence
        self.look = min(look, budget)
        """Determinizations of the first look (``budget`` at most); each further
        look doubles the worlds."""
        self.chain = chain
        self.leaf = leaf
        self.valuer: LeafValuer | None = None
        if value != NO_VALUE:
            if not leaf:
                raise ValueError(
                    f"value={value!r} is not valid with leaf=false: expected the leaf "
                    "playout, whose leaves the value network values"
                )
            self.valuer = load_valuer(value)
        make_model = BELIEF_MODELS[beliefs]
        self.model: Model | None = None if make_model is None else make_model()
        """The model of the opponents whose decisions weigh the worlds (None: uniform)."""
        self.epsilon = epsilon
        self.greedy_layouts = nb_layout == "greedy"
        """Whether the worlds lay out the opponents' Nhất Bản as greedy would
        (:data:`NB_LAYOUTS`)."""
        self.reads_history = self.model is not None
        """Whether it reads the match's past (:meth:`~env121.play.turn.Turn.offer_decisions`):
        then it cannot sit a turn at a time on a game record."""
        self.greedy = GreedyAgent()
        self.rng = np.random.default_rng(0)

    def reset(self, seed: int) -> None:
        """Reseed the determinizations for a new match."""
        self.rng = np.random.default_rng(seed)

    def act(self, turn: Turn) -> int:
        """The first move of greedy's plan, or of a plan that clearly beats it."""
        return self.judge(turn).action

    def judge(self, turn: Turn) -> Judgement:
        """The decision :meth:`act` makes, with what its search saw."""
        obvious = obvious_action(turn.legal_actions)
        if obvious is not None:
            return Judgement(obvious)
        phase = turn.view.phase
        if phase != Phase.OFFER and not (phase == Phase.NB_CHOICE and self.nhat_ban):
            return Judgement(self.greedy.act(turn), left_to_greedy=True)
        plans = self.plans(turn)
        if len({action for action, _ in plans}) == 1:
            return Judgement(plans[0][0], left_to_greedy=True)
        searched = self.search(turn, plans)
        action = plans[searched.plan][0]
        return Judgement(action, False, tuple(plans), searched, self.log_prior(turn))

    def log_prior(self, turn: Turn) -> np.ndarray:
        """``ln π`` over the action ids that the agent anchors on in this
        decision (the bars of its plans are moved by it): ``mc`` has no prior,
        so 0 on every legal action (``-inf`` off them)."""
        out = np.full(NUM_ACTIONS, -np.inf)
        out[list(turn.legal_actions)] = 0.0
        return out

    def plans(self, turn: Turn) -> list[Plan]:
        """Greedy's plan first, then the other plans of the decision (greedy's
        judgement from its kernel, on the turn's
        :meth:`~env121.play.turn.Turn.seat_record`)."""
        legal = turn.legal_actions
        record = turn.seat_record()
        first = self.greedy.act_on(record, turn)
        if turn.view.phase == Phase.NB_CHOICE:
            return [(a, a == NHAT_BAN) for a in (first, *(a for a in legal if a != first))]
        view = turn.view
        own = sorted((*view.hand, *view.locked[view.seat]))
        swaps = [a for a in legal if is_card_action(a)]
        kc = kernel_config_of(turn.config)
        if swap_kind_between(view.offer_exposer, turn.seat) == SwapKind.CUOP:
            if self.width and len(swaps) > self.width:
                values = swap_values(record, kc, np.array(swaps, dtype=np.int64), True)
                gain = dict(zip(swaps, values.tolist(), strict=True))
                swaps = sorted(swaps, key=lambda a: (-gain[a], a))[: self.width]
            return list(
                dict.fromkeys([(first, False), (PASS, False), *((a, False) for a in swaps)])
            )
        plans: list[Plan] = []
        for a in swaps:
            plans.append((a, False))
            after = swapped_hand(own, action_card(a), view.offer_card)
            if self.nhat_ban and nhat_ban_allowed(turn.config, after):
                plans.append((a, True))
        declares = is_card_action(first) and bool(
            declares_after_swap(record, kc, self.greedy.nhat_ban_waits, first)
        )
        return list(dict.fromkeys([(first, declares), (PASS, False), *plans]))

    def search(self, turn: Turn, plans: list[Plan]) -> Searched:
        """The plan to play (0: greedy's) and the plans' gains; see the module docstring."""
        deadline = time.perf_counter() + self.ms / 1000 if self.ms else None
        seed = self.decision_seed()
        likelihoods = self.belief(turn, seed)
        look = self.look
        results, likelihood = self.look_at(turn, plans, seed, 0, look, likelihoods)
        while True:
            out_of_time = deadline is not None and time.perf_counter() >= deadline
            weights = None if likelihood is None else normalized(likelihood)
            best, z = best_gain(results, weights)
            if z >= self.confidence or z < 1 or out_of_time or len(results) >= self.budget:
                return Searched(best if z >= self.confidence else 0, *plan_gains(results, weights))
            more = min(2 * look, self.budget) - look
            new, new_likelihood = self.look_at(turn, plans, seed, look, more, likelihoods)
            results = np.vstack([results, new])
            if likelihood is not None and new_likelihood is not None:
                likelihood = np.concatenate([likelihood, new_likelihood])
            look += more

    def belief(self, turn: Turn, seed: int) -> Likelihoods | None:
        """How likely the worlds of the draw ``seed`` are: under the opponents'
        model, given their decisions on a card on offer in this vòng
        (:func:`agents.beliefs.world_likelihoods`), and with
        ``nb_layout=greedy`` 0 where greedy would not have declared an
        opponent's Nhất Bản with the hand drawn for it (:meth:`draw`); None
        where every world is equally likely (no model or no such decision, and
        no opponent's Nhất Bản to judge)."""
        decisions = (
            [] if self.model is None else observed_decisions(turn.offer_decisions(), turn.seat)
        )
        view = turn.view
        judged = self.greedy_layouts and any(
            declared for s, declared in enumerate(view.nhat_ban) if s != view.seat
        )
        if not decisions and not judged:
            return None
        model, epsilon = self.model, self.epsilon
        # the seat's events, for the model of its opponents
        now = turn.determinization(np.random.default_rng(seed)) if decisions else None

        def likelihoods(worlds: np.ndarray, kept: np.ndarray) -> np.ndarray:
            likelihood = kept.astype(np.float64)
            if model is not None and now is not None:
                states = [state_of_record(world[None], turn.config) for world in worlds]
                likelihood *= world_likelihoods(states, now, decisions, model, epsilon)
            return likelihood

        return likelihoods

    def decision_seed(self) -> int:
        """A new draw of worlds from the agent's generator (one per decision)."""
        return int(self.rng.integers(2**63))

    def results(
        self, turn: Turn, plans: list[Plan], seed: int, first: int, count: int
    ) -> np.ndarray:
        """``results[w, p]``: plan ``p``'s playout result (the seat's points in
        the vòng) in world ``first + w`` of the draw ``seed``
        (:meth:`~env121.play.turn.Turn.worlds`), for ``count`` worlds — the same
        worlds for every plan (:meth:`draw`)."""
        return self.look_at(turn, plans, seed, first, count, None)[0]

    def look_at(
        self,
        turn: Turn,
        plans: list[Plan],
        seed: int,
        first: int,
        count: int,
        likelihoods: Likelihoods | None,
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """:meth:`results` of worlds ``first .. first + count − 1`` and, given the
        decision's ``likelihoods`` (:meth:`belief`), those worlds' likelihoods:
        each world drawn, and laid out, once for both."""
        worlds, kept = self.draw(turn, seed, first, count)
        results = self.play(worlds, turn.seat, plans, turn.config)
        return results, None if likelihoods is None else likelihoods(worlds, kept)

    def draw(self, turn: Turn, seed: int, first: int, count: int) -> tuple[np.ndarray, np.ndarray]:
        """``(worlds, kept)``: worlds ``first .. first + count − 1`` of the draw
        ``seed`` (:meth:`~env121.play.turn.Turn.worlds`), with
        ``nb_layout=greedy`` every opponent's fixed Nhất Bản laid out as greedy
        would, and per world whether greedy would have declared each such hand
        (:func:`agents.batched_greedy.lay_out_nhat_ban`; every world is kept
        otherwise)."""
        worlds = turn.worlds(seed, first, count)
        kept = np.ones(count, dtype=np.bool_)
        if self.greedy_layouts:
            kc = kernel_config_of(turn.config)
            lay_out_nhat_ban(worlds, turn.seat, kc, self.greedy.nhat_ban_waits, kept)
        return worlds, kept

    def play(
        self, worlds: np.ndarray, seat: int, plans: list[Plan], config: RuleConfig
    ) -> np.ndarray:
        """``results[w, p]``: the seat's result of plan ``p`` played in the game
        record ``worlds[w]`` — the plan, the seat's follow-up, with ``chain``
        greedy for every seat until the next flip, then the leaf value (or,
        without ``leaf``, the win-or-pass showdown): every plan in every world
        in one kernel call (:func:`agents.batched_mc.play_plans`)."""
        games = np.repeat(worlds, len(plans))  # games[w * P + p] is world w
        results = np.empty((len(worlds), len(plans)))
        open_leaves = np.zeros(results.shape, dtype=np.bool_)
        play_plans(
            games,
            kernel_config_of(config),
            seat,
            np.array([action for action, _ in plans], dtype=np.int64),
            np.array([declare for _, declare in plans], dtype=np.bool_),
            self.chain,
            self.leaf,
            self.greedy.cuop_margin,
            self.greedy.nhat_ban_waits,
            new_plans(len(plans)),
            new_plans(len(games) if self.chain else 1),
            np.empty(len(games), dtype=GAME_DTYPE),
            results,
            open_leaves,
        )
        if self.valuer is not None:
            leaves = np.flatnonzero(open_leaves.ravel())  # the index of game w * P + p
            results.ravel()[leaves] = self.valuer.values(games, leaves, seat, config)
        return results


def load_valuer(value: str) -> LeafValuer:
    """The learned leaf value ``value`` (a shipped name or a ``.safetensors``
    path, :func:`agents.value.resolve_value`); it needs torch: the train extra."""
    require_train("a learned leaf value (value=none uses the fitted line)")
    from agents.value import LeafValuer  # torch: only with a value network

    return LeafValuer(value)


def plan_gains(
    results: np.ndarray, weights: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Per plan of ``results[sample, plan]``: its mean gain over plan 0, and
    that gain in standard errors of the paired differences (0 for plan 0 and
    for a gain of exactly 0 in every sample; ±inf for the same non-zero gain
    in every sample).

    With ``weights`` (one per sample, summing to 1) the mean is the weighted
    one and the error that of ``n = 1 / Σ w²`` equal samples (the weighted
    worlds' effective number): ``√(n / (n − 1) · Σ w² (gain − mean)²)``, which
    is the unweighted error when the weights are equal; with less than two
    samples' worth of weight every plan is 0 standard errors from plan 0."""
    gains = results - results[:, :1]
    if weights is None:
        mean = gains.mean(axis=0)
        error = gains.std(axis=0, ddof=1) / np.sqrt(len(gains))
    else:
        mean = weights @ gains
        n = 1 / float(weights @ weights)
        spread = (weights**2) @ (gains - mean) ** 2
        error = np.sqrt(n / (n - 1) * spread) if n > 2 - 1e-9 else np.full_like(mean, np.inf)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(error > 0, mean / np.where(error > 0, error, 1.0), np.sign(mean) * np.inf)
    return mean, np.nan_to_num(z, nan=0.0, posinf=np.inf, neginf=-np.inf)


def best_gain(results: np.ndarray, weights: np.ndarray | None = None) -> tuple[int, float]:
    """The plan with the best mean in ``results[sample, plan]`` (weighted by
    ``weights``, one per sample, if given) and its mean gain over plan 0 in
    standard errors (0 when plan 0 is best; :func:`plan_gains`)."""
    means = results.mean(axis=0) if weights is None else weights @ results
    best = int(np.argmax(means))  # the first of equals: plan 0 wins ties
    if best == 0:
        return 0, 0.0
    return best, float(plan_gains(results, weights)[1][best])


__all__ = [
    "BELIEF_EPSILON",
    "BELIEF_MODELS",
    "FIRST_LOOK",
    "NO_VALUE",
    "Judgement",
    "MCAgent",
    "Searched",
    "best_gain",
    "load_valuer",
    "plan_gains",
]
