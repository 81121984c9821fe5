"""A trainer's settings: one dataclass per algorithm, read from presets, ``--set``, runs.

Every trainer (:mod:`training.ppo_selfplay`, :mod:`training.batched_ppo`,
:mod:`training.expert_iteration`)
declares its settings as a dataclass with a ``check()`` method and an
``algorithm`` field. This module reads them the same way for all: a preset is
a YAML file of fields (``training/presets/NAME.yaml`` or a path), ``--set
key=value`` overrides are read as YAML values, a run saves its settings as
``RUN_DIR/config.yaml``; an unknown field, a value of the wrong type or one
``check()`` refuses is a ``ValueError`` naming it. :func:`algorithm_of` tells
which trainer a preset or a run directory belongs to.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar, get_type_hints

import yaml

from env121.engine.files import write_atomically
from training import PRESETS_DIR, available_presets

DEFAULT_ALGORITHM = "maskable_ppo"
"""The algorithm of a preset or run that names none (:mod:`training.ppo_selfplay`)."""
ALGORITHMS = ("maskable_ppo", "batched_ppo", "expert_iteration")
"""The trainers: SB3's MaskablePPO (one learner seat), the batched self-play PPO
and expert iteration (:mod:`training.expert_iteration`)."""


class Settings(Protocol):
    """What a trainer's settings dataclass provides."""

    algorithm: str

    def check(self) -> None:
        """Raise ``ValueError`` naming the first field whose value is not accepted."""


S = TypeVar("S", bound=Settings)


def preset_path(preset: str | Path) -> Path:
    """The YAML file of ``preset`` (a shipped preset's name or a path)."""
    path = Path(preset)
    if not path.suffix:
        path = PRESETS_DIR / f"{preset}.yaml"
    if not path.is_file():
        raise ValueError(
            f"preset {str(preset)!r} does not exist: expected one of {available_presets()} "
            "or a YAML file"
        )
    return path


def saved_config_path(run: str | Path) -> Path:
    """The ``config.yaml`` of the run directory ``run`` (``--resume RUN_DIR``),
    or a ``ValueError`` saying why ``run`` is not one."""
    directory = Path(run)
    if not directory.exists():
        raise ValueError(f"--resume {str(run)!r} is not valid: it does not exist")
    if not directory.is_dir():
        raise ValueError(
            f"--resume {str(run)!r} is not valid: it is a file: expected a run directory "
            "(the --out of env121 train)"
        )
    path = directory / "config.yaml"
    if not path.is_file():
        raise ValueError(f"--resume {str(run)!r} is not valid: no config.yaml there")
    return path


def preset_values(path: Path) -> dict[str, Any]:
    """The mapping of fields in the preset file ``path``."""
    source = f"preset {str(path)!r}"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ValueError(f"{source} cannot be read ({error.strerror})") from None
    except UnicodeDecodeError:
        raise ValueError(f"{source} is not valid: not UTF-8 text") from None
    return _mapping(_yaml(text, source) or {}, source)


def saved_values(path: Path, on_note: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The mapping of fields a run saved in ``path`` (its ``config.yaml``), under
    today's names (:func:`renamed_fields`, which says so through ``on_note``)."""
    try:
        values = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, yaml.YAMLError) as error:
        reason = str(error).splitlines()[0]
        raise ValueError(f"{path} is not valid: not YAML ({reason})") from None
    return renamed_fields(_mapping(values, str(path)), on_note)


RENAMED_THREADS = ("engine_threads", "torch_threads")
"""The names ``threads`` had before it was one setting of every trainer (the batched
trainer's engine and torch threads; the SB3 trainer's torch threads)."""


def renamed_fields(
    values: dict[str, Any], on_note: Callable[[str], None] | None = None
) -> dict[str, Any]:
    """A saved run's fields under today's names: a run saved before ``threads``
    replaced ``engine_threads``/``torch_threads`` resumes with ``threads`` set to
    the first of them it holds (both were the thread count of one setting)."""
    old = [name for name in RENAMED_THREADS if name in values]
    if not old:
        return values
    values = dict(values)
    counts = [values.pop(name) for name in old]
    values.setdefault("threads", counts[0])
    if on_note is not None:
        was = ", ".join(f"{name}={count}" for name, count in zip(old, counts, strict=True))
        on_note(f"the run's {was} read as threads={values['threads']} (one setting now)")
    return values


def _mapping(values: Any, source: str) -> dict[str, Any]:
    if not isinstance(values, dict):
        raise ValueError(f"{source} is not valid: expected a mapping of config fields")
    return values


def algorithm_of(values: dict[str, Any], source: str) -> str:
    """The ``algorithm`` a mapping of fields names (:data:`DEFAULT_ALGORITHM` if none)."""
    algorithm = values.get("algorithm", DEFAULT_ALGORITHM)
    if algorithm not in ALGORITHMS:
        raise ValueError(
            f"{source}: algorithm={algorithm!r} is not valid: expected one of {list(ALGORITHMS)}"
        )
    return str(algorithm)


def load_config(cls: type[S], preset: str | Path, overrides: Any = ()) -> S:
    """The settings of ``preset`` with ``key=value`` overrides applied, checked."""
    path = preset_path(preset)
    values = preset_values(path)
    return with_overrides(from_dict(cls, values, str(path)), overrides)


def from_dict(cls: type[S], values: dict[str, Any], source: str = "config") -> S:
    """Checked settings of type ``cls`` from plain values (unknown keys are errors)."""
    config = cls()
    types = get_type_hints(cls)
    for key, value in values.items():
        setattr(config, key, _coerce(types, key, value, source))
    config.check()
    return config


def with_overrides(config: S, overrides: Any) -> S:
    """``config`` with ``key=value`` strings applied (values parsed as YAML)."""
    values = _fields(config)
    for item in overrides:
        key, eq, text = item.partition("=")
        if not eq:
            raise ValueError(f"--set {item!r} is not valid: expected key=value")
        values[key.strip()] = _yaml(text, f"--set {item!r}")
    return from_dict(type(config), values, source="--set")


def save_config(config: Settings, path: Path) -> None:
    """Write ``config`` as YAML (atomically)."""
    write_atomically(path, yaml.safe_dump(_fields(config), sort_keys=False, allow_unicode=True))


def read_config(cls: type[S], path: Path) -> S:
    """The settings a run saved (:func:`save_config`), checked."""
    return from_dict(cls, saved_values(path), source=str(path))


def check_choice(name: str, value: object, accepted: Sequence[str]) -> None:
    """Raise unless ``value`` is one of ``accepted``."""
    if value not in accepted:
        raise ValueError(f"{name}={value!r} is not valid: expected one of {list(accepted)}")


def check_at_least(name: str, value: int, minimum: int) -> None:
    """Raise unless ``value`` is an integer ≥ ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{name}={value!r} is not valid: expected an integer >= {minimum}")


def check_in_range(
    name: str, value: float, low: float, high: float, accepted: str, low_included: bool = False
) -> None:
    """Raise unless ``low < value <= high`` (``low <= …`` when ``low_included``) and finite."""
    above_low = value >= low if low_included else value > low
    if not (math.isfinite(value) and above_low and value <= high):
        raise ValueError(f"{name}={value!r} is not valid: expected a number {accepted}")


def _fields(config: Any) -> dict[str, Any]:
    """The fields of a settings dataclass as plain values."""
    return dataclasses.asdict(config)


def _yaml(text: str, source: str) -> Any:
    """``text`` read as YAML; ``ValueError`` naming ``source`` if it is not YAML."""
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        reason = " ".join(str(error).split())
        raise ValueError(f"{source} is not valid YAML: {reason}") from None


def _coerce(types: dict[str, Any], key: str, value: Any, source: str) -> Any:
    if key not in types:
        raise ValueError(
            f"{source}: {key!r} is not a config field: expected one of {sorted(types)}"
        )
    kind = types[key]
    origin = getattr(kind, "__origin__", kind)
    if isinstance(value, str) and kind in (int, float):
        with contextlib.suppress(ValueError):
            value = float(value)  # "1e6"
    args = getattr(kind, "__args__", ())
    element = args[0] if origin is list and args else None
    ok = {
        bool: isinstance(value, bool),
        int: isinstance(value, int | float)
        and not isinstance(value, bool)
        and float(value).is_integer(),
        float: isinstance(value, int | float) and not isinstance(value, bool),
        str: isinstance(value, str),
        list: isinstance(value, list) and all(isinstance(v, element or int) for v in value),
        dict: isinstance(value, dict),
    }[origin]
    if not ok:
        name = kind.__name__ if isinstance(kind, type) else str(kind)
        raise ValueError(f"{source}: {key}={value!r} is not valid: expected {name}")
    return int(value) if kind is int else float(value) if kind is float else value


__all__ = [
    "ALGORITHMS",
    "DEFAULT_ALGORITHM",
    "RENAMED_THREADS",
    "algorithm_of",
    "check_at_least",
    "check_choice",
    "check_in_range",
    "from_dict",
    "load_config",
    "preset_path",
    "preset_values",
    "read_config",
    "renamed_fields",
    "save_config",
    "saved_config_path",
    "saved_values",
    "with_overrides",
]
