#!/usr/bin/env bash
# Where a GPU's time goes, in one run on the device: the engine's kernel beside the fastest
# public loop written in WGSL (the `reference_loop` example) on the same path, and beside that
# loop's CUDA original when its source is given. Each count is checked against OEIS by the
# program that makes it.
#
#   scripts/gpu-compare.sh [N]                 # N = 20 by default
#   YGCH_SRC=path/to/ygch/n_queens/src scripts/gpu-compare.sh 20   # with the CUDA original
#   GPU_BENCH_BIN=... REFERENCE_LOOP_BIN=... KERNEL_ISA_BIN=... scripts/gpu-compare.sh
#   GPU_DEVICE=0 scripts/gpu-compare.sh 12     # adapter 0 (say, lavapipe) instead of the first GPU
#
# In order: each program's pipeline statistics on the device (`kernel_isa --native`: registers
# a thread, spills, where the driver gives them); then, in two rounds, the engine's count (as it
# runs by default on a GPU, timing its stacks' two placements in its first dispatches and
# keeping the faster, then in each alone), the reference loop alone, counted and with the
# engine's budget test, and the CUDA original (built with nvcc for the device's architecture,
# run as `n_queens N 6`, its README's setting); then both of ours over workgroup sizes (and the
# engine over invocations a dispatch), the reference loop with frames of half the size in
# workgroups of twice the invocations, with its top frame in registers and with two searches an
# invocation stepped together (whether a step waits on its load: then a load ahead, or a second
# chain a lane, hides it; the engine's kernel with its top frame in registers too), and both
# with their stacks in a storage buffer (no workgroup memory) in workgroups of up to 1024,
# which show whether the warps a multiprocessor holds bound them (each row's "workgroups at
# once" counts them: the most workgroups the device ran at once, of those launched). If the
# reference loop alone runs as fast a node as the CUDA original, the path (WGSL, naga, the
# driver's compiler) costs nothing and the gap is the kernel's own work; if not, the path is
# the gap. docs/gpu.md reads the figures.
#
# Builds the three examples with cargo unless their binaries are named, for a machine without
# Rust. Needs the Vulkan loader (libvulkan1) and the GPU's driver; the CUDA original needs nvcc.
set -uo pipefail
cd "$(dirname "$0")/.."
n=${1:-20}
if [ -z "${GPU_BENCH_BIN:-}${REFERENCE_LOOP_BIN:-}${KERNEL_ISA_BIN:-}" ]; then
  cargo build --release --quiet -p queens-gpu --examples
fi
examples=target/release/examples
bench=${GPU_BENCH_BIN:-$examples/gpu_bench}
reference=${REFERENCE_LOOP_BIN:-$examples/reference_loop}
isa=${KERNEL_ISA_BIN:-$examples/kernel_isa}
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then
  XDG_RUNTIME_DIR=$(mktemp -d)
  export XDG_RUNTIME_DIR
fi
device=()
if [ -n "${GPU_DEVICE:-}" ]; then
  device=(--device "$GPU_DEVICE")
fi
started=$(date +%s)
section() { echo "## $1 ($(($(date +%s) - started)) s)"; }
# Each program at most LIMIT seconds (180 by default), so that one slow setting leaves time for
# the rest.
limit() { timeout "${LIMIT:-180}" "$@" || echo "(ended: status $?)"; }

section "pipeline statistics on the device"
"$isa" "$n" --native
"$isa" "$n" crates/queens-gpu/examples/reference_loop.wgsl --native

ygch=""
if [ -n "${YGCH_SRC:-}" ]; then
  section "the CUDA original, built"
  arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
  ygch=$(mktemp -d)/n_queens
  (cd "$YGCH_SRC" && nvcc -gencode "arch=compute_$arch,code=sm_$arch" --ptxas-options=-v \
    -allow-unsupported-compiler n_queens_cuda.cu n_queens.cpp utils.cpp main.cpp -o "$ygch" \
    -O3 -Xcompiler -fopenmp -D_USE_CONFIG2_) 2>&1 | grep -E 'ptxas info|error' || true
fi

if [ -n "$ygch" ] && command -v ncu >/dev/null; then
  # What CUDA makes of the original's launch: its registers, shared memory and the blocks a
  # multiprocessor holds, to set beside our "workgroups at once" (a small N: ncu replays).
  section "the CUDA original's occupancy (Nsight Compute, N = 16)"
  limit ncu --clock-control none --section LaunchStats --section Occupancy "$ygch" 16 6 2>&1 |
    grep -vE '^\[|^==PROF==' | tail -40
fi

for round in 1 2; do
  section "round $round: the engine's kernel (its trial of the stacks' placements, then each)"
  limit "$bench" "${device[@]}" --n "$n" --stack trial,workgroup,storage
  section "round $round: the reference loop"
  limit "$reference" "${device[@]}" --n "$n" --form counted,plain,budget
  if [ -n "$ygch" ]; then
    section "round $round: the CUDA original"
    limit "$ygch" "$n" 6
  fi
done

section "the engine's kernel with its top frame in registers (the frame below loaded ahead), in turns"
limit "$bench" "${device[@]}" --n "$n" --stack workgroup --top stack,registers,stack,registers
section "workgroup sizes: the reference loop, counted"
limit "$reference" "${device[@]}" --n "$n" --form counted --workgroup 32,64,128,224
section "the reference loop with frames of 8 bytes, twice the invocations a workgroup"
limit "$reference" "${device[@]}" --n "$n" --form counted --frames compact --workgroup 224,448
section "the reference loop with its top frame in registers, and with two searches an invocation"
limit "$reference" "${device[@]}" --n "$n" --form counted --frames wide,cached,paired --invocations 16,17
section "the reference loop's stack in a storage buffer, which no workgroup's memory bounds"
limit "$reference" "${device[@]}" --n "$n" --form counted --stack storage --workgroup 64,256,1024
section "invocations a dispatch: the engine's kernel (2^15 to 2^17; beside the workgroups at once)"
limit "$bench" "${device[@]}" --n "$n" --stack workgroup --invocations 15,16,17
section "workgroup sizes: the engine's kernel"
limit "$bench" "${device[@]}" --n "$n" --stack workgroup --workgroup 64,128,224
section "the engine's kernel with its stacks in a storage buffer"
limit "$bench" "${device[@]}" --n "$n" --stack storage --workgroup 256,1024 --top stack,registers
section "end"
