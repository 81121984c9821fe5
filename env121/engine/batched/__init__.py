"""B matches of 121 stepped at once on the compiled kernel: :class:`BatchedEngine`.

The same kernels (:mod:`env121.engine.kernel`) move one match for
:mod:`env121.engine.game`; here they move a batch, on one thread per core, for
training, tournaments and the vector env. The deal of a seed is the same in
both, so the same seed and actions give the same match.
"""

from env121.engine.batched.engine import BatchedEngine, FinalInfo, StepResult

__all__ = ["BatchedEngine", "FinalInfo", "StepResult"]
