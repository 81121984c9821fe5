"""Fit a :class:`agents.value.ValueNetwork` on self-play: the learned leaf of a search.

``python -m training.value --out DIR`` plays matches on the batched engine,
every seat by the batched policy of ``--policy`` (``greedy`` by default: the
play :mod:`agents.leaf`'s line is fitted to, so the two leaves are compared on
the same play), and at every OFFER state of the play keeps, with probability
``--keep``, one row per seat: what the value network reads of that seat
(:func:`agents.value.encode_values`: the observation, the other hands, the
win tables, the line's value) and, once the vòng ends, the points the seat
was paid in it; the network is fitted to what the line misses (the points
less the line's value). Those are the states
where a playout of ``mc`` stops (an OFFER, the card still going round or just
flipped) and the value it needs there (the rest of the vòng's payment).

The fit streams: each round plays ``--matches`` new matches (seeds never
used before in the run) and makes one pass of Adam over their rows, so no row
is seen twice and the network cannot memorise the noise of a vòng's outcome
(a fixed set of 200k rows was overfitted after one epoch). Before the first
round it plays ``--holdout`` matches of their own seeds (the seed's upper
half) and reports, each round, the held-out mean squared error and R² of the
value (the line plus the network's correction) and, once, of
:mod:`agents.leaf`'s line alone on the same rows.
After every round ``DIR/value.safetensors`` (+ sidecar: the curve) is the
network of the best held-out round, and ``DIR/state/`` the run's state
(network, Adam's moments, the round), each file written atomically: the
same command resumes a killed run where its last round ended, and asking
for more ``--rounds`` continues a finished one.

Everything is seeded (``--seed``): the same arguments give the same network
on the same machine.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch

from agents.environments import make_batched_policy
from agents.value import VALUE_SCALE, ValueNetwork, encode_values, save_value
from env121.engine.batched.engine import BatchedEngine
from env121.engine.kernel.record import PHASES
from env121.engine.state import NUM_SEATS, Phase
from training.checkpoint import (
    CorruptCheckpointError,
    StateFiles,
    optimizer_slots,
    optimizer_tensors,
    read_state,
    write_state,
)

_OFFER = PHASES.index(Phase.OFFER)
HOLDOUT_SEEDS = 2**62
"""The held-out matches' seeds start here; the rounds' seeds are below."""
STATE = StateFiles("value_state.safetensors", "value_state.json")
"""A run's state in ``DIR/state/``."""


def collect(
    matches: int, seed: int, policy_spec: str, keep: float, num_games: int = 256
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(inputs float16 [N, VALUE_INPUT_SIZE], targets float32 [N], match int64 [N],
    line float64 [N])``:
    rows of ``matches`` matches (seeds ``seed .. seed + matches - 1``, ``match``
    the seed less ``seed``), each played to its end by ``policy_spec`` at every
    seat. Game ``g`` of the batch plays seeds ``seed + g``, ``seed + g + B``, …
    (the engine's auto-reset) until they pass the last. ``line`` is each row's
    value by :mod:`agents.leaf`'s line (``mc``'s leaf,
    :func:`agents.batched_mc.leaf_value`), which the network corrects."""
    if not 0 < keep <= 1:
        raise ValueError(f"keep={keep} is not valid: expected a share in (0, 1]")
    if matches < 1:
        raise ValueError(f"matches={matches} is not valid: expected ≥ 1")
    rng = np.random.default_rng(seed)
    policy = make_batched_policy(policy_spec)
    policy.reset(seed)
    b = min(num_games, matches)
    engine = BatchedEngine(b, threads=1)
    engine.reset(seed + np.arange(b))
    last = seed + matches
    inputs: list[np.ndarray] = []
    lines: list[np.ndarray] = []
    match_ids: list[np.ndarray] = []
    targets: list[float] = []
    waiting: list[list[tuple[int, int]]] = [[] for _ in range(b)]
    """Per game, the (row, seat) pairs whose vòng has not ended yet."""
    rows = 0
    games = engine.games
    active = games["seed"] < last
    while active.any():
        offer = active & (games["phase"] == _OFFER) & (games["n_legal"] > 0)
        sampled = np.flatnonzero(offer & (rng.random(b) < keep))
        if len(sampled):
            indices = np.repeat(sampled, NUM_SEATS)
            seats = np.tile(np.arange(NUM_SEATS, dtype=np.int64), len(sampled))
            encoded, line = encode_values(games, indices, seats)
            inputs.append(encoded.astype(np.float16))
            lines.append(line)
            match_ids.append(games["seed"][indices].astype(np.int64) - seed)
            for k, (g, s) in enumerate(zip(indices, seats, strict=True)):
                waiting[g].append((rows + k, int(s)))
            rows += len(indices)
            targets.extend([0.0] * len(indices))  # each set once its vòng ends
        actions = games["legal"][:, 0].astype(np.int64)
        choice = np.flatnonzero(active & (games["n_legal"] > 1))
        if len(choice):
            actions[choice] = policy.act(engine, choice)
        actions[~active] = -1  # SIT_OUT: a game past its last match stays as it is
        engine.step(actions)
        terminated = games["terminated"] & active
        for g in np.flatnonzero(active & (games["vong_ended"] | terminated)):
            paid = (engine.final_games if terminated[g] else games)["res_payments"][g]
            for row, s in waiting[g]:
                targets[row] = float(paid[s])
            waiting[g] = []
        active &= games["seed"] < last
    if not rows:
        raise ValueError(f"{matches} matches gave no OFFER state to keep (keep={keep})")
    return (
        np.concatenate(inputs),
        np.array(targets, dtype=np.float32),
        np.concatenate(match_ids),
        np.concatenate(lines),
    )


def train_round(
    network: ValueNetwork,
    optimizer: torch.optim.Optimizer,
    inputs: np.ndarray,
    residuals: np.ndarray,
    rng: np.random.Generator,
    minibatch: int = 512,
) -> float:
    """One pass of least squares of the network's output on ``residuals`` (the
    targets less the line's values, points) over the rows in a random order;
    the mean squared error of the pass, in points²."""
    network.train()
    order = rng.permutation(len(residuals))
    scaled = torch.from_numpy((residuals / VALUE_SCALE).astype(np.float32))
    total = 0.0
    for start in range(0, len(order), minibatch):
        rows = np.sort(order[start : start + minibatch])
        x = torch.from_numpy(inputs[rows].astype(np.float32))
        loss = torch.nn.functional.mse_loss(network(x), scaled[rows])
        optimizer.zero_grad()
        torch.autograd.backward(loss)
        optimizer.step()
        total += float(loss.detach()) * len(rows)
    network.eval()
    return total / len(residuals) * VALUE_SCALE**2


def held_out_error(
    network: ValueNetwork, inputs: np.ndarray, targets: np.ndarray, line: np.ndarray
) -> float:
    """The mean squared error in points² of the line's values plus the
    network's corrections on ``(inputs, targets)``."""
    network.eval()
    with torch.inference_mode():
        predicted = np.concatenate(
            [
                network(torch.from_numpy(inputs[i : i + 4096].astype(np.float32))).numpy()
                for i in range(0, len(targets), 4096)
            ]
        )
    return float(np.mean((line + predicted * VALUE_SCALE - targets) ** 2))


def main(argv: Sequence[str] | None = None) -> None:
    """Fit (or resume fitting) the leaf value; see the module docstring."""
    parser = argparse.ArgumentParser(
        prog="python -m training.value",
        description="Fit the perfect-information leaf value on self-play, streaming new matches.",
    )
    parser.add_argument("--out", required=True, type=Path, help="run folder (resumed if present)")
    parser.add_argument("--policy", default="greedy", help="batched agent playing every seat")
    parser.add_argument("--rounds", type=int, default=40, help="rounds of new matches")
    parser.add_argument("--matches", type=int, default=1000, help="new matches a round")
    parser.add_argument("--holdout", type=int, default=1000, help="held-out matches")
    parser.add_argument("--keep", type=float, default=0.1, help="share of OFFER states kept")
    parser.add_argument("--hidden", default="256,256", help="hidden layer sizes")
    parser.add_argument("--learning-rate", type=float, default=3e-4)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        hidden = [int(h) for h in args.hidden.split(",")]
        ValueNetwork(hidden)
    except ValueError:
        parser.error(f"--hidden {args.hidden!r} is not valid: expected sizes like 256,256")
    if min(args.rounds, args.matches, args.holdout) < 1 or not 0 < args.keep <= 1:
        parser.error("expected --rounds, --matches, --holdout ≥ 1 and --keep in (0, 1]")
    settings = {
        "policy": args.policy,
        "matches": args.matches,
        "holdout": args.holdout,
        "keep": args.keep,
        "hidden_sizes": hidden,
        "learning_rate": args.learning_rate,
        "seed": args.seed,
    }
    torch.manual_seed(args.seed)
    network = ValueNetwork(hidden)
    optimizer = torch.optim.Adam(network.parameters(), lr=args.learning_rate)
    state_dir = args.out / "state"
    curve: list[dict[str, float]] = []
    done = 0
    if (state_dir / STATE.json).exists():
        try:
            state, tensors = read_state(state_dir, STATE)
            if state.get("settings") != settings:
                parser.error(
                    f"{state_dir} is a run of {state.get('settings')}: expected {settings} "
                    "(another --out, or the same settings)"
                )
            network.load_state_dict({k[4:]: v for k, v in tensors.items() if k.startswith("net.")})
            optimizer.load_state_dict(
                {
                    "state": optimizer_slots(tensors, "adam"),
                    "param_groups": optimizer.state_dict()["param_groups"],
                }
            )
        except (CorruptCheckpointError, RuntimeError) as error:
            parser.error(f"{state_dir}: cannot resume: {error}")
        done, curve = int(state["round"]), list(state["curve"])
        print(f"resuming {args.out} after round {done}", flush=True)
    started = time.perf_counter()
    test_inputs, test_targets, _, test_line = collect(
        args.holdout, HOLDOUT_SEEDS + args.seed * args.holdout, args.policy, args.keep
    )
    variance = float(test_targets.var())
    line_mse = float(np.mean((test_line - test_targets) ** 2))
    print(
        f"held out: {len(test_targets)} rows of {args.holdout} matches; agents.leaf's line: "
        f"MSE {line_mse:.0f}, R² {1 - line_mse / variance:.3f}",
        flush=True,
    )
    for round_ in range(done, args.rounds):
        rng = np.random.default_rng([args.seed, round_])  # a round's order, resumed or not
        seed = args.seed * 2**40 + round_ * args.matches
        inputs, targets, _, line = collect(args.matches, seed, args.policy, args.keep)
        train_mse = train_round(network, optimizer, inputs, targets - line, rng)
        mse = held_out_error(network, test_inputs, test_targets, test_line)
        row = {
            "round": float(round_ + 1),
            "rows": float(sum(r["round_rows"] for r in curve) + len(targets)),
            "round_rows": float(len(targets)),
            "train_mse": train_mse,
            "holdout_mse": mse,
            "holdout_r2": 1.0 - mse / variance,
            "seconds": time.perf_counter() - started,
        }
        curve.append(row)
        print(
            f"round {round_ + 1}/{args.rounds}: {int(row['rows'])} rows, train MSE "
            f"{train_mse:.0f}, held-out MSE {mse:.0f}, R² {row['holdout_r2']:.3f} "
            f"({row['seconds']:.0f} s)",
            flush=True,
        )
        best = min(curve, key=lambda r: r["holdout_mse"])
        if best is row:
            save_value(
                args.out / "value.safetensors",
                network,
                {
                    **settings,
                    "round": round_ + 1,
                    "holdout_r2": round(mse and row["holdout_r2"], 4),
                },
            )
        state_dir.mkdir(parents=True, exist_ok=True)
        tensors = {f"net.{k}": v for k, v in network.state_dict().items()}
        tensors.update(optimizer_tensors(optimizer, "adam"))
        write_state(
            state_dir, tensors, {"settings": settings, "round": round_ + 1, "curve": curve}, STATE
        )
    best = min(curve, key=lambda r: r["holdout_mse"])
    print(
        f"best: round {int(best['round'])}, held-out R² {best['holdout_r2']:.3f} "
        f"→ {args.out / 'value.safetensors'}"
    )


if __name__ == "__main__":
    main()


__all__ = ["collect", "held_out_error", "main", "train_round"]
