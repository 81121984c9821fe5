"""Payment of a vòng (spec §7): who pays whom, in points (1 Điểm = 100 points)."""

from __future__ import annotations

from env121.rules.config import RuleConfig

NUM_SEATS = 4
POINTS_PER_DIEM = 100


def win_payments(diem: int, winner: int, config: RuleConfig) -> tuple[int, ...]:
    """Point changes of seats 0..3 when ``winner`` wins ``diem`` Điểm.

    The winner receives 100·D, paid 3-4-3: each neighbour (winner ± 1) pays
    30·D and the player opposite 40·D [R-12]. With
    ``payment_rounding="hundreds"`` each neighbour's share is rounded down to
    a multiple of 100 and the opposite pays the rest (the book's example:
    7 Điểm → 200 / 300 / 200). Always zero-sum.
    """
    if diem < 0:
        raise ValueError(f"a win is worth at least 0 Điểm, got {diem}")
    if not 0 <= winner < NUM_SEATS:
        raise ValueError(f"winner seat {winner} is not a seat: expected 0..{NUM_SEATS - 1}")
    total = POINTS_PER_DIEM * diem
    neighbour = 30 * diem
    if config.payment_rounding == "hundreds":
        neighbour -= neighbour % POINTS_PER_DIEM
    opposite = total - 2 * neighbour
    deltas = [0] * NUM_SEATS
    deltas[winner] = total
    deltas[(winner + 1) % NUM_SEATS] = -neighbour
    deltas[(winner + 3) % NUM_SEATS] = -neighbour
    deltas[(winner + 2) % NUM_SEATS] = -opposite
    return tuple(deltas)


def den_payments(offender: int) -> tuple[int, ...]:
    """Point changes for Đền (§5.7): the offender pays 100 to each other player."""
    if not 0 <= offender < NUM_SEATS:
        raise ValueError(f"offender seat {offender} is not a seat: expected 0..{NUM_SEATS - 1}")
    return tuple(
        -POINTS_PER_DIEM * (NUM_SEATS - 1) if seat == offender else POINTS_PER_DIEM
        for seat in range(NUM_SEATS)
    )
