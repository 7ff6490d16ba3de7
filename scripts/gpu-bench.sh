#!/usr/bin/env bash
# The GPU counting engine's figures as they stand: N = 16 to 22 on the GPU a count takes (the
# one a job scheduler assigned, else the first hardware GPU; or --device I), each count checked
# against OEIS, with its rates in items and nodes per second, the share of the GPU's 32-bit
# integer throughput, the longest dispatch, the share of the time in dispatches and the
# device's wait between them, and a projection for N = 26 to 28 on one and eight GPUs. Extra
# options go to the benchmark (see crates/queens-gpu/examples/gpu_bench.rs): --n 16..22,
# --depth 6,7, --workgroup 64,128, --stack trial,workgroup,storage, --top trial,stack,registers,
# --trial-rounds R, --invocations 16,17, --checked no,yes, --device I, --peak-tops T.
#
# BEFORE_BIN names an older build of the benchmark (say, of the kernel before a change): the two
# run in turns, ROUNDS rounds (2 by default), each labelled, so that both see the same machine.
#
# Needs the Vulkan loader (libvulkan1) and the GPU's driver. Builds the benchmark with cargo
# unless GPU_BENCH_BIN names one already built (`cargo build --release -p queens-gpu --example
# gpu_bench` puts it in target/release/examples/gpu_bench), for a machine without Rust.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${GPU_BENCH_BIN:-target/release/examples/gpu_bench}
if [ -z "${GPU_BENCH_BIN:-}" ]; then
  cargo build --release --quiet -p queens-gpu --example gpu_bench
fi
# Mesa's drivers print a warning without a runtime directory; give them one.
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then
  XDG_RUNTIME_DIR=$(mktemp -d)
  export XDG_RUNTIME_DIR
fi
if [ $# -eq 0 ]; then
  set -- --n 16..22
fi
if [ -n "${BEFORE_BIN:-}" ]; then
  for round in $(seq "${ROUNDS:-2}"); do
    echo "## before ($BEFORE_BIN), round $round"
    "$BEFORE_BIN" "$@"
    echo "## now ($bin), round $round"
    "$bin" "$@"
  done
  exit 0
fi
exec "$bin" "$@"
