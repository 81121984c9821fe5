"""The rules compiled with numba, for the batched engine (:mod:`env121.engine.batched`).

The Python modules of :mod:`env121.rules` are the readable definition of the
rules; everything here is a port proven equal to them by differential tests
(``tests/rules/test_compiled*.py``). Kernels take a :class:`KernelConfig`, the
numba-friendly form of a :class:`~env121.rules.config.RuleConfig`.
"""

from env121.rules.compiled.config import KernelConfig, kernel_config

__all__ = ["KernelConfig", "kernel_config"]
