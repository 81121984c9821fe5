#!/usr/bin/env bash
# Set up from nothing and run every check: a newcomer's first contact (the
# README's first command as written, the wheel outside the checkout), then
# lint, format, types, import contracts, tests and notebooks.
# Usage: bash scripts/test.sh [extra pytest args]
set -euo pipefail
cd "$(dirname "$0")/.."
# The browser test (tests/web/test_browser.py) drives Debian's chromium through
# its chromedriver: installed here once when we may (as root), never downloaded
# at test time; without them the test is skipped and says why.
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
  else
    echo "== note: chromium and chromedriver are not installed and this is not root:" \
      "the browser test will be skipped"
  fi
fi
echo "== first contact";       bash scripts/first_contact.sh
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
echo "== kernels";             .venv/bin/env121 warmup
echo "== pytest";              .venv/bin/pytest -q -n auto "$@"
echo "== notebooks";           .venv/bin/pytest -q --nbmake notebooks/
