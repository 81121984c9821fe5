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
# Stages run beside the others, each in its own process group (setsid) with
# its output kept in a log: `beside NAME COMMAND…` starts one, `finish NAME`
# waits for it, shows its log (once) and exits if it failed. A stage that
# fails stops the ones still running beside it.
declare -A beside_pid beside_log
beside() {
  local name=$1
  shift
  beside_log[$name]=$(mktemp)
  setsid "$@" >"${beside_log[$name]}" 2>&1 </dev/null &
  beside_pid[$name]=$!
}
finish() {
  local name=$1 status=0
  [ -n "${beside_pid[$name]:-}" ] || return 0
  wait "${beside_pid[$name]}" || status=$?
  beside_pid[$name]=
  stage "$name (run beside the other stages)"
  cat "${beside_log[$name]}"
  if [ "$status" != 0 ]; then
    echo "== $name FAILED (exit status $status)"
    exit "$status"
  fi
}
stop_beside() {
  local name
  for name in "${!beside_pid[@]}"; do
    if [ -n "${beside_pid[$name]}" ]; then
      kill -- "-${beside_pid[$name]}" 2>/dev/null || kill "${beside_pid[$name]}" 2>/dev/null || true
    fi
    rm -f "${beside_log[$name]}"
  done
}
trap stop_beside EXIT
beside "first contact" bash scripts/first_contact.sh
# Wait for the first contact's step 1 (the README's first command, which
# unpacks or compiles the kernels into the shared cache); if it has ended, finish it.
wait_for_the_kernels() {
  local pid=${beside_pid["first contact"]}
  while kill -0 "$pid" 2>/dev/null && ! grep -q '^-- 2\.' "${beside_log["first contact"]}"; do
    sleep 1
  done
  if ! kill -0 "$pid" 2>/dev/null; then finish "first contact"; fi
}
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
# torch pinned: any other request pulls CUDA builds. (Byte-compiling every
# module here pays: with --no-compile pip was 11 s shorter, but the tests'
# processes, Ray's workers most, compiled the same modules side by side, and
# the whole command took longer; compiling them with compileall on both cores
# after pip's --no-compile took longer too, 78 s against 65, beside the first
# contact's own installs.)
.venv/bin/python -m pip install --quiet torch==2.13.0 -e ".[dev]"
stage "ruff check";          .venv/bin/ruff check .
stage "ruff format --check"; .venv/bin/ruff format --check .
# The checks that read the code and the pages, not run it: beside the tests.
beside "types, import contracts, docs site" bash -c 'set -e
  echo "== mypy";                .venv/bin/mypy
  echo "== import contracts";    .venv/bin/lint-imports
  echo "== docs site (strict)";  NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict'
wait_for_the_kernels
stage "kernels";             .venv/bin/env121 warmup
# The tests that start a local Ray cluster, beside pytest's main stage (alone,
# a third of the two cores sat idle while Ray started its processes and waited
# on them: docs/tests.md), in one process, module after module (one
# cluster connection a process: tests/support/ray_cluster.py). Only the
# modules that name the mark (directly, or through tests/support/ray_cluster.py's
# one_cluster_at_a_time) are collected: collecting every module to keep 23
# tests took 12 s.
mapfile -t ray_modules < <(grep -rlE 'ray_cluster|one_cluster_at_a_time' tests --include='test_*.py' | sort)
beside "pytest (Ray clusters)" .venv/bin/pytest -q -m ray_cluster "${ray_modules[@]}" "$@"
stage "pytest";              .venv/bin/pytest -q -n auto --dist loadgroup -m "not ray_cluster" "$@"
finish "types, import contracts, docs site"
stage "notebooks";           .venv/bin/pytest -q -n auto --nbmake notebooks/
finish "pytest (Ray clusters)"
finish "first contact"
echo "== passed in ${SECONDS} s"
