"""The ``swap_wins`` and ``nb_wins`` input parts: the references
(:func:`agents.hints.swap_wins`, :func:`agents.hints.nb_wins`) and the
compiled batch (:mod:`agents.batched_hints`) in lock-step, and the networks
that read them played by :class:`agents.ppo.PPOAgent` and
:class:`agents.batched_ppo.BatchedPPO` alike.

Games of a :class:`~env121.engine.batched.BatchedEngine` are played by random
legal actions in lock-step with reference states of the same seeds; at every
step the compiled part of the seat to act must equal the reference's, bit for
bit. Each case counts the kinds of entry it met, so a case that stops reaching
Cướp, Nhất Bản or swaps that win fails instead of passing unchecked.
``nb_wins`` is also checked against the engine itself: the arrangements an
action leaves open are those the engine's legal steps still reach.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import numpy as np
import pytest
import torch

from agents.batched_hints import (
    NB_WINS_SIZE,
    SWAP_WINS_SIZE,
    encode_nb_wins,
    encode_swap_wins,
    new_nb_memory,
)
from agents.batched_ppo import NB_WINS_INPUTS, BatchedPPO, InputEncoder
from agents.hints import Hinter
from agents.inputs import NB_WINS_LAYOUT, SWAP_POINTS_SCALE, SWAP_WAITS_SCALE, SWAP_WINS_LAYOUT
from agents.knowledge import swapped_hand
from agents.ppo import PolicyNetwork, PPOAgent, save_policy
from env121.engine.actions import (
    CARD_BASE,
    NHAT_BAN,
    PASS,
    format_actions,
    is_card_action,
)
from env121.engine.batched import BatchedEngine
from env121.engine.game import apply, legal_actions, new_game, swap_kind_between
from env121.engine.state import Phase, State, SwapKind
from env121.engine.win_table import seat_win_points
from env121.play.turn import Turn
from env121.rules.cards import format_cards
from env121.rules.compiled.config import KernelConfig
from env121.rules.config import RuleConfig
from tests.support.hints import nb_wins, swap_wins
from tests.support.knowledge import HandJudge

GAMES = 6
STEPS = 220
SWAP_WINS = "observation+swap_wins"
CONFIGS = {
    "default": RuleConfig(),
    "left_odd_same_suits": RuleConfig(
        left_figures=frozenset({1, 3, 5, 7, 9}), phe_phe_same_suits=True
    ),
    "nb_without_wait_unmasked": RuleConfig(
        nhat_ban_requires_wait=False, mask_invalid_win=False, the_trang_asks_every_seat=False
    ),
}
COVERS = ("swap_wins", "swap_no_wins", "cuop", "locked_pass", "nhat_ban_pass", "outside_offer")
"""Kinds of entry (:func:`kinds_of`) every case must meet."""


def kinds_of(state: State, seat: int, part: np.ndarray) -> list[str]:
    """What the part of ``seat`` (to act) showed, for the coverage of a case."""
    if state.phase != Phase.OFFER:
        return ["outside_offer"]
    named = SWAP_WINS_LAYOUT.views(part)
    kinds = []
    for action in legal_actions(state):
        if is_card_action(action):
            kinds.append("swap_wins" if named["swap_points"][action] > 0 else "swap_no_wins")
            if swap_kind_between(state.offer_exposer, seat) == SwapKind.CUOP:
                kinds.append("cuop")
        elif action == PASS and state.nhat_ban[seat]:
            kinds.append("nhat_ban_pass")
        elif action == PASS and state.locked[seat]:
            kinds.append("locked_pass")
    return kinds


def describe(state: State, seat: int) -> str:
    """The decision, for a failure message."""
    return (
        f"seat {seat} in {state.phase.value}, hand {format_cards(state.hands[seat])} "
        f"locked {format_cards(state.locked[seat])}, offer {state.offer_card} by "
        f"{state.offer_exposer}, legal [{format_actions(legal_actions(state))}]"
    )


def compiled(
    encode: Callable[[np.ndarray, np.ndarray, KernelConfig, np.ndarray], None],
) -> Callable[[BatchedEngine, np.ndarray, np.ndarray], None]:
    """A compiled part's encoder (``encode_swap_wins``, ``encode_nb_wins``) as
    :func:`lock_step` calls it."""
    return lambda engine, games, out: encode(engine.games, games, engine.kernel_config, out)


def lock_step(
    config: RuleConfig,
    seeds: np.ndarray,
    steps: int,
    encode: Callable[[BatchedEngine, np.ndarray, np.ndarray], None],
    size: int,
    reference: Callable[[Turn], np.ndarray],
    kinds_of: Callable[[State, int, np.ndarray], list[str]],
) -> Counter[str]:
    """Random legal play of the games ``seeds`` on the batched engine and on
    reference states in lock-step: at every step the compiled part
    (``encode(engine, games, out)``) of each game's seat to act must equal
    ``reference`` of its turn, bit for bit. Returns the kinds of entry met (``kinds_of``)."""
    engine = BatchedEngine(len(seeds), config)
    engine.reset(seeds)
    states = [new_game(int(s), config) for s in seeds]
    rng = np.random.default_rng(int(seeds[0]))
    everyone = np.arange(len(seeds), dtype=np.int64)
    part = np.empty((len(seeds), size), dtype=np.float32)
    kinds: Counter[str] = Counter()
    for _ in range(steps):
        encode(engine, everyone, part)
        actions = np.empty(len(seeds), dtype=np.int64)
        for g, state in enumerate(states):
            seat = state.current_player
            expected = reference(Turn(state, seat))
            assert np.array_equal(part[g], expected), describe(state, seat)
            kinds.update(kinds_of(state, seat, expected))
            actions[g] = rng.choice(legal_actions(state))
        result = engine.step(actions)
        for g, state in enumerate(states):
            apply(state, int(actions[g]))
            if result.terminated[g]:
                states[g] = new_game(int(engine.games["seed"][g]), config)
    return kinds


@pytest.mark.parametrize("name", CONFIGS)
def test_the_compiled_part_is_the_references_at_every_step(name):
    config = CONFIGS[name]
    seeds = 500 * (list(CONFIGS).index(name) + 1) + np.arange(GAMES)
    encode = compiled(encode_swap_wins)
    kinds = lock_step(config, seeds, STEPS, encode, SWAP_WINS_SIZE, swap_wins, kinds_of)
    missing = [kind for kind in COVERS if kinds[kind] == 0]
    assert not missing, f"no {missing} entry was met: {dict(kinds)}"


NB_PHASES = (Phase.NB_CHOICE, Phase.NB_GAP, Phase.NB_PLACE)
NB_COVERS = ("nhat_ban", "pass_only", "gap", "place", "actions_differ", "outside_nhat_ban")
"""Kinds of ``nb_wins`` entry (:func:`nb_kinds_of`) every case must meet."""


def nb_kinds_of(state: State, part: np.ndarray) -> list[str]:
    """What the ``nb_wins`` part of the seat to act showed, for the coverage of a case."""
    if state.phase not in NB_PHASES:
        return ["outside_nhat_ban"]
    points = NB_WINS_LAYOUT.views(part)["nb_points"]
    legal = legal_actions(state)
    kinds = []
    if state.phase == Phase.NB_CHOICE:
        kinds.append("nhat_ban" if NHAT_BAN in legal and points[NHAT_BAN] > 0 else "pass_only")
    else:
        kinds.append("gap" if state.phase == Phase.NB_GAP else "place")
        if len({points[action] for action in legal}) > 1:
            kinds.append("actions_differ")
    return kinds


@pytest.mark.parametrize("name", ["default", "nb_without_wait_unmasked"])
def test_the_compiled_nb_part_is_the_references_at_every_step(name):
    """Random play declares Nhất Bản often: every choice, gap and placement
    met is compared, under [R-8] and without it (720 arrangements a hand).
    One memory of the seats' Nhất Bản moments serves the whole run, as in
    training: what a declaration's choice computed, its gap and placements
    read back."""
    config = CONFIGS[name]
    seeds = 900 + 50 * list(CONFIGS).index(name) + np.arange(4)
    memory = new_nb_memory(len(seeds))
    kinds = lock_step(
        config,
        seeds,
        160,
        lambda engine, games, out: encode_nb_wins(
            engine.games, games, engine.kernel_config, memory, out
        ),
        NB_WINS_SIZE,
        nb_wins,
        lambda state, seat, part: nb_kinds_of(state, part),
    )
    missing = [kind for kind in NB_COVERS if kinds[kind] == 0]
    assert not missing, f"no {missing} entry was met: {dict(kinds)}"


def test_the_batched_nb_wins_input_is_the_hinters():
    """:class:`InputEncoder` for ``observation+swap_wins+nb_wins`` writes what
    the reference :class:`agents.hints.Hinter` gives the network, Nhất Bản
    decisions included."""
    config, hinter = RuleConfig(), Hinter(NB_WINS_INPUTS)
    encoder = InputEncoder(NB_WINS_INPUTS, 3, config)

    def encode(engine: BatchedEngine, games: np.ndarray, out: np.ndarray) -> None:
        encoder(engine, games, out)

    def nhat_ban(state: State, seat: int, inputs: np.ndarray) -> list[str]:
        return ["nhat_ban"] if state.phase in NB_PHASES else []

    seeds = np.arange(3) + 40
    kinds = lock_step(config, seeds, 80, encode, hinter.layout.size, hinter, nhat_ban)
    assert kinds["nhat_ban"]


def reachable_wins(state: State, seat: int, unseen: np.ndarray) -> list[tuple[int, int]]:
    """``(points, waits)`` of every arrangement the engine's legal steps reach
    from ``state`` (``seat`` laying out its Nhất Bản), scored by the engine's
    win table once fixed."""
    if state.phase not in (Phase.NB_GAP, Phase.NB_PLACE):
        wins = seat_win_points(state, seat)[unseen]
        return [(int(wins.sum()), int(np.count_nonzero(wins)))]
    found = []
    for action in legal_actions(state):
        after = state.clone()
        apply(after, action)
        found += reachable_wins(after, seat, unseen)
    return found


def test_each_nb_entry_is_the_best_arrangement_the_engine_still_lets_the_seat_lay_out():
    """Written out from the engine: after each legal NHAT_BAN, NB_GAP or CARD
    action, every arrangement the engine's legal steps still reach is laid out
    and scored with its win table; the entry is the best ``(points, waits)``
    of them, by points then waits. PASS of the choice is the free hand's."""
    rng, met = np.random.default_rng(6), Counter[Phase]()
    state = new_game(6)
    while min(met[phase] for phase in NB_PHASES) < 2:
        phase, seat = state.phase, state.current_player
        legal = legal_actions(state)
        if phase in NB_PHASES and (phase != Phase.NB_CHOICE or NHAT_BAN in legal):
            met[phase] += 1
            turn = Turn(state.clone(), seat)
            judge = HandJudge(turn.view, turn.config)
            named = NB_WINS_LAYOUT.views(nb_wins(turn))
            for action in legal:
                if action == PASS:
                    wins = judge.table(judge.own, locked=False)[judge.unseen]
                    best = (int(wins.sum()), int(np.count_nonzero(wins)))
                else:
                    after = state.clone()
                    apply(after, action)
                    best = max(reachable_wins(after, seat, judge.unseen))
                assert named["nb_points"][action] == np.float32(best[0] / SWAP_POINTS_SCALE)
                assert named["nb_waits"][action] == np.float32(best[1] / SWAP_WAITS_SCALE)
            others = np.setdiff1d(np.arange(len(named["nb_points"])), legal)
            assert not named["nb_points"][others].any() and not named["nb_waits"][others].any()
        declare = phase == Phase.NB_CHOICE and NHAT_BAN in legal  # to reach the layout
        apply(state, NHAT_BAN if declare else int(rng.choice(legal)))
        if state.phase == Phase.GAME_OVER:
            state = new_game(int(rng.integers(1 << 30)))


def offers(count: int, seed: int) -> list[Turn]:
    """Turns of the seat asked about an offer with a swap to weigh, met in random play."""
    state, rng = new_game(seed), np.random.default_rng(seed)
    found: list[Turn] = []
    while len(found) < count:
        legal = legal_actions(state)
        if state.phase == Phase.OFFER and any(is_card_action(a) for a in legal):
            found.append(Turn(state.clone(), state.current_player))
        apply(state, int(rng.choice(legal)))
    return found


def test_each_entry_is_the_win_table_of_the_hand_the_action_leaves():
    """Written out for one offer: legal swaps and PASS get the summed Điểm and
    the count of the unseen wins of their hand; a swap whose hand wins on no
    unseen card gets 0; every other action 0."""
    no_wins = 0
    for turn in offers(12, seed=3):
        view = turn.view
        judge = HandJudge(view, turn.config)
        named = SWAP_WINS_LAYOUT.views(swap_wins(turn))
        cuop = swap_kind_between(view.offer_exposer, view.seat) == SwapKind.CUOP
        legal = set(turn.legal_actions)
        for action in range(len(named["swap_points"])):
            if is_card_action(action) and action in legal:
                five = swapped_hand(judge.own, action - CARD_BASE, view.offer_card)
                wins = judge.table(five, locked=bool(judge.locked) or cuop)[judge.unseen]
            elif action == PASS:
                wins = judge.table(judge.own, locked=bool(judge.locked))[judge.unseen]
            else:
                assert named["swap_points"][action] == named["swap_waits"][action] == 0
                continue
            assert named["swap_points"][action] == np.float32(wins.sum() / SWAP_POINTS_SCALE)
            waits = np.count_nonzero(wins)
            assert named["swap_waits"][action] == np.float32(waits / SWAP_WAITS_SCALE)
            if is_card_action(action) and not wins.any():
                assert named["swap_points"][action] == named["swap_waits"][action] == 0
                no_wins += 1
    assert no_wins


def test_the_part_is_all_zeros_outside_offer():
    state, rng, seen = new_game(8), np.random.default_rng(8), Counter[Phase]()
    while seen.total() < 40:
        if state.phase != Phase.OFFER:
            seen[state.phase] += 1
            assert not swap_wins(Turn(state, state.current_player)).any()
        apply(state, int(rng.choice(legal_actions(state))))
    assert {Phase.THE_TRANG, Phase.NB_CHOICE} <= set(seen)


def test_a_swap_wins_network_decides_every_move_itself():
    hinter = Hinter(SWAP_WINS)
    assert not hinter.with_greedy_hints
    turn = offers(1, seed=5)[0]
    assert not hinter.leaves_to_greedy(turn)
    assert Hinter("observation+greedy_hints").with_greedy_hints


def test_batched_ppo_plays_what_the_ppo_agent_plays_on_swap_wins(tmp_path):
    torch.manual_seed(4)
    network = PolicyNetwork([32], "tanh", SWAP_WINS, hint_head=True)
    assert network.hint_head is not None
    with torch.no_grad():  # let the part weigh: one offer's logits follow it
        network.hint_head.weight.copy_(torch.tensor([[40.0, 20.0]]))
    path = save_policy(
        tmp_path / "swap.safetensors", network.state_dict(), [32], "tanh", {}, SWAP_WINS, True
    )
    agent, batched = PPOAgent(str(path)), BatchedPPO(str(path))
    config = RuleConfig()
    engine = BatchedEngine(GAMES, config)
    engine.reset(np.arange(GAMES) + 70)
    states = [new_game(70 + g, config) for g in range(GAMES)]
    everyone = np.arange(GAMES, dtype=np.int64)
    offers_met = 0
    for _ in range(120):
        actions = batched.act(engine, everyone)
        for g, state in enumerate(states):
            expected = agent.act(Turn(state, state.current_player))
            assert actions[g] == expected, describe(state, state.current_player)
            offers_met += state.phase == Phase.OFFER and len(legal_actions(state)) > 2
        result = engine.step(actions)
        for g, state in enumerate(states):
            apply(state, int(actions[g]))
            if result.terminated[g]:
                states[g] = new_game(int(engine.games["seed"][g]), config)
    assert offers_met > 50


def test_batched_ppo_refuses_a_network_with_greedys_hints():
    with pytest.raises(ValueError, match=r"'observation\+greedy_hints': the batched ppo policy"):
        BatchedPPO("hinted")
