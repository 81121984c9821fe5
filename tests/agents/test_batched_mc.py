"""mc's batched search against its reference, and the kernel's worlds against
the Python sampler's.

* The same worlds (Python determinizations written into records) give every
  plan the same value in one :func:`agents.batched_mc.play_plans` call as in
  the per-plan reference (``tests/support/mc_reference.py``): leaf, showdown
  and chain playouts.
* :meth:`MCAgent.plans`, judged by greedy's kernel, lists the plans the
  readable greedy lists (the reference's :func:`plans`), Cướp widths and
  Nhất Bản follow-ups included.
* :meth:`Turn.worlds` (drawn in the kernel) keeps what the seat knows and
  redraws the rest with the Python sampler's distribution.
"""

from __future__ import annotations

import numpy as np
import pytest

from agents import make_agent
from agents.knowledge import obvious_action
from agents.mc import MCAgent
from env121.engine.game import apply, kernel_record, new_game
from env121.engine.kernel.convert import read_state
from env121.engine.state import Phase, State
from env121.engine.view import hidden_cards, sample_determinization
from env121.play.turn import Turn
from tests.support.mc_reference import plans as reference_plans
from tests.support.mc_reference import playout


def decisions(seed: int, count: int) -> list[tuple[State, int]]:
    """Along greedy play, ``count`` states where the seat to act has a choice at an offer."""
    greedy = make_agent("greedy")
    state = new_game(seed)
    found: list[tuple[State, int]] = []
    while not state.is_over and len(found) < count:
        seat = state.current_player
        turn = Turn(state, seat)
        if (
            state.phase in (Phase.OFFER, Phase.NB_CHOICE)
            and obvious_action(turn.legal_actions) is None
        ):
            found.append((state.clone(), seat))
        apply(state, greedy.act(turn))
    return found


@pytest.mark.parametrize(
    ("chain", "leaf"),
    [(False, True), (False, False), (True, True)],
    ids=["leaf", "showdown", "chain"],
)
def test_the_batch_values_every_plan_as_the_reference_does(chain, leaf):
    agent = MCAgent(chain=chain, leaf=leaf)
    rng = np.random.default_rng(5)
    compared = 0
    for state, seat in decisions(26110, 12 if chain else 30):
        turn = Turn(state, seat, search_allowed=True)
        plans = agent.plans(turn)
        worlds = [sample_determinization(state, seat, rng) for _ in range(3)]
        records = np.concatenate([kernel_record(world) for world in worlds])
        batch = agent.play(records, seat, plans, state.config)
        for w, world in enumerate(worlds):
            for p, plan in enumerate(plans):
                expected = playout(world, seat, plan, chain=chain, leaf=leaf)
                assert batch[w, p] == pytest.approx(expected, rel=1e-9, abs=1e-9), (plan, w)
                compared += 1
    assert compared > 100


@pytest.mark.parametrize("width", [3, 1, 0])
def test_mc_lists_the_plans_the_readable_greedy_lists(width):
    agent = MCAgent(width=width)
    kinds = set()
    for seed in (26110, 7, 12):
        for state, seat in decisions(seed, 40):
            turn = Turn(state, seat, search_allowed=True)
            listed = agent.plans(turn)
            assert listed == reference_plans(turn, width=width), (seed, state.phase, seat)
            cuop = state.offer_exposer not in (seat, (seat + 3) % 4)
            kinds.add("cuop" if cuop and state.phase == Phase.OFFER else state.phase.value)
            kinds.update("declare" for _, declare in listed[:1] if declare)
    assert {"cuop", "declare", Phase.NB_CHOICE.value} <= kinds, kinds


def test_kernel_worlds_keep_what_the_seat_knows_and_redraw_the_rest():
    checked = 0
    for state, seat in decisions(26111, 40):
        turn = Turn(state, seat, search_allowed=True)
        pool = sorted(hidden_cards(state, seat))
        for r in turn.worlds(7, 0, 4):
            world = state.clone()
            read_state(r, world)
            assert world.hands[seat] == state.hands[seat]
            for field in ("locked", "known", "dead", "chi_diem", "offer_card", "ask_order"):
                assert getattr(world, field) == getattr(state, field), field
            assert world.noc_pos == state.noc_pos and world.revealed_an_si == state.revealed_an_si
            assert sorted(hidden_cards(world, seat)) == pool
            for s in range(4):
                assert len(world.hands[s]) == len(state.hands[s])
                assert set(state.known[s]) <= set(world.hands[s])
            checked += 1
        # the same seed and index give the same world
        assert turn.worlds(7, 2, 1)[0].tobytes() == turn.worlds(7, 0, 4)[2].tobytes()
    assert checked == 160


def test_kernel_worlds_follow_the_python_samplers_distribution():
    """Where each hidden card goes (an opponent's hand, the Nọc, an Ẩn Sĩ):
    frequencies over 1,500 worlds of each sampler agree within 5 points."""
    state, seat = decisions(26112, 6)[-1]
    turn = Turn(state, seat, search_allowed=True)
    rng = np.random.default_rng(1)
    n = 1500

    def places(world: State) -> dict[int, int]:
        where = {c: s for s in range(4) if s != seat for c in world.hands[s]}
        where.update({c: 4 for c in world.noc[world.noc_pos :]})
        return where

    python_counts: dict[tuple[int, int], int] = {}
    kernel_counts: dict[tuple[int, int], int] = {}
    for world in (sample_determinization(state, seat, rng) for _ in range(n)):
        for key in places(world).items():
            python_counts[key] = python_counts.get(key, 0) + 1
    for r in turn.worlds(3, 0, n):
        world = state.clone()
        read_state(r, world)
        for key in places(world).items():
            kernel_counts[key] = kernel_counts.get(key, 0) + 1
    for key in set(python_counts) | set(kernel_counts):
        difference = python_counts.get(key, 0) - kernel_counts.get(key, 0)
        assert abs(difference) / n < 0.05, key
