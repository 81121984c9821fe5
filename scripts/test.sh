#!/usr/bin/env bash
# Set up from nothing and run every check: lint, format, types, tests.
# Usage: bash scripts/test.sh [extra pytest args]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet torch==2.13.0  # pinned: any other request pulls CUDA builds
.venv/bin/python -m pip install --quiet -e ".[dev]"
echo "== ruff check";          .venv/bin/ruff check .
echo "== ruff format --check"; .venv/bin/ruff format --check .
echo "== mypy";                .venv/bin/mypy
echo "== import contracts";    .venv/bin/lint-imports
echo "== pytest";              .venv/bin/pytest -q "$@"
echo "== notebooks";           .venv/bin/pytest -q --nbmake notebooks/
