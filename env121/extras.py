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
the extra and the command that installs it, in the form the package was
installed (:func:`install_command`): ``.venv/bin/pip install -e ".[train]"``
for an editable checkout, ``pip install
"env121[train]"`` for a wheel.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

EXTRAS: dict[str, tuple[str, ...]] = {
    "train": ("torch", "stable_baselines3", "sb3_contrib", "safetensors", "yaml", "tensorboard"),
    "web": ("fastapi", "uvicorn", "websockets"),
    "ray": ("ray",),
}
"""Each extra's importable modules: the ones whose absence means the extra is missing."""
_PACKAGE_ROOT = Path(__file__).resolve().parents[1]
"""The folder holding the ``env121`` package: a checkout, or ``site-packages``."""


class MissingExtraError(ImportError):
    """An optional extra is not installed; the message says which and how to install it."""

    def __init__(self, extra: str, needed_by: str, missing: list[str]) -> None:
        super().__init__(
            f"{needed_by} needs the {extra} extra (missing: {', '.join(missing)}): "
            f"install it with {install_command(extra)}"
        )


def install_command(extra: str) -> str:
    """The command that installs ``extra`` into the environment holding env121:
    for an editable checkout, this environment's pip on the checkout
    (``.venv/bin/pip install -e ".[train]"`` from the checkout's root, the paths
    absolute elsewhere); for an installed wheel, ``pip install "env121[train]"``."""
    checkout = editable_checkout()
    if checkout is None:
        return f'pip install "env121[{extra}]"'
    pip = Path(sys.executable).parent / "pip"
    installer = _shown(pip) if pip.exists() else f"{_shown(Path(sys.executable))} -m pip"
    return f'{installer} install -e "{_shown(checkout)}[{extra}]"'


def editable_checkout() -> Path | None:
    """The checkout env121 runs from (an editable install, ``pip install -e``,
    or the sources on ``PYTHONPATH``): the folder above the package when it
    holds ``pyproject.toml``; None for an installed wheel (the package lies in
    ``site-packages``, no project file beside it)."""
    return _PACKAGE_ROOT if (_PACKAGE_ROOT / "pyproject.toml").is_file() else None


def _shown(path: Path) -> str:
    """``path`` relative to the working directory when it lies inside it (``.``
    for the directory itself), else as given."""
    try:
        return path.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return str(path)


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


__all__ = [
    "EXTRAS",
    "MissingExtraError",
    "editable_checkout",
    "install_command",
    "missing_modules",
    "require_extra",
]
