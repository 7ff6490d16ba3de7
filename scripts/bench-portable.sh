#!/usr/bin/env bash
# The portable build (the default: baseline x86-64, any CPU of the architecture) against a
# build for this machine's CPU (-C target-cpu=native), side by side in one run, so that the
# ratio compares like with like on a shared machine.
#
#   scripts/bench-portable.sh [ROUNDS]     (default: 7)
#
# Times, in turns, `queens count 16` and `queens count 17` on one thread (the default engine),
# `queens count 16 --engine backtracking` on one thread, and `queens solve 10000000 --solver
# min-conflicts`; prints each binary's median wall time and the portable/native ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-7}
case "$rounds" in *[!0-9]* | "") echo "usage: $0 [ROUNDS]" >&2; exit 2 ;; esac
native_dir=$(mktemp -d)
trap 'rm -rf "$native_dir"' EXIT

cargo build --release --quiet --bin queens
RUSTFLAGS="-C target-cpu=native" CARGO_TARGET_DIR="$native_dir" \
    cargo build --release --quiet --bin queens
portable=target/release/queens
native=$native_dir/release/queens

python3 - "$rounds" "$portable" "$native" <<'EOF'
import statistics, subprocess, sys, time

rounds, portable, native = int(sys.argv[1]), sys.argv[2], sys.argv[3]
cases = [
    ("count 16, 1 thread", ["count", "16", "--threads", "1"]),
    ("count 17, 1 thread", ["count", "17", "--threads", "1"]),
    ("count 16, backtracking, 1 thread", ["count", "16", "--threads", "1", "--engine", "backtracking"]),
    ("min-conflicts N = 10^7", ["solve", "10000000", "--solver", "min-conflicts", "--format", "summary"]),
]
print(f"{'case':36} {'native s':>9} {'portable s':>11} {'portable/native':>16}")
for name, args in cases:
    times = {portable: [], native: []}
    for _ in range(rounds):
        for binary in (native, portable):
            started = time.perf_counter()
            subprocess.run([binary, *args], check=True, capture_output=True)
            times[binary].append(time.perf_counter() - started)
    n, p = statistics.median(times[native]), statistics.median(times[portable])
    print(f"{name:36} {n:9.3f} {p:11.3f} {p / n:16.3f}")
EOF
