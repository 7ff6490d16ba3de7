#!/usr/bin/env bash
# Stops from the first instant, at a large N: `queens solve N --solver min-conflicts` with
# `--time-limit 2`, and again sent Ctrl-C (SIGINT) 1.5 s in. Prints each run's wall time and
# its last line, and fails if a run outlives its stop by a second or more.
#
#   scripts/stop-large.sh            (N = 10⁹: about 4.5 GB asked for, a few seconds)
#   scripts/stop-large.sh 100000000
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000000000}
cargo build --release --quiet --bin queens
queens=target/release/queens
status=0

# report NAME START_NS DEADLINE_MS OUTPUT: the wall time, and whether it kept to DEADLINE_MS + 1 s.
report() {
    local ms=$(( ($(date +%s%N) - $2) / 1000000 ))
    printf '%-22s %6d ms   %s\n' "$1" "$ms" "$(tail -1 "$4")"
    if (( ms >= $3 + 1000 )); then
        echo "  took more than a second past its stop" >&2
        status=1
    fi
}

out=$(mktemp)
trap 'rm -f "$out"' EXIT

start=$(date +%s%N)
"$queens" solve "$n" --solver min-conflicts --format summary --progress never --time-limit 2 >"$out" 2>&1 || true
report "--time-limit 2" "$start" 2000 "$out"

start=$(date +%s%N)
"$queens" solve "$n" --solver min-conflicts --format summary --progress never >"$out" 2>&1 &
pid=$!
sleep 1.5
kill -INT "$pid"
wait "$pid" || true
report "SIGINT at 1.5 s" "$start" 1500 "$out"
exit "$status"
