"""Where a trainer runs: its ``device`` and its ``threads``.

Both trainers (:mod:`training.batched_ppo`, :mod:`training.ppo_selfplay`) have
the two settings and read them here:

* ``device: auto | cpu | cuda | cuda:N`` — where the networks act and learn.
  ``auto`` takes the first GPU when torch sees one, else the CPU. The engine,
  the input encoder and the opponents stay on CPU threads either way, and
  checkpoints hold CPU tensors (they load on a machine without a GPU).
* ``threads`` — the engine's slices and torch's intra-op threads; 0 (the
  default) means :func:`env121.engine.batched.threads.default_threads`: the
  environment variable ``ENV121_THREADS`` when it is set, else every core
  this process may use.
"""

from __future__ import annotations

import os
import re

import numpy as np
import torch

from env121.engine.batched.threads import THREADS_VARIABLE, resolve_threads, usable_cores

DEVICE_CHOICES = "auto, cpu, cuda or cuda:N"
"""What a ``device`` setting may be, as the error lines say it."""
_DEVICE = re.compile(r"auto|cpu|cuda(:\d+)?")


def check_device(device: str) -> None:
    """Raise ``ValueError`` unless ``device`` is a device this machine has."""
    resolve_device(device)


def resolve_device(device: str) -> torch.device:
    """The torch device ``device`` names (``auto``: the first GPU torch sees,
    else the CPU); a ``ValueError`` naming it when it is not one of
    :data:`DEVICE_CHOICES` or names a GPU torch does not see."""
    if not isinstance(device, str) or not _DEVICE.fullmatch(device):
        raise ValueError(f"device={device!r} is not valid: expected {DEVICE_CHOICES}")
    if device == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if device == "cpu":
        return torch.device("cpu")
    seen = torch.cuda.device_count() if torch.cuda.is_available() else 0
    index = int(device.partition(":")[2] or 0)
    if index >= seen:
        sees = f"{seen} GPU{'s' if seen != 1 else ''}" if seen else "no GPU"
        raise ValueError(
            f"device={device!r} is not valid: torch sees {sees} on this machine "
            "(expected auto or cpu" + (f", or cuda:0 .. cuda:{seen - 1})" if seen else ")")
        )
    return torch.device("cuda", index)


def use_threads(threads: int) -> int:
    """Set torch's intra-op threads to the ``threads`` setting (0: the
    default count) and return the count, for the engine's slices too."""
    count = resolve_threads(threads)
    torch.set_num_threads(count)
    return count


def busy_note(threads: int) -> str | None:
    """A line for the user when ``threads`` threads would share busy cores:
    the load average already fills the cores this process may use and
    ``ENV121_THREADS`` is not set. Threads that wait on each other (torch's)
    slow down many times over when other work holds their cores
    (training/README.md, "Where it runs")."""
    cores = usable_cores()
    if os.environ.get(THREADS_VARIABLE) or not hasattr(os, "getloadavg") or threads < 2:
        return None
    load = os.getloadavg()[0]
    if load < cores - 0.5:
        return None
    return (
        f"the machine is busy (load {load:.1f} on {cores} cores) and the trainer runs "
        f"{threads} threads: if it runs slowly, set {THREADS_VARIABLE} to the cores that "
        "are yours (training/README.md, 'Where it runs')"
    )


def pinned(shape: tuple[int, ...], dtype: type, device: torch.device) -> torch.Tensor:
    """A zeroed CPU tensor of numpy ``dtype`` for data bound for ``device``:
    in page-locked memory when ``device`` is a GPU (its copies then run
    asynchronously), else numpy's own (zero pages that the system fills as
    they are first written)."""
    array = torch.from_numpy(np.zeros(shape, dtype=dtype))
    return array.pin_memory() if device.type == "cuda" else array


__all__ = [
    "DEVICE_CHOICES",
    "busy_note",
    "check_device",
    "pinned",
    "resolve_device",
    "use_threads",
]
