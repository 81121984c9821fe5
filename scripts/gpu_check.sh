#!/usr/bin/env bash
# The trainer's speed where the hardware is (issue 31), in one short call on a
# machine with a GPU and many cores: the card and the cores, then
# benchmarks.bench_training on the CPU and on the GPU in the same run (every
# core), the engine alone and the trainer on the GPU at 2, 4, 8 and 16 threads
# (those the machine has), the scratch preset's network at a larger batch, and
# the GPU test. On a machine without a GPU the cuda rows say so and the test
# skips; the rest runs (a short check of the script itself).
#
# Usage, from the repository root:
#   scripts/gpu_check.sh [SECONDS_PER_ROW]        (default 6)
# Logs: one file per part under $OUT (default ./gpu_check). Python: $PYTHON
# (default python3). Wheels in .whl/ (packages the machine lacks) are
# installed into /tmp/site first. numba's cache: $NUMBA_CACHE_DIR (default
# /tmp/env121-numba), so the kernels compile once for all the parts.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-6}
out=${OUT:-gpu_check}
py=${PYTHON:-python3}
mkdir -p "$out"
if [ -d .whl ]; then
    "$py" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target /tmp/site .whl/*.whl || exit 1
    export PYTHONPATH=/tmp/site
fi
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
export NUMBA_CACHE_DIR=${NUMBA_CACHE_DIR:-/tmp/env121-numba}
cores=$(nproc)
counts=$(for n in 2 4 8 16; do if [ "$n" -le "$cores" ]; then printf '%s,' "$n"; fi; done)
counts=${counts%,}
bench() { "$py" -m benchmarks.bench_training --seconds "$seconds" --skip-maskable "$@"; }
status=0
{
    nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv || echo "no nvidia-smi"
    echo "cores: $cores"
    "$py" -c "import torch; print('torch', torch.__version__, 'cuda:', torch.cuda.is_available())"
} 2>&1 | tee "$out/machine.txt"
echo "== CPU and GPU, $cores threads" | tee "$out/cpu_vs_cuda.txt"
bench --devices cpu,cuda --threads "$cores" --profile 14 2>&1 | tee -a "$out/cpu_vs_cuda.txt" || status=1
echo "== the engine alone, the trainer on the CPU and on the GPU, at $counts threads" | tee "$out/threads.txt"
bench --devices cpu,cuda --threads "$counts" --engine-games 4096 2>&1 | tee -a "$out/threads.txt" ||
    status=1
echo "== the scratch network on the GPU, 2048 games, $cores threads" | tee "$out/big_batch.txt"
bench --devices cuda --threads "$cores" --set num_games=2048 --set rollout_steps=32 \
    --set minibatch_size=8192 2>&1 | tee -a "$out/big_batch.txt" || status=1
"$py" -m pytest -q -p no:cacheprovider tests/training/test_hardware.py 2>&1 |
    tee "$out/pytest.txt" || status=1
exit $status
