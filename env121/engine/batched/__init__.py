"""The compiled, batched engine (issue 15): B games as arrays, moved by numba kernels.

The reference engine (:mod:`env121.engine.game`) stays the definition of the
rules; this package is a port of it, proven equal in lock-step by differential
tests. :mod:`~env121.engine.batched.rng` deals a vòng exactly as
:meth:`env121.engine.deal.Deal.from_seed` does, so the same seed gives the same
cards in both engines.
"""
