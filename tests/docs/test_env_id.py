"""Every page and docstring names the environment by its current id.

The id is :data:`env121.envs.aec_env.ENV_ID` (``env121_v1``); a bump of it
leaves every other ``env121_v<N>`` in the tracked files to fix, and this test
lists them. History that names an old id on purpose is in :data:`HISTORY`.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from env121.envs.aec_env import ENV_ID

REPOSITORY = Path(__file__).resolve().parents[2]
ENV_IDS = re.compile(r"env121_v\d+")
SUFFIXES = {".py", ".md", ".ipynb", ".yaml", ".toml", ".html", ".js"}
HISTORY = {
    ("training/README.md", "Before the compiled engine (`env121_v0`"): "a measurement of v0",
    ("docs/api.md", "as record format 1 and `env121_v0` played"): "how v0 played, for records",
    ("tests/training/test_ppo_agent.py", '"env121_v9"'): "a checkpoint of another id, refused",
}
"""(file, text of the line) → why that line names an old id."""


def test_every_file_names_the_current_env_id():
    listed = subprocess.run(
        ["git", "ls-files"], cwd=REPOSITORY, capture_output=True, text=True, check=True
    ).stdout.split()
    stale = []
    for name in listed:
        path = REPOSITORY / name
        if path.suffix not in SUFFIXES or not path.is_file() or path == Path(__file__).resolve():
            continue  # this file names the old ids of HISTORY
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            old = any(found != ENV_ID for found in ENV_IDS.findall(line))
            if old and not any(name == f and text in line for f, text in HISTORY):
                stale.append(f"{name}:{number}: {line.strip()}")
    assert not stale, f"names another env id than {ENV_ID}:\n" + "\n".join(stale)
