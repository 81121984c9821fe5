#!/usr/bin/env bash
# Start (or stop) one machine of a Ray cluster for env121: run it on every machine.
#
#   bash examples/ray/start_cluster.sh head   HEAD_IP           # first, on the head machine
#   bash examples/ray/start_cluster.sh worker HEAD_IP [NODE_IP] # then on each other machine
#   bash examples/ray/start_cluster.sh stop                     # on any machine, to leave
#
# HEAD_IP (NODE_IP) is the address the other machines reach this one at, on a
# private network: anyone who can reach Ray's ports can run code on the
# cluster. Every machine needs the same env121 with the ray extra, here:
#   python3 -m venv .venv && .venv/bin/pip install torch==2.13.0 && .venv/bin/pip install -e ".[ray]"
# and the same token: the head writes ~/.ray/auth_token, copy it to each
# worker's ~/.ray/auth_token (or export RAY_AUTH_TOKEN) before starting it.
# NUM_CPUS (default: all) caps the CPUs a machine lends; RAY_PORT is the
# head's port (default 6379). docs/ray.md runs a tournament and a training job.
set -euo pipefail
cd "$(dirname "$0")/../.."
RAY=.venv/bin/ray
PORT="${RAY_PORT:-6379}"
CPUS=()
if [ -n "${NUM_CPUS:-}" ]; then CPUS=(--num-cpus "$NUM_CPUS"); fi
export RAY_AUTH_MODE=token  # every request between the machines carries the shared token

case "${1:-}" in
  head)
    HEAD_IP="${2:?usage: start_cluster.sh head HEAD_IP}"
    "$RAY" get-auth-token --generate >/dev/null  # ~/.ray/auth_token, if there is none yet
    # The dashboard (and with it `ray job submit`) answers on the head's loopback only:
    # reach it through `ssh -L 8265:127.0.0.1:8265 HEAD`.
    "$RAY" start --head --node-ip-address "$HEAD_IP" --port "$PORT" \
      --dashboard-host 127.0.0.1 "${CPUS[@]}"
    echo "head started: on each worker, copy ~/.ray/auth_token, then"
    echo "  bash examples/ray/start_cluster.sh worker $HEAD_IP"
    ;;
  worker)
    HEAD_IP="${2:?usage: start_cluster.sh worker HEAD_IP [NODE_IP]}"
    NODE=()
    if [ -n "${3:-}" ]; then NODE=(--node-ip-address "$3"); fi
    "$RAY" start --address "$HEAD_IP:$PORT" "${NODE[@]}" "${CPUS[@]}"
    ;;
  stop)
    "$RAY" stop
    ;;
  *)
    sed -n '2,15p' "$0" >&2
    exit 2
    ;;
esac
