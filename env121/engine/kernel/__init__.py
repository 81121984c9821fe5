"""The compiled engine: every match of 121 is a record moved by numba kernels.

:mod:`~env121.engine.kernel.record` lays out one game's record (a numpy
structured array holds B of them), :mod:`~env121.engine.kernel.transitions`
moves them (deal, legal actions, every transition of the rules, the
auto-reset of a batch), :mod:`~env121.engine.kernel.rng` deals a vòng from its
seed, and :mod:`~env121.engine.kernel.convert` converts a record to the
engine's :class:`~env121.engine.state.State`, events and results and back.
Two faces use it: :mod:`env121.engine.game` plays one match (the API of the
rules engine), :class:`env121.engine.batched.BatchedEngine` plays B at once.

The Python transitions in ``tests/support/oracle.py`` are the readable
definition of the rules this kernel is proven equal to, in lock-step, by the
differential tests (``tests/engine/test_batched_differential.py``) and the
100,000-vòng script (``scripts/differential.py``).
"""
