#!/usr/bin/env bash
# Set up from nothing and run every check: a newcomer's first contact (the
# README's first command as written, the wheel outside the checkout), lint,
# format, types, import contracts, the documentation site (strict), tests and
# notebooks.
# Usage: bash scripts/test.sh [extra pytest args]
#
# The first contact runs beside the other stages (most of its time is pip
# installing and building): its log is shown when it ends, and a failure fails
# the command. Its first step unpacks the shipped kernels (or, where none fit,
# compiles them) into the shared cache; the checks here wait for that step
# before using the kernels, so they are compiled at most once.
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
# A stage's heading, with the seconds since the command started.
stage() { echo "== $* (at ${SECONDS} s)"; }
first_contact_log=$(mktemp)
# its own process group (setsid), so that a failure here stops all of it
setsid bash scripts/first_contact.sh >"$first_contact_log" 2>&1 </dev/null &
first_contact=$!
# Show the first contact's log once it has ended (once); exit if it failed.
finish_first_contact() {
  [ -n "$first_contact" ] || return 0
  local status=0
  wait "$first_contact" || status=$?
  first_contact=
  stage "first contact (run beside the other stages)"
  cat "$first_contact_log"
  if [ "$status" != 0 ]; then
    echo "== first contact FAILED (exit status $status)"
    exit "$status"
  fi
}
# Wait for the first contact's step 1 (the README's first command, which
# unpacks or compiles the kernels into the shared cache); if it has ended, finish it.
wait_for_the_kernels() {
  while kill -0 "$first_contact" 2>/dev/null && ! grep -q '^-- 2\.' "$first_contact_log"; do
    sleep 1
  done
  if ! kill -0 "$first_contact" 2>/dev/null; then finish_first_contact; fi
}
# A stage that fails stops the first contact (its process group).
trap 'if [ -n "$first_contact" ]; then kill -- "-$first_contact" 2>/dev/null || kill "$first_contact" 2>/dev/null || true; fi
      rm -f "$first_contact_log"' EXIT
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet torch==2.13.0  # pinned: any other request pulls CUDA builds
.venv/bin/python -m pip install --quiet -e ".[dev]"
stage "ruff check";          .venv/bin/ruff check .
stage "ruff format --check"; .venv/bin/ruff format --check .
stage "mypy";                .venv/bin/mypy
stage "import contracts";    .venv/bin/lint-imports
stage "docs site (strict)";  NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict
wait_for_the_kernels
stage "kernels";             .venv/bin/env121 warmup
stage "pytest";              .venv/bin/pytest -q -n auto --dist loadgroup -m "not ray_cluster" "$@"
# The tests that start a local Ray cluster, in one process, module after module
# (one cluster connection a process: tests/support/ray_cluster.py).
stage "pytest (Ray clusters)"; .venv/bin/pytest -q -m ray_cluster "$@"
stage "notebooks";           .venv/bin/pytest -q -n auto --nbmake notebooks/
finish_first_contact
echo "== passed in ${SECONDS} s"
