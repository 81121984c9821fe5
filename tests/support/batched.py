"""Lock-step differential play of the compiled engine against the oracle.

:func:`lockstep` plays B games at once in a
:class:`~env121.engine.batched.BatchedEngine`, the same B matches one by one
on the kernel through :mod:`env121.engine.game` (the single-match face every
env and tool uses) and B oracle matches (:mod:`tests.support.oracle`, the
readable Python transitions, of the same seeds), choosing each action with a
policy from the oracle's legal actions, and compares at every step:

* the seat to act, the legal actions and the legal-action mask;
* the step's events, rebuilt as reference :class:`~env121.engine.state.Event`
  objects, with ``==`` and class by class (Won carries the vòng's result);
* the last vòng's :class:`~env121.engine.state.VongResult`, the rewards (the
  AEC env's points rewards: payments / 100), ``terminated``;
* the whole state: hands, locked and known cards, Nọc, dead cards, the card
  on offer and who is asked, Nhất Bản arrangements, scores, ván, vòng, dealer;
* the single-match face's whole state, events and results (every few steps
  its State is rebuilt without its record, so the kernel goes on from a
  record written from the fields: the path of determinizations);
* at the end of a match its final standings and ranks, and its record
  (:meth:`~env121.engine.batched.BatchedEngine.final_record`) replayed on the
  reference engine; the next match (auto-reset, seed + B) is followed on.

Policies (:data:`POLICIES`) steer random play towards the paths uniform play
rarely takes, scripted deals (:class:`Scenario`) force the rarest, and
:data:`CASES` pairs them with the rule variants (:data:`VARIANTS`).
:class:`Tally` counts vòng, steps and differences, and which paths were
taken (:data:`RARE_PATHS`).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from env121.engine import game
from env121.engine.actions import CARD_BASE, NHAT_BAN, NUM_ACTIONS, PASS, THE_TRANG, U
from env121.engine.batched import BatchedEngine
from env121.engine.deal import Deal
from env121.engine.kernel.record import PHASES
from env121.engine.records import replay
from env121.engine.scripted import play_moves
from env121.engine.state import (
    NUM_SEATS,
    Drawn,
    Event,
    MatchEnded,
    Outcome,
    State,
    SwapKind,
    Swapped,
)
from env121.rules.cards import NUM_CARDS
from env121.rules.config import RuleConfig
from env121.rules.payment import POINTS_PER_DIEM
from tests.support.oracle import apply, legal_actions, new_game

VARIANTS: dict[str, RuleConfig] = {
    "default": RuleConfig(),
    "left_odd": RuleConfig(left_figures=frozenset({1, 3, 5, 7, 9})),
    "same_suits": RuleConfig(phe_phe_same_suits=True),
    "no_wait_rule": RuleConfig(nhat_ban_requires_wait=False),
    "den": RuleConfig(mask_invalid_win=False),
    "hundreds": RuleConfig(payment_rounding="hundreds"),
    "two_van": RuleConfig(num_van=2),
    "four_van_carry": RuleConfig(num_van=4, carry_scores=True),
    "busts": RuleConfig(num_van=4, carry_scores=True, starting_points=300),
    "cap_30": RuleConfig(max_actions_per_vong=30),
    "unlimited": RuleConfig(max_actions_per_vong=None),
    "format_1": RuleConfig(the_trang_asks_every_seat=False),
    "mixed": RuleConfig(
        left_figures=frozenset({2, 4, 6, 8, 10}),
        phe_phe_same_suits=True,
        nhat_ban_requires_wait=False,
        mask_invalid_win=False,
        payment_rounding="hundreds",
        num_van=2,
        starting_points=1000,
        max_actions_per_vong=80,
        the_trang_asks_every_seat=False,
    ),
    "mixed_carry": RuleConfig(
        left_figures=frozenset({1, 2, 3, 9, 10}),
        mask_invalid_win=False,
        num_van=4,
        starting_points=500,
        carry_scores=True,
        max_actions_per_vong=12,
    ),
}
"""Every RuleConfig field at a non-default value at least once, and combinations."""

Policy = Callable[[State, list[int], np.random.Generator], int]


def uniform(state: State, legal: list[int], rng: np.random.Generator) -> int:
    """Uniformly random among the legal actions."""
    return legal[int(rng.integers(len(legal)))]


def eager(state: State, legal: list[int], rng: np.random.Generator) -> int:
    """Declares whatever it may (Ù, Thế trắng, Nhất Bản) and steals when it can:
    Cướp twice and Nhất Bản wins come often. Under ``mask_invalid_win=False``
    Ù is always legal, so it is said only one time in twenty (mostly Đền)."""
    for wanted in (THE_TRANG, NHAT_BAN):
        if wanted in legal:
            return wanted
    if U in legal and (state.config.mask_invalid_win or rng.random() < 0.05):
        return U
    swaps = [a for a in legal if a < CARD_BASE + NUM_CARDS]
    cuop = game.swap_kind(state, state.current_player) == SwapKind.CUOP
    if swaps and cuop and rng.random() < 0.7:
        return swaps[int(rng.integers(len(swaps)))]
    return uniform(state, legal, rng)


def nhat_ban_waiter(state: State, legal: list[int], rng: np.random.Generator) -> int:
    """Declares Nhất Bản whenever it may and waits: only a Nhất Bản hand says Ù,
    the others mostly pass, so the declarers' waits get long to be filled."""
    if NHAT_BAN in legal:
        return NHAT_BAN
    if U in legal and state.nhat_ban[state.current_player]:
        return U
    if PASS in legal and rng.random() < 0.9:
        return PASS
    return uniform(state, [a for a in legal if a != U] or legal, rng)


def passive(state: State, legal: list[int], rng: np.random.Generator) -> int:
    """Wins when it can (1 in 50 where Ù is always legal), otherwise mostly
    passes: many dead cards and long vòng, which the action cap truncates."""
    if U in legal and (state.config.mask_invalid_win or rng.random() < 0.02):
        return U
    if PASS in legal and rng.random() < 0.93:
        return PASS
    return uniform(state, legal, rng)


def last_card(state: State, legal: list[int], rng: np.random.Generator) -> int:
    """Passes on everything (Thế trắng, Nhất Bản, every card) and says Ù only on
    the last card of the Nọc: the vòng runs to its end, a draw or Kết chung."""
    if U in legal and state.noc_left == 0:
        return U
    return PASS if PASS in legal else uniform(state, legal, rng)


POLICIES: dict[str, Policy] = {
    "uniform": uniform,
    "eager": eager,
    "passive": passive,
    "nhat_ban_waiter": nhat_ban_waiter,
    "last_card": last_card,
}


@dataclass(frozen=True)
class Scenario:
    """A scripted first vòng: its deal and the moves that lead to a rare event
    (in the notation of :mod:`env121.engine.scripted`); a policy plays on."""

    hands: tuple[str, str, str, str]
    chi_diem: str
    an_si: str
    moves: str
    noc_top: str = ""
    noc_bottom: str = ""

    def deal(self) -> Deal:
        """The first vòng's deal."""
        return Deal.from_notation(
            self.hands, self.chi_diem, self.an_si, self.noc_top, self.noc_bottom
        )

    def actions(self, config: RuleConfig) -> list[int]:
        """The scripted moves as action ids (played on the reference)."""
        state = new_game(0, config, first_deal=self.deal())
        return play_moves(state, self.moves).actions


_EVERY_SEAT_PASSES = "S0 PASS, S1 PASS, S2 PASS, S3 PASS"
_PAIRS = (
    "CRE/KY CRE/ED GEN/KY GEN/ED INS/KY",
    "INS/ED MER/KY MER/ED GEI/KY GEI/ED",
    "DAN/KY DAN/ED MON/KY MON/ED MUS/KY",
    "MUS/ED NIN/KY NIN/ED ASA/KY ASA/ED",
)
QUOC_SI_VO_SONG = Scenario(
    (
        "CRE/ED GEN/KY INS/KY INS/ED MER/KY",
        "CRE/KY GEN/ED INS/FR MER/FB GEI/FP",
        "DAN/KY DAN/ED MON/KY MON/ED MUS/KY",
        "DAN/BR NIN/KY NIN/ED ASA/KY ASA/ED",
    ),
    "MON/BB",
    "MUS/BP NIN/LR ASA/LB PRI/LP",
    f"{_EVERY_SEAT_PASSES}, S0 PASS, S1 PASS, S2 CARD(DAN/KY), S3 PASS, S0 PASS, S1 PASS, "
    "S3 PASS, S0 PASS, S1 PASS, S2 CARD(DAN/ED), S3 PASS, S0 PASS, S1 PASS, "
    "S3 PASS, S0 PASS, S1 PASS, S2 PASS, "
    "S0 PASS, S1 PASS, S2 PASS, S3 CARD(NIN/KY), S0 PASS, S1 PASS, S2 PASS, "
    "S0 PASS, S1 PASS, S2 PASS, S3 CARD(DAN/BR), S0 PASS, S1 U",
    noc_top="PRI/BB MUS/LR PRI/BP PRI/LR PRI/FR",
)
"""S1 wins the match with Quốc Sĩ Vô Song once S2 and S3 have turned the four Ẩn Sĩ
(``tests/engine/test_rules.py``)."""
NHAT_BAN_ON_THE_LAST_CARD = Scenario(
    (_PAIRS[0], "GEN/FR GEN/FB GEN/BR MON/LB ASA/BP", _PAIRS[2], _PAIRS[3]),
    "GEN/LP",
    "PRI/ED CRE/FR CRE/FB CRE/FP",
    f"{_EVERY_SEAT_PASSES}, S0 PASS, S1 CARD(ASA/BP), S1 NHAT_BAN, S1 NB_GAP(5), "
    "S1 CARD(GEN/FR), S1 CARD(GEN/FB), S1 CARD(GEN/BR), S1 CARD(MON/LB), S1 CARD(MON/LP)",
    noc_top="MON/LP",
    noc_bottom="MON/LR",
)
"""S1 declares Nhất Bản after a Lấy and can win on the Nọc's last card, MON/LR."""
THE_TRANG_HAND = Scenario(
    (_PAIRS[0], _PAIRS[1], "GEN/FR INS/FB MER/FP GEI/BR DAN/BB", _PAIRS[3]),
    "PRI/KY",
    "PRI/ED CRE/FR CRE/FB CRE/FP",
    "",
)
"""S2's five cards are pairwise unrelated and regular: Thế trắng for the taking."""


@dataclass(frozen=True)
class Case:
    """One lock-step run: a rule variant, a policy, how long, and the rare
    paths it must take (so the test fails if play stops reaching them)."""

    config: RuleConfig
    policy: str
    steps: int = 150
    expects: tuple[str, ...] = ()
    scenario: Scenario | None = None


CASES: dict[str, Case] = {
    "default-uniform": Case(VARIANTS["default"], "uniform"),
    "default-last_card": Case(VARIANTS["default"], "last_card", 420, ("draw:empty_noc",)),
    "left_odd-eager": Case(VARIANTS["left_odd"], "eager", expects=("swap:cuop_twice",)),
    "same_suits-nhat_ban": Case(VARIANTS["same_suits"], "nhat_ban_waiter", 300, ("win:nhat_ban",)),
    "no_wait_rule-nhat_ban": Case(
        VARIANTS["no_wait_rule"], "nhat_ban_waiter", 300, ("event:NhatBanArranged",)
    ),
    "no_wait_rule-uniform": Case(VARIANTS["no_wait_rule"], "uniform"),
    "den-uniform": Case(VARIANTS["den"], "uniform", expects=("outcome:den",)),
    "hundreds-eager": Case(VARIANTS["hundreds"], "eager", expects=("swap:cuop_no_an_si_left",)),
    "two_van-passive": Case(VARIANTS["two_van"], "passive"),
    "four_van_carry-uniform": Case(VARIANTS["four_van_carry"], "uniform"),
    "busts-eager": Case(VARIANTS["busts"], "eager", expects=("end:bust",)),
    "cap_30-passive": Case(VARIANTS["cap_30"], "passive", 200, ("draw:truncated", "end:completed")),
    "unlimited-uniform": Case(VARIANTS["unlimited"], "uniform"),
    "format_1-eager": Case(VARIANTS["format_1"], "eager"),
    "mixed-uniform": Case(VARIANTS["mixed"], "uniform", expects=("outcome:den",)),
    "mixed_carry-uniform": Case(VARIANTS["mixed_carry"], "uniform", expects=("event:VanEnded",)),
    "quoc_si_vo_song": Case(
        VARIANTS["default"], "uniform", 60, ("end:quoc_si_vo_song",), QUOC_SI_VO_SONG
    ),
    "nhat_ban_on_the_last_card": Case(
        VARIANTS["default"],
        "last_card",
        420,
        ("win:nhat_ban", "win:ket_chung"),
        NHAT_BAN_ON_THE_LAST_CARD,
    ),
    "the_trang": Case(VARIANTS["default"], "eager", 40, ("outcome:the_trang",), THE_TRANG_HAND),
    "the_trang-format_1": Case(
        VARIANTS["format_1"], "eager", 40, ("outcome:the_trang",), THE_TRANG_HAND
    ),
}
"""Every rule variant under the policies that reach its rare paths, and the scenarios."""


RARE_PATHS = (
    "outcome:the_trang",
    "outcome:den",
    "draw:truncated",
    "draw:empty_noc",
    "win:nhat_ban",
    "win:ket_chung",
    "swap:cuop_twice",
    "swap:cuop_no_an_si_left",
    "end:bust",
    "end:completed",
    "end:quoc_si_vo_song",
    "event:VanEnded",
    "event:NhatBanArranged",
)
"""Paths random play seldom takes; :data:`CASES` expects each somewhere."""


@dataclass
class Tally:
    """What lock-step play covered, and every difference it found."""

    vong: int = 0
    steps: int = 0
    matches: int = 0
    records_replayed: int = 0
    differences: list[str] = field(default_factory=list)
    paths: Counter[str] = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        """Add ``other``'s counts to these."""
        self.vong += other.vong
        self.steps += other.steps
        self.matches += other.matches
        self.records_replayed += other.records_replayed
        self.differences += other.differences
        self.paths.update(other.paths)


SNAPSHOT_FIELDS = (
    "phase", "van", "vong", "dealer", "scores", "van_start", "banked", "hands", "locked",
    "known", "chi_diem", "an_si", "an_si_revealed", "noc", "noc_pos", "dead", "offer_card",
    "offer_exposer", "offer_flipped", "ask_order", "ask_pos", "nhat_ban", "nb_arrangement",
    "nb_gap", "nb_placed", "vong_actions",
)  # fmt: skip


_REWRITE_EVERY = 7
"""Every this many steps a game's single-match State is rebuilt without its record."""


def _state_difference(mine: tuple[object, ...], theirs: tuple[object, ...]) -> str:
    """The first state field that differs, both ways."""
    for name, a, b in zip(SNAPSHOT_FIELDS, mine, theirs, strict=True):
        if a != b:
            return f"state field {name}: {a!r} != {b!r}"
    return "state"


def snapshot(state: State) -> tuple[object, ...]:
    """Every field of a reference state the batched engine mirrors."""
    return (
        state.phase, state.van, state.vong, state.dealer, state.scores, state.van_start,
        state.banked, state.hands, state.locked, state.known, state.chi_diem, state.an_si,
        state.an_si_revealed, state.noc, state.noc_pos, state.dead, state.offer_card,
        state.offer_exposer, state.offer_flipped, state.ask_order, state.ask_pos,
        state.nhat_ban, state.nb_arrangement, state.nb_gap, state.nb_placed,
        state.vong_actions,
    )  # fmt: skip


_MIRRORED = (
    "phase", "van", "vong", "dealer", "scores", "van_start", "banked", "hands", "n_free",
    "locked", "n_locked", "known", "n_known", "chi_diem", "an_si", "an_si_revealed", "noc",
    "noc_pos", "dead", "n_dead", "offer_card", "offer_exposer", "offer_flipped", "ask_order",
    "ask_len", "ask_pos", "nhat_ban", "nb_arrangement", "nb_gap", "nb_placed", "n_placed",
    "vong_actions",
)  # fmt: skip


def batched_snapshots(games: np.ndarray) -> list[tuple[object, ...]]:
    """:func:`snapshot` of every game of a batch (each field read once for all)."""
    f = {name: games[name].tolist() for name in _MIRRORED}
    out: list[tuple[object, ...]] = []
    for g in range(len(games)):

        def rows(cards: str, counts: str, g: int = g) -> tuple[tuple[int, ...], ...]:
            return tuple(tuple(r[:n]) for r, n in zip(f[cards][g], f[counts][g], strict=True))

        out.append((
            PHASES[f["phase"][g]], f["van"][g], f["vong"][g], f["dealer"][g],
            tuple(f["scores"][g]), tuple(f["van_start"][g]), tuple(f["banked"][g]),
            rows("hands", "n_free"), rows("locked", "n_locked"), rows("known", "n_known"),
            f["chi_diem"][g], tuple(f["an_si"][g]), f["an_si_revealed"][g], tuple(f["noc"][g]),
            f["noc_pos"][g], tuple(f["dead"][g][: f["n_dead"][g]]), f["offer_card"][g],
            f["offer_exposer"][g], f["offer_flipped"][g],
            tuple(f["ask_order"][g][: f["ask_len"][g]]), f["ask_pos"][g],
            tuple(bool(x) for x in f["nhat_ban"][g]),
            tuple(tuple(a) if max(a) >= 0 else () for a in f["nb_arrangement"][g]),
            f["nb_gap"][g], tuple(f["nb_placed"][g][: f["n_placed"][g]]), f["vong_actions"][g],
        ))  # fmt: skip
    return out


def _cover(tally: Tally, events: Sequence[Event], before: State) -> None:
    """Count the rare paths these events (applied to ``before``) take."""
    for event in events:
        tally.paths[f"event:{type(event).__name__}"] += 1
        if isinstance(event, Swapped) and event.kind == SwapKind.CUOP:
            if len(before.locked[event.seat]) == 1:
                tally.paths["swap:cuop_twice"] += 1
            if before.an_si_revealed == len(before.an_si):
                tally.paths["swap:cuop_no_an_si_left"] += 1
        elif isinstance(event, Drawn):
            tally.paths["draw:truncated" if event.truncated else "draw:empty_noc"] += 1
        elif isinstance(event, MatchEnded):
            tally.paths[f"end:{event.reason}"] += 1


def _cover_result(tally: Tally, state: State) -> None:
    result = state.results[-1]
    tally.paths[f"outcome:{result.outcome}"] += 1
    if result.outcome == Outcome.U and result.nhat_ban:
        tally.paths["win:nhat_ban"] += 1
    if "ket_chung" in result.bonuses:
        tally.paths["win:ket_chung"] += 1


def lockstep(
    config: RuleConfig,
    seeds: Sequence[int],
    steps: int,
    policy: Policy,
    *,
    rng_seed: int = 0,
    rotations: Sequence[int] | None = None,
    scenario: Scenario | None = None,
) -> Tally:
    """Play ``steps`` steps of ``len(seeds)`` games in both engines, comparing
    everything at every step (see the module docstring). Game ``g`` plays
    ``seeds[g]`` with ``rotations[g]`` (default ``g % 4``); a ``scenario`` deals
    every game's first vòng and scripts its first moves. At the end the record
    of every match in progress is replayed on the reference.
    After its first difference a game is no longer compared (it plays its
    first legal action)."""
    b = len(seeds)
    rotations = [g % NUM_SEATS for g in range(b)] if rotations is None else list(rotations)
    first_deal = None if scenario is None else scenario.deal()
    script = [] if scenario is None else scenario.actions(config)
    scripted = [bool(script)] * b
    engine = BatchedEngine(b, config)
    engine.reset(seeds, rotations, None if first_deal is None else [first_deal] * b)
    refs = [
        new_game(s, config, rotation=k, first_deal=first_deal)
        for s, k in zip(seeds, rotations, strict=True)
    ]
    singles = [
        game.new_game(s, config, rotation=k, first_deal=first_deal)
        for s, k in zip(seeds, rotations, strict=True)
    ]
    rng = np.random.default_rng(rng_seed)
    tally = Tally(matches=0)
    alive = [True] * b

    def differ(g: int, step: int, what: str) -> None:
        tally.differences.append(f"{what} (game {g}, seed {refs[g].seed}, step {step})")
        alive[g] = False

    for g in range(b):
        if engine.events(g) != refs[g].events:
            differ(g, -1, f"opening events {engine.events(g)} != {refs[g].events}")
        elif singles[g].events != refs[g].events or snapshot(singles[g]) != snapshot(refs[g]):
            differ(g, -1, "the single-match face's opening differs")
    for step in range(steps):
        references = [legal_actions(ref) for ref in refs]
        expected_mask = np.zeros((b, NUM_ACTIONS), dtype=np.uint8)
        for g, legal in enumerate(references):
            expected_mask[g, legal] = 1
        mask_equal = (engine.legal_mask() == expected_mask).all(axis=1).tolist()
        mine = [
            row[:n]
            for row, n in zip(
                engine.games["legal"].tolist(), engine.games["n_legal"].tolist(), strict=True
            )
        ]
        seats = engine.to_act.tolist()
        actions = np.zeros(b, dtype=np.int64)
        for g in range(b):
            ref, legal = refs[g], references[g]
            if alive[g]:
                if step % _REWRITE_EVERY == g % _REWRITE_EVERY:
                    singles[g] = dataclasses.replace(singles[g])  # no record: written anew
                single_legal = game.legal_actions(singles[g])
                if mine[g] != legal or not mask_equal[g]:
                    differ(g, step, f"legal {mine[g]} (mask {mask_equal[g]}) != {legal}")
                elif single_legal != legal:
                    differ(g, step, f"single-match face's legal {single_legal} != {legal}")
                elif seats[g] != ref.current_player:
                    differ(g, step, f"seat {seats[g]} != {ref.current_player}")
            n = len(ref.actions)
            if not alive[g]:
                actions[g] = mine[g][0]
            elif scripted[g] and n < len(script):
                actions[g] = script[n]
            else:
                actions[g] = policy(ref, legal, rng)
        out = engine.step(actions)
        states = batched_snapshots(engine.games)
        tally.steps += b
        for g in range(b):
            if alive[g]:
                _compare_step(
                    engine, refs, singles, g, step, int(actions[g]), out.rewards[g],
                    out.terminated[g], states[g], tally, differ,
                )  # fmt: skip
                scripted[g] = scripted[g] and not out.terminated[g]
    for g in range(b):
        if alive[g]:
            replayed = replay(engine.record(g))
            tally.records_replayed += 1
            if replayed.events != refs[g].events or replayed.actions != refs[g].actions:
                differ(g, steps, "the record of the match in progress does not replay to it")
    return tally


def _compare_step(
    engine: BatchedEngine,
    refs: list[State],
    singles: list[State],
    g: int,
    step: int,
    action: int,
    rewards: np.ndarray,
    terminated: bool,
    mine_state: tuple[object, ...],
    tally: Tally,
    differ: Callable[[int, int, str], None],
) -> None:
    ref = refs[g]
    before = ref.clone()
    events_before, results_before = len(ref.events), len(ref.results)
    apply(ref, action)
    single = singles[g]
    game.apply(single, action)
    if (
        single.events != ref.events
        or single.results != ref.results
        or single.actions != ref.actions
        or snapshot(single) != snapshot(ref)
        or (single.match_end, single.ranks) != (ref.match_end, ref.ranks)
        or single.vong_event_start != ref.vong_event_start
    ):
        difference = _state_difference(snapshot(single), snapshot(ref))
        differ(g, step, f"the single-match face: {difference}")
        return
    mine = engine.events(g)
    theirs = ref.events[events_before:]
    ended = len(ref.results) > results_before
    opening: list[Event] = []
    if terminated:
        cut = next((i + 1 for i, e in enumerate(mine) if isinstance(e, MatchEnded)), len(mine))
        mine, opening = mine[:cut], mine[cut:]
    if mine != theirs or [type(e) for e in mine] != [type(e) for e in theirs]:
        differ(g, step, f"events {mine} != {theirs}")
        return
    _cover(tally, theirs, before)
    expected = [0.0] * NUM_SEATS
    for result in ref.results[results_before:]:
        for s in range(NUM_SEATS):
            expected[s] += result.payments[s] / POINTS_PER_DIEM
    if rewards.tolist() != np.array(expected, dtype=np.float32).tolist():
        differ(g, step, f"rewards {rewards.tolist()} != {expected}")
        return
    if ended:
        tally.vong += 1
        _cover_result(tally, ref)
        if engine.last_result(g) != ref.results[-1]:
            differ(g, step, f"result {engine.last_result(g)} != {ref.results[-1]}")
            return
    if bool(terminated) != ref.is_over:
        differ(g, step, f"terminated {terminated} != {ref.is_over}")
        return
    if not terminated:
        if mine_state != snapshot(ref):
            differ(g, step, _state_difference(mine_state, snapshot(ref)))
        return
    tally.matches += 1
    info = engine.final_info(g)
    expected_info = (ref.seed, ref.match_end, ref.scores, ref.standings(), ref.ranks)
    if info is None or tuple(info) != expected_info:
        differ(g, step, f"final info {info} != {expected_info}")
        return
    replayed = replay(engine.final_record(g))
    tally.records_replayed += 1
    if replayed.events != ref.events or replayed.actions != ref.actions:
        differ(g, step, "the final record does not replay to the reference match")
        return
    seed = int(engine.games[g]["seed"])
    refs[g] = new_game(seed, ref.config, rotation=ref.rotation)
    singles[g] = game.new_game(seed, ref.config, rotation=ref.rotation)
    if opening != refs[g].events:
        differ(g, step, f"next match's opening {opening} != {refs[g].events}")
    elif mine_state != snapshot(refs[g]):
        differ(g, step, _state_difference(mine_state, snapshot(refs[g])))


__all__ = [
    "CASES",
    "POLICIES",
    "RARE_PATHS",
    "VARIANTS",
    "Case",
    "Policy",
    "Scenario",
    "Tally",
    "batched_snapshots",
    "lockstep",
    "snapshot",
]
