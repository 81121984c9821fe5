#!/usr/bin/env bash
# A newcomer's first contact, checked the way a newcomer makes it (a stage of
# scripts/test.sh; it needs python3 with venv and pip, and no root):
#
# 1. The README's first command, exactly as written (read from README.md, its
#    install step included), in a fresh copy of the checkout with no .venv.
# 2. The wheel built from the checkout, installed into a fresh virtualenv and
#    run from a folder outside the checkout: the base install runs the main
#    job and `env121 play`, and names the extra that `env121 serve` and a ppo
#    agent need; with the train and web extras it plays a tournament of the
#    stable names `best` (mc with the shipped value network) against mc and
#    `best-net` (ppo:scratch) against greedy, and serves the web table (the
#    page and its scripts answer on 127.0.0.1), so the package data (checkpoints, presets, static files)
#    ships. No kernel cache file is written inside the installed package, and
#    a read-only install plays (checked where root may mount one).
#
# The wheel's installs skip byte-compiling (torch's alone is 9 s of CPU, taken
# from the checks beside this stage): what the commands import is compiled as
# they import it. pip's download cache is used (not the project's .venv); the
# compiled kernels are shared with every other environment holding the same
# sources.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
server=
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "first contact: FAILED: $*" >&2
  exit 1
}

# quietly WHAT COMMAND…: run it with its output kept in a log, shown only if it fails.
quietly() {
  local what=$1
  shift
  "$@" >"$work/step.log" 2>&1 || { cat "$work/step.log"; fail "$what"; }
}

# The first bash block of the README's "The two commands" section.
first_command=$(python3 - <<'EOF'
import re, pathlib
text = pathlib.Path("README.md").read_text(encoding="utf-8")
section = text.split("## The two commands", 1)[1]
print(re.search(r"```bash\n(.*?)\n```", section, re.S).group(1))
EOF
)

echo "-- 1. the README's first command, in a fresh copy of the checkout:"
echo "   $first_command"
mkdir "$work/source"
git ls-files -z --cached --others --exclude-standard \
  | tar --null --files-from=- --ignore-failed-read -cf - 2>/dev/null \
  | tar -xf - -C "$work/source"
cp -a "$work/source" "$work/checkout"
start=$SECONDS
(cd "$work/checkout" && bash -c "$first_command") >"$work/first.log" 2>&1 \
  || { cat "$work/first.log"; fail "the README's first command exited non-zero"; }
grep -q "greedy vs 3× random: advantage" "$work/first.log" \
  || { cat "$work/first.log"; fail "the README's first command printed no tournament result"; }
echo "   ok in $((SECONDS - start)) s"

echo "-- 2. the wheel, installed outside the checkout:"
start=$SECONDS
quietly "building the wheel" python3 -m pip wheel --no-deps --wheel-dir "$work/dist" "$work/source"
wheel=$(ls "$work/dist"/env121-*.whl)
python3 -m venv "$work/venv"
quietly "installing the wheel" "$work/venv/bin/pip" install --no-compile "$wheel"
mkdir "$work/outside"
cd "$work/outside"
env121=$work/venv/bin/env121
"$env121" --version
"$env121" tournament --vs greedy random --deals 4 --seed 1 --quiet --no-plot \
  || fail "the wheel's base install: the main job failed"
"$env121" play --seed 1 >"$work/play.log" || fail "the wheel's base install: env121 play failed"
for command in "serve" "tournament --vs ppo:scratch greedy --deals 1"; do
  if "$env121" $command >/dev/null 2>"$work/extra.log"; then
    fail "the base install ran env121 $command, which needs an extra"
  fi
  grep -q 'needs the .* extra' "$work/extra.log" && [ "$(wc -l <"$work/extra.log")" = 1 ] \
    || { cat "$work/extra.log"; fail "env121 $command without its extra: expected one line naming it"; }
done
echo "   base install ok; adding the train and web extras"
quietly "installing the wheel's train and web extras" "$work/venv/bin/pip" install --no-compile "$wheel[train,web]"
"$env121" tournament --vs best mc --vs best-net greedy --deals 1 --seed 1 --quiet --no-plot \
  || fail "the wheel with the train extra: a tournament of best (its shipped value network) and best-net (ppo:scratch) failed"
"$env121" serve --help >/dev/null
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$env121" serve --host 127.0.0.1 --port "$port" --db "$work/web.sqlite" >"$work/serve.log" 2>&1 &
server=$!
for path in / /static/table.js /api/setup; do
  for _ in $(seq 1 600); do  # the server warms its agents up before it listens
    if python3 -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$port$path', timeout=2)" \
      2>/dev/null; then
      continue 2
    fi
    sleep 0.2
  done
  cat "$work/serve.log"
  fail "the web table (the wheel with the web extra) did not answer $path"
done
kill "$server"
server=
site=$("$work/venv/bin/python" -c 'import env121, pathlib; print(pathlib.Path(env121.__file__).parents[1])')
if find "$site"/env121 "$site"/agents "$site"/training -name '*.nb[ic]' | grep -q .; then
  fail "numba cache files were written inside the installed package ($site)"
fi
# A read-only install plays (where this user may make one: root, with mount namespaces).
if [ "$(id -u)" = 0 ] && unshare --mount true 2>/dev/null; then
  unshare --mount sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift &&
    exec "$@"' sh "$site" "$env121" play --seed 1 --agents greedy greedy mc:budget=4 random \
    >/dev/null 2>"$work/readonly.log" \
    || { cat "$work/readonly.log"; fail "the wheel installed read-only: env121 play failed"; }
fi
echo "   ok in $((SECONDS - start)) s"
