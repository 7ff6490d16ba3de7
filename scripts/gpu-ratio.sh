#!/usr/bin/env bash
# The GPU kernel's figure without a GPU: `queens count N --engine gpu` on a software adapter
# (Mesa's lavapipe, which runs the WGSL on the CPU's SIMD lanes, so loop trips and divergence
# cost there too) against `queens count N --engine backtracking --threads 1` on the same
# machine, run in turns, as a ratio of medians. Lower is better; a change to the kernel
# reports it before and after.
#
#   scripts/gpu-ratio.sh [ROUNDS] [N]            # 5 rounds of N = 15 by default
#   QUEENS_BIN=path/to/queens scripts/gpu-ratio.sh   # a binary already built
#   BEFORE_BIN=path/to/old/queens scripts/gpu-ratio.sh  # and an older build, interleaved
#
# lavapipe uses every core, so a busy machine inflates the ratio: compare figures of one run.
# Needs the Vulkan loader and Mesa's drivers (libvulkan1 mesa-vulkan-drivers).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
n=${2:-15}
bin=${QUEENS_BIN:-target/release/queens}
if [ -z "${QUEENS_BIN:-}" ]; then
  cargo build --release --quiet -p queens-cli
fi
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then
  XDG_RUNTIME_DIR=$(mktemp -d)
  export XDG_RUNTIME_DIR
fi
# The first software adapter's index, from `queens devices --json`.
software() {
  "$1" devices --json | python3 -c '
import json, sys
found = [d["index"] for d in json.load(sys.stdin)["devices"] if d["type"] == "software"]
if not found:
    sys.exit("no software adapter: install mesa-vulkan-drivers")
print(found[0])'
}
device=$(software "$bin")
# Seconds of one count, from its JSON's elapsed_ms, checked complete.
seconds() {
  "$@" --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["complete"], d
print(d["elapsed_ms"] / 1000)'
}
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
builds=("now:$bin")
if [ -n "${BEFORE_BIN:-}" ]; then
  builds+=("before:$BEFORE_BIN")
fi
declare -A gpu cpu
for round in $(seq "$rounds"); do
  for build in "${builds[@]}"; do
    name=${build%%:*}
    path=${build#*:}
    g=$(seconds "$path" count "$n" --engine gpu --device "$device")
    c=$(seconds "$path" count "$n" --engine backtracking --threads 1)
    gpu[$name]+="$g "
    cpu[$name]+="$c "
    printf 'round %s %-6s gpu %8.3f s  backtracking %7.3f s  ratio %6.1f\n' \
      "$round" "$name" "$g" "$c" "$(echo "$g / $c" | bc -l)"
  done
done
for build in "${builds[@]}"; do
  name=${build%%:*}
  g=$(tr ' ' '\n' <<<"${gpu[$name]}" | grep . | median)
  c=$(tr ' ' '\n' <<<"${cpu[$name]}" | grep . | median)
  printf '%-6s N = %s, median of %s: gpu %.3f s, backtracking (1 thread) %.3f s, ratio %.1f\n' \
    "$name" "$n" "$rounds" "$g" "$c" "$(echo "$g / $c" | bc -l)"
done
