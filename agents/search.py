"""``search``: ``mc``'s determinized search with a learned policy as its prior
and a per-decision time budget.

It plays what :class:`agents.mc.MCAgent` plays — greedy's plan unless a plan
of the decision clearly beats it over worlds drawn by the kernel
(:meth:`env121.play.turn.Turn.worlds`), every plan in every world played in
one kernel call (:func:`agents.batched_mc.play_plans`), its leaf the fitted
value of :mod:`agents.leaf` — with two changes:

1. **The network's prior.** Before searching, the policy network ``net`` (a
   :mod:`agents.ppo` checkpoint, ``scratch`` by default; ``net=none`` for no
   prior) is run once on the decision. Its masked softmax ``π`` over the
   legal actions

   * adds its favourite action to the plans when ``mc`` would not search it
     (on a Cướp, ``mc`` plans only the ``width`` swaps greedy values most);
   * moves each plan's bar: plan ``p`` replaces greedy's plan ``0`` when its
     mean gain is at least ``confidence − prior · (ln π(p) − ln π(0))``
     standard errors above zero, and never below :data:`MIN_BAR` — a
     departure the network favours needs less evidence, one it dislikes
     more. Among the plans over their bars it plays the best mean.

2. **A time budget.** Looks of 12, 24, 48, … worlds continue until a plan
   clears its bar, no plan is even one standard error ahead, ``worlds``
   worlds have been played, or ``budget_ms`` milliseconds (the whole
   decision, the network's pass included) would be exceeded: each further
   look is cut to the worlds the time left can play at the pace the
   decision's earlier looks measured.

``chain=true`` lets greedy play every seat up to the next flip inside each
world before the leaf value is taken (as ``mc:chain=true``): it models the
opponents as greedy, costs several times the one-card playout, and lost
points in this agent's measurements (``agents/README.md``), so it is off by
default.

With ``budget_ms=0`` only ``worlds`` bounds the search and the agent is
deterministic given its match seed (:meth:`reset`); with a time budget the
number of worlds a decision gets depends on the machine's speed, as ``mc``'s
``ms`` does. The leaf value is ``mc``'s fitted line: the shipped checkpoints
hold an actor only, no value network.
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING

import numpy as np

from agents.hints import Hinter, hints_seed
from agents.mc import NO_VALUE, Judgement, MCAgent, Plan, Searched, plan_gains
from agents.spec import require_train
from env121.engine.actions import NUM_ACTIONS
from env121.play.turn import Turn

if TYPE_CHECKING:
    from agents.ppo import PolicyNetwork

MIN_BAR = 1.0
"""The fewest standard errors a plan's gain must reach, however much the prior favours it."""
NO_NET = "none"
"""The ``net`` that means no prior: every bar is ``confidence``."""


class SearchAgent(MCAgent):
    """Determinized search on the kernel with a learned prior and a time
    budget; see the module docstring."""

    def __init__(
        self,
        net: str = "scratch",
        budget_ms: float = 40.0,
        worlds: int = 768,
        prior: float = 1.0,
        confidence: float = 3.0,
        chain: bool = False,
        width: int = 3,
        nhat_ban: bool = True,
        value: str = NO_VALUE,
    ) -> None:
        if worlds < 2:
            raise ValueError(f"worlds={worlds} is not valid: expected ≥ 2 worlds a decision")
        if budget_ms < 0 or not math.isfinite(budget_ms):
            raise ValueError(
                f"budget_ms={budget_ms} is not valid: expected ≥ 0 milliseconds (0: no time limit)"
            )
        if prior < 0 or not math.isfinite(prior):
            raise ValueError(f"prior={prior} is not valid: expected ≥ 0 standard errors per nat")
        super().__init__(
            budget=worlds,
            ms=budget_ms,
            width=width,
            nhat_ban=nhat_ban,
            confidence=confidence,
            chain=chain,
            value=value,
        )
        self.spec = "search"
        self.prior = prior
        self.network: PolicyNetwork | None = None
        self.hinter: Hinter | None = None
        if net != NO_NET:
            require_train("a search agent's network (net=none searches without one)")
            from agents.ppo import load_policy, resolve_checkpoint  # torch: only with a network

            self.network, _ = load_policy(resolve_checkpoint(net))
            self.hinter = Hinter(self.network.inputs)
            if self.hinter.uses_search:
                raise ValueError(
                    f"net={net!r} reads search hints: expected a network that reads the "
                    "observation (and perhaps swap_wins or greedy's hints), not one that searches"
                )
        self.started = 0.0
        """When the decision being searched began (``time.perf_counter``)."""
        self.log_pi = np.zeros(0)
        """The decision's ``ln π`` over the action ids (:meth:`network_prior`)."""
        self.prior_turn: Turn | None = None
        """The turn :attr:`log_pi` was computed for."""

    def reset(self, seed: int) -> None:
        """Reseed the worlds (and the network's hints, if it reads any) for a new match."""
        super().reset(seed)
        if self.hinter is not None:
            self.hinter.reset(hints_seed(seed))

    def judge(self, turn: Turn) -> Judgement:
        """The first move of greedy's plan, or of a plan that clears its bar,
        with what the search saw; the time budget starts now."""
        self.started = time.perf_counter()
        return super().judge(turn)

    def log_prior(self, turn: Turn) -> np.ndarray:
        """The network's prior on ``turn`` (:meth:`network_prior`), computed
        once a decision: the plans' bars, the :class:`~agents.mc.Judgement`
        and a teacher's demonstrations read the same pass."""
        if self.prior_turn is not turn:
            self.log_pi, self.prior_turn = self.network_prior(turn), turn
        return self.log_pi

    def network_prior(self, turn: Turn) -> np.ndarray:
        """``ln π(action)`` over the action ids (``-inf`` off the legal ones):
        the network's masked log-softmax on this decision (zeros without a network)."""
        out = np.full(NUM_ACTIONS, -np.inf)
        if self.network is None or self.hinter is None:
            out[list(turn.legal_actions)] = 0.0
            return out
        legal, chosen = self.network.legal_logits(turn, self.hinter)
        out[legal] = chosen - chosen.max() - np.log(np.exp(chosen - chosen.max()).sum())
        return out

    def plans(self, turn: Turn) -> list[Plan]:
        """``mc``'s plans, then the network's favourite action if they lack it."""
        plans = super().plans(turn)
        favourite = int(np.argmax(self.log_prior(turn)))
        if self.network is not None and favourite not in {action for action, _ in plans}:
            plans.append((favourite, False))
        return plans

    def bars(self, plans: list[Plan]) -> np.ndarray:
        """Per plan, the standard errors its gain must reach (:data:`MIN_BAR` at
        least; plan 0's is never used)."""
        log_pi = self.log_pi[[action for action, _ in plans]]
        shift = self.prior * (log_pi - log_pi[0])
        bars: np.ndarray = np.maximum(MIN_BAR, self.confidence - shift)
        return bars

    def search(self, turn: Turn, plans: list[Plan]) -> Searched:
        """The plan to play (0: greedy's) and the plans' gains; see the module docstring."""
        bars = self.bars(plans)
        seed = self.decision_seed()
        look = self.look
        begun = time.perf_counter()
        results = self.results(turn, plans, seed, 0, look)
        while True:
            mean, z = plan_gains(results)
            over = np.flatnonzero((z >= bars) & (np.arange(len(plans)) > 0) & (mean > 0))
            if len(over):
                return Searched(int(over[np.argmax(mean[over])]), mean, z)
            if z[1:].max() < MIN_BAR or len(results) >= self.budget:
                return Searched(0, mean, z)
            more = min(2 * look, self.budget) - look
            if self.ms:
                now = time.perf_counter()
                pace = (now - begun) / len(results)  # seconds a world, this decision
                left = self.started + self.ms / 1000 - now
                more = min(more, int(left / pace)) if pace > 0 else more
                if more < 1:
                    return Searched(0, mean, z)
            results = np.vstack([results, self.results(turn, plans, seed, look, more)])
            look += more


__all__ = ["MIN_BAR", "NO_NET", "SearchAgent"]
