"""Named streams of randomness derived from one seed: the project's one seed-key scheme.

Every random number of a match, a tournament or a training run comes from an
integer seed through ``numpy.random.SeedSequence(entropy)``, where ``entropy``
is the seed, then the stream's fixed key words, then the values that pick one
draw of the stream (the ván and vòng of a deal, the seat of an agent)::

    seed_sequence(seed, Stream.DEAL, van, vong)    # SeedSequence([seed, van, vong])
    derive_seed(seed, Stream.PLAY_AGENT, seat)     # SeedSequence([seed, 0xA6E, seat])

``derive_rng`` gives the sequence's ``Generator``; ``derive_seed`` its first
32-bit word, the ``reset`` seed of an agent or of another stream.

The streams (entropy after the seed, then what the stream seeds):

* ``DEAL`` — ván, vòng: the shuffle of each vòng of match ``seed``. Its draws
  are made by :mod:`env121.engine.shuffle`, our own copy of the stream this
  key gives numpy's ``Generator.permutation``, not by ``derive_rng``;
* ``RANDOM_PLAYERS`` — ``0x121``: the one generator of the four random players
  of ``env121 play --seed``;
* ``PLAY_AGENT`` — ``0xA6E``, seat: ``reset`` of the agent in ``seat`` of
  ``env121 play --seed --agents``;
* ``HINTS`` — ``1``: the search hints' own generator, from the seed of the
  agent or environment that holds them;
* ``TOURNAMENT_DEAL`` — deal: the match seed of deal ``deal`` of a tournament;
* ``TOURNAMENT_AGENT`` — deal seed, line-up, rotation, seat: ``reset`` of one
  seat's agent in one game of a tournament;
* ``TEACHER`` — seat: ``reset`` of the teacher in ``seat`` of demonstration
  match ``seed``;
* ``TEACHER_HINTS`` — ``4``: ``reset`` of that match's hinter (keyed as a fifth
  seat).

The keys are those the streams had before they were gathered here, so every
derived number is unchanged: the golden transcripts, the arena's results,
record files and the shipped checkpoints' play (``tests/engine/test_seeds.py``
pins a few). Streams without a key word are told apart only by what uses them,
and ``SeedSequence`` pads a short entropy with zeros, so some streams meet:
``[seed, 1]`` is HINTS, TEACHER's seat 1 and TOURNAMENT_DEAL's deal 1 alike.
They feed unrelated draws (a hinter's, a teacher's, a tournament's deals), so
it does no harm; a new stream takes a key word of its own.

What a numpy release may change: numpy keeps ``SeedSequence`` and its bit
generators (PCG64) bit for bit, so :func:`derive_seed` is stable; the
``Generator`` methods' streams (``integers``, ``choice``, ``permutation``) it
does not promise to keep across feature releases. The deal, which every
record and golden transcript replays, is therefore our own code; the other
``derive_rng`` streams (the random players', the agents') only pick moves,
which records store as played, so a numpy change could alter what a seeded
random player picks, never a record's replay.
"""

from __future__ import annotations

from enum import Enum

import numpy as np


class Stream(Enum):
    """A named stream: its key words and the names of the values that follow them."""

    DEAL = ((), ("van", "vong"))
    RANDOM_PLAYERS = ((0x121,), ())
    PLAY_AGENT = ((0xA6E,), ("seat",))
    HINTS = ((1,), ())
    TOURNAMENT_DEAL = ((), ("deal",))
    TOURNAMENT_AGENT = ((), ("deal_seed", "lineup", "rotation", "seat"))
    TEACHER = ((), ("seat",))
    TEACHER_HINTS = ((4,), ())

    def __init__(self, key: tuple[int, ...], fields: tuple[str, ...]) -> None:
        self.key = key
        """Fixed words mixed in after the seed."""
        self.fields = fields
        """What the values given after the key are, in order."""


def seed_sequence(seed: int, stream: Stream, *values: int) -> np.random.SeedSequence:
    """The ``SeedSequence`` of ``stream`` from ``seed``; ``values`` are the
    stream's :attr:`~Stream.fields` in order (non-negative integers)."""
    if len(values) != len(stream.fields):
        raise ValueError(
            f"stream {stream.name} takes {len(stream.fields)} value(s) after the seed "
            f"({', '.join(stream.fields) or 'none'}), got {len(values)}: {list(values)}"
        )
    return np.random.SeedSequence([seed, *stream.key, *values])


def derive_rng(seed: int, stream: Stream, *values: int) -> np.random.Generator:
    """A generator drawing from ``stream`` of ``seed`` (see :func:`seed_sequence`)."""
    return np.random.default_rng(seed_sequence(seed, stream, *values))


def derive_seed(seed: int, stream: Stream, *values: int) -> int:
    """An integer seed from ``stream`` of ``seed``: the sequence's first 32-bit word."""
    return int(seed_sequence(seed, stream, *values).generate_state(1)[0])


__all__ = ["Stream", "derive_rng", "derive_seed", "seed_sequence"]
