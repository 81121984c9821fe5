"""The package's optional extras, and the one error that names a missing one.

The base install (``pip install -e .``) scores hands, plays and replays
matches, and runs tournaments between ``random``, ``greedy`` and ``mc``. Three
extras add the rest (``pyproject.toml`` lists their packages):

* ``train`` — torch (pinned), Stable-Baselines3, sb3-contrib, safetensors,
  PyYAML, TensorBoard: ``env121 train``, ``env121 imitate`` and the
  ``ppo:`` agents;
* ``web`` — FastAPI, uvicorn, websockets: ``env121 serve``;
* ``ray`` — Ray and RLlib: ``env121 tournament --ray`` and the RLlib trainer.

A command or agent that needs an extra calls :func:`require_extra` before any
work starts; a missing module becomes one :class:`MissingExtraError` naming
the extra and the command that installs it (the same command works for an
editable checkout and an installed wheel: pip adds the extra's packages to
the installed ``env121``).
"""

from __future__ import annotations

import importlib.util
import sys

EXTRAS: dict[str, tuple[str, ...]] = {
    "train": ("torch", "stable_baselines3", "sb3_contrib", "safetensors", "yaml", "tensorboard"),
    "web": ("fastapi", "uvicorn", "websockets"),
    "ray": ("ray",),
}
"""Each extra's importable modules: the ones whose absence means the extra is missing."""


class MissingExtraError(ImportError):
    """An optional extra is not installed; the message says which and how to install it."""

    def __init__(self, extra: str, needed_by: str, missing: list[str]) -> None:
        super().__init__(
            f"{needed_by} needs the {extra} extra (missing: {', '.join(missing)}): "
            f"install it with {install_command(extra)}"
        )


def install_command(extra: str) -> str:
    """The command that installs ``extra`` into the environment holding env121."""
    return f'pip install "env121[{extra}]"'


def missing_modules(extra: str) -> list[str]:
    """The modules of ``extra`` (a key of :data:`EXTRAS`) this environment lacks
    (found nowhere, or blocked: ``sys.modules[name] = None``)."""
    return [module for module in EXTRAS[extra] if not _importable(module)]


def _importable(module: str) -> bool:
    if module in sys.modules and sys.modules[module] is None:
        return False
    return importlib.util.find_spec(module) is not None


def require_extra(extra: str, needed_by: str) -> None:
    """Raise :class:`MissingExtraError` unless every module of ``extra`` can be
    imported; ``needed_by`` names what needs it (``"env121 train"``)."""
    missing = missing_modules(extra)
    if missing:
        raise MissingExtraError(extra, needed_by, missing)


__all__ = ["EXTRAS", "MissingExtraError", "install_command", "missing_modules", "require_extra"]
