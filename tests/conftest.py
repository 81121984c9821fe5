"""Hypothesis profiles for the whole suite.

``ci`` (loaded by default): derandomized, so every run tries the same examples
and a failure in CI reproduces on any machine; no deadline (the machine is
shared and timings wander). ``explore`` (``pytest --hypothesis-profile=explore``)
draws fresh random examples on every run, for hunting new bugs locally; a
failure it finds is printed with its ``@reproduce_failure`` blob and belongs
in a regular test. Each test still bounds its own ``max_examples``.
"""

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None)
settings.register_profile("explore", derandomize=False, deadline=None)
settings.load_profile("ci")
