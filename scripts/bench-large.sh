#!/usr/bin/env bash
# Side-by-side benchmark of one solution for a large N: `queens solve --solver min-conflicts`
# against a C QS4-style program with 1-byte counters (scripts/reference/qs4.c, gcc -O2), in one
# run on this machine; then the construction streamed to a file.
#
#   scripts/bench-large.sh [N] [REPEATS]      (defaults: N = 10000000, best of 3)
#
# Prints the best wall time of each, the ratio queens/C and the peak memory per queen (when GNU
# time is installed). Needs gcc.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-10000000}
repeats=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --release --quiet --bin queens
gcc -O2 -o "$work/qs4" scripts/reference/qs4.c
queens=target/release/queens
gnu_time=$(command -v /usr/bin/time || true)

# run SEED CMD...: prints "microseconds peak_kib" for one run (peak 0 without GNU time).
run() {
    local seed=$1 start end kib=0
    shift
    start=$(date +%s%N)
    if [[ -n "$gnu_time" ]]; then
        kib=$("$gnu_time" -f %M "$@" "$seed" 2>&1 >/dev/null | tail -1)
    else
        "$@" "$seed" >/dev/null
    fi
    end=$(date +%s%N)
    echo "$(( (end - start) / 1000 )) $kib"
}

# The two programs take turns, seed by seed, so that the machine's drift hits both alike; the
# best time of each is kept.
c_us="" q_us=""
for seed in $(seq "$repeats"); do
    read -r us kib < <(run "$seed" "$work/qs4" "$n")
    if [[ -z "$c_us" || "$us" -lt "$c_us" ]]; then c_us=$us; c_kib=$kib; fi
    read -r us kib < <(run "$seed" "$queens" solve "$n" --solver min-conflicts --format summary --seed)
    if [[ -z "$q_us" || "$us" -lt "$q_us" ]]; then q_us=$us; q_kib=$kib; fi
done
awk -v n="$n" -v r="$repeats" -v c="$c_us" -v ck="$c_kib" -v q="$q_us" -v qk="$q_kib" 'BEGIN {
    printf "N = %d, best of %d (interleaved), wall time (peak memory per queen):\n", n, r
    printf "  %-36s %8.3f s  (%.1f B/queen)\n", "C QS4, 1-byte counters (gcc -O2)", c / 1e6, ck * 1024 / n
    printf "  %-36s %8.3f s  (%.1f B/queen)   ratio %.3f\n", "queens solve --solver min-conflicts", q / 1e6, qk * 1024 / n, q / c
}'
start=$(date +%s%N)
"$queens" solve "$n" --solver construct --format perm --output "$work/construct.perm"
end=$(date +%s%N)
printf '  %-36s %8.3f s  (%s bytes written)\n' "queens construct --format perm -o FILE" \
    "$(awk -v t=$(( (end - start) / 1000 )) 'BEGIN { print t / 1e6 }')" "$(stat -c %s "$work/construct.perm")"
