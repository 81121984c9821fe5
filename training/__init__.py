"""Training: the self-play trainers for 121, and what they share.

* :mod:`training.batched_ppo` — PPO on the batched engine, one policy for all
  four seats, learning from scratch (presets with ``algorithm: batched_ppo``);
* :mod:`training.ppo_selfplay` — sb3-contrib's MaskablePPO, one learner seat
  against a pool (the other presets): :func:`train` / :class:`Config` /
  :func:`load_config` run a preset or resume a run;
* :mod:`training.expert_iteration` — expert iteration: the search plays,
  a network is fitted to its choices, the next search uses it
  (``algorithm: expert_iteration``);
* :mod:`training.imitation` — behaviour cloning of a teacher (``env121
  imitate``), which expert iteration fits each generation with;
* :mod:`training.value` — the learned leaf value of the search;
* :mod:`training.run` — the one run lifecycle both trainers share: run
  directory, start and resume checks, resuming from the newest checkpoint
  that loads, rolling the run back to it, :class:`TrainResult`;
* :mod:`training.settings` — presets (``training/presets/*.yaml``, listed by
  :func:`available_presets`), ``--set`` overrides and saved run settings;
* :mod:`training.ppo_settings` — the settings both PPO trainers have, declared
  once (their ``Config`` classes extend it);
* :mod:`training.pool` — the on-disk pool of learner snapshots and the
  opponent mixture the environments draw from;
* :mod:`training.stats` — the learner's per-episode rates (``charts/…``);
* :mod:`training.curves` — a run's learning curves, ``curves.png``;
* :mod:`training.checkpoint` — weights-only export and pickle-free resume;
* :mod:`training.evaluation` — the arena's 1-vs-3 evaluation.

The names above load torch and Stable-Baselines3 on first use, except
:data:`PRESETS_DIR` and :func:`available_presets` (the command line lists the
presets in its help), which need nothing beyond the base install.
"""

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

PRESETS_DIR = Path(__file__).parent / "presets"
"""The shipped presets: ``NAME.yaml`` is ``--preset NAME``."""


def available_presets() -> list[str]:
    """Names of the shipped presets."""
    return sorted(p.stem for p in PRESETS_DIR.glob("*.yaml"))


if TYPE_CHECKING:
    from training.ppo_selfplay import Config, load_config, train
    from training.run import TrainResult
else:
    _HOMES = {
        "Config": "training.ppo_selfplay",
        "load_config": "training.ppo_selfplay",
        "train": "training.ppo_selfplay",
        "TrainResult": "training.run",
    }

    def __getattr__(name: str) -> Any:
        """Load the module of one of the names above on its first use."""
        if name not in _HOMES:
            raise AttributeError(f"module 'training' has no attribute {name!r}")
        return getattr(importlib.import_module(_HOMES[name]), name)


__all__ = ["PRESETS_DIR", "Config", "TrainResult", "available_presets", "load_config", "train"]
