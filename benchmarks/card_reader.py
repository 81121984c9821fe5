"""What does the play tell of the hidden hands? Two measures. Prints numbers; asserts nothing.

Usage::

    .venv/bin/python -m benchmarks.card_reader [--table SPEC] [--matches N]
        [--epochs E] [--reader affinity|network] [--l2 L] [--worlds W]
        [--wins-share S] [--seed SEED] [--jobs J]

Plays N matches (seeds SEED .. SEED + N − 1) with the batched agent SPEC in
every seat (``greedy`` by default; any agent with a batched form, such as
``ppo:scratch``, which needs the ``train`` extra) on the batched engine, in
J processes. At every decision on a card on offer it keeps a row for the
seat asked:

* what the seat has seen the others do in the vòng so far: for each opponent
  (the next seat, the one after, the one before) the cards it passed on, the
  cards it took and the cards it put out — every such decision is public
  ([R] §5.4);
* for each card the seat cannot locate (an opponent's unknown hand card, the
  Nọc still to flip, an unturned Ẩn Sĩ: the hidden cards of
  :func:`env121.engine.kernel.determinize.hidden_pool`), where it lies:
  opponent 1, 2, 3, or the rest;
* for a share S of the rows (0.25 by default), for each of the seat's free
  cards and each opponent: whether the opponent wins on that card, in the
  game and in what share of W worlds drawn uniformly from what the seat
  knows (64 by default; :func:`deal_in`). That is what a search's playout
  asks of each world: who wins on the card a plan puts out.

**Where the hidden cards lie.** The *reader* turns the public decisions into
a belief over each hidden card's place. It starts as the exact uniform
belief — the logits are the logs of each place's share of the hidden cards,
what a uniform determinization draws — and adds a learned correction to the
opponents' places:

* ``affinity`` (the default): ``Σ_k Σ_x A[k, c, x] · h[j, k, x]`` for card
  ``c`` and opponent ``j``, where ``h[j, k, x]`` is 1 when ``j`` made a
  decision of kind ``k`` (passed, took, put out) on card ``x``: a 3 × 121 ×
  121 table of how each public decision moves each card towards or away
  from the hand that made it, fitted with an L2 penalty (``--l2``);
* ``network``: a network of all three opponents' decisions (3 × 3 × 121
  inputs, two hidden layers of 256) giving each card's three corrections,
  its last layer zero at the start.

It is fitted by cross-entropy on the rows of nine matches in ten (Adam,
batches of 512, E passes) and scored on the tenth (match index ≡ 0 mod 10):
the mean log-probability of each hidden card's true place under the reader
less under the uniform belief, over the cards held in the opponents' hands
(``held``, where the play has something to say) and over every hidden card
(``hidden``), per phase of the vòng by cards flipped from the Nọc (early 1–2,
mid 3–5, late 6+, as :mod:`benchmarks.belief_likelihood`).

**Whether an opponent wins on the seat's cards.** By what the opponent has
done in the vòng so far (no decision, passed only, swapped): how often it
wins in the game, how often in the worlds, and the difference. Then two
logistic fits on nine matches in ten, scored by log-likelihood on the tenth
against the worlds' share (shrunk by half a world each way): on the share's
logit alone (the share calibrated), and with whether and how often the
opponent passed and swapped (what the decisions add). And for the
opponents whose Nhất Bản arrangement is fixed, the same chance in the worlds
laid out as greedy would (``mc:nb_layout=greedy``'s worlds: the declarer's
drawn hand in greedy's arrangement, the worlds whose hands greedy would not
declare with dropped), beside the uniform worlds' and the game's, with the
log-likelihood a pair of what happened under each.

Every interval is a 95% one clustered by match
(:func:`arena.estimate.clustered_ratio`). It prints first how much there is
to read: the share of the decisions in each phase and how many public
decisions an opponent has made by then.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np
from numba import njit
from scipy.special import expit, log_softmax

from agents.batched_greedy import lay_out_nhat_ban
from agents.batched_mc import seat_table_on
from agents.environments import make_batched_policy
from agents.greedy import GreedyAgent
from arena.estimate import Estimate, clustered_ratio
from env121.engine.actions import PASS
from env121.engine.batched.engine import BatchedEngine
from env121.engine.deal import HAND_SIZE, NOC_SIZE, NUM_AN_SI
from env121.engine.kernel.determinize import draw_worlds
from env121.engine.kernel.record import GAME_DTYPE, PHASES
from env121.engine.state import NUM_SEATS, Phase
from env121.rules.cards import NUM_CARDS
from env121.rules.compiled.config import KernelConfig

OFFER = PHASES.index(Phase.OFFER)
KINDS = ("passed", "took", "put out")
"""The kinds of public decision an opponent makes on a card on offer, as
``h[j, k, x]`` reads them."""
OPPONENTS = NUM_SEATS - 1
REST = OPPONENTS
"""The place of a hidden card outside the opponents' hands (Nọc, unturned Ẩn Sĩ)."""
DECISIONS_SIZE = OPPONENTS * len(KINDS) * NUM_CARDS
PACKED_SIZE = -(-DECISIONS_SIZE // 8)
PHASES_BY_FLIPS = (("early", 1, 2), ("mid", 3, 5), ("late", 6, NOC_SIZE))
"""Phases of the vòng by cards flipped from the Nọc (inclusive bounds)."""
HELD_OUT = 10
"""One match in this many is held out (its index ≡ 0 mod HELD_OUT)."""
BATCH = 512
NHAT_BAN_WAITS = GreedyAgent().nhat_ban_waits
"""The unseen winning cards greedy's Nhất Bản needs: the worlds laid out as
greedy would keep the hands greedy would declare with."""


@dataclass
class Rows:
    """The rows of a block of matches."""

    decisions: np.ndarray
    """uint8 [R, DECISIONS_SIZE / 8]: ``h[j, k, x]`` packed (:func:`numpy.packbits`)."""
    places: np.ndarray
    """int8 [R, NUM_CARDS]: each hidden card's place (0..2 an opponent, 3 the
    rest); -1 for a card the seat can locate."""
    flips: np.ndarray
    """int16 [R]: the cards flipped from the Nọc so far."""
    match: np.ndarray
    """int64 [R]: the match's index (its seed less the first seed)."""
    measured: np.ndarray
    """bool [R]: the rows whose wins are measured (a share of them: ``--wins-share``)."""
    wins: np.ndarray
    """bool [M, OPPONENTS, HAND_SIZE], for the M measured rows: whether each
    opponent wins on each of the seat's free cards (:func:`deal_in`)."""
    drawn_wins: np.ndarray
    """float32 [M, OPPONENTS, HAND_SIZE]: the share of the uniform worlds in
    which it does."""
    cards: np.ndarray
    """int16 [M, HAND_SIZE]: the seat's free cards the entries are for, -1
    past the last (fewer than five after a Cướp)."""
    nhat_ban: np.ndarray
    """bool [M, OPPONENTS]: whether the opponent declared Nhất Bản (its
    arrangement is fixed: only the seat to act can be laying one out)."""
    laid_wins: np.ndarray
    """float32 [M, OPPONENTS, HAND_SIZE]: the share of the same worlds in which
    it wins once every opponent's Nhất Bản is laid out as greedy would, among
    the worlds kept (:func:`agents.batched_greedy.lay_out_nhat_ban`)."""


def places_of(record: np.void, seat: int) -> np.ndarray:
    """Each card's place for ``seat`` in the game record ``record`` (:class:`Rows`)."""
    places = np.full(NUM_CARDS, -1, dtype=np.int8)
    places[record["noc"][record["noc_pos"] : NOC_SIZE]] = REST
    places[record["an_si"][record["an_si_revealed"] : NUM_AN_SI]] = REST
    for s in range(NUM_SEATS):
        if s != seat:
            free = record["hands"][s][: record["n_free"][s]]
            known = record["known"][s][: record["n_known"][s]]
            places[np.setdiff1d(free, known)] = (s - seat) % NUM_SEATS - 1
    return places


@njit(cache=True, nogil=True)
def deal_in(
    games: np.ndarray,
    g: int,
    seat: int,
    kc: KernelConfig,
    seed: int,
    worlds: np.ndarray,
    wins: np.ndarray,
    drawn: np.ndarray,
    laid: np.ndarray,
    nhat_ban: np.ndarray,
) -> None:
    """For each free card ``i`` of ``seat`` in game ``g`` and each opponent
    ``j`` (1, 2, 3 seats on): ``wins[j, i]``, whether ``j`` wins on it (its
    win table, :func:`agents.batched_mc.seat_table_on`), and ``drawn[j, i]``,
    the share of the worlds ``worlds`` (drawn into it, seeded ``seed``:
    :func:`~env121.engine.kernel.determinize.draw_worlds`, uniform over what
    the seat knows) in which it does; ``laid[j, i]``, that share once the
    worlds lay out every opponent's Nhất Bản as greedy would, among the
    worlds kept (every world if none is: ``mc:nb_layout=greedy``'s worlds,
    :func:`~agents.batched_greedy.lay_out_nhat_ban`); ``nhat_ban[j]``,
    whether ``j`` declared Nhất Bản."""
    r = games[g]
    n = r.n_free[seat]
    cards = r.hands[seat, :n].astype(np.int64)
    table = np.zeros(NUM_CARDS, dtype=np.int16)
    draw_worlds(games[g : g + 1], seat, kc, seed, 0, worlds)
    drawn[:] = 0.0
    for j in range(OPPONENTS):
        s = (seat + 1 + j) % NUM_SEATS
        nhat_ban[j] = r.nhat_ban[s]  # its arrangement is fixed: only the seat to act lays out
        seat_table_on(r, s, kc, cards, n, table)  # it writes every one of cards[:n]
        for i in range(n):
            wins[j, i] = table[cards[i]] > 0
        for w in range(worlds.shape[0]):
            seat_table_on(worlds[w], s, kc, cards, n, table)
            for i in range(n):
                drawn[j, i] += (table[cards[i]] > 0) / worlds.shape[0]
    if not nhat_ban.any():  # nothing to lay out, and every world is kept
        laid[:] = drawn
        return
    kept = np.empty(worlds.shape[0], dtype=np.bool_)
    lay_out_nhat_ban(worlds, seat, kc, NHAT_BAN_WAITS, kept)
    if not kept.any():
        kept[:] = True
    n_kept = kept.sum()
    laid[:] = 0.0
    for j in range(OPPONENTS):
        s = (seat + 1 + j) % NUM_SEATS
        for w in range(worlds.shape[0]):
            if kept[w]:
                seat_table_on(worlds[w], s, kc, cards, n, table)
                for i in range(n):
                    laid[j, i] += (table[cards[i]] > 0) / n_kept


def collect(table: str, first: int, seeds: np.ndarray, worlds: int = 0, share: float = 0.0) -> Rows:
    """The rows of the matches seeded ``seeds`` (indices ``first ..``), ``table``
    in every seat, played to their ends on one batched engine; with
    ``worlds``, the wins of a ``share`` of them measured on that many worlds
    (:func:`deal_in`)."""
    policy = make_batched_policy(table)
    policy.reset(int(seeds[0]))
    b = len(seeds)
    engine = BatchedEngine(b, threads=1)
    engine.reset(seeds)
    games, kc = engine.games, engine.kernel_config
    seen = np.zeros((b, NUM_SEATS, len(KINDS), NUM_CARDS), dtype=np.bool_)
    """Per game, each seat's public decisions in the vòng (absolute seats)."""
    vong = np.stack([games["van"], games["vong"]], axis=1)
    decisions: list[np.ndarray] = []
    places: list[np.ndarray] = []
    flips: list[int] = []
    match: list[int] = []
    measured: list[bool] = []
    wins: list[np.ndarray] = []
    drawn_wins: list[np.ndarray] = []
    laid_wins: list[np.ndarray] = []
    nhat_ban: list[np.ndarray] = []
    cards: list[np.ndarray] = []
    rng = np.random.default_rng(int(seeds[0]))
    drawn_worlds = np.empty(worlds, dtype=GAME_DTYPE)
    active = games["seed"] == seeds  # each game plays its one match
    while active.any():
        now = np.stack([games["van"], games["vong"]], axis=1)
        seen[(now != vong).any(axis=1)] = False
        vong = now
        asked = np.flatnonzero(active & (games["phase"] == OFFER) & (games["n_legal"] > 0))
        for g in asked.tolist():
            seat = int(games["to_act"][g])
            others = [(seat + j) % NUM_SEATS for j in range(1, NUM_SEATS)]
            decisions.append(np.packbits(seen[g, others].ravel()))
            places.append(places_of(games[g], seat))
            flips.append(int(games["noc_pos"][g]))
            match.append(first + g)
            measured.append(worlds > 0 and rng.random() < share)
            if measured[-1]:
                wins.append(np.zeros((OPPONENTS, HAND_SIZE), dtype=np.bool_))
                drawn_wins.append(np.zeros((OPPONENTS, HAND_SIZE), dtype=np.float32))
                laid_wins.append(np.zeros((OPPONENTS, HAND_SIZE), dtype=np.float32))
                nhat_ban.append(np.zeros(OPPONENTS, dtype=np.bool_))
                free = games["hands"][g, seat, : games["n_free"][g, seat]]
                cards.append(np.pad(free, (0, HAND_SIZE - len(free)), constant_values=-1))
                world_seed = int(rng.integers(2**63))
                deal_in(
                    games,
                    g,
                    seat,
                    kc,
                    world_seed,
                    drawn_worlds,
                    wins[-1],
                    drawn_wins[-1],
                    laid_wins[-1],
                    nhat_ban[-1],
                )
        actions = games["legal"][:, 0].astype(np.int64)
        choice = np.flatnonzero(active & (games["n_legal"] > 1))
        if len(choice):
            actions[choice] = policy.act(engine, choice)
        actions[~active] = -1  # SIT_OUT: a finished match stays as it is
        actors = games["to_act"][asked].tolist()
        offered = games["offer_card"][asked].tolist()
        engine.step(actions)
        for g, seat, card in zip(asked.tolist(), actors, offered, strict=True):
            action = int(actions[g])
            if action == PASS:
                seen[g, seat, 0, card] = True
            elif 0 <= action < NUM_CARDS:  # a swap: the card on offer taken, ``action`` put out
                seen[g, seat, 1, card] = True
                seen[g, seat, 2, action] = True
        active &= games["seed"] == seeds
    return Rows(
        np.array(decisions, dtype=np.uint8).reshape(-1, PACKED_SIZE),
        np.array(places, dtype=np.int8).reshape(-1, NUM_CARDS),
        np.array(flips, dtype=np.int16),
        np.array(match, dtype=np.int64),
        np.array(measured, dtype=np.bool_),
        np.array(wins, dtype=np.bool_).reshape(-1, OPPONENTS, HAND_SIZE),
        np.array(drawn_wins, dtype=np.float32).reshape(-1, OPPONENTS, HAND_SIZE),
        np.array(cards, dtype=np.int16).reshape(-1, HAND_SIZE),
        np.array(nhat_ban, dtype=np.bool_).reshape(-1, OPPONENTS),
        np.array(laid_wins, dtype=np.float32).reshape(-1, OPPONENTS, HAND_SIZE),
    )


def collect_all(table: str, matches: int, seed: int, jobs: int, worlds: int, share: float) -> Rows:
    """:func:`collect` of matches ``seed .. seed + matches − 1``, in blocks of
    256 spread over ``jobs`` processes."""
    firsts = list(range(0, matches, 256))
    blocks = [seed + np.arange(i, min(i + 256, matches)) for i in firsts]
    n = len(blocks)
    arguments = ([table] * n, firsts, blocks, [worlds] * n, [share] * n)
    if jobs == 1:
        parts = list(map(collect, *arguments))
    else:
        with ProcessPoolExecutor(jobs) as pool:
            parts = list(pool.map(collect, *arguments))
    return Rows(
        *(np.concatenate([getattr(p, f) for p in parts]) for f in Rows.__dataclass_fields__)
    )


def uniform_logits(places: np.ndarray) -> np.ndarray:
    """``[R, 4]``: the log of each place's share of the hidden cards (-inf for a
    place that holds none: an opponent whose free hand is known)."""
    counts = np.stack([(places == p).sum(axis=1) for p in range(REST + 1)], axis=1)
    with np.errstate(divide="ignore"):
        logits: np.ndarray = np.log(counts / (places >= 0).sum(axis=1, keepdims=True))
    return logits


def true_place_logs(logits: np.ndarray, places: np.ndarray) -> np.ndarray:
    """``[R, NUM_CARDS]``: the log-probability of each hidden card's true place
    under the per-card ``logits [R, NUM_CARDS, 4]`` (0 for a located card)."""
    logs = log_softmax(logits, axis=2)
    picked = np.take_along_axis(logs, np.clip(places, 0, REST)[:, :, None].astype(np.int64), 2)
    return np.where(places >= 0, picked[:, :, 0], 0.0)


Reader = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""A fitted reader: (packed decisions, places) rows → per-card logits ``[R, NUM_CARDS, 4]``."""


def fit_reader(
    rows: Rows, train: np.ndarray, reader: str, epochs: int, l2: float, seed: int
) -> Reader:
    """The reader (module docstring) fitted on ``rows[train]``: a function of
    (decisions, places) rows to the per-card logits ``[R, NUM_CARDS, 4]``."""
    import torch  # the train extra
    from torch import nn

    torch.manual_seed(seed)
    if reader == "affinity":
        affinity = nn.Parameter(torch.zeros(len(KINDS), NUM_CARDS, NUM_CARDS))
        parameters: list[nn.Parameter] = [affinity]

        def correction(h: torch.Tensor) -> torch.Tensor:
            seen = h.view(-1, OPPONENTS, len(KINDS), NUM_CARDS)
            return torch.einsum("bjkx,kcx->bcj", seen, affinity)

        def penalty() -> torch.Tensor:
            return l2 * (affinity**2).sum()

    else:
        last = nn.Linear(256, NUM_CARDS * OPPONENTS)
        nn.init.zeros_(last.weight)
        nn.init.zeros_(last.bias)
        network = nn.Sequential(
            nn.Linear(DECISIONS_SIZE, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), last
        )
        parameters = list(network.parameters())

        def correction(h: torch.Tensor) -> torch.Tensor:
            out: torch.Tensor = network(h).view(-1, NUM_CARDS, OPPONENTS)
            return out

        def penalty() -> torch.Tensor:
            return torch.zeros(())

    def logits(decisions: np.ndarray, places: np.ndarray) -> torch.Tensor:
        h = torch.from_numpy(
            np.unpackbits(decisions, axis=1)[:, :DECISIONS_SIZE].astype(np.float32)
        )
        base = torch.from_numpy(uniform_logits(places).astype(np.float32)).clamp(min=-1e9)
        rest = torch.zeros(len(h), NUM_CARDS, 1)
        return base[:, None, :] + torch.cat([correction(h), rest], dim=2)

    optimizer = torch.optim.Adam(parameters, lr=1e-3)
    order = np.random.default_rng(seed).permutation(train)
    for epoch in range(epochs):
        total = cards = 0.0
        for i in range(0, len(order), BATCH):
            batch = order[i : i + BATCH]
            places = torch.from_numpy(rows.places[batch].astype(np.int64))
            logs = torch.log_softmax(logits(rows.decisions[batch], rows.places[batch]), dim=2)
            picked = logs.gather(2, places.clamp(min=0)[:, :, None])[:, :, 0]
            hidden = places >= 0
            loss = -(picked * hidden).sum() / hidden.sum() + penalty()
            optimizer.zero_grad()
            torch.autograd.backward(loss)
            optimizer.step()
            total += float(loss.detach()) * float(hidden.sum())
            cards += float(hidden.sum())
        print(
            f"  pass {epoch + 1}: training loss {total / cards:.4f} nats a hidden card", flush=True
        )
        order = np.random.default_rng([seed, epoch + 1]).permutation(train)

    def read(decisions: np.ndarray, places: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            out: np.ndarray = logits(decisions, places).numpy().astype(np.float64)
            return out

    return read


def by_match(rows: Rows, mask: np.ndarray, values: np.ndarray, counts: np.ndarray) -> Estimate:
    """``Σ values / Σ counts`` over the rows ``mask`` (per-row sums), with its
    95% interval clustered by match."""
    matches, cluster = np.unique(rows.match[mask], return_inverse=True)
    return clustered_ratio(
        np.bincount(cluster, values[mask], len(matches)),
        np.bincount(cluster, counts[mask], len(matches)),
    )


def report_what_there_is(rows: Rows, seen: np.ndarray) -> None:
    """The share of the decisions in each phase and an opponent's public
    decisions by then, on average."""
    per_opponent = (seen[:, :, 0].sum(axis=2) + seen[:, :, 1].sum(axis=2)).mean(axis=1)
    for name, low, high in PHASES_BY_FLIPS:
        phase = (rows.flips >= low) & (rows.flips <= high)
        if phase.any():
            print(
                f"  {name:5}: {phase.mean():6.1%} of the decisions, an opponent's public "
                f"decisions so far {per_opponent[phase].mean():.2f}"
            )


def report_places(rows: Rows, held_out: np.ndarray, read: Reader) -> None:
    """The reader's gain in log P(true place) over the uniform belief on the
    held-out rows, per phase, over the held and over all hidden cards."""
    test = np.flatnonzero(held_out)
    places = rows.places[test]
    chunks = [slice(i, i + 4096) for i in range(0, len(test), 4096)]
    reader = np.concatenate(
        [true_place_logs(read(rows.decisions[test[c]], places[c]), places[c]) for c in chunks]
    )
    base = uniform_logits(places)
    uniform = true_place_logs(np.repeat(base[:, None, :], NUM_CARDS, axis=1), places)
    print(
        "held-out mean log P(true place): the uniform belief's, the reader's gain [95% CI by match]"
    )
    flips = rows.flips[test]
    for name, low, high in (*PHASES_BY_FLIPS, ("all", 0, NOC_SIZE)):
        phase = np.zeros(len(rows.flips), dtype=np.bool_)
        phase[test] = (flips >= low) & (flips <= high)
        for subset, cards in (("held", (places >= 0) & (places < REST)), ("hidden", places >= 0)):
            counted = np.zeros((len(rows.flips), NUM_CARDS), dtype=np.bool_)
            counted[test] = cards
            counted &= phase[:, None]
            if not counted.any():
                continue
            gain = np.zeros(len(rows.flips))
            gain[test] = ((reader - uniform) * counted[test]).sum(axis=1)
            estimate = by_match(rows, phase, gain, counted.sum(axis=1).astype(np.float64))
            mean_uniform = float((uniform * counted[test]).sum() / counted.sum())
            print(
                f"  {name:5} {subset:6}: {int(phase.sum()):6d} decisions, uniform "
                f"{mean_uniform:+.4f}, reader {estimate.describe(4)} nats a card"
            )


WIN_GROUPS = ("no decision", "passed only", "swapped")
"""The opponents by what they did in the vòng so far: nothing public, passed
on cards and took none, took at least one."""


def shrunk(share: np.ndarray, worlds: int) -> np.ndarray:
    """A share of ``worlds`` worlds shrunk by half a world each way, so that
    neither 0 nor 1 is a chance."""
    out: np.ndarray = (share * worlds + 0.5) / (worlds + 1)
    return out


def log_likelihoods(outcomes: np.ndarray, chance: np.ndarray) -> np.ndarray:
    """The log-probability of each outcome (whether the opponent wins) under its chance."""
    out: np.ndarray = np.where(outcomes, np.log(chance), np.log1p(-chance))
    return out


def win_features(rows: Rows, seen: np.ndarray, worlds: int) -> tuple[np.ndarray, ...]:
    """Per measured (row, opponent, free card): ``(row, group, outcome, drawn,
    features)``, ``features`` the logit of the worlds' share (shrunk by half a
    world each way), whether the opponent passed and swapped, and how often."""
    rows_measured = np.flatnonzero(rows.measured)
    passes = seen[rows_measured, :, 0].sum(axis=2)
    swaps = seen[rows_measured, :, 1].sum(axis=2)
    group = np.where(swaps > 0, 2, np.where(passes > 0, 1, 0))
    shape = rows.wins.shape
    pick = np.broadcast_to(rows.cards[:, None, :] >= 0, shape)
    share = shrunk(rows.drawn_wins, worlds)

    def spread(per_opponent: np.ndarray) -> np.ndarray:
        out: np.ndarray = np.broadcast_to(per_opponent[:, :, None], shape)[pick]
        return out

    row = np.broadcast_to(rows_measured[:, None, None], shape)[pick]
    p, k = spread(passes).astype(np.float64), spread(swaps).astype(np.float64)
    logit = np.log(share / (1 - share))[pick]
    features = np.stack([np.ones_like(p), logit, p > 0, k > 0, p, k], axis=1)
    return row, spread(group), rows.wins[pick], rows.drawn_wins[pick], features


def fit_logistic(features: np.ndarray, outcomes: np.ndarray, steps: int = 30) -> np.ndarray:
    """The coefficients of the logistic regression of ``outcomes`` on
    ``features`` (Newton's method, with a ridge of 1e-6)."""
    coef = np.zeros(features.shape[1])
    for _ in range(steps):
        chance = expit(features @ coef)
        weight = chance * (1 - chance)
        hessian = (features * weight[:, None]).T @ features + 1e-6 * np.eye(len(coef))
        coef += np.linalg.solve(hessian, features.T @ (outcomes - chance))
    return coef


def report_wins(rows: Rows, seen: np.ndarray, held_out: np.ndarray, worlds: int) -> None:
    """Whether the uniform worlds see how often an opponent wins on a card the
    seat could put out, by what the opponent did; and what the decisions add
    to that chance, on the held-out rows."""
    row, group, wins, drawn, features = win_features(rows, seen, worlds)
    n = len(rows.flips)
    print(
        f"an opponent wins on a card the seat could put out ({len(wins)} pairs of "
        f"{rows.measured.sum()} decisions, {worlds} worlds each): in the game, in the "
        "uniform worlds, the difference [95% CI by match]"
    )
    for g, name in enumerate(WIN_GROUPS):
        mask = group == g
        pairs = np.bincount(row[mask], minlength=n).astype(np.float64)
        has = pairs > 0
        true = by_match(rows, has, np.bincount(row[mask], wins[mask], n), pairs)
        uniform = by_match(rows, has, np.bincount(row[mask], drawn[mask], n), pairs)
        gap = by_match(rows, has, np.bincount(row[mask], wins[mask] - drawn[mask], n), pairs)
        print(
            f"  {name:11}: {int(mask.sum()):7d} pairs, {true.describe(4)} in the game, "
            f"{uniform.mean:.4f} in the worlds, difference {gap.describe(4)}"
        )
    test = held_out[row]
    outcome = wins.astype(np.float64)
    calibrated = fit_logistic(features[~test, :2], outcome[~test])
    read = fit_logistic(features[~test], outcome[~test])
    share = expit(features[test, 1])

    def log_likelihood(chance: np.ndarray) -> np.ndarray:
        return log_likelihoods(outcome[test] > 0, chance)

    uniform_logs = log_likelihood(share)
    pairs = np.bincount(row[test], minlength=n).astype(np.float64)
    has = pairs > 0
    print("held-out log-likelihood a pair: the uniform worlds', the gain of [95% CI by match]")
    print(f"  the worlds' share (shrunk by half a world): {uniform_logs.mean():+.4f}")
    for name, coef in (("the share calibrated", calibrated), ("and the decisions", read)):
        gain = log_likelihood(expit(features[test][:, : len(coef)] @ coef)) - uniform_logs
        estimate = by_match(rows, has, np.bincount(row[test], gain, n), pairs)
        print(f"  {name:21}: {estimate.describe(4)} nats a pair")
    print(f"  coefficients (1, logit share, passed, swapped, passes, swaps): {np.round(read, 3)}")


def report_nhat_ban(rows: Rows, worlds: int) -> None:
    """For the opponents whose Nhất Bản is fixed: how often they win on a card
    the seat could put out, in the game, in the uniform worlds and in the
    worlds laid out as greedy would (``mc:nb_layout=greedy``'s); and the
    log-likelihood a pair of what happened under each (the shares shrunk by
    half a world each way)."""
    shape = rows.wins.shape
    pick = (rows.cards[:, None, :] >= 0) & rows.nhat_ban[:, :, None]
    row = np.broadcast_to(np.flatnonzero(rows.measured)[:, None, None], shape)[pick]
    wins = rows.wins[pick]
    n = len(rows.flips)
    pairs = np.bincount(row, minlength=n).astype(np.float64)
    has = pairs > 0

    def mean(values: np.ndarray) -> Estimate:
        return by_match(rows, has, np.bincount(row, values, n), pairs)

    uniform, laid = rows.drawn_wins[pick], rows.laid_wins[pick]
    print(
        f"an opponent in Nhất Bản wins on a card the seat could put out ({len(wins)} "
        f"pairs): in the game {mean(wins).describe(4)}, in the uniform worlds "
        f"{mean(uniform).describe(4)}, laid out as greedy would {mean(laid).describe(4)}"
    )
    uniform_logs = log_likelihoods(wins, shrunk(uniform, worlds))
    laid_logs = log_likelihoods(wins, shrunk(laid, worlds))
    print(
        f"  log-likelihood a pair: uniform {mean(uniform_logs).describe(4)}, laid out "
        f"{mean(laid_logs).describe(4)}, the gain {mean(laid_logs - uniform_logs).describe(4)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", default="greedy", help="the batched agent in every seat")
    parser.add_argument("--matches", type=int, default=512)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--reader", choices=("affinity", "network"), default="affinity")
    parser.add_argument("--l2", type=float, default=1e-5, help="the affinity table's L2 penalty")
    parser.add_argument(
        "--worlds", type=int, default=64, help="worlds for the wins' uniform chance (0: skip)"
    )
    parser.add_argument(
        "--wins-share", type=float, default=0.25, help="share of the decisions whose wins count"
    )
    parser.add_argument("--seed", type=int, default=2 * 10**12, help="the first match seed")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    if args.matches < HELD_OUT or args.epochs < 1 or args.jobs < 1 or args.l2 < 0:
        parser.error(f"expected --matches ≥ {HELD_OUT}, --epochs ≥ 1, --jobs ≥ 1, --l2 ≥ 0")
    if args.worlds < 0 or not 0 <= args.wins_share <= 1:
        parser.error("expected --worlds ≥ 0 and 0 ≤ --wins-share ≤ 1")
    try:
        make_batched_policy(args.table)  # built here too, so a bad spec is one line before any work
    except ValueError as error:  # an AgentSpecError, or a spec its batched form refuses
        parser.error(f"--table: {error}")
    start = time.perf_counter()
    rows = collect_all(args.table, args.matches, args.seed, args.jobs, args.worlds, args.wins_share)
    held_out = rows.match % HELD_OUT == 0
    print(
        f"{args.table} in every seat, {args.matches} matches from seed {args.seed}: "
        f"{len(rows.flips)} decisions on a card on offer ({held_out.sum()} held out), "
        f"{time.perf_counter() - start:.0f} s"
    )
    seen = np.unpackbits(rows.decisions, axis=1)[:, :DECISIONS_SIZE].reshape(
        -1, OPPONENTS, len(KINDS), NUM_CARDS
    )
    report_what_there_is(rows, seen)
    if rows.measured.any():
        report_wins(rows, seen, held_out, args.worlds)
        report_nhat_ban(rows, args.worlds)
    print(f"the {args.reader} reader of the hidden cards' places, {args.epochs} passes:")
    read = fit_reader(rows, np.flatnonzero(~held_out), args.reader, args.epochs, args.l2, args.seed)
    report_places(rows, held_out, read)
    print(f"{time.perf_counter() - start:.0f} s in all")


if __name__ == "__main__":
    main()
